// mbarrier.pending_count is defined only on the state of `arrive.noComplete` /
// `arrive_drop.noComplete` (PTX ISA §9.7.13.15.18): the token of an ordinary arrive is refused.
use ptx_sync::{Cta, Mbarrier, Release};

fn main() {
    let b: Mbarrier = Mbarrier::new();
    b.init(2);
    let t = b.arrive::<Release, Cta>();
    let _ = Mbarrier::pending_count(t);
}
