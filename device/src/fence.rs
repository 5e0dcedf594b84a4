//! `fence{.sem}.scope` — ordering between a thread's own accesses.
//!
//! PTX ISA §9.7.13.4 (`membar`/`fence`), §8.8 (release and acquire patterns), §8.9.3 (Fence-SC
//! order). Seed §2 (each relaxed program-order pair restored by `fence.sc`), §3.1–3.4 (which pairs
//! each fence orders), §3.6 (only `fence.sc` orders W→R and synchronizes without reading a value).
//!
//! | fence | waits for earlier | holds back later | orders | PTX / SM |
//! |---|---|---|---|---|
//! | `fence::<Sc, _>` | reads, writes | reads, writes | all four pairs | 6.0 / sm_70 |
//! | `fence::<AcqRel, _>` | reads, writes | writes (release) + reads after reads (acquire) | all but W→R | 6.0 / sm_70 |
//! | `fence::<Release, _>` | reads, writes | writes | W→W, R→W | **8.6** / sm_90 |
//! | `fence::<Acquire, _>` | reads | reads, writes | R→R, R→W | **8.6** / sm_90 |
//!
//! ```
//! use ptx_sync::{fence, Sc, AcqRel, Gpu, Cta};
//! fence::<Sc, Gpu>();      // fence.sc.gpu;      SASS MEMBAR.SC.GPU
//! fence::<AcqRel, Cta>();  // fence.acq_rel.cta;
//! assert_eq!(<Sc as ptx_sync::fence::FenceInstr<Gpu>>::PTX, "fence.sc.gpu");
//! ```
//!
//! `fence::<Relaxed, Gpu>()` does not compile — there is no relaxed fence:
//!
//! ```compile_fail
//! ptx_sync::fence::<ptx_sync::Relaxed, ptx_sync::Gpu>();
//! ```

use crate::sem::{AcqRel, Acquire, Cluster, Cta, FenceSem, Gpu, Release, Sc, Scope, Sys};

// `FenceInstr` and its rows: `device/isa/fence.rows` (`trait`, `access fence`), expanded by the
// generator into the trait (its legal set's `on_unimplemented`) and each (sem, scope)'s impl
// with its `PTX` constant and its `exec` leaf.
include!(concat!(env!("OUT_DIR"), "/isa/access_fence.rs"));

/// `fence{.sem}.scope;` — orders this thread's accesses as the table above says, for threads in
/// scope `Sco`. `S` ∈ {[`Sc`], [`AcqRel`], [`Acquire`], [`Release`]}; anything else does not
/// compile. On the host: `core::sync::atomic::fence` with the same ordering (`Sc` → `SeqCst`).
/// Under `--cfg loom` the scope counts: see `ptx_sync::model` ("Scope of fences", a module of `--cfg loom` builds).
///
/// PTX: `fence.sc.{cta,cluster,gpu,sys}`, `fence.acq_rel.*` (PTX 6.0 / sm_70),
/// `fence.acquire.*`, `fence.release.*` (PTX 8.6 / sm_90); `.cluster` needs PTX 7.8 / sm_90.
/// `fence::<Relaxed, _>()`, `fence::<Weak, _>()` and `fence::<Volatile, _>()` do not compile
/// (PTX has no `fence.relaxed`); a non-[`Scope`] second parameter does not compile.
///
/// SASS (ptxas 13.0.88, sm_90, `docs/fence-costs.md`):
///
/// | PTX | SASS |
/// |---|---|
/// | `fence.sc.cta` | `MEMBAR.SC.CTA` |
/// | `fence.sc.gpu` | `MEMBAR.SC.GPU ERRBAR CGAERRBAR CCTL.IVALL` |
/// | `fence.acq_rel.cta` | `MEMBAR.ALL.CTA` |
/// | `fence.acq_rel.gpu` | `MEMBAR.ALL.GPU ERRBAR CGAERRBAR CCTL.IVALL` |
/// | `fence.release.gpu` | `MEMBAR.ALL.GPU ERRBAR CGAERRBAR` |
/// | `fence.acquire.gpu` | `CCTL.IVALL` (`fence.acquire.cta`: nothing) |
///
/// PTX ISA §9.7.13.4, §8.8 (fence-based release/acquire patterns), §8.9.3 (Fence-SC order);
/// seed §2, §3.1–3.4, §3.6.
///
/// # Examples
///
/// The hand-off with relaxed flag accesses and fences (seed §3.4): the release fence before the
/// flag store and the acquire fence after the flag load synchronize.
///
/// ```
/// use ptx_sync::{fence, Data, Strong, Gpu, Relaxed, Release, Acquire, Sc, wait::{spin_until, Budget}};
/// let (data, flag) = (Data::new(0u32), Strong::new(0u32));
/// std::thread::scope(|s| {
///     s.spawn(|| {
///         unsafe { data.write(7) };
///         fence::<Release, Gpu>();              // fence.release.gpu
///         flag.at::<Gpu>().store::<Relaxed>(1); // st.relaxed.gpu.u32
///     });
///     s.spawn(|| {
///         let r = spin_until(Budget::iterations(1 << 30), || flag.at::<Gpu>().load::<Relaxed>() == 1);
///         assert!(r.is_ok());
///         fence::<Acquire, Gpu>();              // fence.acquire.gpu
///         assert_eq!(unsafe { data.read() }, 7);
///     });
/// });
/// assert_eq!(<Sc as ptx_sync::fence::FenceInstr<Gpu>>::PTX, "fence.sc.gpu");
/// assert_eq!(<Release as ptx_sync::fence::FenceInstr<Gpu>>::PTX, "fence.release.gpu");
/// ```
///
/// ```compile_fail
/// ptx_sync::fence::<ptx_sync::Weak, ptx_sync::Cta>(); // no weak fence
/// ```
#[inline(always)]
pub fn fence<S: FenceSem, Sco: Scope>()
where
    S: FenceInstr<Sco>,
{
    <crate::backend::Active as crate::backend::AccessBackend>::fence::<S, Sco>()
}

#[allow(unused)]
fn _markers(_: (AcqRel, Acquire, Release, Cta, Cluster, Gpu, Sys)) {}
