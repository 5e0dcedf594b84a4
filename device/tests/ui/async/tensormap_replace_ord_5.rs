//! `tensormap.replace`'s `ord` names a dimension, 0..=4 (PTX ISA §9.7.9.28; ptxas: "expected to
//! be in range [0..4]").
use ptx_sync::copy::TensorMap;
use ptx_sync::tensormap::replace::*;
use ptx_sync::Global;
fn main() {
    let mut m = TensorMap { opaque: [0; 16] };
    unsafe { tensormap_replace_ord::<BoxDim, Global, 5>(&mut m, 64) };
}
