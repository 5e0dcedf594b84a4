// A packed pair stops at `.v4` (PTX ISA §9.7.13.5: `.vec_32_bit = { .v2, .v4 }` for
// `.packed_type = { .f16x2, .bf16x2 }`; `.v8` is `.vec_16_bit`, for a lone half): eight
// `F16x2` are not a scalar of the table.
use ptx_sync::atomic::vector::Vector;
use ptx_sync::*;

fn main() {
    let cell = Strong::new(Vector([F16x2::default(); 8]));
    let _ = cell.at::<Gpu>().fetch_add::<Relaxed>(Vector([F16x2::default(); 8]));
}
