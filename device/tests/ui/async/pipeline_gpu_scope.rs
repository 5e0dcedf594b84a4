//! A pipeline lives in one CTA or one cluster: its scope is `Cta` or `Cluster`.
use ptx_sync::pipeline::{Empty, Full, Pipeline};
use ptx_sync::{Gpu, Mbarrier};
fn main() {
    let f: [Mbarrier<Full>; 1] = [Mbarrier::new()];
    let e: [Mbarrier<Empty>; 1] = [Mbarrier::new()];
    let _p = Pipeline::<1, Gpu>::new(&f, &e, 0, true);
}
