//! `barrier.cluster.arrive` takes `.release` or `.relaxed` (PTX ISA §9.7.13.3).
use ptx_sync::barrier::ClusterBarrier;
use ptx_sync::Acquire;
fn main() {
    let cb = ClusterBarrier::new(1);
    let _ = cb.arrive::<Acquire>();
}
