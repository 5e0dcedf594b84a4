//! A `.cta_group` tensor load has 1 to 5 dimensions (PTX ISA §9.7.9.25.5).
use ptx_sync::copy::{blackwell::{cp_async_bulk_tensor_load_cta_group, CtaGroup1}, TensorMap};
use ptx_sync::{shared::SharedAddr, Mbarrier};
fn main() {
    let m = TensorMap { opaque: [0; 16] };
    let bar: Mbarrier = Mbarrier::new();
    unsafe { cp_async_bulk_tensor_load_cta_group::<CtaGroup1, _, _>(SharedAddr(0), &m, [0i32; 6], &bar) };
}
