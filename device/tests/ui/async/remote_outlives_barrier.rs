// A RemoteMbarrier borrows the Mbarrier it views: it cannot outlive it (on the host it is a
// pointer to it; the old lifetime-free view was a use-after-free).
use ptx_sync::{Mbarrier, RemoteMbarrier, Release, Cluster};

fn view() -> RemoteMbarrier<'static> {
    let b: Mbarrier = Mbarrier::new();
    b.init(1);
    b.remote(0)
}

fn main() {
    let r = {
        let b: Mbarrier = Mbarrier::new();
        b.init(1);
        b.cluster_view()
    };
    r.arrive::<Release, Cluster>();
    view().arrive::<Release, Cluster>();
}
