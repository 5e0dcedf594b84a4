// PTX ISA §9.7.13.15.16: `mbarrier.arrive_drop{.sem}`, `.sem = { .release, .relaxed }` — a
// (remote) arrive_drop cannot acquire, and `.gpu` is not an mbarrier scope (ptxas rejects
// both: ptxas_async.rs).
use ptx_sync::{Acquire, Cluster, Gpu, Mbarrier, Release};
fn main() {
    let m: Mbarrier = Mbarrier::new();
    m.remote(1).arrive_drop::<Acquire, Cluster>();
    m.remote(1).arrive_drop_expect_tx::<Release, Gpu>(16);
    let _ = m.arrive_drop_expect_tx::<Acquire, Cluster>(16);
}
