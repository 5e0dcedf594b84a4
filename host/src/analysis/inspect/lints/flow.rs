//! A function as the lints walk it ([`Ctx`]): its control flow, loops, dominators, and registers
//! followed back to the buffer an address points into.

use super::*;

/// A function with the tables the lints share.
pub(super) struct Ctx<'a> {
    pub(super) f: &'a Func,
    pub(super) symbols: &'a BTreeMap<String, String>,
    pub(super) dom: DomTree,
    pub(super) preds: Vec<Vec<usize>>,
    /// Register → the indices of the instructions that write it, in order.
    pub(super) defs: HashMap<String, Vec<usize>>,
    /// The indices of the memory accesses (`ld`, `st`, `atom`, `red` of memory other threads
    /// may see), in order.
    pub(super) accesses: Vec<usize>,
}

/// A natural loop: its header and its blocks (sorted).
pub(super) struct Loop {
    pub(super) header: usize,
    pub(super) body: Vec<usize>,
    /// The blocks with a back edge to the header.
    pub(super) latches: Vec<usize>,
}

impl Loop {
    pub(super) fn contains(&self, b: usize) -> bool {
        self.body.binary_search(&b).is_ok()
    }
}

impl<'a> Ctx<'a> {
    pub(super) fn new(f: &'a Func, symbols: &'a BTreeMap<String, String>) -> Self {
        let mut defs: HashMap<String, Vec<usize>> = HashMap::new();
        for (k, i) in f.ins.iter().enumerate() {
            for d in dests(i) {
                defs.entry(d).or_default().push(k);
            }
        }
        let accesses = (0..f.ins.len())
            .filter(|&k| {
                let toks: Vec<&str> = f.ins[k].op.split('.').collect();
                matches!(toks[0], "ld" | "st" | "atom" | "red")
                    && !toks.iter().any(|t| ["param", "const", "local"].contains(t))
            })
            .collect();
        Ctx {
            f,
            symbols,
            dom: f.dom_tree(),
            preds: f.preds(),
            defs,
            accesses,
        }
    }

    /// The definition of `reg` that an instruction at `at` most likely reads: the last one
    /// before it in the text, else the first (a value carried round a loop).
    pub(super) fn def_of(&self, reg: &str, at: usize) -> Option<usize> {
        let v = self.defs.get(reg)?;
        let k = v.partition_point(|&d| d < at);
        if k > 0 {
            Some(v[k - 1])
        } else {
            v.first().copied()
        }
    }

    /// The base of an address operand: `[%rd1+8]` → `%rd1`, `[buf]` → `buf`.
    pub(super) fn base(addr: &str) -> String {
        let inner = addr.trim().trim_matches(|c| c == '[' || c == ']');
        inner
            .split(['+', '-'])
            .next()
            .unwrap_or(inner)
            .trim()
            .to_string()
    }

    /// The root of an address: the symbol (shared variable, kernel parameter) it is computed
    /// from through `mov`, `cvta`, `cvt`, `add`, `sub`, `mad`, `or`, `mapa` and `ld.param`
    /// (every register operand is followed, so `add %rd3, %rd1, %rd2` finds the buffer on
    /// either side), else the last register of the first-operand chain. Registers of
    /// inline-asm scopes are told apart ([`ptx_cfg::functions`] renames them), so the library's
    /// `{ .reg .b64 t; cvt.u64.u32 t, %r1; cvta.shared::cta.u64 %rd1, t; }` is seen through.
    pub(super) fn root(&self, addr: &str, at: usize) -> String {
        let base = Self::base(addr);
        let mut seen = HashSet::new();
        if let Some(s) = self.root_symbol(&base, at, 16, &mut seen) {
            return s;
        }
        // No symbol: the register the first operands lead to.
        let mut cur = base;
        let mut at = at;
        for _ in 0..16 {
            let Some(d) = self.def_of(&cur, at).filter(|_| cur.starts_with('%')) else {
                break;
            };
            let i = &self.f.ins[d];
            if !Self::follows(&i.op) {
                break;
            }
            match i.args.get(1).map(|a| Self::base(a)) {
                Some(a) if a.starts_with('%') => {
                    cur = a;
                    at = d;
                }
                _ => break,
            }
        }
        cur
    }

    pub(super) fn follows(op: &str) -> bool {
        [
            "mov", "cvta", "cvt", "add", "sub", "mad", "or", "and", "mapa",
        ]
        .iter()
        .any(|p| op.split('.').next() == Some(p))
            || op.starts_with("ld.param")
    }

    pub(super) fn root_symbol(
        &self,
        tok: &str,
        at: usize,
        depth: u32,
        seen: &mut HashSet<(String, usize)>,
    ) -> Option<String> {
        if tok.is_empty() || tok.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
            return None;
        }
        if !tok.starts_with('%') {
            return Some(tok.to_string());
        }
        let d = self.def_of(tok, at)?;
        if depth == 0 || !seen.insert((tok.to_string(), d)) {
            return None;
        }
        let i = &self.f.ins[d];
        if !Self::follows(&i.op) {
            return None;
        }
        for a in i.args.iter().skip(1) {
            let b = Self::base(a);
            if let Some(s) = self.root_symbol(&b, d, depth - 1, seen) {
                return Some(s);
            }
        }
        None
    }

    /// The state space an address operand points into: `"global"`, `"shared"`, `"local"` or
    /// `"unknown"`, from the instruction's own state space, else from where the address came
    /// from: `cvta.global`/`cvta.to.global` or a kernel's pointer parameter (global),
    /// `cvta.shared*`, `mapa` or a `.shared` variable (shared), `cvta.local` (local). Shared
    /// wins over global when both feed it; a pointer loaded from memory is unknown.
    pub(super) fn space(&self, at: usize, addr: &str) -> &'static str {
        let toks: Vec<&str> = self.f.ins[at].op.split('.').collect();
        for t in &toks {
            if *t == "global" {
                return "global";
            }
            if t.starts_with("shared") {
                return "shared";
            }
            if *t == "local" {
                return "local";
            }
        }
        let mut found = BTreeSet::new();
        let mut seen = HashSet::new();
        self.provenance(&Self::base(addr), at, 24, &mut seen, &mut found);
        ["shared", "global", "local"]
            .into_iter()
            .find(|s| found.contains(s))
            .unwrap_or("unknown")
    }

    pub(super) fn provenance(
        &self,
        tok: &str,
        at: usize,
        depth: u32,
        seen: &mut HashSet<(String, usize)>,
        found: &mut BTreeSet<&'static str>,
    ) {
        if tok.is_empty() || depth == 0 {
            return;
        }
        if !tok.starts_with('%') {
            match self.symbols.get(tok).map(String::as_str) {
                Some("shared") => {
                    found.insert("shared");
                }
                Some("global") => {
                    found.insert("global");
                }
                _ => {}
            }
            return;
        }
        let Some(d) = self.def_of(tok, at) else {
            return;
        };
        if !seen.insert((tok.to_string(), d)) {
            return;
        }
        let i = &self.f.ins[d];
        let toks: Vec<&str> = i.op.split('.').collect();
        match toks[0] {
            "cvta" | "mapa" => {
                if toks.contains(&"global") {
                    found.insert("global");
                } else if toks.iter().any(|t| t.starts_with("shared")) || toks[0] == "mapa" {
                    found.insert("shared");
                } else if toks.contains(&"local") {
                    found.insert("local");
                }
            }
            "ld" if toks.get(1) == Some(&"param") && self.f.entry => {
                found.insert("global");
            }
            "mov" | "add" | "sub" | "mad" | "cvt" | "and" | "or" | "xor" | "selp" => {
                for a in i.args.iter().skip(1) {
                    for r in regs(a) {
                        self.provenance(&r, d, depth - 1, seen, found);
                    }
                    let b = Self::base(a);
                    if !b.starts_with('%') {
                        self.provenance(&b, d, depth - 1, seen, found);
                    }
                }
            }
            _ => {}
        }
    }

    /// The memory access (`ld`, `st`, `atom`, `red` of memory other threads may see) nearest
    /// to instruction `k` after it (`fwd`) or before it, on the straight-line path: within its
    /// block, then into the only successor (or from the only predecessor), at most 8 blocks.
    pub(super) fn next_access(&self, k: usize, fwd: bool) -> Option<usize> {
        let f = self.f;
        let acc = &self.accesses;
        let mut b = f.ins[k].block;
        let mut range = if fwd {
            k + 1..f.blocks[b].ins.end
        } else {
            f.blocks[b].ins.start..k
        };
        for _ in 0..8 {
            // The accesses are sorted: the first at or after the range's start, or the last
            // before its end.
            let found = if fwd {
                acc.get(acc.partition_point(|&j| j < range.start))
                    .filter(|&&j| j < range.end)
            } else {
                acc.partition_point(|&j| j < range.end)
                    .checked_sub(1)
                    .map(|p| &acc[p])
                    .filter(|&&j| j >= range.start)
            };
            if let Some(&j) = found {
                return Some(j);
            }
            let next: Vec<usize> = if fwd {
                f.blocks[b]
                    .succ
                    .iter()
                    .copied()
                    .filter(|&s| s < f.blocks.len())
                    .collect()
            } else {
                self.preds[b].clone()
            };
            let [n] = next[..] else { return None };
            b = n;
            range = f.blocks[b].ins.clone();
        }
        None
    }

    /// The natural loops, one per header (its back edges merged), each body walked once.
    pub(super) fn loops(&self) -> Vec<Loop> {
        let f = self.f;
        let mut latches: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (b, bl) in f.blocks.iter().enumerate() {
            if !self.dom.reachable(b) {
                continue;
            }
            for &h in &bl.succ {
                if h < f.blocks.len() && self.dom.dominates(h, b) {
                    latches.entry(h).or_default().push(b);
                }
            }
        }
        let mut mark = vec![usize::MAX; f.blocks.len()];
        let mut out = Vec::new();
        for (n, (h, ls)) in latches.into_iter().enumerate() {
            let mut body = vec![h];
            mark[h] = n;
            let mut stack = ls.clone();
            while let Some(x) = stack.pop() {
                if mark[x] != n && self.dom.reachable(x) {
                    mark[x] = n;
                    body.push(x);
                    stack.extend(&self.preds[x]);
                }
            }
            body.sort_unstable();
            out.push(Loop {
                header: h,
                body,
                latches: ls,
            });
        }
        out
    }

    /// The indices of a loop's instructions, in text order.
    pub(super) fn loop_ins(&self, l: &Loop) -> Vec<usize> {
        l.body
            .iter()
            .flat_map(|&b| self.f.blocks[b].ins.clone())
            .collect()
    }

    /// The guards of the loop's exits: for each block of the body, a predicated branch with a
    /// target outside the body, or a predicated `ret`/`exit`/`trap` (an unguarded exit cannot
    /// sit in a body: every body block reaches the back edge).
    pub(super) fn exit_guards(&self, l: &Loop) -> Vec<String> {
        let mut out = Vec::new();
        for &b in &l.body {
            let r = &self.f.blocks[b].ins;
            let Some(last) = r.clone().last().map(|k| &self.f.ins[k]) else {
                continue;
            };
            let Some(g) = guard(last) else { continue };
            let leaves = self.f.blocks[b].succ.iter().any(|s| !l.contains(*s));
            let ends = ["ret", "exit", "trap"]
                .iter()
                .any(|e| last.op.split('.').next() == Some(e));
            if (last.op.starts_with("bra") && leaves) || ends {
                out.push(g.to_string());
            }
        }
        out
    }

    /// The registers whose value may change from one iteration of the loop to the next: those
    /// written in the loop by an instruction that [`observes`] memory or reads a clock, or from
    /// a register that may change (a least fixed point: `add %r2, %r2, 1` changes; `mov %r3,
    /// %r1` with `%r1` set before the loop does not).
    pub(super) fn variant(&self, ins: &[usize]) -> HashSet<String> {
        // Linear: a pure definition waits for its sources defined in the loop (`missing`); a
        // register becomes invariant when all its definitions in the loop are resolved; a
        // register on a cycle (`add %r2, %r2, 1`) or behind an impure definition never does.
        let f = self.f;
        let mut defs: HashMap<String, Vec<usize>> = HashMap::new();
        for &k in ins {
            for d in dests(&f.ins[k]) {
                defs.entry(d).or_default().push(k);
            }
        }
        let mut users: HashMap<String, Vec<usize>> = HashMap::new();
        let mut missing: HashMap<usize, usize> = HashMap::new();
        let mut pending: HashMap<&str, usize> =
            defs.iter().map(|(r, v)| (r.as_str(), v.len())).collect();
        let mut ready: Vec<usize> = Vec::new();
        for &k in ins {
            let i = &f.ins[k];
            if dests(i).is_empty() || observes(i) || reads_clock(i) || i.op.starts_with("ld") {
                continue;
            }
            let mut from: BTreeSet<String> = srcs(i).into_iter().collect();
            from.extend(guard(i).map(str::to_string));
            from.retain(|r| defs.contains_key(r));
            if from.is_empty() {
                ready.push(k);
            }
            missing.insert(k, from.len());
            for r in from {
                users.entry(r).or_default().push(k);
            }
        }
        let mut invariant: HashSet<String> = HashSet::new();
        while let Some(k) = ready.pop() {
            for d in dests(&f.ins[k]) {
                let Some(n) = pending.get_mut(d.as_str()) else {
                    continue;
                };
                *n -= 1;
                if *n == 0 && invariant.insert(d.clone()) {
                    for &u in users.get(&d).into_iter().flatten() {
                        if let Some(m) = missing.get_mut(&u) {
                            *m -= 1;
                            if *m == 0 {
                                ready.push(u);
                            }
                        }
                    }
                }
            }
        }
        defs.into_keys()
            .filter(|r| !invariant.contains(r))
            .collect()
    }

    /// A forward "may" data flow: `step` updates the facts (a fact's name → the line that
    /// made it, the earliest kept) over each instruction; the facts entering each block are the
    /// union over its predecessors, iterated to the fixed point. Then `visit` sees each reachable
    /// instruction with the facts that hold just before it (on some path).
    pub(super) fn flow(
        &self,
        step: &dyn Fn(usize, &mut BTreeMap<String, usize>),
        visit: &mut dyn FnMut(usize, &BTreeMap<String, usize>),
    ) {
        let f = self.f;
        let n = f.blocks.len();
        let mut ins_at: Vec<BTreeMap<String, usize>> = vec![BTreeMap::new(); n];
        let order = self.dom.rpo();
        let mut changed = true;
        while changed {
            changed = false;
            for &b in order {
                let mut facts = ins_at[b].clone();
                for k in f.blocks[b].ins.clone() {
                    step(k, &mut facts);
                }
                for &s in &f.blocks[b].succ {
                    if s >= n {
                        continue;
                    }
                    for (name, line) in &facts {
                        let e = ins_at[s].entry(name.clone()).or_insert(usize::MAX);
                        if *line < *e {
                            *e = *line;
                            changed = true;
                        }
                    }
                }
            }
        }
        for &b in order {
            let mut facts = std::mem::take(&mut ins_at[b]);
            for k in f.blocks[b].ins.clone() {
                visit(k, &facts);
                step(k, &mut facts);
            }
        }
    }
}
