// PTX ISA §9.7.9.25.5: an im2col load of a `D`-d tensor takes `D − 2` 16-bit offsets: a 3d load
// with two offsets does not compile (`Offsets = [u16; 1]`).
use ptx_sync::{copy::*, shared::to_shared, Mbarrier};

fn main() {
    let map = TensorMap { opaque: [0; 16] };
    let mut t = [0u32; 4];
    let bar: Mbarrier = Mbarrier::new();
    unsafe { cp_async_bulk_tensor_load_im2col(to_shared(t.as_mut_ptr()), &map, [0i32, 0, 0], [1u16, 2], &bar) };
}
