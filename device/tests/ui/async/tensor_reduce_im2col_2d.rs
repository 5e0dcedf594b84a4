// PTX ISA §9.7.9.25.5: `.im2col_no_offs` needs a spatial dimension (3d–5d; ptxas: "Modifier
// '.2d' cannot be combined with modifier '.im2col_no_offs'"): no `TensorReduce<_, Im2colNoOffs>`
// for `[i32; 2]`.
use ptx_sync::{atomic::op::Add, copy::*, shared::to_shared};

fn main() {
    let map = TensorMap { opaque: [0; 16] };
    let s = [0u32; 4];
    unsafe { cp_reduce_async_bulk_tensor::<Add, Im2colNoOffs, _>(&map, [0i32, 0], to_shared(s.as_ptr())) };
}
