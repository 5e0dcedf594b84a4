//! Check a compiled kernel: every thread of a small launch runs the entry's PTX against the PTX
//! memory model (issue #22). The library API behind `ptx-sync check FILE.ptx --entry …`:
//!
//! ```
//! use ptx_sync_model::kernel::{check_kernel, KernelCheck};
//! use ptx_sync_model::ptx::module::{Bind, Launch};
//! let ptx = r#"
//! .version 8.6
//! .target sm_90
//! .address_size 64
//! .visible .entry mp(.param .u64 p0)
//! {
//!   .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .pred %p<2>;
//!   ld.param.u64 %rd1, [p0];
//!   mov.u32 %r1, %tid.x;
//!   setp.ne.u32 %p1, %r1, 0;
//!   @%p1 bra CONSUMER;
//!   st.u32 [%rd1+4], 42;
//!   st.release.gpu.u32 [%rd1], 1;
//!   ret;
//! CONSUMER:
//!   ld.acquire.gpu.u32 %r2, [%rd1];
//!   setp.eq.u32 %p1, %r2, 0;
//!   @%p1 bra CONSUMER;
//!   ld.u32 %r3, [%rd1+4];
//!   st.u32 [%rd1+8], %r3;
//!   ret;
//! }"#;
//! let mut launch = Launch::new([1, 1, 1], [2, 1, 1]);
//! launch.params.push((0, Bind::Buf(16)));
//! let check = KernelCheck { entry: "mp".into(), launch, assert: Some("exists (p0[2] != 42)".into()) };
//! let out = check_kernel(ptx, "mp.ptx", &check).unwrap();
//! assert!(out.races.is_empty() && out.hangs.is_empty());
//! assert!(!out.holds()); // the consumer always copies 42
//! ```

use crate::ast::{Cmp, Prop, Quantifier};
use crate::engine::explore::{
    merge_first, Earliest, Explorer, First, Leaf, Limits, LocTerm, Observe, Summary, World,
};
use crate::found::{each_choice, Witness};
use crate::parse::tokens::{tokenize, KERNEL_ASSERTION};
use crate::parse::{Error, ErrorKind};
use crate::ptx::module::{Launch, Module};
use crate::ptx::Thread;
use crate::report::Observation;
use std::fmt::Write as _;
use std::time::Instant;

/// What to check: the entry, the launch, and an optional final assertion over the parameters'
/// buffers (`exists (p2[0] != 42)`: parameter 2's 32-bit word 0).
#[derive(Clone, Debug)]
pub struct KernelCheck {
    /// The `.entry` to launch.
    pub entry: String,
    /// Grid, block, cluster, parameter bindings, dynamic shared memory, unroll bound.
    pub launch: Launch,
    /// `exists (…)`, `~exists (…)` or `forall (…)` over terms `pN[K]` and integers.
    pub assert: Option<String>,
}

/// A term of a kernel assertion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ATerm {
    /// Parameter `i`'s buffer, 32-bit word `k`.
    Word(usize, u32),
    Imm(i64),
}

/// A kernel assertion's proposition.
type AProp = Prop<ATerm>;

/// The verdict on a kernel.
#[derive(Clone, Debug, Default)]
pub struct KernelOutcome {
    /// The entry.
    pub entry: String,
    /// Data races, each with both instructions' PTX lines (and source lines where `.loc` says).
    pub races: Vec<String>,
    /// Threads that can wait for ever (barriers, mbarrier phases, spin loops; a bounded wait is
    /// judged as the unbounded wait it bounds).
    pub hangs: Vec<String>,
    /// Other flags: `trap`, `mbarrier-*`, `bad-address`, `mixed-size-race`, ….
    pub flags: Vec<(String, String)>,
    /// Complete executions.
    pub executions: u64,
    /// Executions that satisfy the assertion (when there is one).
    pub positive: u64,
    /// Executions that do not.
    pub negative: u64,
    /// The assertion's quantifier.
    pub quantifier: Option<Quantifier>,
    /// Executions cut at the unroll bound (the verdict is then `bounded`).
    pub cut: usize,
    /// A witness: the first execution that satisfies the assertion, or the first one.
    pub witness: Option<Witness>,
    /// Seconds spent.
    pub seconds: f64,
    /// Set when the exploration stopped at a limit (`PTX_SYNC_MAX_STEPS`,
    /// [`Launch::max_steps`](crate::ptx::module::Launch::max_steps)) after it had found a flag:
    /// the limit's message. Each flag reported was found as in a decided check (races and hangs
    /// in complete consistent executions), so it holds; executions not explored may hold others, so a clean verdict is not decided.
    /// (A limit reached before any flag is an error, `unsupported: …`.)
    pub incomplete: Option<String>,
}

impl KernelOutcome {
    /// Whether the assertion holds (`exists`: some execution satisfies it; `~exists`: none;
    /// `forall`: all); true without an assertion.
    pub fn holds(&self) -> bool {
        match self.quantifier {
            None => true,
            Some(Quantifier::Exists) => self.positive > 0,
            Some(Quantifier::NotExists) => self.positive == 0,
            Some(Quantifier::Forall) => self.negative == 0,
        }
    }

    /// herd's observation of the assertion's proposition.
    pub fn observation(&self) -> Observation {
        if self.positive == 0 {
            Observation::Never
        } else if self.negative == 0 {
            Observation::Always
        } else {
            Observation::Sometimes
        }
    }

    /// Whether a cut path makes the verdict undecided.
    pub fn bounded(&self) -> bool {
        self.cut > 0
    }

    /// Whether every execution was explored and none was cut: the flags reported are all there
    /// are, and the assertion's verdict is [`Self::holds`].
    pub fn decided(&self) -> bool {
        self.cut == 0 && self.incomplete.is_none()
    }

    /// The assertion's verdict where the executions explored decide it: all of them when
    /// [`Self::decided`]; when [`Self::incomplete`], only a satisfying execution of `exists`
    /// (true) or `~exists` (false), or a failing one of `forall` (false).
    pub fn verdict(&self) -> Option<bool> {
        if self.decided() {
            return Some(self.holds());
        }
        match self.quantifier {
            Some(Quantifier::Exists) if self.positive > 0 => Some(true),
            Some(Quantifier::NotExists) if self.positive > 0 => Some(false),
            Some(Quantifier::Forall) if self.negative > 0 => Some(false),
            _ => None,
        }
    }

    /// The names of the flags raised, sorted, each once.
    pub fn flag_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.flags.iter().map(|f| f.0.clone()).collect();
        if !self.races.is_empty() {
            v.push("data-race".into());
        }
        if !self.hangs.is_empty() {
            v.push("hang".into());
        }
        v.sort();
        v.dedup();
        v
    }

    /// The herd-style text block.
    pub fn herd(&self) -> String {
        let mut s = String::new();
        for r in &self.races {
            let _ = writeln!(s, "Flag data-race");
            let _ = writeln!(s, "(* data race (PTX ISA 8.7.1): {r} *)");
        }
        for h in &self.hangs {
            let _ = writeln!(s, "Flag hang");
            let _ = writeln!(s, "(* {h} *)");
        }
        for (n, w) in &self.flags {
            let _ = writeln!(s, "Flag {n}");
            let _ = writeln!(s, "(* {w} *)");
        }
        let _ = writeln!(s, "Kernel {}", self.entry);
        let _ = writeln!(s, "Executions {}", self.executions);
        if let Some(q) = self.quantifier {
            match self.verdict() {
                Some(v) => {
                    let _ = writeln!(s, "{}", if v { "Ok" } else { "No" });
                }
                None => {
                    let _ = writeln!(s, "Undecided");
                }
            }
            let _ = writeln!(
                s,
                "Observation {} {} {} {} ({})",
                self.entry,
                self.observation(),
                self.positive,
                self.negative,
                match q {
                    Quantifier::Exists => "exists",
                    Quantifier::NotExists => "~exists",
                    Quantifier::Forall => "forall",
                }
            );
        }
        if self.cut > 0 {
            let _ = writeln!(
                s,
                "Bounded {} ({} executions cut at the unroll bound: the verdict is not decided)",
                self.entry, self.cut
            );
        }
        if let Some(why) = &self.incomplete {
            let _ = writeln!(
                s,
                "Incomplete {} ({why}: each flag above was found in an execution the model allows, as in a decided check; the executions not explored may hold more, so a clean verdict is not decided)",
                self.entry
            );
        }
        let _ = writeln!(s, "Time {} {:.2}", self.entry, self.seconds);
        s
    }

    /// The witness execution as a DOT graph (events in thread columns, each naming its PTX line;
    /// po, rf, co, synchronizes-with and race edges), titled with the entry; `None` when no
    /// execution completed.
    pub fn dot(&self) -> Option<String> {
        let mut w = self.witness.clone()?;
        // Each event names its PTX line (issue #22 §2).
        for e in &mut w.events {
            e.text = format!("{} (line {})", e.text, e.line);
        }
        Some(crate::report::dot_titled(&self.entry, &w))
    }

    /// The verdict as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "entry": self.entry,
            "races": self.races,
            "hangs": self.hangs,
            "flags": self.flags.iter().map(|(n, w)| serde_json::json!({"flag": n, "what": w})).collect::<Vec<_>>(),
            "executions": self.executions,
            "positive": self.positive,
            "negative": self.negative,
            "holds": self.holds(),
            "bounded": self.bounded(),
            "incomplete": self.incomplete,
            "seconds": self.seconds,
        })
    }
}

fn bad(file: &str, msg: String) -> Error {
    Error {
        kind: ErrorKind::Parse,
        file: file.to_string(),
        line: 0,
        msg,
    }
}

/// Parses an assertion `exists (…)` over `pN[K]` terms (at most 100 levels of nesting).
fn parse_assert(text: &str) -> Result<(Quantifier, AProp), String> {
    let t = text.trim();
    let (q, rest) = if let Some(r) = t.strip_prefix("~exists") {
        (Quantifier::NotExists, r)
    } else if let Some(r) = t.strip_prefix("not exists") {
        (Quantifier::NotExists, r)
    } else if let Some(r) = t.strip_prefix("exists") {
        (Quantifier::Exists, r)
    } else if let Some(r) = t.strip_prefix("forall") {
        (Quantifier::Forall, r)
    } else {
        return Err(format!("`{t}`: expected exists, ~exists or forall"));
    };
    let toks = tokenize(rest, &KERNEL_ASSERTION)
        .map_err(|ch| format!("unexpected `{ch}` in the assertion"))?;
    let mut p = AParser {
        toks,
        i: 0,
        depth: 0,
    };
    let prop = p.or()?;
    if p.i != p.toks.len() {
        return Err(format!("unexpected `{}` in the assertion", p.toks[p.i]));
    }
    Ok((q, prop))
}

struct AParser {
    toks: Vec<String>,
    i: usize,
    depth: usize,
}

impl AParser {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.i).map(|s| s.as_str())
    }
    fn eat(&mut self, t: &str) -> bool {
        if self.peek() == Some(t) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn or(&mut self) -> Result<AProp, String> {
        let mut a = self.and()?;
        while self.eat("\\/") {
            a = AProp::Or(Box::new(a), Box::new(self.and()?));
        }
        Ok(a)
    }
    fn and(&mut self) -> Result<AProp, String> {
        let mut a = self.not()?;
        while self.eat("/\\") {
            a = AProp::And(Box::new(a), Box::new(self.not()?));
        }
        Ok(a)
    }
    fn not(&mut self) -> Result<AProp, String> {
        if self.eat("~") || self.eat("not") {
            return Ok(AProp::Not(Box::new(self.not()?)));
        }
        self.atom()
    }
    fn atom(&mut self) -> Result<AProp, String> {
        if self.eat("(") {
            self.depth += 1;
            if self.depth > 100 {
                return Err("the assertion nests more than 100 levels".into());
            }
            let p = self.or()?;
            if !self.eat(")") {
                return Err("expected `)` in the assertion".into());
            }
            self.depth -= 1;
            return Ok(p);
        }
        if self.eat("true") {
            return Ok(AProp::True);
        }
        if self.eat("false") {
            return Ok(AProp::False);
        }
        let a = self.term()?;
        let Some(op) = self.peek().and_then(Cmp::of_operator) else {
            return Err(format!("expected a comparison, found {:?}", self.peek()));
        };
        self.i += 1;
        let b = self.term()?;
        Ok(AProp::Cmp(op, a, b))
    }
    fn term(&mut self) -> Result<ATerm, String> {
        let t = self.peek().ok_or("the assertion ends early")?.to_string();
        self.i += 1;
        if let Some(n) = t.strip_prefix('p') {
            let i: usize = n.parse().map_err(|_| format!("`{t}`: expected pN[K]"))?;
            if !(self.eat("[")) {
                return Err(format!(
                    "`{t}`: expected pN[K] (a word of parameter N's buffer)"
                ));
            }
            let k: u32 = self
                .peek()
                .and_then(|s| s.parse().ok())
                .ok_or(format!("`{t}[`: expected a word index"))?;
            self.i += 1;
            if !self.eat("]") {
                return Err(format!("`{t}[{k}`: expected `]`"));
            }
            return Ok(ATerm::Word(i, k));
        }
        t.parse::<i64>()
            .map(ATerm::Imm)
            .map_err(|_| format!("`{t}`: expected pN[K] or an integer"))
    }
}

fn terms_of(p: &AProp, out: &mut Vec<(usize, u32)>) {
    match p {
        AProp::Cmp(_, a, b) => {
            for t in [a, b] {
                if let ATerm::Word(i, k) = t {
                    if !out.contains(&(*i, *k)) {
                        out.push((*i, *k));
                    }
                }
            }
        }
        AProp::Not(q) => terms_of(q, out),
        AProp::And(a, b) | AProp::Or(a, b) => {
            terms_of(a, out);
            terms_of(b, out);
        }
        _ => {}
    }
}

fn eval(p: &AProp, val: &dyn Fn(ATerm) -> i64) -> bool {
    match p {
        AProp::True => true,
        AProp::False => false,
        // Buffer words are 32-bit: compare modulo 2^32.
        AProp::Cmp(c, a, b) => c.eval_bits(val(*a), val(*b), 32),
        AProp::Not(q) => !eval(q, val),
        AProp::And(a, b) => eval(a, val) && eval(b, val),
        AProp::Or(a, b) => eval(a, val) || eval(b, val),
    }
}

fn describe_ev(g: &crate::engine::graph::Graph, e: usize) -> String {
    let ev = &g.ev[e];
    let mut s = format!(
        "thread {} `{}` (line {})",
        ev.thread, ev.at.text, ev.at.line
    );
    if let Some((f, l)) = &ev.at.src {
        let _ = write!(s, " at {f}:{l}");
    }
    s
}

/// Checks one launch of one entry of a PTX module.
pub fn check_kernel(ptx: &str, file: &str, check: &KernelCheck) -> Result<KernelOutcome, Error> {
    let t0 = Instant::now();
    let module = Module::parse(ptx, file)?;
    check_module(&module, check, &[], t0)
}

/// Checks one launch of one entry of a parsed module, with `edits` applied to its statements
/// ([`Module::launch_edited`]; none: the module as written). `t0`: when the check started (for
/// [`KernelOutcome::seconds`]).
pub fn check_module(
    module: &Module,
    check: &KernelCheck,
    edits: &[crate::ptx::module::Edit],
    t0: Instant,
) -> Result<KernelOutcome, Error> {
    let file = module.file.as_str();
    if module.entry(&check.entry).is_none() {
        return Err(bad(
            file,
            format!(
                "no entry `{}` (the module has: {})",
                check.entry,
                module.entries().join(", ")
            ),
        ));
    }
    let kernel = module.launch_edited(&check.entry, &check.launch, edits)?;
    let assert = match &check.assert {
        Some(a) => Some(parse_assert(a).map_err(|m| bad(file, m))?),
        None => None,
    };
    // The assertion's words, as location terms of the parameters' buffers.
    let mut words = Vec::new();
    if let Some((_, p)) = &assert {
        terms_of(p, &mut words);
    }
    let mut terms = Vec::new();
    for &(i, k) in &words {
        let var = kernel
            .buffers
            .iter()
            .find(|(p, _)| *p == i)
            .map(|(_, v)| *v)
            .ok_or_else(|| {
                bad(
                    file,
                    format!(
                        "p{i}[{k}]: parameter {i} is not bound to a buffer (--param {i}=buf:BYTES)"
                    ),
                )
            })?;
        terms.push(LocTerm {
            var: var as u32,
            cta: u32::MAX,
            off: 4 * k,
            size: 4,
        });
    }
    let world = World {
        layout: (*kernel.layout).clone(),
        places: kernel.threads.iter().map(|t| t.geom().place).collect(),
    };
    let mut out = KernelOutcome {
        entry: check.entry.clone(),
        quantifier: assert.as_ref().map(|a| a.0),
        ..Default::default()
    };
    let limits = {
        let mut l = Limits::default();
        if let Some(n) = check.launch.max_steps {
            l.max_steps = n;
            // A step budget is a budget of one depth-first search.
            l.jobs = 1;
        }
        if let Some(j) = check.launch.jobs {
            l.jobs = j.max(1);
        }
        if let Some(s) = check.launch.spawn_after {
            l.spawn_after = s;
        }
        l
    };
    let parts = Explorer::run_jobs(&world, kernel.threads, terms.clone(), limits, || KAcc {
        assert: assert.as_ref().map(|a| &a.1),
        words: &words,
        races: First::default(),
        flags: First::default(),
        pos: 0,
        neg: 0,
        witness_pos: Earliest::default(),
        witness_any: Earliest::default(),
    });
    let mut summary = Summary::default();
    let (mut races, mut flags) = (Vec::new(), Vec::new());
    let (mut pos, mut neg) = (0u64, 0u64);
    let (mut wpos, mut wany) = (Earliest::default(), Earliest::default());
    for (sm, acc) in parts {
        summary.merge(sm);
        races.push(acc.races);
        flags.push(acc.flags);
        pos += acc.pos;
        neg += acc.neg;
        wpos.merge(acc.witness_pos);
        wany.merge(acc.witness_any);
    }
    let races = merge_first(races).into_vec();
    let mut flags = merge_first(flags).into_vec();
    let (witness_pos, witness_any) = (wpos.into_inner(), wany.into_inner());
    let found = !races.is_empty()
        || !flags.is_empty()
        || !summary.hangs.is_empty()
        || !summary.flags.is_empty();
    if let Some(u) = summary
        .unsupported
        .clone()
        .filter(|_| summary.limit && found)
    {
        out.incomplete = Some(u);
    } else if let Some(u) = summary.unsupported {
        return Err(Error {
            kind: ErrorKind::Unsupported,
            file: file.to_string(),
            line: 0,
            msg: u,
        });
    }
    for f in summary.flags {
        if !flags.contains(&f) {
            flags.push(f);
        }
    }
    out.races = races;
    out.hangs = summary.hangs.into_iter().collect();
    out.flags = flags;
    out.executions = summary.executions;
    out.positive = pos;
    out.negative = neg;
    out.cut = summary.cut;
    out.witness = witness_pos.or(witness_any);
    out.seconds = t0.elapsed().as_secs_f64();
    Ok(out)
}

/// What one exploring thread of a kernel check keeps; the threads' are merged in depth-first
/// order ([`Leaf::pos`]).
struct KAcc<'a> {
    assert: Option<&'a AProp>,
    words: &'a [(usize, u32)],
    races: First<String>,
    flags: First<(String, String)>,
    pos: u64,
    neg: u64,
    witness_pos: Earliest<Witness>,
    witness_any: Earliest<Witness>,
}

impl Observe<Thread> for KAcc<'_> {
    fn leaf(&mut self, leaf: &Leaf<Thread>) {
        let mut k = 0u32;
        for &(a, b, _) in &leaf.races {
            let proxies = crate::engine::litmus::proxies_of(leaf.graph, a, b);
            let d = format!(
                "{} and {}{proxies}",
                describe_ev(leaf.graph, a),
                describe_ev(leaf.graph, b)
            );
            self.races.note(leaf.pos, k, d);
            k += 1;
        }
        for f in leaf.flags {
            self.flags.note(leaf.pos, k, f.clone());
            k += 1;
        }
        let Some(prop) = self.assert else {
            self.witness_any
                .offer(leaf.pos, || crate::engine::litmus::witness_of(leaf));
            return;
        };
        let words = self.words;
        for alt in &leaf.finals {
            let sets: Vec<Vec<u64>> = alt.iter().map(|s| s.iter().copied().collect()).collect();
            each_choice(&sets, |pick| {
                let val = |t: ATerm| -> i64 {
                    match t {
                        ATerm::Imm(v) => v,
                        ATerm::Word(i, k) => {
                            let j = words.iter().position(|w| *w == (i, k)).unwrap();
                            sets[j][pick[j]] as i64
                        }
                    }
                };
                let sat = eval(prop, &val);
                if sat {
                    self.pos += 1;
                } else {
                    self.neg += 1;
                }
                if sat {
                    self.witness_pos
                        .offer(leaf.pos, || crate::engine::litmus::witness_of(leaf));
                }
                self.witness_any
                    .offer(leaf.pos, || crate::engine::litmus::witness_of(leaf));
            });
        }
    }
}

/// Options of `ptx-sync check FILE.ptx …` (the launch and what to report).
#[derive(Clone, Debug, Default)]
pub struct KernelOptions {
    /// `--entry NAME` (required when the module has several entries).
    pub entry: Option<String>,
    /// `--grid G[,G,G]`
    pub grid: Option<String>,
    /// `--block B[,B,B]`
    pub block: Option<String>,
    /// `--cluster C[,C,C]`
    pub cluster: Option<String>,
    /// `--param I=buf:BYTES`, `--param I=INT`, `--param I=tmap:W[xH]:BW[xBH]`
    pub params: Vec<String>,
    /// `--dyn-smem BYTES`
    pub dyn_smem: Option<u32>,
    /// `--unroll N`
    pub unroll: Option<u32>,
    /// `--assert 'exists (…)'`
    pub assert: Option<String>,
    /// `--max-steps N`: stop after N exploration steps (default: `PTX_SYNC_MAX_STEPS`, else
    /// 5,000,000); flags found by then are reported, the verdict is incomplete (exit 3).
    pub max_steps: Option<u64>,
    /// `--jobs N`: threads that explore together (default: see
    /// [`Launch::jobs`](crate::ptx::module::Launch::jobs)); the verdict does not depend on it.
    pub jobs: Option<usize>,
}

fn dims(s: &str, what: &str) -> Result<[u32; 3], String> {
    let v: Vec<&str> = s.split(',').collect();
    if v.is_empty() || v.len() > 3 {
        return Err(format!("--{what} {s}: expected N[,N,N]"));
    }
    let mut d = [1u32; 3];
    for (i, x) in v.iter().enumerate() {
        d[i] = x
            .trim()
            .parse()
            .ok()
            .filter(|n| *n >= 1)
            .ok_or_else(|| format!("--{what} {s}: `{x}` is not a positive number"))?;
    }
    Ok(d)
}

fn param(s: &str) -> Result<(usize, crate::ptx::module::Bind), String> {
    use crate::ptx::module::Bind;
    let (i, v) = s
        .split_once('=')
        .ok_or_else(|| format!("--param {s}: expected I=buf:BYTES, I=INT or I=tmap:WxH:BWxBH"))?;
    let i: usize = i
        .trim()
        .parse()
        .map_err(|_| format!("--param {s}: `{i}` is not a parameter index"))?;
    let v = v.trim();
    let num = |x: &str| -> Result<u32, String> {
        x.parse()
            .map_err(|_| format!("--param {s}: `{x}` is not a number"))
    };
    let pair = |x: &str| -> Result<([u32; 2], u8), String> {
        match x.split_once('x') {
            Some((a, b)) => Ok(([num(a)?, num(b)?], 2)),
            None => Ok(([num(x)?, 1], 1)),
        }
    };
    if let Some(b) = v.strip_prefix("buf:") {
        let n = num(b)?;
        if n == 0 {
            return Err(format!("--param {s}: a buffer needs at least one byte"));
        }
        return Ok((i, Bind::Buf(n)));
    }
    if let Some(t) = v.strip_prefix("tmap:") {
        let (d, bx) = t
            .split_once(':')
            .ok_or_else(|| format!("--param {s}: expected tmap:W[xH]:BW[xBH]"))?;
        let (dims, rank) = pair(d)?;
        let (boxdim, r2) = pair(bx)?;
        if rank != r2 {
            return Err(format!(
                "--param {s}: the box has another rank than the tensor"
            ));
        }
        return Ok((i, Bind::Tmap { dims, boxdim, rank }));
    }
    let n: i64 = if let Some(h) = v.strip_prefix("0x") {
        i64::from_str_radix(h, 16).map_err(|_| format!("--param {s}: `{v}` is not a number"))?
    } else {
        v.parse()
            .map_err(|_| format!("--param {s}: `{v}` is not buf:BYTES, tmap:… or a number"))?
    };
    Ok((i, Bind::Int(n as u64)))
}

/// Reads a `.ptx` file as text; `Err`: the one-line message.
pub fn read_ptx(path: &std::path::Path) -> Result<String, String> {
    match std::fs::read(path) {
        Ok(b) => String::from_utf8(b)
            .map_err(|_| format!("ptx-sync check: {}: not UTF-8 PTX text", path.display())),
        Err(e) => Err(format!("ptx-sync check: {}: {e}", path.display())),
    }
}

/// The [`KernelCheck`] that `opts` describe for `module`: the entry (`--entry`, or the module's
/// only one), the launch and the assertion. `Err`: the one-line message (bad input).
pub fn check_of_options(module: &Module, opts: &KernelOptions) -> Result<KernelCheck, String> {
    let file = &module.file;
    let entry = match &opts.entry {
        Some(e) => e.clone(),
        None => match module.entries().as_slice() {
            [one] => one.to_string(),
            all => {
                return Err(format!(
                    "ptx-sync check: {file} has {} entries; choose one with --entry ({})",
                    all.len(),
                    all.join(", ")
                ))
            }
        },
    };
    let mut launch = Launch::new([1, 1, 1], [1, 1, 1]);
    let parsed = (|| -> Result<(), String> {
        if let Some(g) = &opts.grid {
            launch.grid = dims(g, "grid")?;
        }
        if let Some(b) = &opts.block {
            launch.block = dims(b, "block")?;
        }
        if let Some(c) = &opts.cluster {
            launch.cluster = dims(c, "cluster")?;
        }
        for p in &opts.params {
            let (i, b) = param(p)?;
            if launch.params.iter().any(|(j, _)| *j == i) {
                return Err(format!("--param {i} given twice"));
            }
            launch.params.push((i, b));
        }
        if let Some(d) = opts.dyn_smem {
            launch.dyn_smem = d;
        }
        if let Some(u) = opts.unroll {
            launch.unroll = u;
        }
        if let Some(n) = opts.max_steps {
            if n == 0 {
                return Err("--max-steps 0: expected a positive number of steps".to_string());
            }
            launch.max_steps = Some(n);
        }
        if let Some(j) = opts.jobs {
            if j == 0 {
                return Err("--jobs 0: expected a positive number of threads".to_string());
            }
            launch.jobs = Some(j);
        }
        Ok(())
    })();
    parsed.map_err(|m| format!("ptx-sync check: {m}"))?;
    Ok(KernelCheck {
        entry,
        launch,
        assert: opts.assert.clone(),
    })
}

/// `ptx-sync check FILE.ptx --entry NAME --grid … --block …`: prints the verdict; returns the exit
/// code: 0 decided, 3 unsupported or bounded (a cut loop could change it), 2 bad input.
pub fn cli(path: &std::path::Path, opts: &KernelOptions, json: Option<&std::path::Path>) -> i32 {
    cli_witness(path, opts, json, None)
}

/// [`cli`] that also writes the witness execution as `DIR/ENTRY.dot` and `DIR/ENTRY.svg`
/// (`--witness DIR`); exit 2 when DIR cannot be created or a file cannot be written.
pub fn cli_witness(
    path: &std::path::Path,
    opts: &KernelOptions,
    json: Option<&std::path::Path>,
    witness: Option<&std::path::Path>,
) -> i32 {
    match read_ptx(path) {
        Ok(text) => cli_text(&text, &path.display().to_string(), opts, json, witness),
        Err(m) => {
            eprintln!("{m}");
            2
        }
    }
}

/// [`cli_witness`] on PTX text already read: `file` is the name its messages give (the host's
/// `check` passes `FILE.fatbin[compute_90]` for the PTX it took out of a container).
pub fn cli_text(
    text: &str,
    file: &str,
    opts: &KernelOptions,
    json: Option<&std::path::Path>,
    witness: Option<&std::path::Path>,
) -> i32 {
    let module = match Module::parse(text, file) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            return if e.kind == ErrorKind::Parse { 2 } else { 3 };
        }
    };
    let check = match check_of_options(&module, opts) {
        Ok(c) => c,
        Err(m) => {
            eprintln!("{m}");
            return 2;
        }
    };
    match check_module(&module, &check, &[], Instant::now()) {
        Ok(out) => {
            print!("{}", out.herd());
            if let Some(j) = json {
                let t = serde_json::to_string_pretty(&out.json()).unwrap_or_default();
                if let Err(e) = std::fs::write(j, t) {
                    eprintln!("ptx-sync check: cannot write {}: {e}", j.display());
                    return 2;
                }
            }
            if let (Some(d), Some(dot)) = (witness, out.dot()) {
                if let Err(e) = write_witness(d, &out.entry, &dot) {
                    eprintln!("ptx-sync check: {e}");
                    return 2;
                }
            }
            if out.decided() {
                0
            } else {
                3
            }
        }
        Err(e) => {
            eprintln!("{e}");
            if e.kind == ErrorKind::Parse {
                2
            } else {
                3
            }
        }
    }
}

/// Writes `dir/NAME.dot` and, where the layout succeeds, `dir/NAME.svg` (`NAME`: `entry` with
/// anything but `[A-Za-z0-9_.-]` as `_`).
fn write_witness(dir: &std::path::Path, entry: &str, dot: &str) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let stem: String = entry
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_.-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let p = dir.join(format!("{stem}.dot"));
    std::fs::write(&p, dot).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    match crate::report::svg_of_dot(dot) {
        Some(svg) => {
            let p = dir.join(format!("{stem}.svg"));
            std::fs::write(&p, svg).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
        }
        None => {
            eprintln!("ptx-sync check: {entry}: no SVG (layout failed); the DOT file is written")
        }
    }
    Ok(())
}
