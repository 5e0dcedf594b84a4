//! Catalog kernel of the portable (sm_90, PTX 8.6) rows of `ptx_sync::copy::blackwell`, in
//! `catalog.ptx`: the `.shared::cta` destination of `cp.async.bulk`. Its architecture-specific
//! rows are in `catalog_arch.rs`. Assembled, never launched.

use ptx_sync::shared::to_shared;
use ptx_sync::Mbarrier;

/// `cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_blackwell_sm90(p: *mut u64, g: *const u8) {
    let bar: &Mbarrier = Mbarrier::from_shared(p);
    let d = to_shared(p.add(16));
    // the row of device/isa/copy_blackwell.rows, through its Rust path
    ptx_sync::catalog_calls_blackwell_sm90!(p, p, d, g, bar);
}
