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

use ptx_sync_model::ptx::module::strip_comments;
use std::collections::BTreeMap;

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

/// A basic block: its successors and its instructions.
#[derive(Clone, Debug, Default)]
pub struct Block {
    /// The successor blocks (`blocks.len()` is the function's end).
    pub succ: Vec<usize>,
    /// Its instructions: a range of [`Func::ins`] (blocks and instructions are both in text
    /// order, so each block's instructions are contiguous; a block of labels only is empty).
    pub ins: std::ops::Range<usize>,
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

/// The variables a module declares and their state spaces: name → `"shared"`, `"global"`,
/// `"const"` or `"local"` (`.shared .align 8 .b64 bar;`, `.extern .shared .b8 dyn[];`,
/// `.global .u32 tbl[4] = {…};`, and the same inside a function body).
///
/// ```
/// let s = ptx_sync_host::ptx_cfg::module_symbols(
///     ".shared .align 8 .b64 full_bar;\n.global .u32 tbl[2] = {1, 2};\n.visible .entry k()\n{\n\tret;\n}\n",
/// );
/// assert_eq!(s["full_bar"], "shared");
/// assert_eq!(s["tbl"], "global");
/// ```
pub fn module_symbols(ptx: &str) -> BTreeMap<String, String> {
    let text = strip_comments(ptx);
    let mut out = BTreeMap::new();
    for st in text.split(';') {
        let st = st.split('=').next().unwrap_or(st);
        let st = st.rsplit(['{', '}']).next().unwrap_or(st);
        let toks: Vec<&str> = st.split_whitespace().collect();
        let Some(name) = toks.last() else { continue };
        if !toks[..toks.len() - 1]
            .iter()
            .all(|t| t.starts_with('.') || t.parse::<u64>().is_ok())
        {
            continue;
        }
        let space = toks.iter().find_map(|t| match *t {
            ".shared" => Some("shared"),
            ".global" => Some("global"),
            ".const" => Some("const"),
            ".local" => Some("local"),
            _ => None,
        });
        let name = name.split('[').next().unwrap_or(name);
        if let (Some(space), true) = (space, is_ident(name)) {
            out.insert(name.to_string(), space.to_string());
        }
    }
    out
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

/// The register names of a `.reg` declaration's tail (`.b64 t1, t2` → `t1`, `t2`); a
/// parameterized `%r<4>` declares `%r0`…`%r3` (at most 256 of them: inline-asm blocks declare
/// a few named temporaries).
fn declared_regs(decl: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in decl.split(',') {
        let Some(name) = part.split_whitespace().rfind(|t| !t.starts_with('.')) else {
            continue;
        };
        match name.split_once('<') {
            Some((base, n)) => {
                let n: usize = n.trim_end_matches('>').trim().parse().unwrap_or(0);
                out.extend((0..n.min(256)).map(|k| format!("{base}{k}")));
            }
            None => out.push(name.to_string()),
        }
    }
    out
}

/// `s` with every identifier that `lookup` knows replaced by its new name (an identifier after
/// a `.`, such as a vector component `%r1.x`, is left alone).
fn rename_regs(s: &str, lookup: &impl Fn(&str) -> Option<String>) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        let starts = c.is_ascii_alphabetic() || c == '_' || c == '$' || c == '%';
        if starts || c.is_ascii_digit() {
            let mut j = i + 1;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] == b'$') {
                j += 1;
            }
            let tok = &s[i..j];
            let after_dot = i > 0 && b[i - 1] == b'.';
            match (starts && !after_dot).then(|| lookup(tok)).flatten() {
                Some(new) => out.push_str(&new),
                None => out.push_str(tok),
            }
            i = j;
        } else {
            // Non-ASCII text is copied whole (one char at a time).
            let ch = s[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

fn build(name: String, entry: bool, line: usize, sts: &[St]) -> Func {
    // Pass 1: every label's scope; `{`/`}` open and close scopes (inline asm blocks have their
    // own labels).
    let mut scope: Vec<usize> = vec![];
    let mut next_scope = 0usize;
    let mut label_key: BTreeMap<(usize, String), usize> = BTreeMap::new(); // -> statement index
    let mut scopes_at: Vec<Vec<usize>> = Vec::new();
    // Registers declared inside a scope (`{ .reg .b64 t; … }`): (scope, name) -> its new name.
    let mut scoped_regs: BTreeMap<(usize, String), String> = BTreeMap::new();
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
            St::Ins(t, _) => {
                if let (Some(&sc), Some(decl)) = (scope.last(), t.trim().strip_prefix(".reg")) {
                    for name in declared_regs(decl) {
                        let new = format!("%{}@{sc}", name.trim_start_matches('%'));
                        scoped_regs.insert((sc, name), new);
                    }
                }
            }
        }
        scopes_at.push(scope.clone());
    }
    let parsed: Vec<Option<Parsed>> = sts
        .iter()
        .enumerate()
        .map(|(i, s)| match s {
            St::Ins(t, _) => {
                let (pred, op, args) = parse_ins(t);
                if scoped_regs.is_empty() || op == ".reg" {
                    return Some((pred, op, args));
                }
                let lookup = |name: &str| {
                    scopes_at[i]
                        .iter()
                        .rev()
                        .find_map(|sc| scoped_regs.get(&(*sc, name.to_string())))
                        .cloned()
                };
                let pred = pred.map(|p| rename_regs(&p, &lookup));
                let args = args.iter().map(|a| rename_regs(a, &lookup)).collect();
                Some((pred, op, args))
            }
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
        if blocks[b].ins.is_empty() {
            blocks[b].ins = ins.len()..ins.len();
        }
        blocks[b].ins.end = ins.len() + 1;
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

    /// The dominator tree from block 0 ([`DomTree`]).
    pub fn dom_tree(&self) -> DomTree {
        DomTree::new(self)
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

    /// The instructions of block `b`, in order, with their indices in [`Func::ins`].
    pub fn block_ins(&self, b: usize) -> impl Iterator<Item = (usize, &Ins)> {
        let r = self.blocks.get(b).map_or(0..0, |bl| bl.ins.clone());
        self.ins[r.clone()]
            .iter()
            .enumerate()
            .map(move |(k, i)| (r.start + k, i))
    }
}

/// The dominator tree of a function's blocks (block 0 is the root).
///
/// Built with the Cooper–Harvey–Kennedy iteration ("A Simple, Fast Dominance Algorithm", 2001)
/// over a reverse postorder: each pass is linear in the edges, and a reducible graph — what
/// LLVM emits — settles in two or three passes, so the whole is near-linear, and memory is one
/// immediate dominator per block (the former set-per-block data flow was quadratic in both).
/// The tree is then numbered by a depth-first walk, so that "a dominates b" is two comparisons.
#[derive(Clone, Debug)]
pub struct DomTree {
    rpo: Vec<usize>,
    idom: Vec<usize>,
    pre: Vec<usize>,
    post: Vec<usize>,
}

/// `idom` / `pre` of a block that the entry does not reach.
const NONE: usize = usize::MAX;

impl DomTree {
    fn new(f: &Func) -> DomTree {
        let n = f.blocks.len();
        let succ = |b: usize| f.blocks[b].succ.iter().copied().filter(move |&s| s < n);
        // Reverse postorder by an iterative depth-first walk.
        let mut order = Vec::with_capacity(n); // postorder
        let mut state = vec![0u8; n]; // 0 new, 1 on the stack, 2 done
        if n > 0 {
            let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
            state[0] = 1;
            while let Some((b, k)) = stack.last_mut() {
                let (b, k0) = (*b, *k);
                match succ(b).nth(k0) {
                    Some(s) => {
                        *k += 1;
                        if state[s] == 0 {
                            state[s] = 1;
                            stack.push((s, 0));
                        }
                    }
                    None => {
                        state[b] = 2;
                        order.push(b);
                        stack.pop();
                    }
                }
            }
        }
        let mut rpo_num = vec![NONE; n];
        for (k, &b) in order.iter().rev().enumerate() {
            rpo_num[b] = k;
        }
        let mut preds = vec![vec![]; n];
        for &b in &order {
            for s in succ(b) {
                preds[s].push(b);
            }
        }
        let mut idom = vec![NONE; n];
        if n > 0 {
            idom[0] = 0;
        }
        let intersect = |idom: &[usize], mut a: usize, mut b: usize| {
            while a != b {
                while rpo_num[a] > rpo_num[b] {
                    a = idom[a];
                }
                while rpo_num[b] > rpo_num[a] {
                    b = idom[b];
                }
            }
            a
        };
        let mut changed = true;
        while changed {
            changed = false;
            for &b in order.iter().rev().skip(1) {
                let mut new = NONE;
                for &p in &preds[b] {
                    if idom[p] == NONE {
                        continue;
                    }
                    new = if new == NONE {
                        p
                    } else {
                        intersect(&idom, p, new)
                    };
                }
                if new != idom[b] {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        // Number the tree: pre/post order of a depth-first walk over the children.
        let mut children = vec![vec![]; n];
        for b in 1..n {
            if idom[b] != NONE && b != idom[b] {
                children[idom[b]].push(b);
            }
        }
        let (mut pre, mut post) = (vec![NONE; n], vec![NONE; n]);
        if n > 0 {
            let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
            pre[0] = 0;
            let mut clock = 1;
            while let Some((b, k)) = stack.last_mut() {
                let b = *b;
                if let Some(&c) = children[b].get(*k) {
                    *k += 1;
                    pre[c] = clock;
                    clock += 1;
                    stack.push((c, 0));
                } else {
                    post[b] = clock;
                    clock += 1;
                    stack.pop();
                }
            }
        }
        order.reverse();
        DomTree {
            rpo: order,
            idom,
            pre,
            post,
        }
    }

    /// The blocks the entry reaches, in reverse postorder (a block before its successors, back
    /// edges aside).
    pub fn rpo(&self) -> &[usize] {
        &self.rpo
    }

    /// Whether the entry reaches block `b`.
    pub fn reachable(&self, b: usize) -> bool {
        self.pre.get(b).is_some_and(|&p| p != NONE)
    }

    /// The immediate dominator of `b` (`None` for the entry and for unreachable blocks).
    pub fn idom(&self, b: usize) -> Option<usize> {
        match self.idom.get(b) {
            Some(&d) if d != NONE && b != 0 => Some(d),
            _ => None,
        }
    }

    /// Whether block `a` dominates block `b` (every path from the entry to `b` passes `a`; a
    /// block dominates itself). False when either is unreachable.
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        self.reachable(a)
            && self.reachable(b)
            && self.pre[a] <= self.pre[b]
            && self.post[b] <= self.post[a]
    }

    /// The preorder number of a reachable block in the tree (a dominator's is smaller).
    fn preorder(&self, b: usize) -> usize {
        self.pre[b]
    }
}

/// Pairs of same-kind aligned barriers (indices into [`Func::ins`], the earlier first) of which
/// neither dominates the other (reachable ones), in order.
///
/// Output-sensitive: the barriers of one kind are sorted by the dominator tree's preorder (and
/// their place in a block); a stack keeps those that dominate the current one, and every barrier
/// popped from it is a partner of all that follow (in a preorder, whatever comes after a node
/// without being below it is in another subtree). So `B` barriers cost `O(B log B)` plus the
/// pairs reported.
pub fn duplicated(f: &Func) -> Vec<(usize, usize)> {
    let dom = f.dom_tree();
    let mut kinds: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for b in &f.barriers {
        if dom.reachable(f.ins[b.ins].block) {
            kinds.entry(b.kind.as_str()).or_default().push(b.ins);
        }
    }
    let dominates = |a: usize, b: usize| {
        let (x, y) = (&f.ins[a], &f.ins[b]);
        if x.block == y.block {
            x.pos <= y.pos
        } else {
            dom.dominates(x.block, y.block)
        }
    };
    let mut out = Vec::new();
    for (_, mut v) in kinds {
        v.sort_by_key(|&i| (dom.preorder(f.ins[i].block), f.ins[i].pos));
        let mut stack: Vec<usize> = Vec::new();
        let mut off: Vec<usize> = Vec::new();
        for y in v {
            while let Some(&top) = stack.last() {
                if dominates(top, y) {
                    break;
                }
                off.push(top);
                stack.pop();
            }
            out.extend(off.iter().map(|&x| (x.min(y), x.max(y))));
            stack.push(y);
        }
    }
    out.sort_unstable();
    out
}

/// A small deterministic generator for the tests' random inputs (xorshift64): `next(k)` is in
/// `0..k`.
#[cfg(test)]
pub(crate) fn rng(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |k| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A function of `n` blocks with the given successor lists (no instructions).
    fn graph(succ: Vec<Vec<usize>>) -> Func {
        Func {
            name: "g".into(),
            entry: true,
            line: 1,
            blocks: succ
                .into_iter()
                .map(|s| Block { succ: s, ins: 0..0 })
                .collect(),
            ins: vec![],
            barriers: vec![],
        }
    }

    /// A function of 1..=`max` blocks, each with up to two random successors (the end included).
    fn random_graph(next: &mut impl FnMut(u64) -> u64, max: u64) -> Func {
        let n = 1 + next(max) as usize;
        graph(
            (0..n)
                .map(|_| (0..next(3)).map(|_| next(n as u64 + 1) as usize).collect())
                .collect(),
        )
    }

    /// Whether the entry reaches `b` without passing `skip`.
    fn reaches_avoiding(f: &Func, b: usize, skip: Option<usize>) -> bool {
        let mut seen = vec![false; f.blocks.len()];
        let mut stack = vec![0];
        while let Some(x) = stack.pop() {
            if Some(x) == skip || x >= seen.len() || seen[x] {
                continue;
            }
            seen[x] = true;
            stack.extend(&f.blocks[x].succ);
        }
        seen[b]
    }

    #[test]
    fn the_dominator_tree_agrees_with_the_definition() {
        // Random graphs (irreducible ones included): a dominates b iff b is reachable and every
        // path from the entry to b passes a (removing a cuts b off), or a == b.
        let mut next = rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..300 {
            let f = random_graph(&mut next, 12);
            let n = f.blocks.len();
            let dom = f.dom_tree();
            for b in 0..n {
                let reach = reaches_avoiding(&f, b, None);
                assert_eq!(dom.reachable(b), reach);
                for a in 0..n {
                    let want = reach && (a == b || !reaches_avoiding(&f, b, Some(a)));
                    assert_eq!(dom.dominates(a, b), want, "{a} dom {b} in {:?}", f.blocks);
                }
                if let Some(d) = dom.idom(b) {
                    assert!(dom.dominates(d, b) && d != b);
                }
            }
            let rpo = dom.rpo();
            assert_eq!(rpo.len(), (0..n).filter(|&b| dom.reachable(b)).count());
        }
    }

    #[test]
    fn a_register_of_an_inline_asm_scope_is_its_own() {
        // Two scopes each declare `t`: the reader renames each (`%t@N`), so a use finds the
        // definition of its own scope; registers declared outside a scope keep their names.
        let ptx = ".visible .entry k()\n{\n\t.reg .b64 %rd<4>;\n\tmov.u32 %r1, a;\n\t{ .reg .b64 t; cvt.u64.u32 t, %r1; cvta.shared::cta.u64 %rd1, t; }\n\tmov.u32 %r2, b;\n\t{ .reg .b64 t; cvt.u64.u32 t, %r2; cvta.shared::cta.u64 %rd2, t; }\n\t{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%r3], %r4;\n\t@p bra L1;\n\t}\nL1:\n\tret;\n}\n";
        let f = &functions(ptx)[0];
        let cvta: Vec<&Ins> = f.ins.iter().filter(|i| i.op.starts_with("cvta")).collect();
        assert_eq!(cvta.len(), 2);
        assert_ne!(cvta[0].args[1], cvta[1].args[1]);
        assert!(cvta[0].args[1].starts_with("%t@"), "{:?}", cvta[0].args);
        assert_eq!(cvta[0].args[0], "%rd1");
        let cvt: Vec<&Ins> = f.ins.iter().filter(|i| i.op.starts_with("cvt.")).collect();
        assert_eq!(cvt[0].args[0], cvta[0].args[1]);
        assert_eq!(cvt[1].args[0], cvta[1].args[1]);
        // The text stays as written; a guard by a scoped predicate is renamed too.
        assert!(cvta[0].text.ends_with(", t"));
        let wait = f.ins.iter().find(|i| i.op.starts_with("mbarrier")).unwrap();
        let bra = f.ins.iter().find(|i| i.op == "bra").unwrap();
        assert!(wait.args[0].starts_with("%p@"), "{:?}", wait.args);
        assert_eq!(bra.pred.as_deref(), Some(wait.args[0].as_str()));
    }

    #[test]
    fn duplicated_agrees_with_the_pairwise_definition() {
        // Barriers of one kind spread over the blocks of random graphs: the output-sensitive
        // walk reports exactly the pairs of reachable barriers of which neither dominates the
        // other (the definition, checked pair by pair).
        let mut next = rng(0x1234_5678_9abc_def1);
        for _ in 0..200 {
            let mut f = random_graph(&mut next, 10);
            let n = f.blocks.len();
            for b in 0..n {
                let start = f.ins.len();
                for pos in 1..=next(3) as usize {
                    f.barriers.push(Barrier {
                        kind: if next(4) == 0 { "b".into() } else { "a".into() },
                        ins: f.ins.len(),
                    });
                    f.ins.push(Ins {
                        line: f.ins.len() + 1,
                        pred: None,
                        op: "bar.sync".into(),
                        args: vec![],
                        text: String::new(),
                        block: b,
                        pos,
                    });
                }
                f.blocks[b].ins = start..f.ins.len();
            }
            let dom = f.dom_tree();
            let dominates = |x: &Ins, y: &Ins| {
                if x.block == y.block {
                    x.pos <= y.pos
                } else {
                    dom.dominates(x.block, y.block)
                }
            };
            let mut want = Vec::new();
            for (i, a) in f.barriers.iter().enumerate() {
                for b in &f.barriers[i + 1..] {
                    let (x, y) = (&f.ins[a.ins], &f.ins[b.ins]);
                    if a.kind == b.kind
                        && dom.reachable(x.block)
                        && dom.reachable(y.block)
                        && !dominates(x, y)
                        && !dominates(y, x)
                    {
                        want.push((a.ins, b.ins));
                    }
                }
            }
            want.sort_unstable();
            assert_eq!(duplicated(&f), want, "{:?}", f.blocks);
        }
    }

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
