//! `mbarrier.expect_tx` has scope `.cta` or `.cluster` only.
use ptx_sync::{Mbarrier, Sys};
fn main() {
    let b: Mbarrier = Mbarrier::new();
    b.expect_tx::<Sys>(16);
}
