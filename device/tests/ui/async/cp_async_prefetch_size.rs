//! `.level::prefetch_size = { .L2::64B, .L2::128B, .L2::256B }` (PTX ISA §9.7.9.25.3): a cache
//! operator is no prefetch size.
use ptx_sync::copy::{cp_async_prefetch, Ca, Cg};
use ptx_sync::shared::to_shared;
fn main() {
    let x = [0u32; 4];
    unsafe { cp_async_prefetch::<Ca, 4, Cg>(to_shared(x.as_ptr()), x.as_ptr() as *const u8) };
}
