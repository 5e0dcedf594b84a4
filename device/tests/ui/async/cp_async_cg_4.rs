//! `cp.async.cg` copies only 16 bytes (PTX ISA §9.7.9.25.3).
use ptx_sync::copy::{cp_async, Cg};
use ptx_sync::shared::to_shared;
fn main() {
    let x = [0u32; 4];
    unsafe { cp_async::<Cg, 4>(to_shared(x.as_ptr()), x.as_ptr() as *const u8) };
}
