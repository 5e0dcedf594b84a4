//! mbarrier operations have scope `.cta` or `.cluster` only.
use ptx_sync::{Gpu, Mbarrier, Release};
fn main() {
    let b: Mbarrier = Mbarrier::new();
    let _ = b.arrive::<Release, Gpu>();
}
