// PTX ISA `createpolicy`: `.secondary_priority = { .L2::evict_first, .L2::evict_unchanged }` —
// there is no `.L2::evict_last` secondary priority (ptxas rejects it: ptxas_async.rs), and
// `NoSecondary` is not a primary priority.
use ptx_sync::policy::*;
fn main() {
    let _ = createpolicy::<EvictFirst, EvictLast>(1.0);
    let _ = createpolicy::<NoSecondary, EvictFirst>(1.0);
}
