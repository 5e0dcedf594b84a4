//! `tensormap.replace` has preconditions (the map in the named state space, 128-byte aligned,
//! not accessed concurrently): the call is `unsafe`.
use ptx_sync::copy::TensorMap;
use ptx_sync::tensormap::replace::*;
use ptx_sync::Global;
fn main() {
    let mut m = TensorMap { opaque: [0; 16] };
    tensormap_replace_imm::<SwizzleMode, Global, 3>(&mut m);
}
