//! A remote arrive (`.shared::cluster`) releases too; seed 5.4.
use ptx_sync::{Acquire, Cluster, Mbarrier};
fn main() {
    let b: Mbarrier = Mbarrier::new();
    b.remote(1).arrive::<Acquire, Cluster>();
}
