// PTX ISA §9.7.9.25.5: `.redOp = {.add, .min, .max, .inc, .dec, .and, .or, .xor}` — no `.exch`
// (ptxas: "Illegal reduction operation"): no `TensorReduce<Exch, _>`.
use ptx_sync::{atomic::op::Exch, copy::*, shared::to_shared};

fn main() {
    let map = TensorMap { opaque: [0; 16] };
    let s = [0u32; 4];
    unsafe { cp_reduce_async_bulk_tensor::<Exch, Tile, _>(&map, [0i32, 0], to_shared(s.as_ptr())) };
}
