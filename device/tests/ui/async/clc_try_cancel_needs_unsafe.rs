//! `clusterlaunchcontrol.try_cancel` after observing a failed request is undefined, and its
//! operands must be in `.shared::cta` (PTX ISA §9.7.13.17): the call is `unsafe`.
use ptx_sync::clc::{try_cancel, ClcResponse};
use ptx_sync::Mbarrier;
fn main() {
    let mut r = ClcResponse::default();
    let bar: Mbarrier = Mbarrier::new();
    try_cancel(&mut r, &bar);
}
