//! A token names a phase of *its* barrier: a `Full` token cannot wait on an `Empty` barrier.
use ptx_sync::pipeline::{Empty, Full};
use ptx_sync::{Acquire, Cta, Mbarrier, Release};
fn main() {
    let full: Mbarrier<Full> = Mbarrier::new();
    let empty: Mbarrier<Empty> = Mbarrier::new();
    let t = full.arrive::<Release, Cta>();
    let _ = empty.try_wait::<Acquire, Cta>(t);
}
