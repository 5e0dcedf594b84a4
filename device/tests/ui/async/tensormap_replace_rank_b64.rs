//! `.rank` is a `.b32` field (PTX ISA §9.7.9.28; ptxas: "Illegal modifier '.rank' … with type
//! '.b64'"): a `u64` value does not compile.
use ptx_sync::copy::TensorMap;
use ptx_sync::tensormap::replace::*;
use ptx_sync::Global;
fn main() {
    let mut m = TensorMap { opaque: [0; 16] };
    unsafe { tensormap_replace::<Rank, Global>(&mut m, 2u64) };
}
