// PTX ISA §9.7.9.25.4: `cp.reduce.async.bulk` `.inc`/`.dec` take `.u32` only (an illegal
// operator/type pair): no `BulkReduce<Inc>` for `i32`.
use ptx_sync::{atomic::op::Inc, copy::cp_reduce_async_bulk, shared::to_shared};

fn main() {
    let (mut d, s) = ([0i32; 4], [1i32; 4]);
    unsafe { cp_reduce_async_bulk::<Inc, _>(d.as_mut_ptr(), to_shared(s.as_ptr()), 16) };
}
