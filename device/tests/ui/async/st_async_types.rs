// PTX ISA §9.7.9.12: `st.async` stores .b32/.b64/.u32/.u64/.s32/.s64/.f32/.f64, as a scalar,
// `.v2` or `.v4`, at most 128 bits (PTX ISA §5.4.2): no 8/16-bit value, no `.v4` of a 64-bit
// type (ptxas rejects both: ptxas_async.rs).
use ptx_sync::shared::ClusterAddr;
use ptx_sync::st_async::st_async;
use ptx_sync::Mbarrier;
fn main() {
    let b: Mbarrier = Mbarrier::new();
    unsafe {
        st_async(ClusterAddr(0), 1u16, b.remote(1));
        st_async(ClusterAddr(0), [1u64; 4], b.remote(1));
    }
}
