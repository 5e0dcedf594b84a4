//! The seed's programs as data: kernel, roles, seed section, and how an instance's output words
//! become an outcome. The PTX of a program is read from its compiled kernel
//! ([`crate::analysis::kernel_ptx`]), not written here.
//!
//! The §2–§4 programs come from the registry of `ptx_sync_programs` (`programs/`: one source
//! per program, also the kernels' and the loom suite's, [`Program::litmus`]), the §5.1–§5.3
//! programs from `ptx_sync_programs::for_each_section5!` ([`Program::section5`]: name, seed,
//! text, correctness and loom verdict are the program's), DeepEP's barrier from
//! `ptx_sync_programs::deepep` (its one source, [`Program::deepep`]), and the §5.4 cluster
//! programs from `ptx_sync_programs::for_each_section54!` ([`Program::section54`]).
//!
//! DeepEP does not join `for_each_litmus!`: a [`Litmus`] program is a fixed set of roles over
//! the variables of one instance whose four output words the host classifies by its [`Shape`];
//! DeepEP's barrier is one role instantiated per rank over a rank-count-sized signal matrix,
//! with one output word per rank (the mask of the ranks it timed out on) and a missing-rank
//! variant, so its kernel, its parameter block and its classification ([`Kind::Deepep`]) differ
//! in layout. It has its own registry instead, `deepep::PROGRAMS`, which [`PROGRAMS`] takes its
//! entries from.

use ptx_sync_programs::section5::{Section5, Section54};
use ptx_sync_programs::{deepep, Litmus, Shape, Verdict};

/// The shape of a program: how many roles, which output words, how to read them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Message passing: P, C; word 0 = C's read of data.
    Mp,
    /// Message passing, C reading the flag once after a random delay: word 0 = data, word 1 =
    /// the flag as read.
    MpOnce,
    /// Store buffering: C1, C2; words 0, 1 = the reads of the other's flag.
    Sb,
    /// Counter: C1, C2; words 0, 1 = the old values.
    Count,
    /// The P/C1/C2 hand-off: words value1, value2, P wrote 43, timeout mask.
    Handoff,
    /// DeepEP's barrier; `missing`: one rank per instance never arrives.
    Deepep { missing: bool },
    /// A §5 kernel (`host/kernels/src/section5.rs`): one instance per launch, `(src, out,
    /// status)`; correct when `out[k] == src[k % src_words]` and `status == 0`.
    S5 {
        src_words: u32,
        out_words: u32,
        grid: u32,
        cluster: bool,
    },
}

impl Kind {
    /// Roles per instance (litmus kinds).
    pub fn roles(self) -> u32 {
        match self {
            Kind::Mp | Kind::MpOnce | Kind::Sb | Kind::Count => 2,
            Kind::Handoff => 3,
            Kind::Deepep { .. } => 8,
            Kind::S5 { .. } => 2,
        }
    }
    /// Variables per instance (litmus kinds).
    pub fn vars(self) -> u32 {
        match self {
            Kind::Mp | Kind::MpOnce | Kind::Sb => 2,
            Kind::Count => 1,
            Kind::Handoff => 6,
            Kind::Deepep { .. } | Kind::S5 { .. } => 0,
        }
    }
    /// The role names.
    #[allow(dead_code)]
    pub fn role_names(self) -> &'static [&'static str] {
        match self {
            Kind::Mp | Kind::MpOnce => &["P", "C"],
            Kind::Sb | Kind::Count => &["C1", "C2"],
            Kind::Handoff => &["P", "C1", "C2"],
            Kind::Deepep { .. } => &["rank"],
            Kind::S5 { .. } => &["P (warp 0)", "C (warp 1)"],
        }
    }
}

/// One program of the seed, in one variant.
#[derive(Clone, Copy, Debug)]
pub struct Program {
    /// CLI name (`mp_rel_acq_cta`).
    pub name: &'static str,
    /// Kernel symbol in the embedded PTX.
    pub kernel: &'static str,
    /// Seed section(s).
    pub seed: &'static str,
    /// One line: what the variant does.
    pub what: &'static str,
    pub kind: Kind,
    /// Correct per the PTX memory model: a forbidden outcome must never show.
    pub correct: bool,
    /// Default rounds (instances over all launches).
    pub rounds: u64,
    /// The hand-off version it belongs to (`handoff --version`), if any.
    pub version: Option<&'static str>,
    /// What its loom model reports: the program's own verdict (`loom-tests/tests/registry.rs`
    /// for the litmus programs, `loom-tests/tests/section5.rs` for §5.1–§5.3); `None`: no
    /// registry verdict (DeepEP's barrier and the §5.4 kernels have hand-written loom tests).
    pub loom: Option<Verdict>,
}

/// An outcome of one instance.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Outcome {
    pub label: String,
    pub class: Class,
}

/// What an outcome means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// Allowed and expected.
    Ok,
    /// The bug the broken variant can show; never allowed in a correct variant.
    Forbidden,
    /// A bounded wait ran out (the instance could not finish).
    Timeout,
}

impl Kind {
    /// The host's reading of a registry program's output words.
    pub const fn of(s: Shape) -> Kind {
        match s {
            Shape::Mp => Kind::Mp,
            Shape::MpOnce => Kind::MpOnce,
            Shape::Sb => Kind::Sb,
            Shape::Count => Kind::Count,
            Shape::Handoff => Kind::Handoff,
        }
    }
}

impl Program {
    /// The entry of a registry program (`ptx_sync_programs`): its metadata is the program's,
    /// `kernel` its kernel's symbol.
    pub const fn litmus<T: Litmus>(kernel: &'static str) -> Program {
        Program {
            name: T::NAME,
            kernel,
            seed: T::SEED,
            what: T::WHAT,
            kind: Kind::of(T::SHAPE),
            correct: T::CORRECT,
            rounds: T::ROUNDS,
            version: T::VERSION,
            loom: Some(T::LOOM),
        }
    }

    /// The entry of a §5.1–§5.3 program (`ptx_sync_programs::section5`, its one source): one CTA,
    /// [`T::BLOCKS`](Section5::BLOCKS) tiles of [`S5_TILE_WORDS`] words copied and read back,
    /// the program's loom verdict.
    pub const fn section5<T: Section5>(kernel: &'static str) -> Program {
        Program {
            name: T::NAME,
            kernel,
            seed: T::SEED,
            what: T::WHAT,
            kind: Kind::S5 {
                src_words: T::BLOCKS * S5_TILE_WORDS,
                out_words: T::BLOCKS * S5_TILE_WORDS,
                grid: 1,
                cluster: false,
            },
            correct: T::CORRECT,
            rounds: S5_ROUNDS,
            version: None,
            loom: Some(T::LOOM),
        }
    }

    /// The entry of a §5.4 program (`ptx_sync_programs::section5::Section54`, its one source):
    /// a cluster of 2 CTAs; [`T::BLOCKS`](Section54::BLOCKS) tiles of [`S5_TILE_WORDS`] words
    /// multicast from the source, each CTA writing back every tile it received; the program's
    /// loom verdict (`loom-tests/tests/section5.rs`).
    pub const fn section54<T: Section54>(kernel: &'static str) -> Program {
        Program {
            name: T::NAME,
            kernel,
            seed: "§5.4",
            what: T::WHAT,
            kind: Kind::S5 {
                src_words: T::BLOCKS * S5_TILE_WORDS,
                out_words: 2 * T::BLOCKS * S5_TILE_WORDS,
                grid: 2,
                cluster: true,
            },
            correct: T::CORRECT,
            rounds: S5_ROUNDS,
            version: None,
            loom: Some(T::LOOM),
        }
    }

    /// The entry of a DeepEP program (`ptx_sync_programs::deepep`, its one source): correct in
    /// both versions (with a missing rank the others must time out and name it); its loom model
    /// is `loom-tests/tests/deepep.rs`, not the registry suite.
    pub const fn deepep(d: deepep::Program) -> Program {
        Program {
            name: d.name,
            kernel: deepep::KERNEL,
            seed: deepep::SEED,
            what: d.what,
            kind: Kind::Deepep { missing: d.missing },
            correct: true,
            rounds: d.rounds,
            version: None,
            loom: None,
        }
    }
}

/// Words of a §5 kernel's shared-memory tile on the GPU (`S5_DATA` of
/// `host/kernels/src/section5.rs`): a block of the source.
pub const S5_TILE_WORDS: u32 = 256;

/// Default rounds (launches) of a §5 program.
const S5_ROUNDS: u64 = 2_000;

macro_rules! litmus_entries {
    ($($kernel:ident: $T:path),* $(,)?) => { [$(Program::litmus::<$T>(stringify!($kernel))),*] };
}
macro_rules! section5_entries {
    ($($kernel:ident: $T:path),* $(,)?) => { [$(Program::section5::<$T>(stringify!($kernel))),*] };
}
macro_rules! section54_entries {
    ($($kernel:ident: $T:path),* $(,)?) => { [$(Program::section54::<$T>(stringify!($kernel))),*] };
}

/// The registry's programs (`ptx_sync_programs::for_each_litmus!`).
const LITMUS: &[Program] = &ptx_sync_programs::for_each_litmus!(litmus_entries);
/// DeepEP's barrier (`ptx_sync_programs::deepep::PROGRAMS`).
const DEEPEP: &[Program] = &[
    Program::deepep(deepep::PROGRAMS[0]),
    Program::deepep(deepep::PROGRAMS[1]),
];
/// §5.1–§5.3 (`ptx_sync_programs::for_each_section5!`).
const SECTION5: &[Program] = &ptx_sync_programs::for_each_section5!(section5_entries);
/// §5.4 (`ptx_sync_programs::for_each_section54!`).
const SECTION54: &[Program] = &ptx_sync_programs::for_each_section54!(section54_entries);

/// The parts of [`PROGRAMS`] one after the other.
const fn concat<const N: usize>(parts: &[&[Program]]) -> [Program; N] {
    let mut out = [parts[0][0]; N];
    let (mut i, mut k) = (0, 0);
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[k] = parts[i][j];
            k += 1;
            j += 1;
        }
        i += 1;
    }
    assert!(k == N, "PROGRAMS: the parts' lengths do not add up");
    out
}

/// Every program, in the seed's order: the registry's (`ptx_sync_programs::for_each_litmus!`),
/// DeepEP's barrier, the §5.1–§5.3 programs (`for_each_section5!`), then the §5.4 kernels.
pub const PROGRAMS: &[Program] = &concat::<
    { LITMUS.len() + DEEPEP.len() + SECTION5.len() + SECTION54.len() },
>(&[LITMUS, DEEPEP, SECTION5, SECTION54]);

/// The value the host fills outputs with before a §5 launch.
pub const POISON: u32 = 0xAAAA_AAAA;

/// Looks a program up by name.
pub fn find(name: &str) -> Option<&'static Program> {
    PROGRAMS.iter().find(|p| p.name == name)
}

/// The hand-off versions `handoff --version` accepts.
#[allow(dead_code)] // used by the tests and the CLI's value list
pub const VERSIONS: &[&str] = &["2.5", "3.4", "4.3", "4.4"];

impl Program {
    /// Classifies a §5 run: `out` against `src`, and the status word.
    pub fn classify_s5(&self, src: &[u32], out: &[u32], status: u32) -> Outcome {
        let bad = out
            .iter()
            .enumerate()
            .filter(|&(k, &w)| w != src[k % src.len()])
            .count();
        if status != 0 {
            let what = [
                (1, "C's wait on full"),
                (2, "P's wait on empty"),
                (4, "the drain"),
            ]
            .iter()
            .filter(|(b, _)| status & b != 0)
            .map(|(_, w)| *w)
            .collect::<Vec<_>>()
            .join(", ");
            return Outcome {
                label: format!("timeout: {what}"),
                class: Class::Timeout,
            };
        }
        if bad == 0 {
            Outcome {
                label: "out == src".into(),
                class: Class::Ok,
            }
        } else {
            let poisoned = out.iter().filter(|&&w| w == POISON).count();
            let label = if poisoned == bad {
                "stale: some words never written (poison)".to_string()
            } else {
                "stale: some words differ from src".to_string()
            };
            Outcome {
                label,
                class: Class::Forbidden,
            }
        }
    }

    /// Classifies one instance's output words (`missing`: the absent rank, DeepEP only).
    pub fn classify(&self, w: &[u32], missing: Option<u32>) -> Outcome {
        let o = |label: String, class: Class| Outcome { label, class };
        match self.kind {
            Kind::Mp => {
                if w[3] != 0 {
                    return o("timeout: C never saw full == 1".into(), Class::Timeout);
                }
                match w[0] {
                    42 => o("full=1, data=42".into(), Class::Ok),
                    0 => o("full=1, data=0 (stale)".into(), Class::Forbidden),
                    v => o(format!("full=1, data={v}"), Class::Forbidden),
                }
            }
            Kind::MpOnce => match (w[1], w[0]) {
                (1, 42) => o("full=1, data=42".into(), Class::Ok),
                (1, 0) => o("full=1, data=0 (stale)".into(), Class::Forbidden),
                (1, v) => o(format!("full=1, data={v}"), Class::Forbidden),
                (0, v) if v == 0 || v == 42 => o(
                    format!("full=0 (read before P's store), data={v}"),
                    Class::Ok,
                ),
                (f, v) => o(format!("full={f}, data={v}"), Class::Forbidden),
            },
            Kind::Sb => {
                let (r1, r2) = (w[0], w[1]);
                let c = if r1 == 0 && r2 == 0 {
                    Class::Forbidden
                } else {
                    Class::Ok
                };
                o(format!("r1={r1} r2={r2}"), c)
            }
            Kind::Count => {
                let (a, b) = (w[0], w[1]);
                if a == b {
                    o(
                        format!("old1={a} old2={b} (an increment lost)"),
                        Class::Forbidden,
                    )
                } else {
                    o(format!("old1={a} old2={b}"), Class::Ok)
                }
            }
            Kind::Handoff => {
                let (v1, v2, wrote, mask) = (w[0], w[1], w[2] != 0, w[3]);
                let v = |x: u32| {
                    if x == 0xdead {
                        "-".to_string()
                    } else {
                        x.to_string()
                    }
                };
                if mask & 0b110 != 0 {
                    // Each role's timeout is its own outcome: C1 alone, C2 alone, or both.
                    let who = match mask & 0b110 {
                        0b010 => "C1 never saw full",
                        0b100 => "C2 never saw full",
                        _ => "C1 and C2 never saw full",
                    };
                    return o(
                        format!("timeout: {who} (value1={} value2={})", v(v1), v(v2)),
                        Class::Timeout,
                    );
                }
                let p = if wrote {
                    "P wrote 43"
                } else {
                    "P waited forever (nobody wrote empty)"
                };
                let label = format!("value1={} value2={}, {p}", v(v1), v(v2));
                let class = if v1 == 42 && v2 == 42 && wrote {
                    Class::Ok
                } else {
                    Class::Forbidden
                };
                o(label, class)
            }
            Kind::Deepep { .. } => {
                let r = w.len() as u32;
                let all = (1u32 << r) - 1;
                let mut passed = 0;
                let mut named = 0u32;
                let mut present = 0;
                for (rank, &x) in w.iter().enumerate() {
                    if Some(rank as u32) == missing {
                        continue;
                    }
                    present += 1;
                    if x & (1 << 31) == 0 {
                        return o("a present rank did not run".into(), Class::Timeout);
                    }
                    let m = x & all;
                    if m == 0 {
                        passed += 1;
                    }
                    named |= m;
                }
                match missing {
                    None if passed == present => {
                        o(format!("all {present} ranks passed"), Class::Ok)
                    }
                    None => o("timeout although every rank arrived".into(), Class::Timeout),
                    Some(m) => {
                        if passed == 0 && named == 1 << m {
                            o(format!("all {present} other ranks timed out and named the missing rank"), Class::Ok)
                        } else if passed > 0 {
                            o(
                                "a rank passed although one never arrived".into(),
                                Class::Forbidden,
                            )
                        } else {
                            o(
                                "timed out but named the wrong rank".into(),
                                Class::Forbidden,
                            )
                        }
                    }
                }
            }
            Kind::S5 { .. } => Outcome {
                label: "use classify_s5".into(),
                class: Class::Timeout,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_kernels_named() {
        for (i, p) in PROGRAMS.iter().enumerate() {
            assert!(
                PROGRAMS[i + 1..].iter().all(|q| q.name != p.name),
                "{}",
                p.name
            );
            if p.kernel.starts_with("litmus_") {
                assert_eq!(p.kernel, format!("litmus_{}", p.name));
            }
            assert!(
                p.kernel.starts_with("litmus_")
                    || p.kernel.starts_with("deepep_")
                    || p.kernel.starts_with("s5")
            );
        }
        for v in VERSIONS {
            let n = PROGRAMS.iter().filter(|p| p.version == Some(v)).count();
            assert!(n >= 2, "version {v} needs a broken and a fixed variant");
            assert!(PROGRAMS.iter().any(|p| p.version == Some(v) && p.correct));
            assert!(PROGRAMS.iter().any(|p| p.version == Some(v) && !p.correct));
        }
    }

    #[test]
    fn once_form_and_role_timeouts_classify() {
        let p = find("mp_rel_acq_once").unwrap();
        let c = |w: [u32; 4]| p.classify(&w, None);
        assert_eq!(c([42, 1, 0, 0]).class, Class::Ok);
        assert_eq!(c([0, 1, 0, 0]).class, Class::Forbidden);
        assert_eq!(c([0, 1, 0, 0]).label, "full=1, data=0 (stale)");
        assert_eq!(c([0, 0, 0, 0]).class, Class::Ok);
        assert_eq!(
            c([42, 0, 0, 0]).label,
            "full=0 (read before P's store), data=42"
        );
        assert_eq!(c([7, 0, 0, 0]).class, Class::Forbidden);
        let h = find("handoff_3_4").unwrap();
        let t = |mask: u32| h.classify(&[42, 0xdead, 1, mask], None);
        assert!(t(0b010).label.starts_with("timeout: C1 never saw full"));
        assert!(t(0b100).label.starts_with("timeout: C2 never saw full"));
        assert!(t(0b110)
            .label
            .starts_with("timeout: C1 and C2 never saw full"));
        assert!([0b010, 0b100, 0b110]
            .iter()
            .all(|&m| t(m).class == Class::Timeout));
    }

    #[test]
    fn classifies_synthetic_outputs() {
        let mp = find("mp_plain").unwrap();
        assert_eq!(mp.classify(&[42, 0, 0, 0], None).class, Class::Ok);
        assert_eq!(mp.classify(&[0, 0, 0, 0], None).class, Class::Forbidden);
        assert_eq!(mp.classify(&[0, 0, 0, 2], None).class, Class::Timeout);
        let sb = find("sb_sc").unwrap();
        assert_eq!(sb.classify(&[0, 0, 0, 0], None).class, Class::Forbidden);
        assert_eq!(sb.classify(&[1, 0, 0, 0], None).label, "r1=1 r2=0");
        let c = find("count_rmw").unwrap();
        assert_eq!(c.classify(&[0, 0, 0, 0], None).class, Class::Forbidden);
        assert_eq!(c.classify(&[1, 0, 0, 0], None).class, Class::Ok);
        let h = find("handoff_3_4").unwrap();
        assert_eq!(h.classify(&[42, 42, 1, 0], None).class, Class::Ok);
        assert_eq!(h.classify(&[42, 43, 1, 0], None).class, Class::Forbidden);
        assert_eq!(h.classify(&[0, 42, 1, 0], None).class, Class::Forbidden);
        let dead = h.classify(&[42, 42, 0, 1], None);
        assert_eq!(dead.class, Class::Forbidden);
        assert!(dead.label.contains("waited forever"), "{}", dead.label);
        assert_eq!(
            h.classify(&[0xdead, 42, 0, 0b011], None).class,
            Class::Timeout
        );
    }

    #[test]
    fn classifies_section5_runs() {
        let p = find("s52_tma_fix").unwrap();
        let src = [1, 2, 3, 4];
        assert_eq!(
            p.classify_s5(&src, &[1, 2, 3, 4, 1, 2, 3, 4], 0).class,
            Class::Ok
        );
        let stale = p.classify_s5(&src, &[1, 2, POISON, 4], 0);
        assert_eq!(stale.class, Class::Forbidden);
        assert!(stale.label.contains("poison"));
        assert_eq!(
            p.classify_s5(&src, &[1, 2, 7, 4], 0).label,
            "stale: some words differ from src"
        );
        assert_eq!(
            p.classify_s5(&src, &[1, 2, 3, 4], 3).label,
            "timeout: C's wait on full, P's wait on empty"
        );
    }

    #[test]
    fn classifies_deepep_ranks() {
        let d = find("deepep_barrier_missing").unwrap();
        let b31 = 1u32 << 31;
        // 4 ranks, rank 2 missing: the others name bit 2.
        let named = [b31 | 4, b31 | 4, 0, b31 | 4];
        assert_eq!(d.classify(&named, Some(2)).class, Class::Ok);
        let wrong = [b31 | 8, b31 | 4, 0, b31 | 4];
        assert_eq!(d.classify(&wrong, Some(2)).class, Class::Forbidden);
        let passed = [b31, b31 | 4, 0, b31 | 4];
        assert_eq!(d.classify(&passed, Some(2)).class, Class::Forbidden);
        let ok = [b31; 4];
        assert_eq!(
            find("deepep_barrier").unwrap().classify(&ok, None).class,
            Class::Ok
        );
        assert_eq!(
            find("deepep_barrier")
                .unwrap()
                .classify(&[b31, b31 | 1, b31, b31], None)
                .class,
            Class::Timeout
        );
    }
}
