//! `cp.async.cg` copies only 16 bytes, whatever the `.level::prefetch_size` (PTX ISA §9.7.9.25.3).
use ptx_sync::copy::{cp_async_prefetch, Cg, Prefetch128B};
use ptx_sync::shared::to_shared;
fn main() {
    let x = [0u32; 4];
    unsafe { cp_async_prefetch::<Cg, 8, Prefetch128B>(to_shared(x.as_ptr()), x.as_ptr() as *const u8) };
}
