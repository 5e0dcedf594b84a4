// Issue #21: a `RemoteMbarrier` to a peer CTA's copy (`mapa`) must not outlive that copy. The
// `ClusterShared` guard owns every CTA's copy, so a view made from one of them borrows the guard:
// dropping the guard (and the peer barrier with it) while the view lives does not compile. (It
// compiled before: the view borrowed only its own barrier; Miri: a dangling reference.)
use ptx_sync::{cluster::ClusterShared, Cluster, Mbarrier, Release};

fn main() {
    let r;
    {
        let bars = ClusterShared::new([Mbarrier::<()>::new(), Mbarrier::new()]);
        bars[0].init(1);
        bars[1].init(1);
        r = bars[0].remote(1); // CTA 1's barrier, through CTA 0's
    }
    r.arrive::<Release, Cluster>();
}
