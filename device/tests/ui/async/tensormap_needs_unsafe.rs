// `tensormap.cp_fenceproxy` is defined only for `.global` <- `.shared::cta` addresses and is
// `.sync.aligned` (the whole warp); `prefetch.tensormap` only on `.param`/`.const`/`.global`
// maps: both are `unsafe`.
use ptx_sync::copy::TensorMap;
use ptx_sync::tensormap::{prefetch_tensormap, tensormap_cp_fenceproxy};
fn main() {
    let a = TensorMap { opaque: [0; 16] };
    let mut b = a;
    tensormap_cp_fenceproxy::<ptx_sync::Gpu>(&mut b, &a);
    prefetch_tensormap(&b);
}
