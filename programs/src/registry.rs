//! The registry: the [`Litmus`] trait every program implements, and [`for_each_litmus!`], the
//! list of programs in the seed's order that the kernels, the host's program table, the CPU
//! runner and the loom suite expand.

use crate::env::{Env, Mem};

/// How the host reads a program's output words (`host/src/bin/ptx-sync/registry/programs.rs` classifies).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Message passing: P, C; word 0 = C's read of data (after seeing the flag), word 3 = the
    /// timeout mask.
    Mp,
    /// Message passing, C reading the flag once after a delay: word 0 = data, word 1 = the flag.
    MpOnce,
    /// Store buffering: C1, C2; words 0, 1 = each one's read of the other's flag.
    Sb,
    /// Counter: C1, C2; words 0, 1 = the old values.
    Count,
    /// The P/C1/C2 hand-off: words value1, value2, P wrote 43, timeout mask.
    Handoff,
}

impl Shape {
    /// Roles per instance.
    pub const fn roles(self) -> u32 {
        match self {
            Shape::Mp | Shape::MpOnce | Shape::Sb | Shape::Count => 2,
            Shape::Handoff => 3,
        }
    }
    /// Variables per instance.
    pub const fn vars(self) -> u32 {
        match self {
            Shape::Mp | Shape::MpOnce | Shape::Sb => 2,
            Shape::Count => 1,
            Shape::Handoff => 6,
        }
    }
    /// Whether an instance's output words show the program's bug (`false` for a timeout: the
    /// host classifies those separately).
    pub fn forbidden(self, w: [u32; 4]) -> bool {
        match self {
            Shape::Mp => w[3] == 0 && w[0] != 42,
            Shape::MpOnce => (w[1] == 1 && w[0] != 42) || (w[1] > 1) || (w[0] != 0 && w[0] != 42),
            Shape::Sb => w[0] == 0 && w[1] == 0,
            Shape::Count => w[0] == w[1],
            Shape::Handoff => w[3] & 0b110 == 0 && !(w[0] == 42 && w[1] == 42 && w[2] != 0),
        }
    }
}

/// What the loom model of a program (each role a loom thread in its own CTA and cluster, as the
/// GPU runner places roles) must report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every execution ends without a forbidden outcome, a race or a deadlock.
    Passes,
    /// Some execution panics with a message containing one of these texts (`"ptx-sync model:
    /// data race on Data"`, `"not morally strong"`, `"deadlock: nobody writes empty"`, or
    /// [`FORBIDDEN`] for a forbidden outcome seen by the model; more than one where the
    /// schedule loom meets first decides which shows).
    Caught(&'static [&'static str]),
    /// Outside what loom explores (its C++ model has no load buffering and no store buffering
    /// between relaxed accesses of one location pair): stated, not run.
    NotModelled(&'static str),
}

/// The panic text of the loom suite when an execution ends in a forbidden outcome.
pub const FORBIDDEN: &str = "forbidden outcome";

/// One program of the seed in one variant: its roles and what is expected of it.
pub trait Litmus {
    /// CLI name (`mp_rel_acq_cta`); the kernel is `litmus_<NAME>`.
    const NAME: &'static str;
    /// Seed section(s).
    const SEED: &'static str;
    /// One line: what the variant does.
    const WHAT: &'static str;
    /// How the output words read.
    const SHAPE: Shape;
    /// Correct per the PTX memory model: a forbidden outcome must never show.
    const CORRECT: bool;
    /// Default rounds on the GPU (instances over all launches).
    const ROUNDS: u64 = 1_000_000;
    /// The hand-off version (`handoff --version`) it belongs to, if any.
    const VERSION: Option<&'static str> = None;
    /// What the loom model reports.
    const LOOM: Verdict;
    /// Runs role `role` (0-based, `< SHAPE.roles()`) of one instance.
    fn role<E: Env, M: Mem>(role: u32, e: &E, m: &M);
}

/// Calls `$m! { litmus_kernel_name: Type, ... }` with every program, in the seed's order. The one
/// list of programs: the kernels (`host/kernels/src/litmus.rs`), the host's table
/// (`host/src/bin/ptx-sync/registry/programs.rs`) and the loom suite (`loom-tests/tests/registry.rs`) expand
/// it.
#[macro_export]
macro_rules! for_each_litmus {
    ($m:ident) => {
        $m! {
            litmus_sb_plain: $crate::sb::SbPlain,
            litmus_sb_acq_rel: $crate::sb::SbAcqRel,
            litmus_sb_sc: $crate::sb::SbSc,
            litmus_mp_plain: $crate::mp::MpPlain,
            litmus_mp_fence_p: $crate::mp::MpFenceP,
            litmus_mp_fence_c: $crate::mp::MpFenceC,
            litmus_mp_fence_sc: $crate::mp::MpFenceSc,
            litmus_mp_fence_acq_rel: $crate::mp::MpFenceAcqRel,
            litmus_mp_rel_acq: $crate::mp::MpRelAcq,
            litmus_mp_rel_acq_cta: $crate::mp::MpRelAcqCta,
            litmus_mp_plain_once: $crate::mp::MpPlainOnce,
            litmus_mp_rel_acq_once: $crate::mp::MpRelAcqOnce,
            litmus_mp_rel_acq_cta_once: $crate::mp::MpRelAcqCtaOnce,
            litmus_count_rmw: $crate::count::CountRmw,
            litmus_count_atom_gpu: $crate::count::CountAtomGpu,
            litmus_count_atom_cta: $crate::count::CountAtomCta,
            litmus_handoff_2_5_nofence: $crate::handoff::Handoff25NoFence,
            litmus_handoff_2_5: $crate::handoff::Handoff25,
            litmus_handoff_3_4_no_sc: $crate::handoff::Handoff34NoSc,
            litmus_handoff_3_4_no_c2_release: $crate::handoff::Handoff34NoC2Release,
            litmus_handoff_3_4: $crate::handoff::Handoff34,
            litmus_handoff_4_3_relaxed: $crate::handoff::Handoff43Relaxed,
            litmus_handoff_4_3: $crate::handoff::Handoff43,
            litmus_handoff_4_4_relaxed: $crate::handoff::Handoff44Relaxed,
            litmus_handoff_4_4: $crate::handoff::Handoff44,
            litmus_handoff_4_5_red: $crate::handoff::Handoff45Red,
        }
    };
}

/// Declares a variant type of a family: `variant!(Type, CONFIG, name, seed, shape, correct,
/// loom, what)` (+ optional `rounds:`/`version:`), its roles the family's `role(CONFIG, ..)`.
macro_rules! variant {
    ($(#[$m:meta])* $T:ident = $cfg:expr, $name:literal, $seed:literal, $shape:expr, correct: $ok:expr,
     loom: $loom:expr, $(rounds: $rounds:expr,)? $(version: $ver:expr,)? $what:literal) => {
        $(#[$m])*
        #[doc = concat!("\n\n`", $name, "` (", $seed, "): ", $what)]
        pub struct $T;
        impl $crate::registry::Litmus for $T {
            const NAME: &'static str = $name;
            const SEED: &'static str = $seed;
            const WHAT: &'static str = $what;
            const SHAPE: $crate::registry::Shape = $shape;
            const CORRECT: bool = $ok;
            $(const ROUNDS: u64 = $rounds;)?
            $(const VERSION: Option<&'static str> = Some($ver);)?
            const LOOM: $crate::registry::Verdict = $loom;
            #[inline(always)]
            fn role<E: $crate::env::Env, M: $crate::env::Mem>(role: u32, e: &E, m: &M) {
                role_of($cfg, role, e, m)
            }
        }
    };
}
pub(crate) use variant;

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    extern crate std;
    use std::vec::Vec;

    macro_rules! rows {
        ($($kernel:ident: $T:path),* $(,)?) => {
            [$((stringify!($kernel), <$T as Litmus>::NAME, <$T as Litmus>::SHAPE,
                <$T as Litmus>::CORRECT, <$T as Litmus>::LOOM)),*]
        };
    }

    #[test]
    fn registry_rows_are_consistent() {
        let rows = crate::for_each_litmus!(rows);
        assert!(rows.len() >= 25, "{}", rows.len());
        let names: Vec<&str> = rows.iter().map(|r| r.1).collect();
        for (i, (kernel, name, _, correct, loom)) in rows.iter().enumerate() {
            assert_eq!(*kernel, std::format!("litmus_{name}"), "kernel of {name}");
            assert!(!names[i + 1..].contains(name), "{name} twice");
            // A correct program must not be expected to fail under loom for its own sake.
            if *correct {
                assert!(
                    !matches!(loom, Verdict::Caught(_)),
                    "{name}: correct but caught"
                );
            }
        }
    }

    #[test]
    fn shapes_classify_synthetic_words() {
        assert!(Shape::Mp.forbidden([0, 0, 0, 0]));
        assert!(!Shape::Mp.forbidden([42, 0, 0, 0]));
        assert!(
            !Shape::Mp.forbidden([0, 0, 0, 2]),
            "a timeout is not forbidden"
        );
        assert!(Shape::Sb.forbidden([0, 0, 0, 0]));
        assert!(!Shape::Sb.forbidden([1, 0, 0, 0]));
        assert!(Shape::Count.forbidden([0, 0, 0, 0]));
        assert!(!Shape::Count.forbidden([0, 1, 0, 0]));
        assert!(!Shape::Handoff.forbidden([42, 42, 1, 0]));
        assert!(Shape::Handoff.forbidden([42, 43, 1, 0]));
        assert!(!Shape::Handoff.forbidden([42, 0xdead, 1, 0b100]));
        assert!(!Shape::MpOnce.forbidden([0, 0, 0, 0]));
        assert!(Shape::MpOnce.forbidden([0, 1, 0, 0]));
    }
}
