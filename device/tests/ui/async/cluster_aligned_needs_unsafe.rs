// PTX ISA §9.7.13.3: `barrier.cluster.{arrive,wait}.aligned` requires all threads of the warp to
// execute the same instruction, which no type can promise (rustc's asm is not convergent): the
// cluster barrier's `.aligned` forms are `unsafe`; `arrive`, `wait`, `sync` (no `.aligned`) are safe.
use ptx_sync::barrier::ClusterBarrier;
use ptx_sync::{Acquire, Release};
fn main() {
    let cb = ClusterBarrier::new(1);
    let a = cb.arrive::<Release>();
    cb.wait::<Acquire>(a);
    cb.sync();
    let a = cb.arrive_aligned::<Release>();
    cb.wait_aligned::<Acquire>(a);
    cb.sync_aligned();
}
