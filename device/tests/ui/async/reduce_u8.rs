// PTX ISA §9.7.9.25.4: no `cp.reduce.async.bulk` element of 8 bits (an illegal type): no
// `BulkReduce<Or>` for `u8`.
use ptx_sync::{atomic::op::Or, copy::cp_reduce_async_bulk, shared::to_shared};

fn main() {
    let (mut d, s) = ([0u8; 16], [1u8; 16]);
    unsafe { cp_reduce_async_bulk::<Or, _>(d.as_mut_ptr(), to_shared(s.as_ptr()), 16) };
}
