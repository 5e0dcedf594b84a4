// A vector has no `atom` in the table: the sm_90 vector atomics are `.global` float adds/min/max
// only (PTX ISA §9.7.13.5), not offered here, and there is no integer vector atom.
use ptx_sync::atomic::vector::{Vector, V2U32};
use ptx_sync::*;

fn main() {
    let cell: Strong<V2U32> = Strong::new(Vector([0, 0]));
    let _ = cell.at::<Gpu>().fetch_add::<Relaxed>(Vector([1, 1]));
}
