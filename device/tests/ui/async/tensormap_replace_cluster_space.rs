//! `tensormap.replace`: `.ss = {.global, .shared::cta}` (or generic) — no `.shared::cluster`
//! (PTX ISA §9.7.9.28; ptxas: "State space incorrect").
use ptx_sync::copy::TensorMap;
use ptx_sync::tensormap::replace::*;
use ptx_sync::SharedCluster;
fn main() {
    let mut m = TensorMap { opaque: [0; 16] };
    unsafe { tensormap_replace_ord::<BoxDim, SharedCluster, 2>(&mut m, 64) };
}
