// PTX ISA §9.7.9.25.5: the `.im2col` load mode takes 3d–5d tensors (ptxas rejects `.2d.im2col`):
// no `TensorIm2col` for `[i32; 2]`.
use ptx_sync::{copy::*, shared::to_shared, Mbarrier};

fn main() {
    let map = TensorMap { opaque: [0; 16] };
    let mut t = [0u32; 4];
    let bar: Mbarrier = Mbarrier::new();
    unsafe { cp_async_bulk_tensor_load_im2col(to_shared(t.as_mut_ptr()), &map, [0i32, 0], [], &bar) };
}
