// fence.proxy.tensormap::generic.acquire is defined only on a `.global` address (a map in
// `.param` or `.const` is undefined): the call is unsafe.
use ptx_sync::copy::TensorMap;
use ptx_sync::proxy::fence_proxy_tensormap_acquire;
use ptx_sync::Gpu;

fn main() {
    let map: *const TensorMap = core::ptr::null();
    fence_proxy_tensormap_acquire::<Gpu>(map);
}
