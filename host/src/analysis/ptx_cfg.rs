//! The control-flow graph of every function of a PTX module, and the check that no `.aligned`
//! barrier is reached from two paths.
//!
//! PTX ISA §9.7.13.1 (`bar`, `barrier`): with `.aligned` (which `bar.sync`, `bar.arrive` and
//! `bar.red` imply), "all threads in a warp must execute the same barrier instruction"; §9.7.13.3
//! says the same of `barrier.cluster.*.aligned`. rustc's inline asm is not `convergent`, so LLVM
//! may tail-duplicate a barrier call into both arms of a branch: two instructions, and a warp
//! split between the arms executes the barrier at two different ones — undefined behaviour.
//! [`duplicated`] reports two `.aligned` barrier instructions of the same kind where neither
//! dominates the other (so some execution reaches one without passing the other: the duplicated
//! shape). The non-aligned `barrier.sync` / `barrier.arrive` forms are defined when duplicated.
//!
//! Used by `tests/barriers.rs` (the library's kernels) and by `ptx-sync show --ptx` (any PTX).

use std::collections::{BTreeMap, BTreeSet};

/// Whether `mnemonic` is an `.aligned` barrier, and its kind (the key two copies share).
///
/// ```
/// use ptx_sync_host::ptx_cfg::aligned_barrier;
/// assert_eq!(aligned_barrier("bar.warp.sync"), None);
/// assert_eq!(aligned_barrier("bar.cta.sync").as_deref(), Some("barrier.sync.aligned"));
/// assert_eq!(aligned_barrier("barrier.sync"), None);
/// ```
pub fn aligned_barrier(mnemonic: &str) -> Option<String> {
    if let Some(rest) = mnemonic.strip_prefix("bar.") {
        // bar{.cta}.sync ≡ barrier.sync.aligned, bar.arrive, bar.red.* — not bar.warp.sync.
        let rest = rest.trim_start_matches("cta.");
        if rest.starts_with("warp.") {
            return None;
        }
        return Some(format!("barrier.{rest}.aligned"));
    }
    if mnemonic.starts_with("barrier.") && mnemonic.split('.').any(|t| t == "aligned") {
        return Some(mnemonic.replace("barrier.cta.", "barrier."));
    }
    None
}

/// A basic block: its successors (block indices; `blocks.len()` stands for the function's end).
#[derive(Clone, Debug, Default)]
pub struct Block {
    /// The successor blocks (`blocks.len()` is the function's end).
    pub succ: Vec<usize>,
}

/// One instruction of a function.
#[derive(Clone, Debug)]
pub struct Ins {
    /// 1-based line in the module where the instruction starts.
    pub line: usize,
    /// The guard predicate without `@` (`"%p1"`, `"!%p1"`).
    pub pred: Option<String>,
    /// The opcode with its modifiers (`"ld.acquire.gpu.global.u32"`).
    pub op: String,
    /// The operands as written, split at top-level commas.
    pub args: Vec<String>,
    /// The statement as written (without `;`).
    pub text: String,
    /// Its block, and its position in the block (1-based, counting labels and scopes).
    pub block: usize,
    /// Its 1-based position in that block (labels and scopes count).
    pub pos: usize,
}

/// An `.aligned` barrier instruction: its kind ([`aligned_barrier`]) and index in [`Func::ins`].
#[derive(Clone, Debug)]
pub struct Barrier {
    /// The barrier kind, as [`aligned_barrier`] names it (e.g. `"barrier.sync.aligned"`).
    pub kind: String,
    /// Its index in [`Func::ins`].
    pub ins: usize,
}

/// One `.entry` or `.func` of a module.
#[derive(Clone, Debug)]
pub struct Func {
    /// The function's name.
    pub name: String,
    /// `.entry` (a kernel) or `.func`.
    pub entry: bool,
    /// The line of its `.entry`/`.func` keyword.
    pub line: usize,
    /// Its basic blocks, in text order (block 0 is the entry).
    pub blocks: Vec<Block>,
    /// Its instructions, in text order.
    pub ins: Vec<Ins>,
    /// Its `.aligned` barrier instructions.
    pub barriers: Vec<Barrier>,
}

/// A statement of a body (labels and inline-asm scopes included).
#[derive(Debug)]
enum St {
    Open,
    Close,
    Label(String),
    Ins(String, usize),
}

/// Removes `//` and `/* */` comments, keeping every newline (so line numbers stay).
fn strip_comments(ptx: &str) -> String {
    let mut out = String::with_capacity(ptx.len());
    let b: Vec<char> = ptx.chars().collect();
    let mut i = 0;
    while i < b.len() {
        if b[i] == '/' && b.get(i + 1) == Some(&'/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if b[i] == '/' && b.get(i + 1) == Some(&'*') {
            i += 2;
            while i < b.len() && !(b[i] == '*' && b.get(i + 1) == Some(&'/')) {
                if b[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

fn is_ident(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '%')
        && !s.starts_with(|c: char| c.is_ascii_digit())
}

/// The function name of a header (`.visible .entry k(`, `.func (.param .b32 r) f(`).
fn header_name(header: &str) -> Option<(String, bool)> {
    let toks: Vec<&str> = header.split_whitespace().collect();
    let entry = toks
        .iter()
        .any(|t| *t == ".entry" || t.starts_with(".entry("));
    let func = toks
        .iter()
        .any(|t| *t == ".func" || t.starts_with(".func("));
    if !entry && !func {
        return None;
    }
    let kw = if entry { ".entry" } else { ".func" };
    let k = header.find(kw)?;
    let mut rest = header[k + kw.len()..].trim_start();
    if rest.starts_with('(') {
        // The return parameters of a `.func`.
        let mut depth = 0;
        for (i, c) in rest.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        rest = rest[i + 1..].trim_start();
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    let end = rest
        .find(|c: char| c == '(' || c.is_whitespace())
        .unwrap_or(rest.len());
    let name = rest[..end].trim();
    (!name.is_empty()).then(|| (name.to_string(), entry))
}

/// Every `.entry` and `.func` with a body, in module order.
pub fn functions(ptx: &str) -> Vec<Func> {
    let text = strip_comments(ptx);
    let mut out = Vec::new();
    let mut header = String::new();
    let mut header_line = 1usize;
    let mut line = 1usize;
    let mut depth = 0usize;
    let mut cur: Option<(String, bool, usize)> = None;
    let mut sts: Vec<St> = Vec::new();
    let mut stmt = String::new();
    let mut stmt_line = 0usize;
    for c in text.chars() {
        if c == '\n' {
            line += 1;
        }
        if depth == 0 {
            match c {
                '{' => {
                    cur = header_name(&header).map(|(n, e)| {
                        let kw = if e { ".entry" } else { ".func" };
                        let k = header.find(kw).unwrap_or(0);
                        (n, e, header_line + header[..k].matches('\n').count())
                    });
                    header.clear();
                    depth = 1;
                    sts.clear();
                    stmt.clear();
                }
                ';' => header.clear(),
                _ => {
                    if header.is_empty() {
                        if c.is_whitespace() {
                            continue;
                        }
                        header_line = line;
                    }
                    header.push(c);
                }
            }
            continue;
        }
        // `{`/`}` open and close a scope only between statements: inside one they are a vector
        // operand (`{%r1, %r2}`).
        let between = stmt.trim().is_empty();
        match c {
            '{' if between => {
                sts.push(St::Open);
                depth += 1;
                stmt.clear();
            }
            '}' if between => {
                depth -= 1;
                stmt.clear();
                if depth == 0 {
                    if let Some((name, entry, l)) = cur.take() {
                        out.push(build(name, entry, l, &sts));
                    }
                } else {
                    sts.push(St::Close);
                }
            }
            ';' => {
                let s = stmt.trim();
                if !s.is_empty() {
                    sts.push(St::Ins(s.to_string(), stmt_line));
                }
                stmt.clear();
            }
            ':' if is_ident(stmt.trim()) => {
                sts.push(St::Label(stmt.trim().to_string()));
                stmt.clear();
            }
            _ => {
                if stmt.trim().is_empty() && !c.is_whitespace() {
                    stmt_line = line;
                }
                stmt.push(c);
            }
        }
    }
    out
}

/// Splits operands at top-level commas (`{%r1, %r2}` and `[a+4]` stay whole).
fn split_args(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// (predicate, opcode, operands) of a statement.
type Parsed = (Option<String>, String, Vec<String>);

fn parse_ins(s: &str) -> Parsed {
    let s = s.trim();
    let (pred, rest) = match s.strip_prefix('@') {
        Some(p) => {
            let sp = p.find(char::is_whitespace).unwrap_or(p.len());
            (Some(p[..sp].to_string()), p[sp..].trim_start())
        }
        None => (None, s),
    };
    let sp = rest.find(char::is_whitespace).unwrap_or(rest.len());
    (pred, rest[..sp].to_string(), split_args(&rest[sp..]))
}

fn is_end(op: &str) -> bool {
    op == "ret" || op == "exit" || op == "trap" || op.starts_with("ret.")
}

fn build(name: String, entry: bool, line: usize, sts: &[St]) -> Func {
    // Pass 1: every label's scope; `{`/`}` open and close scopes (inline asm blocks have their
    // own labels).
    let mut scope: Vec<usize> = vec![];
    let mut next_scope = 0usize;
    let mut label_key: BTreeMap<(usize, String), usize> = BTreeMap::new(); // -> statement index
    let mut scopes_at: Vec<Vec<usize>> = Vec::new();
    for (i, s) in sts.iter().enumerate() {
        match s {
            St::Open => {
                scope.push(next_scope);
                next_scope += 1;
            }
            St::Close => {
                scope.pop();
            }
            St::Label(l) => {
                label_key.insert((*scope.last().unwrap_or(&usize::MAX), l.clone()), i);
            }
            St::Ins(..) => {}
        }
        scopes_at.push(scope.clone());
    }
    let parsed: Vec<Option<Parsed>> = sts
        .iter()
        .map(|s| match s {
            St::Ins(t, _) => Some(parse_ins(t)),
            _ => None,
        })
        .collect();
    // Block leaders: statement 0, every label, every statement after a branch/ret/exit.
    let mut leader = vec![false; sts.len() + 1];
    leader[0] = true;
    for (i, s) in sts.iter().enumerate() {
        match s {
            St::Label(_) => leader[i] = true,
            St::Ins(..) => {
                let op = &parsed[i].as_ref().unwrap().1;
                if op.starts_with("bra") || is_end(op) {
                    leader[i + 1] = true;
                }
            }
            _ => {}
        }
    }
    let mut block_of = vec![0usize; sts.len() + 1];
    let mut nb = 0usize;
    for i in 0..sts.len() {
        if leader[i] && i > 0 {
            nb += 1;
        }
        block_of[i] = nb;
    }
    block_of[sts.len()] = nb + 1;
    let mut blocks: Vec<Block> = (0..=nb).map(|_| Block::default()).collect();
    let mut ins = Vec::new();
    let mut barriers = Vec::new();
    let mut pos_in_block = 0usize;
    for (i, s) in sts.iter().enumerate() {
        if leader[i] {
            pos_in_block = 0;
        }
        pos_in_block += 1;
        let b = block_of[i];
        let falls_through = i + 1 < sts.len() && block_of[i + 1] != b;
        let St::Ins(text, l) = s else {
            if falls_through {
                blocks[b].succ.push(b + 1);
            }
            continue;
        };
        let (pred, op, args) = parsed[i].clone().unwrap();
        if let Some(kind) = aligned_barrier(&op) {
            barriers.push(Barrier {
                kind,
                ins: ins.len(),
            });
        }
        if op.starts_with("bra") {
            let t = args.first().cloned().unwrap_or_default();
            let key = scopes_at[i]
                .iter()
                .rev()
                .chain(std::iter::once(&usize::MAX))
                .find_map(|s| label_key.get(&(*s, t.clone())));
            if let Some(key) = key {
                blocks[b].succ.push(block_of[*key]);
            }
            if pred.is_some() && falls_through {
                blocks[b].succ.push(b + 1);
            }
        } else if is_end(&op) {
            if pred.is_some() && falls_through {
                blocks[b].succ.push(b + 1);
            }
        } else if falls_through {
            blocks[b].succ.push(b + 1);
        }
        ins.push(Ins {
            line: *l,
            pred,
            op,
            args,
            text: text.clone(),
            block: b,
            pos: pos_in_block,
        });
    }
    Func {
        name,
        entry,
        line,
        blocks,
        ins,
        barriers,
    }
}

impl Func {
    /// `preds[b]`: the blocks with an edge to b.
    pub fn preds(&self) -> Vec<Vec<usize>> {
        let n = self.blocks.len();
        let mut preds = vec![vec![]; n];
        for (b, bl) in self.blocks.iter().enumerate() {
            for &s in &bl.succ {
                if s < n {
                    preds[s].push(b);
                }
            }
        }
        preds
    }

    /// `dom[b]`: the blocks that dominate b (iterative data flow from block 0).
    pub fn dominators(&self) -> Vec<BTreeSet<usize>> {
        let n = self.blocks.len();
        let preds = self.preds();
        let all: BTreeSet<usize> = (0..n).collect();
        let mut dom = vec![all.clone(); n];
        dom[0] = [0].into();
        let mut changed = true;
        while changed {
            changed = false;
            for b in 1..n {
                let mut d = preds[b]
                    .iter()
                    .map(|p| dom[*p].clone())
                    .reduce(|a, x| a.intersection(&x).copied().collect())
                    .unwrap_or_default();
                d.insert(b);
                if d != dom[b] {
                    dom[b] = d;
                    changed = true;
                }
            }
        }
        dom
    }

    /// Whether each block is reachable from the entry.
    pub fn reachable(&self) -> Vec<bool> {
        let mut seen = vec![false; self.blocks.len()];
        let mut stack = vec![0usize];
        while let Some(b) = stack.pop() {
            if b < seen.len() && !seen[b] {
                seen[b] = true;
                stack.extend(&self.blocks[b].succ);
            }
        }
        seen
    }

    /// The instructions of block `b`, in order.
    pub fn block_ins(&self, b: usize) -> impl Iterator<Item = (usize, &Ins)> {
        self.ins
            .iter()
            .enumerate()
            .filter(move |(_, i)| i.block == b)
    }
}

/// Pairs of same-kind aligned barriers (indices into [`Func::ins`]) of which neither dominates the
/// other (reachable ones).
pub fn duplicated(f: &Func) -> Vec<(usize, usize)> {
    let dom = f.dominators();
    let seen = f.reachable();
    let dominates = |a: &Ins, b: &Ins| {
        if a.block == b.block {
            a.pos <= b.pos
        } else {
            dom[b.block].contains(&a.block)
        }
    };
    let mut out = Vec::new();
    for (i, a) in f.barriers.iter().enumerate() {
        for b in &f.barriers[i + 1..] {
            let (x, y) = (&f.ins[a.ins], &f.ins[b.ins]);
            if a.kind == b.kind
                && seen[x.block]
                && seen[y.block]
                && !dominates(x, y)
                && !dominates(y, x)
            {
                out.push((a.ins, b.ins));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_lines_and_func_headers() {
        let ptx = ".version 8.6\n.target sm_90\n// a comment { ; }\n.extern .func ext(.param .b32 a);\n.func (.param .b32 r) f(.param .b32 a)\n{\n\tret;\n}\n.visible .entry k(\n.param .u64 p\n)\n.maxntid 128, 1, 1\n{\nL1:\n  ld.relaxed.gpu.u32 %r1, [%rd1+4];\n  @%p1 bra L1;\n  mov.b64 %rd2, {%r1, %r2};\n  { .reg .b32 t; }\n  ret;\n}\n";
        let fs = functions(ptx);
        assert_eq!(fs.len(), 2);
        assert_eq!(
            (fs[0].name.as_str(), fs[0].entry, fs[0].line),
            ("f", false, 5)
        );
        assert_eq!(
            (fs[1].name.as_str(), fs[1].entry, fs[1].line),
            ("k", true, 9)
        );
        let k = &fs[1];
        assert_eq!(k.ins[0].line, 15);
        assert_eq!(k.ins[0].args, ["%r1", "[%rd1+4]"]);
        assert_eq!(k.ins[1].pred.as_deref(), Some("%p1"));
        assert!(k.blocks[k.ins[1].block].succ.contains(&k.ins[0].block));
        // A vector operand is no scope.
        assert_eq!(k.ins[2].args, ["%rd2", "{%r1, %r2}"]);
        assert_eq!(k.ins.last().unwrap().op, "ret");
    }
}
