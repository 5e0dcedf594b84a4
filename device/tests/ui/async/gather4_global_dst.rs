//! `.tile::gather4` loads into shared memory only (`.shared::cta` or `.shared::cluster`, PTX ISA
//! §9.7.9.25.5): a `Global` destination does not compile.
use ptx_sync::copy::{blackwell::cp_async_bulk_tensor_gather4, TensorMap};
use ptx_sync::{shared::SharedAddr, Global, Mbarrier};
fn main() {
    let m = TensorMap { opaque: [0; 16] };
    let bar: Mbarrier = Mbarrier::new();
    unsafe { cp_async_bulk_tensor_gather4::<Global, _>(SharedAddr(0), &m, 0, [0, 1, 2, 3], &bar) };
}
