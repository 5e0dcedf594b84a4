//! The parsed form of a litmus test (see `model/FORMAT.md`).

use std::fmt;

/// A location's memory as named in the test. `phys` is the physical location (PTX ISA 8.2.2:
/// aliases are different virtual addresses of the same memory), `vaddr` the virtual address.
/// A surface/texture/constant alias (`s @ surface aliases x`) is the *same* virtual address as
/// its target accessed through another proxy; a generic alias (`y @ generic aliases x`) is a
/// different virtual address of the same memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    /// The name as written.
    pub name: String,
    /// Index of the virtual address.
    pub vaddr: usize,
    /// Index of the physical location.
    pub phys: usize,
}

/// The memory proxies of PTX ISA 8.6 that the format can express.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Proxy {
    /// The generic proxy (ordinary `ld`/`st`/`atom`/`red`).
    Generic,
    /// The surface proxy (`suld`/`sust`).
    Surface,
    /// The texture proxy (`tld`).
    Texture,
    /// The constant proxy (`ld.const`, `cold`).
    Constant,
    /// The async proxy (bulk copies; no access of the format uses it, `fence.proxy.async` exists).
    Async,
}

impl fmt::Display for Proxy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Proxy::Generic => "generic",
            Proxy::Surface => "surface",
            Proxy::Texture => "texture",
            Proxy::Constant => "constant",
            Proxy::Async => "async",
        })
    }
}

/// Scopes (PTX ISA 8.5), ordered by inclusion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// `.cta`
    Cta,
    /// `.cluster`
    Cluster,
    /// `.gpu`
    Gpu,
    /// `.sys`
    Sys,
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Scope::Cta => "cta",
            Scope::Cluster => "cluster",
            Scope::Gpu => "gpu",
            Scope::Sys => "sys",
        })
    }
}

/// Memory-operation semantics (PTX ISA 8.4). `.volatile` is parsed as `Relaxed` at `.sys`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sem {
    /// `.weak` (or no qualifier): not strong.
    Weak,
    /// `.relaxed`
    Relaxed,
    /// `.acquire`
    Acquire,
    /// `.release`
    Release,
    /// `.acq_rel`
    AcqRel,
}

impl fmt::Display for Sem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Sem::Weak => "weak",
            Sem::Relaxed => "relaxed",
            Sem::Acquire => "acquire",
            Sem::Release => "release",
            Sem::AcqRel => "acq_rel",
        })
    }
}

/// Fence semantics (PTX ISA `fence`, 8.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FenceSem {
    /// `fence.sc`
    Sc,
    /// `fence.acq_rel`
    AcqRel,
    /// `fence.acquire` (PTX 8.6)
    Acquire,
    /// `fence.release` (PTX 8.6)
    Release,
}

/// A value operand: a register of the thread or a literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Val {
    /// Register index in the thread's register file.
    Reg(usize),
    /// Integer literal.
    Imm(i64),
}

/// Read-modify-write operations of `atom`/`red` (PTX ISA `atom`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RmwOp {
    /// `.add`
    Add,
    /// `.sub` (not in the ISA; other tools' dialect: add of the negation)
    Sub,
    /// `.inc`: `old >= b ? 0 : old + 1`
    Inc,
    /// `.dec`: `old == 0 || old > b ? b : old - 1`
    Dec,
    /// `.and`
    And,
    /// `.or`
    Or,
    /// `.xor`
    Xor,
    /// `.min`
    Min,
    /// `.max`
    Max,
    /// `.exch`
    Exch,
    /// `.cas` (the operand pair is compare, new)
    Cas,
}

/// Register arithmetic of the format (`add rD, a, b` ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluOp {
    /// `mov rD, a` (and `ld rD, 5`)
    Mov,
    /// `add`
    Add,
    /// `sub`
    Sub,
    /// `mul`
    Mul,
    /// `div` (division by zero yields 0)
    Div,
    /// `and`
    And,
    /// `or`
    Or,
    /// `xor`
    Xor,
}

/// A comparison: the operators of `setp`/`set` (PTX ISA §9.3.1), of which a litmus branch
/// (`beq` … `bge`) and a condition's operator (`==` … `>=`) use the first six.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `eq`, `beq`, `==`
    Eq,
    /// `ne`, `bne`, `!=`
    Ne,
    /// `lt`, `blt`, `<` (signed on a signed type)
    Lt,
    /// `le`, `ble`, `<=`
    Le,
    /// `gt`, `bgt`, `>`
    Gt,
    /// `ge`, `bge`, `>=`
    Ge,
    /// `lo` (unsigned <)
    Lo,
    /// `ls` (unsigned <=)
    Ls,
    /// `hi` (unsigned >)
    Hi,
    /// `hs` (unsigned >=)
    Hs,
    /// `equ` (float, unordered)
    Equ,
    /// `neu`
    Neu,
    /// `ltu`
    Ltu,
    /// `leu`
    Leu,
    /// `gtu`
    Gtu,
    /// `geu`
    Geu,
    /// `num` (neither is NaN)
    Num,
    /// `nan` (either is NaN)
    Nan,
}

impl Cmp {
    const ALL: [Cmp; 18] = [
        Cmp::Eq,
        Cmp::Ne,
        Cmp::Lt,
        Cmp::Le,
        Cmp::Gt,
        Cmp::Ge,
        Cmp::Lo,
        Cmp::Ls,
        Cmp::Hi,
        Cmp::Hs,
        Cmp::Equ,
        Cmp::Neu,
        Cmp::Ltu,
        Cmp::Leu,
        Cmp::Gtu,
        Cmp::Geu,
        Cmp::Num,
        Cmp::Nan,
    ];

    /// The `setp` qualifier that spells the comparison, without its dot: `eq`, `lo`, `geu`, …
    pub fn suffix(self) -> &'static str {
        match self {
            Cmp::Eq => "eq",
            Cmp::Ne => "ne",
            Cmp::Lt => "lt",
            Cmp::Le => "le",
            Cmp::Gt => "gt",
            Cmp::Ge => "ge",
            Cmp::Lo => "lo",
            Cmp::Ls => "ls",
            Cmp::Hi => "hi",
            Cmp::Hs => "hs",
            Cmp::Equ => "equ",
            Cmp::Neu => "neu",
            Cmp::Ltu => "ltu",
            Cmp::Leu => "leu",
            Cmp::Gtu => "gtu",
            Cmp::Geu => "geu",
            Cmp::Num => "num",
            Cmp::Nan => "nan",
        }
    }

    /// The comparison a `setp` qualifier (without its dot) spells, if it spells one.
    pub(crate) fn of_suffix(q: &str) -> Option<Cmp> {
        Self::ALL.into_iter().find(|c| c.suffix() == q)
    }

    /// Whether the comparison is defined on floats only (the unordered ones, `num`, `nan`).
    pub(crate) fn float_only(self) -> bool {
        matches!(
            self,
            Cmp::Equ | Cmp::Neu | Cmp::Ltu | Cmp::Leu | Cmp::Gtu | Cmp::Geu | Cmp::Num | Cmp::Nan
        )
    }

    /// Whether the comparison is an unsigned ordering (`lo`, `ls`, `hi`, `hs`: integers only).
    pub(crate) fn unsigned_only(self) -> bool {
        matches!(self, Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs)
    }

    /// The comparison a condition's operator spells: `==` (or `=`), `!=`, `<`, `<=`, `>`, `>=`
    /// (FORMAT's final condition, and a kernel check's assertion).
    pub(crate) fn of_operator(op: &str) -> Option<Cmp> {
        Some(match op {
            "==" | "=" => Cmp::Eq,
            "!=" => Cmp::Ne,
            "<" => Cmp::Lt,
            "<=" => Cmp::Le,
            ">" => Cmp::Gt,
            ">=" => Cmp::Ge,
            _ => return None,
        })
    }

    /// The comparison of a branch mnemonic `beq` `bne` `blt` `ble` `bgt` `bge` (FORMAT part 1);
    /// the caller has matched one of the six (anything else reads as `bge`).
    pub(crate) fn of_branch(op: &str) -> Cmp {
        op.strip_prefix('b')
            .and_then(Cmp::of_suffix)
            .unwrap_or(Cmp::Ge)
    }

    /// Evaluates the comparison modulo 2^`bits` (FORMAT part 2: "comparisons in the final
    /// condition are modulo 2^w"): `==`/`!=` compare the low `bits` bits; the orderings compare
    /// them as signed `bits`-bit numbers.
    pub fn eval_bits(self, a: i64, b: i64, bits: u32) -> bool {
        let bits = bits.clamp(1, 64);
        let low = |v: i64| (v as u64) & (u64::MAX >> (64 - bits));
        self.eval_int(low(a), low(b), bits, true)
    }

    /// Evaluates the comparison on two 64-bit signed numbers.
    pub fn eval(self, a: i64, b: i64) -> bool {
        self.eval_int(a as u64, b as u64, 64, true)
    }

    /// The integer comparison of `setp` (PTX ISA §9.3.1.1): `a`, `b` are the bits of a
    /// `bits`-wide type (the bits above zero); `lt`…`ge` compare them as signed numbers when
    /// `signed`, `lo`…`hs` always unsigned; a float-only comparison is false.
    pub fn eval_int(self, a: u64, b: u64, bits: u32, signed: bool) -> bool {
        let s = 64 - bits.clamp(1, 64);
        let (sa, sb) = (((a << s) as i64) >> s, ((b << s) as i64) >> s);
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt if signed => sa < sb,
            Cmp::Le if signed => sa <= sb,
            Cmp::Gt if signed => sa > sb,
            Cmp::Ge if signed => sa >= sb,
            Cmp::Lt | Cmp::Lo => a < b,
            Cmp::Le | Cmp::Ls => a <= b,
            Cmp::Gt | Cmp::Hi => a > b,
            Cmp::Ge | Cmp::Hs => a >= b,
            _ => false,
        }
    }

    /// The float comparison of `setp` (PTX ISA §9.3.1.2): the ordered ones are false when
    /// either is NaN, the unordered ones (`equ`…`geu`) true; an unsigned ordering is false.
    pub fn eval_float(self, a: f64, b: f64) -> bool {
        let nan = a.is_nan() || b.is_nan();
        match self {
            Cmp::Eq => !nan && a == b,
            Cmp::Ne => !nan && a != b,
            Cmp::Lt => !nan && a < b,
            Cmp::Le => !nan && a <= b,
            Cmp::Gt => !nan && a > b,
            Cmp::Ge => !nan && a >= b,
            Cmp::Equ => nan || a == b,
            Cmp::Neu => nan || a != b,
            Cmp::Ltu => nan || a < b,
            Cmp::Leu => nan || a <= b,
            Cmp::Gtu => nan || a > b,
            Cmp::Geu => nan || a >= b,
            Cmp::Num => !nan,
            Cmp::Nan => nan,
            Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs => false,
        }
    }
}

/// What a barrier instruction does (PTX ISA `bar`/`barrier`, 8.9.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BarKind {
    /// `bar.sync`: arrive and wait.
    Sync,
    /// `bar.arrive`: arrive, do not wait.
    Arrive,
    /// `bar.red.popc`: arrive, wait, count the threads whose predicate is true.
    RedPopc,
    /// `bar.red.and`
    RedAnd,
    /// `bar.red.or`
    RedOr,
}

impl BarKind {
    /// Whether the executing thread waits for the barrier to complete.
    pub fn waits(self) -> bool {
        !matches!(self, BarKind::Arrive)
    }
}

/// One instruction of a thread.
#[derive(Clone, Debug)]
pub enum Instr {
    /// `ld`, `suld`, `tld`, `cold`: `dst := [addr]`.
    Load {
        /// Semantics.
        sem: Sem,
        /// Scope (strong loads only).
        scope: Option<Scope>,
        /// Proxy of the access.
        proxy: Proxy,
        /// Destination register.
        dst: usize,
        /// Address.
        addr: Name,
    },
    /// `st`, `sust`.
    Store {
        /// Semantics.
        sem: Sem,
        /// Scope (strong stores only).
        scope: Option<Scope>,
        /// Proxy of the access.
        proxy: Proxy,
        /// Address.
        addr: Name,
        /// Value stored.
        val: Val,
    },
    /// `atom` (with a destination) and `red` (without).
    Rmw {
        /// Semantics.
        sem: Sem,
        /// Scope.
        scope: Scope,
        /// Operation.
        op: RmwOp,
        /// Destination register (`None` for `red`).
        dst: Option<usize>,
        /// Address.
        addr: Name,
        /// Operand (for `cas`: the compare value).
        a: Val,
        /// Second operand (`cas`: the new value).
        b: Option<Val>,
        /// Width in bits of the type (32 or 64; arithmetic wraps).
        bits: u32,
        /// Signed type (`.s32`/`.s64`): `min`/`max` compare signed.
        signed: bool,
    },
    /// `fence.sem.scope`, `membar`.
    Fence {
        /// Semantics.
        sem: FenceSem,
        /// Scope.
        scope: Scope,
    },
    /// `fence.proxy.{surface,texture,constant,async}`.
    ProxyFence {
        /// The proxy the fence orders with the generic proxy.
        proxy: Proxy,
    },
    /// `fence.proxy.alias`.
    AliasFence,
    /// `bar`/`barrier` at CTA level.
    Bar {
        /// What it does.
        kind: BarKind,
        /// Barrier number.
        id: Val,
        /// Thread count (`None`: all threads of the CTA).
        count: Option<Val>,
        /// Destination of `bar.red`.
        dst: Option<usize>,
        /// Predicate of `bar.red` (register, and whether negated).
        pred: Option<(Val, bool)>,
        /// Instance of another tool's three-operand dialect.
        instance: Option<i64>,
    },
    /// `barrier.cluster.arrive{.release,.relaxed}`.
    ClusterArrive {
        /// `.relaxed`: orders nothing.
        relaxed: bool,
    },
    /// `barrier.cluster.wait`.
    ClusterWait,
    /// Register arithmetic.
    Alu {
        /// Operation.
        op: AluOp,
        /// Destination.
        dst: usize,
        /// First operand.
        a: Val,
        /// Second operand (not for `Mov`).
        b: Val,
    },
    /// Conditional branch.
    Branch {
        /// Comparison.
        cmp: Cmp,
        /// Left operand.
        a: Val,
        /// Right operand.
        b: Val,
        /// Target instruction index.
        target: usize,
    },
    /// `goto`/`bra`.
    Goto {
        /// Target instruction index.
        target: usize,
    },
    /// A label (no effect).
    Nop,
}

/// An instruction with its source position and text.
#[derive(Clone, Debug)]
pub struct Line {
    /// The instruction.
    pub instr: Instr,
    /// Source line (1-based).
    pub line: usize,
    /// The text as written.
    pub text: String,
}

/// A thread's placement (PTX ISA 8.5 scopes; a thread belongs to one CTA, cluster and GPU).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    /// GPU index.
    pub gpu: i64,
    /// Cluster index (a CTA's own index when the test names no cluster).
    pub cluster: i64,
    /// CTA index.
    pub cta: i64,
}

impl Place {
    /// Whether a scope `s` of a thread at `self` includes a thread at `other` (PTX ISA 8.5).
    pub fn includes(&self, s: Scope, other: &Place) -> bool {
        match s {
            Scope::Sys => true,
            Scope::Gpu => self.gpu == other.gpu,
            Scope::Cluster => self.gpu == other.gpu && self.cluster == other.cluster,
            Scope::Cta => {
                self.gpu == other.gpu && self.cluster == other.cluster && self.cta == other.cta
            }
        }
    }
}

/// One thread of the test.
#[derive(Clone, Debug)]
pub struct Thread {
    /// Its number (`P0` → 0).
    pub id: usize,
    /// Its placement.
    pub place: Place,
    /// Register names, indexed by register number used in `Val::Reg`.
    pub regs: Vec<String>,
    /// Initial register values (by register index).
    pub init: Vec<i64>,
    /// The instructions (format part 1, for the enumerating checker; empty for a test that
    /// needs format part 2, see [`Test::legacy`]).
    pub code: Vec<Line>,
    /// The thread for the exploration engine: its program (one [`crate::ptx`] interpreter for
    /// both format parts), its [`crate::engine::op::Place`] and register names (`regs` above
    /// names the same registers, by the same numbers). `None` when [`Test::engine`] says why.
    pub prog: Option<crate::ptx::Thread>,
}

/// An operand of the final condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// A thread's register: (thread index in `Test::threads`, register index).
    Reg(usize, usize),
    /// A location's final value (physical location index; its layout variable is
    /// `Test::loc_var[p]`, byte offset 0).
    Loc(usize),
    /// A literal.
    Imm(i64),
    /// Bytes of memory (format part 2 terms `x+4`, `x@1`): a layout variable, whose copy, which
    /// offset. Its width is [`Test::term_bits`].
    Mem(MemTerm),
}

/// A memory term of the final condition (format part 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemTerm {
    /// Index in `Test::layout.vars` (the physical variable for an alias).
    pub var: usize,
    /// For a shared variable: the CTA whose copy (`x@N`).
    pub cta: Option<CtaRef>,
    /// Byte offset.
    pub off: u32,
}

/// A CTA of a test, as the engine places it ([`crate::engine::op::Place`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CtaRef {
    /// `Place::gpu`
    pub gpu: u32,
    /// `Place::cluster`
    pub cluster: u32,
    /// `Place::cta`
    pub cta: u32,
    /// `Place::rank`
    pub rank: u32,
}

/// The proposition of the final condition over terms `T` (a litmus test's [`Term`]s; a kernel
/// check's assertion has its own, buffer words).
#[derive(Clone, Debug)]
pub enum Prop<T = Term> {
    /// `true`
    True,
    /// `false`
    False,
    /// Comparison of two terms.
    Cmp(Cmp, T, T),
    /// `~p`
    Not(Box<Prop<T>>),
    /// `p /\ q`
    And(Box<Prop<T>>, Box<Prop<T>>),
    /// `p \/ q`
    Or(Box<Prop<T>>, Box<Prop<T>>),
}

/// The kind of the final condition (herd's `Allowed`/`Forbidden`/`Required`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    /// `exists p`: Ok when some execution satisfies p.
    Exists,
    /// `~exists p`: Ok when none does.
    NotExists,
    /// `forall p`: Ok when every execution does.
    Forall,
}

/// A whole litmus test.
#[derive(Clone, Debug)]
pub struct Test {
    /// The name after `PTX`.
    pub name: String,
    /// The file it came from (for messages).
    pub file: String,
    /// The quoted comment lines.
    pub comments: Vec<String>,
    /// Location names (every name, aliases included).
    pub names: Vec<Name>,
    /// Number of virtual addresses.
    pub n_vaddr: usize,
    /// Physical locations: (name of the root, initial value).
    pub phys: Vec<(String, i64)>,
    /// The threads.
    pub threads: Vec<Thread>,
    /// The condition's quantifier.
    pub quantifier: Quantifier,
    /// The condition's proposition.
    pub prop: Prop,
    /// The condition as written (after the quantifier keyword).
    pub condition_text: String,
    /// Terms listed in `locations [...]` plus those of the condition, in order, for states.
    pub observed: Vec<Term>,
    /// Line of the condition.
    pub condition_line: usize,
    /// The address space for the exploration engine (every variable, format parts 1 and 2).
    pub layout: crate::engine::op::Layout,
    /// Physical location `p` (of `phys`) is layout variable `loc_var[p]`.
    pub loc_var: Vec<usize>,
    /// Why the part-1 program (`code`, which `litmus FILE` turns into a GPU kernel) cannot be
    /// built for this test: it uses format part 2. `code` is then empty.
    pub legacy: Option<crate::parse::Error>,
    /// Why the engine's threads ([`Thread::prog`]) could not be built (a part-1 construct the
    /// new front end does not take).
    pub engine: Option<crate::parse::Error>,
    /// Width in bits of each thread's registers as condition terms (see [`Test::term_bits`]).
    pub reg_bits: Vec<Vec<u8>>,
    /// `(variable, offset, bits)` of every access the test names statically.
    pub mem_widths: Vec<(usize, u32, u8)>,
    /// The loop unroll bound of the threads: backward jumps to one loop head per entry into
    /// its loop before the path is cut and the verdict is `bounded` ([`Test::set_unroll`];
    /// [`crate::parse::DEFAULT_UNROLL`] unless `--unroll N` says otherwise).
    pub unroll: u32,
}

impl Test {
    /// Sets every thread's loop unroll bound (`ptx-sync check --unroll N`). Spin loops that only
    /// wait are decided without it (an iteration that changes nothing is not explored twice);
    /// any other loop that runs past `n` backward jumps cuts its path, and the verdict is then
    /// `bounded` ([`crate::Observation::Bounded`]).
    ///
    /// ```
    /// let mut t = ptx_sync_model::parse("PTX T\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.u32 [x], 1 ;\nexists (x == 1)\n", "t").unwrap();
    /// assert_eq!(t.unroll, ptx_sync_model::parse::DEFAULT_UNROLL);
    /// t.set_unroll(10);
    /// assert_eq!(t.unroll, 10);
    /// ```
    pub fn set_unroll(&mut self, n: u32) {
        self.unroll = n;
        for t in &mut self.threads {
            if let Some(p) = &mut t.prog {
                p.set_unroll(n);
            }
        }
    }

    /// The herd name of a term (`1:r0`, `x`).
    pub fn term_name(&self, t: &Term) -> String {
        match t {
            Term::Reg(th, r) => format!("{}:{}", self.threads[*th].id, self.threads[*th].regs[*r]),
            Term::Loc(p) => self.phys[*p].0.clone(),
            Term::Imm(v) => v.to_string(),
            Term::Mem(m) => {
                let mut s = self
                    .layout
                    .vars
                    .get(m.var)
                    .map_or("?".to_string(), |v| v.name.clone());
                if let Some(c) = m.cta {
                    s.push_str(&format!("@{}", self.cta_number(c)));
                }
                if m.off != 0 {
                    s.push_str(&format!("+{}", m.off));
                }
                s
            }
        }
    }

    /// The `cta N` number of the test's placement row for a CTA.
    pub fn cta_number(&self, c: CtaRef) -> i64 {
        self.threads
            .iter()
            .find(|t| {
                t.prog.as_ref().is_some_and(|p| {
                    let pl = p.geom().place;
                    (pl.gpu, pl.cta) == (c.gpu, c.cta)
                })
            })
            .map_or(c.cta as i64, |t| t.place.cta)
    }

    /// The width in bits of a condition term (FORMAT part 2): a register's is the widest type
    /// that writes it (32 when only 32-bit or untyped instructions write it, 1 for a
    /// predicate); a location's the widest access to that offset in the test (32 if none).
    /// `None` for a literal or when the engine's threads could not be built.
    pub fn term_bits(&self, t: &Term) -> Option<u32> {
        match t {
            Term::Imm(_) => None,
            Term::Reg(th, r) => self
                .reg_bits
                .get(*th)
                .and_then(|v| v.get(*r))
                .map(|b| *b as u32),
            Term::Loc(p) => {
                let v = *self.loc_var.get(*p)?;
                Some(self.mem_bits(v, 0))
            }
            Term::Mem(m) => Some(self.mem_bits(m.var, m.off)),
        }
    }

    fn mem_bits(&self, var: usize, off: u32) -> u32 {
        self.mem_widths
            .iter()
            .filter(|w| w.0 == var && w.1 == off)
            .map(|w| w.2 as u32)
            .max()
            .unwrap_or(32)
    }

    /// The width a comparison of `a` and `b` is evaluated at: the wider of its non-literal
    /// terms (64 when neither has a known width).
    pub fn cmp_bits(&self, a: &Term, b: &Term) -> u32 {
        match (self.term_bits(a), self.term_bits(b)) {
            (Some(x), Some(y)) => x.max(y),
            (Some(x), None) | (None, Some(x)) => x,
            (None, None) => 64,
        }
    }

    /// The `"Expected: ..."` comment, if the test carries one (ptx-sync's corpus convention).
    pub fn comment_field(&self, key: &str) -> Option<String> {
        let pre = format!("{key}:");
        self.comments.iter().find_map(|c| {
            c.trim()
                .strip_prefix(&pre)
                .map(|rest| rest.trim().to_string())
        })
    }
}
