//! Each `barrier.cluster.wait` consumes one arrival: waiting twice on one arrival is a use after move.
use ptx_sync::barrier::ClusterBarrier;
use ptx_sync::{Acquire, Relaxed};
fn main() {
    let cb = ClusterBarrier::new(1);
    let a = cb.arrive::<Relaxed>();
    cb.wait::<Acquire>(a);
    cb.wait::<Acquire>(a);
}
