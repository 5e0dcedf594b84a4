//! PTX has no `mbarrier.arrive.acquire`: an arrive releases (PTX ISA §9.7.13.15.15).
use ptx_sync::{Acquire, Cta, Mbarrier};
fn main() {
    let b: Mbarrier = Mbarrier::new();
    let _ = b.arrive::<Acquire, Cta>();
}
