//! Semantics, scopes and state spaces as types.
//!
//! PTX ISA §8.4 (operation types), §8.5 (scope), §9.7.9.8 (`ld`), §9.7.9.10 (`st`),
//! §9.7.13.5 (`atom`), §9.7.13.6 (`red`), §9.7.13.4 (`fence`). Seed §3.5 and §4.6: every
//! synchronizing instruction is `op{.sem}{.scope}{.space}`, and each of the three is a marker type
//! here, so an illegal combination is a type error rather than a runtime surprise.
//!
//! | marker | PTX token | `ld` | `st` | `atom` | `red` | `fence` |
//! |---|---|---|---|---|---|---|
//! | [`Weak`] | *(none)* | yes | yes | – | – | – |
//! | [`Volatile`] | `.volatile` | yes | yes | – | – | – |
//! | [`Relaxed`] | `.relaxed` | yes | yes | yes | yes | – |
//! | [`Acquire`] | `.acquire` | yes | – | yes | – | yes (PTX 8.6) |
//! | [`Release`] | `.release` | – | yes | yes | yes | yes (PTX 8.6) |
//! | [`AcqRel`] | `.acq_rel` | – | – | yes | – | yes |
//! | [`Sc`] | `.sc` | – | – | – | – | yes |
//!
//! A "–" does not compile: `load::<Release>()` is rejected because PTX has no `ld.release`
//! (and no `ld.sc`, `st.sc`: seed §4.6); `red` has only `.relaxed`/`.release` (seed §4.5).

/// The PTX spelling of every marker type — the one place a token such as `.acquire`, `.gpu` or
/// `.shared::cta` is written. `tok!(Acquire)` expands to the literal `".acquire"`; the markers'
/// `PTX` constants and every family's `asm!` template (`concat!("ld", tok!(Acquire), ...)`) are
/// built from it, so a token cannot be spelled two ways (issue #9 item 1).
macro_rules! tok {
    (Weak) => {
        ""
    };
    (Volatile) => {
        ".volatile"
    };
    (Relaxed) => {
        ".relaxed"
    };
    (Acquire) => {
        ".acquire"
    };
    (Release) => {
        ".release"
    };
    (AcqRel) => {
        ".acq_rel"
    };
    (Sc) => {
        ".sc"
    };
    (Cta) => {
        ".cta"
    };
    (Cluster) => {
        ".cluster"
    };
    (Gpu) => {
        ".gpu"
    };
    (Sys) => {
        ".sys"
    };
    // `membar.level`'s spelling of the `.gpu` level (PTX ISA §9.7.13.4: `.level = { .cta, .gl,
    // .sys }`); used only by the membar table, for the `Gpu` marker.
    (Gl) => {
        ".gl"
    };
    (Generic) => {
        ""
    };
    (Global) => {
        ".global"
    };
    (Shared) => {
        ".shared::cta"
    };
    (SharedCluster) => {
        ".shared::cluster"
    };
    (Aligned) => {
        ".aligned"
    };
    // `fence{.proxy.async::generic}.sem.sync_restrict::space.cluster` (PTX ISA §9.7.13.4, PTX
    // 8.6): the restricted-synchronization qualifier, one spelling per space it takes.
    (SyncRestrict Shared) => {
        ".sync_restrict::shared::cta"
    };
    (SyncRestrict SharedCluster) => {
        ".sync_restrict::shared::cluster"
    };
    // L2 eviction priorities of `createpolicy` (PTX ISA §9.7.9.18), and the
    // `.L2::cache_hint` qualifier of the copies that take a policy operand.
    (EvictFirst) => {
        ".L2::evict_first"
    };
    (EvictLast) => {
        ".L2::evict_last"
    };
    (EvictNormal) => {
        ".L2::evict_normal"
    };
    (EvictUnchanged) => {
        ".L2::evict_unchanged"
    };
    (NoSecondary) => {
        ""
    };
    (CacheHint) => {
        ".L2::cache_hint"
    };
    // The modifiers of the copies (`copy::Mods`): no `.L2::cache_hint`; this CTA only, or the
    // `.multicast::cluster` of a CTA mask (PTX ISA §9.7.9.25.4/5).
    (NoHint) => {
        ""
    };
    (ThisCta) => {
        ""
    };
    (CtaMask) => {
        ".multicast::cluster"
    };
    // The uni-directional proxy fence's `.to_proxykind::from_proxykind` for async ← generic.
    (AsyncGeneric) => {
        ".async::generic"
    };
    (Unaligned) => {
        ""
    };
    (Ca) => {
        ".ca"
    };
    (Cg) => {
        ".cg"
    };
    // `cp.async`'s `.level::prefetch_size` (PTX ISA §9.7.9.25.3).
    (Prefetch64B) => {
        ".L2::64B"
    };
    (Prefetch128B) => {
        ".L2::128B"
    };
    (Prefetch256B) => {
        ".L2::256B"
    };
}
pub(crate) use tok;

mod sealed {
    pub trait Sealed {}
}
pub(crate) use sealed::Sealed;

/// A memory-ordering semantic, written `.sem` in PTX (PTX ISA §8.4).
pub trait Sem: Sealed + Copy + Default + 'static {
    /// The PTX token this semantic adds to an instruction (`""` for [`Weak`]).
    const PTX: &'static str;
    /// The marker's name, as written in Rust (`"Acquire"`).
    const NAME: &'static str;
    /// The scope level the scope model (`ptx_sync::model`, `--cfg loom`) gives an access with
    /// this semantic whatever its scope parameter: `Some(-1)` for [`Weak`] (not strong, no
    /// scope), `Some(3)` for [`Volatile`] (`.relaxed.sys`, PTX ISA §8.4), `None` for the others
    /// (the access's own scope). A typed property, so no decision compares marker names.
    #[doc(hidden)]
    const FIXED_LEVEL: Option<i8>;
}

/// [`Sem::FIXED_LEVEL`] of each semantic.
macro_rules! fixed_level {
    (Weak) => {
        Some(-1)
    };
    (Volatile) => {
        Some(3)
    };
    ($other:ident) => {
        None
    };
}

/// A semantic accepted by `ld` (PTX ISA §9.7.9.8): `Weak`, `Volatile`, `Relaxed`, `Acquire`.
#[diagnostic::on_unimplemented(
    message = "PTX has no `ld{{.sem}}` for `{Self}`: a load takes Weak, Volatile, Relaxed or Acquire",
    label = "not a load semantic",
    note = "PTX ISA §9.7.9.8: `ld` has no `.release`, `.acq_rel` or `.sc` form (seed §4.6)"
)]
pub trait LoadSem: Sem {
    /// The C++/Rust ordering the host backend uses for this semantic.
    #[doc(hidden)]
    const HOST: core::sync::atomic::Ordering;
}

/// A semantic accepted by `st` (PTX ISA §9.7.9.10): `Weak`, `Volatile`, `Relaxed`, `Release`.
#[diagnostic::on_unimplemented(
    message = "PTX has no `st{{.sem}}` for `{Self}`: a store takes Weak, Volatile, Relaxed or Release",
    label = "not a store semantic",
    note = "PTX ISA §9.7.9.10: `st` has no `.acquire`, `.acq_rel` or `.sc` form (seed §4.6)"
)]
pub trait StoreSem: Sem {
    #[doc(hidden)]
    const HOST: core::sync::atomic::Ordering;
}

/// A semantic accepted by `atom` (PTX ISA §9.7.13.5): `Relaxed`, `Acquire`, `Release`, `AcqRel`.
#[diagnostic::on_unimplemented(
    message = "PTX has no `atom{{.sem}}` for `{Self}`: an atom takes Relaxed, Acquire, Release or AcqRel",
    label = "not an atom semantic",
    note = "PTX ISA §9.7.13.5: `atom` is always strong and has no `.sc` form (seed §4.3)"
)]
pub trait RmwSem: Sem {
    #[doc(hidden)]
    const HOST: core::sync::atomic::Ordering;
}

/// A semantic accepted by `red` (PTX ISA §9.7.13.6): `Relaxed`, `Release` only.
#[diagnostic::on_unimplemented(
    message = "PTX has no `red{{.sem}}` for `{Self}`: red takes only Relaxed or Release",
    label = "red cannot acquire",
    note = "seed §4.5: `red` returns nothing, so it cannot be an acquire; use `atom` (fetch_*) instead"
)]
pub trait RedSem: Sem {
    #[doc(hidden)]
    const HOST: core::sync::atomic::Ordering;
}

/// A semantic accepted by `fence{.sem}.scope` (PTX ISA §9.7.13.4): `Sc`, `AcqRel`, `Acquire`,
/// `Release`.
#[diagnostic::on_unimplemented(
    message = "PTX has no `fence{{.sem}}` for `{Self}`: a fence takes Sc, AcqRel, Acquire or Release",
    label = "not a fence semantic",
    note = "PTX ISA §9.7.13.4: a fence is always synchronizing; there is no `fence.relaxed`"
)]
pub trait FenceSem: Sem {
    #[doc(hidden)]
    const HOST: core::sync::atomic::Ordering;
}

use core::sync::atomic::Ordering as O;

macro_rules! sems {
    ($( $(#[$m:meta])* $name:ident [$($cat:ident = $ord:ident),*] )*) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;
        impl Sealed for $name {}
        impl Sem for $name {
            const PTX: &'static str = tok!($name);
            const NAME: &'static str = stringify!($name);
            const FIXED_LEVEL: Option<i8> = fixed_level!($name);
        }
        $( impl $cat for $name { const HOST: O = O::$ord; } )*
    )*};
}

sems! {
    /// Weak (ordinary) access: plain `ld`/`st`, no `.sem`, no `.scope` (PTX ISA §8.4; seed §3.1
    /// "ordinary" access). A weak access never communicates: a spin loop on it may be deleted by
    /// ptxas (seed §3.5). On the host it is a relaxed access (a race on it is not UB there).
    Weak [LoadSem = Relaxed, StoreSem = Relaxed]
    /// Legacy `.volatile`: strong, treated as `.relaxed.sys` by the memory model (PTX ISA §8.4),
    /// no scope token. DeepEP's `ld_volatile_global` spins with it (seed 004).
    Volatile [LoadSem = Relaxed, StoreSem = Relaxed]
    /// `.relaxed`: strong but not synchronizing (PTX ISA §8.4; seed §3.5, §4.1). `atom` without a
    /// `.sem` means this.
    Relaxed [LoadSem = Relaxed, StoreSem = Relaxed, RmwSem = Relaxed, RedSem = Relaxed]
    /// `.acquire`: the acquire half of a synchronization (PTX ISA §8.8 acquire pattern; seed §3.3).
    Acquire [LoadSem = Acquire, RmwSem = Acquire, FenceSem = Acquire]
    /// `.release`: the release half of a synchronization (PTX ISA §8.8 release pattern; seed §3.2).
    Release [StoreSem = Release, RmwSem = Release, RedSem = Release, FenceSem = Release]
    /// `.acq_rel`: both halves (seed §3.4, §4.3).
    AcqRel [RmwSem = AcqRel, FenceSem = AcqRel]
    /// `.sc`: only on `fence` (PTX has no `ld.sc`/`st.sc`); orders all four pairs including W→R and
    /// takes part in the Fence-SC order (PTX ISA §8.9.3; seed §2, §3.6). Host: `fence(SeqCst)`.
    Sc [FenceSem = SeqCst]
}

/// A scope: the set of threads an operation may communicate with directly (PTX ISA §8.5;
/// seed §3.5, §4.2). Two strong accesses synchronize only if each one's scope includes the other's
/// thread.
pub trait Scope: Sealed + Copy + Default + 'static {
    /// The PTX token (`".gpu"`).
    const PTX: &'static str;
    /// The marker's name (`"Gpu"`).
    const NAME: &'static str;
    /// Rank for inclusion checks: `Cta` < `Cluster` < `Gpu` < `Sys`.
    const LEVEL: u8;
}

macro_rules! scopes {
    ($( $(#[$m:meta])* $name:ident $lvl:literal )*) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;
        impl Sealed for $name {}
        impl Scope for $name {
            const PTX: &'static str = tok!($name);
            const NAME: &'static str = stringify!($name);
            const LEVEL: u8 = $lvl;
        }
    )*};
}

scopes! {
    /// `.cta`: threads of the same CTA (thread block).
    Cta 0
    /// `.cluster`: threads of the same cluster (sm_90).
    Cluster 1
    /// `.gpu`: threads of the same GPU.
    Gpu 2
    /// `.sys`: all threads of the program, on every GPU and the CPU.
    Sys 3
}

/// Unit marker types carrying a PTX token: `token_markers! { Trait; /// doc  Name ... }`
/// defines each `Name` (sealed) with `Trait::PTX = tok!(Name)` and `Trait::NAME = "Name"`;
/// `token_markers! { /// doc  trait Trait; … }` declares the (sealed) trait first. Used for
/// spaces here and for the modifiers of the async families (`.aligned`, `.ca`/`.cg`, …).
macro_rules! token_markers {
    ($(#[$tm:meta])* trait $Trait:ident; $($rest:tt)*) => {
        $(#[$tm])*
        pub trait $Trait: $crate::sem::Sealed + Copy + Default + 'static {
            /// The marker's PTX token (its `tok!` arm in `device/src/sem.rs`; `""` for a
            /// marker that adds none).
            const PTX: &'static str;
            /// The marker's Rust name (`"Global"`).
            const NAME: &'static str;
        }
        $crate::sem::token_markers! { $Trait; $($rest)* }
    };
    ($Trait:ident; $( $(#[$m:meta])* $name:ident )*) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;
        impl $crate::sem::Sealed for $name {}
        impl $Trait for $name {
            const PTX: &'static str = $crate::sem::tok!($name);
            const NAME: &'static str = stringify!($name);
        }
    )*};
}
pub(crate) use token_markers;

token_markers! {
    /// A state space for addressing (PTX ISA §5.1). Pointers are always passed as *generic*
    /// addresses; a non-generic space converts inside the asm with `cvta.to.<space>.u64` before
    /// using the space-qualified instruction (a generic pointer handed straight to a `.global`
    /// instruction assembles but is wrong).
    trait Space;
    /// Generic addressing: no space token; the hardware resolves the window (what CCCL emits).
    Generic
    /// `.global`, reached with `cvta.to.global.u64` from a generic pointer.
    Global
    /// `.shared::cta` (the executing CTA's shared memory), via `cvta.to.shared::cta.u64`.
    Shared
    /// `.shared::cluster` (any CTA's shared memory in the cluster; sm_90), via
    /// `cvta.to.shared::cluster.u64`.
    SharedCluster
}
