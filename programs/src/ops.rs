//! The accesses and fences a program variant chooses, as values: a variant is a `const` of its
//! family's configuration, and each choice below expands to exactly one `ptx-sync` call with the
//! types it names (`Sco::Cta` + `St::Release` → `at::<Cta>().store::<Release>()`, PTX
//! `st.release.cta.u32`). On the GPU the roles are `#[inline(always)]` and the configuration a
//! constant, so every `match` here folds to its one instruction (the kernels' PTX shows it:
//! `ptx-sync tour`, `host/src/bin/ptx-sync/analysis/kernel_ptx.rs`).

use ptx_sync::{
    fence, AcqRel, Acquire, Cluster, Cta, Gpu, Relaxed, Release, Sc, Strong, Sys, Volatile,
};

/// A scope (PTX ISA §8.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sco {
    Cta,
    Cluster,
    Gpu,
    Sys,
}

/// The semantic of a flag store (`st{.sem}.scope`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum St {
    Relaxed,
    Release,
}

/// The semantic of a flag load (`ld{.sem}.scope`); `Volatile` is `ld.volatile` (scope ignored).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ld {
    Relaxed,
    Acquire,
    Volatile,
}

/// The semantic of an `atom` or `red`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rmw {
    Relaxed,
    Acquire,
    Release,
    AcqRel,
}

/// The semantic of a `red` (PTX `red` takes `.relaxed` and `.release`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Red {
    Relaxed,
    Release,
}

/// A fence slot: nothing, or `fence.{sc,acq_rel,acquire,release}.scope`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fence {
    None,
    Sc(Sco),
    AcqRel(Sco),
    Acquire(Sco),
    Release(Sco),
}

macro_rules! by_scope {
    ($s:expr, |$T:ident| $e:expr) => {
        match $s {
            Sco::Cta => {
                type $T = Cta;
                $e
            }
            Sco::Cluster => {
                type $T = Cluster;
                $e
            }
            Sco::Gpu => {
                type $T = Gpu;
                $e
            }
            Sco::Sys => {
                type $T = Sys;
                $e
            }
        }
    };
}

/// `st{.sem}.scope.u32 [f], v`.
#[inline(always)]
pub fn store(f: &Strong<u32>, s: Sco, sem: St, v: u32) {
    by_scope!(s, |S| match sem {
        St::Relaxed => f.at::<S>().store::<Relaxed>(v),
        St::Release => f.at::<S>().store::<Release>(v),
    })
}

/// `ld{.sem}.scope.u32 [f]`.
#[inline(always)]
pub fn load(f: &Strong<u32>, s: Sco, sem: Ld) -> u32 {
    by_scope!(s, |S| match sem {
        Ld::Relaxed => f.at::<S>().load::<Relaxed>(),
        Ld::Acquire => f.at::<S>().load::<Acquire>(),
        Ld::Volatile => f.at::<S>().load::<Volatile>(),
    })
}

/// `atom{.sem}.scope.add.u32 [f], v` (returns the old value).
#[inline(always)]
pub fn fetch_add(f: &Strong<u32>, s: Sco, sem: Rmw, v: u32) -> u32 {
    by_scope!(s, |S| match sem {
        Rmw::Relaxed => f.at::<S>().fetch_add::<Relaxed>(v),
        Rmw::Acquire => f.at::<S>().fetch_add::<Acquire>(v),
        Rmw::Release => f.at::<S>().fetch_add::<Release>(v),
        Rmw::AcqRel => f.at::<S>().fetch_add::<AcqRel>(v),
    })
}

/// `red{.sem}.scope.add.u32 [f], v`.
#[inline(always)]
pub fn red_add(f: &Strong<u32>, s: Sco, sem: Red, v: u32) {
    by_scope!(s, |S| match sem {
        Red::Relaxed => f.at::<S>().red_add::<Relaxed>(v),
        Red::Release => f.at::<S>().red_add::<Release>(v),
    })
}

impl Fence {
    /// Executes the fence (nothing for [`Fence::None`]).
    #[inline(always)]
    pub fn run(self) {
        match self {
            Fence::None => {}
            Fence::Sc(s) => by_scope!(s, |S| fence::<Sc, S>()),
            Fence::AcqRel(s) => by_scope!(s, |S| fence::<AcqRel, S>()),
            Fence::Acquire(s) => by_scope!(s, |S| fence::<Acquire, S>()),
            Fence::Release(s) => by_scope!(s, |S| fence::<Release, S>()),
        }
    }
}
