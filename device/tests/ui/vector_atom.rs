// PTX has no integer vector `atom` (PTX ISA §9.7.13.5: the vector atomics are `.add` on `.f32`
// and `add/min/max.noftz` on the 16-bit float types).
use ptx_sync::atomic::vector::{Vector, V2U32};
use ptx_sync::*;

fn main() {
    let cell: Strong<V2U32> = Strong::new(Vector([0, 0]));
    let _ = cell.at::<Gpu>().fetch_add::<Relaxed>(Vector([1, 1]));
}
