// PTX ISA §9.7.9.12 / §9.7.13.7: the address and the mbarrier must be in one peer CTA of the
// cluster (undefined behaviour otherwise), which no type states: both calls are `unsafe`.
use ptx_sync::atomic::op;
use ptx_sync::shared::ClusterAddr;
use ptx_sync::st_async::{red_async, st_async};
use ptx_sync::Mbarrier;
fn main() {
    let b: Mbarrier = Mbarrier::new();
    st_async(ClusterAddr(0), 1u32, b.remote(1));
    red_async::<op::Add, _, _>(ClusterAddr(0), 1u32, b.remote(1));
}
