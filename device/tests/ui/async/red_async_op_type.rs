// PTX ISA §9.7.13.7: red.async's op/type table — .inc/.dec .u32; .min/.max .u32 .s32;
// .and/.or/.xor .b32; .add .u32 .s32 .u64 (ptxas rejects the others: ptxas_async.rs).
use ptx_sync::atomic::op;
use ptx_sync::shared::ClusterAddr;
use ptx_sync::st_async::red_async;
use ptx_sync::Mbarrier;
fn main() {
    let b: Mbarrier = Mbarrier::new();
    unsafe {
        red_async::<op::Inc, _, _>(ClusterAddr(0), 1i32, b.remote(1));
        red_async::<op::Min, _, _>(ClusterAddr(0), 1u64, b.remote(1));
        red_async::<op::Add, _, _>(ClusterAddr(0), 1.0f32, b.remote(1));
        red_async::<op::Exch, _, _>(ClusterAddr(0), 1u32, b.remote(1));
    }
}
