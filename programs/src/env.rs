//! What a role needs from where it runs: [`Mem`] (the instance's variables and output words) and
//! [`Env`] (how it waits). Each instantiation implements both: the GPU harness
//! (`host/kernels/src/litmus.rs`), the CPU runner (`host/src/bin/ptx-sync/exec/cpu.rs`), loom
//! (`loom-tests`), and [`crate::cells`] for plain host use.

use ptx_sync::{Data, Strong};

/// The variables of one instance and its output words. Variable `v` is either ordinary data
/// ([`data`](Mem::data), only variable 0 of the programs that have data) or a strong flag
/// ([`flag`](Mem::flag)); on the GPU both are word `v` of the instance.
pub trait Mem {
    /// Variable `v` as ordinary data (`ld`/`st`; under loom a race-checked cell).
    fn data(&self, v: usize) -> &Data<u32>;
    /// Variable `v` as a strong location (`ld.relaxed`, `st.release`, `atom`, ...).
    fn flag(&self, v: usize) -> &Strong<u32>;
    /// Writes output word `k` of the instance (read by the classifier after the run).
    fn put(&self, k: usize, x: u32);
}

/// How the calling role waits and what extra stress its platform applies.
pub trait Env {
    /// Spins until `done()` holds. Returns `false` if the wait gave up: on the GPU its
    /// `%globaltimer` budget ran out (the harness records the role's timeout bit in word 3), on
    /// the CPU its time budget. Under loom it never returns `false`: a wait that no thread can
    /// end panics with `"deadlock: {what}"`.
    fn wait(&self, what: &'static str, done: impl FnMut() -> bool) -> bool;
    /// Brings `d`'s line into this SM's L1 before a flag test (GPU: `ld.global.ca`, so that a
    /// stale line can be hit; Alglave et al. 2015 §4). Elsewhere nothing.
    #[inline(always)]
    fn warm(&self, _d: &Data<u32>) {}
    /// A random delay before a single read (GPU: `nanosleep.u32`). Elsewhere nothing.
    #[inline(always)]
    fn delay(&self) {}
}

/// The value a consumer reports when its wait gave up (`value1`/`value2` of the hand-off).
pub const TIMED_OUT: u32 = 0xdead;
