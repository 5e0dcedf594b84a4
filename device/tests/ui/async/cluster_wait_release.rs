//! `barrier.cluster.wait` takes only `.acquire` (PTX ISA §9.7.13.3).
use ptx_sync::barrier::ClusterBarrier;
use ptx_sync::{Relaxed, Release};
fn main() {
    let cb = ClusterBarrier::new(1);
    let a = cb.arrive::<Relaxed>();
    cb.wait::<Release>(a);
}
