//! A `field3` value (`.elemtype`, …) is an immediate (PTX ISA §9.7.9.28; ptxas: "Integer
//! constant expression expected"): the register form `tensormap_replace` does not take it.
use ptx_sync::copy::TensorMap;
use ptx_sync::tensormap::replace::*;
use ptx_sync::Global;
fn main() {
    let mut m = TensorMap { opaque: [0; 16] };
    let v: u32 = std::env::args().count() as u32;
    unsafe { tensormap_replace::<Elemtype, Global>(&mut m, v) };
}
