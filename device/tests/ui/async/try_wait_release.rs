//! PTX has no `mbarrier.try_wait.release`: a wait acquires (PTX ISA §9.7.13.15.17).
use ptx_sync::{Cta, Mbarrier, Phase, Release};
fn main() {
    let b: Mbarrier = Mbarrier::new();
    let _ = b.try_wait_parity::<Release, Cta>(Phase::ZERO);
}
