// PTX ISA §9.7.9.12 / §9.7.13.7 (PTX 8.7, sm_100): the `.release` `st.async` / `red.async` to
// `.global` take `.scope = { .gpu, .sys }` only, `red.async` adds only `.u32 .s32 .u64 .s64`
// (ptxas rejects the others: ptxas_arch.rs).
use ptx_sync::st_async::release::{red_async_release_add, st_async_release};
use ptx_sync::{Cluster, Cta, Gpu};
fn main() {
    unsafe {
        st_async_release::<Cluster, _>(&mut 0u32, 1);
        red_async_release_add::<Cta, _>(&mut 0u32, 1);
        red_async_release_add::<Gpu, _>(&mut 0f32, 1.0);
    }
}
