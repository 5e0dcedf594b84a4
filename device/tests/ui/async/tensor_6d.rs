//! `cp.async.bulk.tensor` has 1 to 5 dimensions (PTX ISA §9.7.9.25.5).
use ptx_sync::copy::{cp_async_bulk_prefetch_tensor, TensorMap};
fn main() {
    let m = TensorMap { opaque: [0; 16] };
    unsafe { cp_async_bulk_prefetch_tensor(&m, [0i32; 6]) };
}
