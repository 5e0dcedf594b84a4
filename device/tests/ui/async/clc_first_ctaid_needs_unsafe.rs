//! `clusterlaunchcontrol.query_cancel.get_first_ctaid` of a failed request is undefined (PTX ISA
//! §9.7.13.18): the unchecked form is `unsafe`; `first_ctaid()` is the safe one.
use ptx_sync::clc::ClcResponse;
fn main() {
    let r = ClcResponse::default();
    let _ = r.first_ctaid_x_unchecked();
}
