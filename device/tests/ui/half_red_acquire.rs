// `red` has no `.acquire`, for the half types as for the others (PTX ISA §9.7.13.6).
use ptx_sync::*;

fn main() {
    let cell = Strong::new(F16x2::from_f32s([1.0, 2.0]));
    cell.at::<Gpu>().red_add::<Acquire>(F16x2::from_f32s([1.0, 1.0]));
}
