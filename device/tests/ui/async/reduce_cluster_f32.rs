// PTX ISA §9.7.9.25.4: into `.shared::cluster` no float reduction (an illegal destination for
// a pair `.global` takes): no `BulkReduceCluster<Add>` for `f32`.
use ptx_sync::{atomic::op::Add, copy::cp_reduce_async_bulk_s2c, shared::to_shared, Mbarrier};

fn main() {
    let (s, mut d) = ([1f32; 4], [0f32; 4]);
    let bar: Mbarrier = Mbarrier::new();
    let dst = to_shared(d.as_mut_ptr()).to_cluster();
    unsafe { cp_reduce_async_bulk_s2c::<Add, f32, _>(dst, to_shared(s.as_ptr()), 16, bar.remote(1)) };
}
