// PTX ISA §9.7.13.4 (PTX 8.6): the acquire form is `.sync_restrict::shared::cluster`, the
// release form `.sync_restrict::shared::cta` — the other pairings do not exist (ptxas rejects
// them: ptxas_async.rs), nor does any other space.
use ptx_sync::sync_restrict::{fence_proxy_async_sync_restrict, fence_sync_restrict};
use ptx_sync::{Acquire, Global, Release, Shared, SharedCluster};
fn main() {
    fence_sync_restrict::<Acquire, Shared>();
    fence_sync_restrict::<Release, SharedCluster>();
    fence_proxy_async_sync_restrict::<Acquire, Shared>();
    fence_proxy_async_sync_restrict::<Release, Global>();
}
