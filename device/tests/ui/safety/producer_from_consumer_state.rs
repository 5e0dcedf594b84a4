// Issue #21: a producer at the consumers' phase 0 waits for a release that never comes. Roles
// are types: `producer_acquire` and `producer_tail` take only a producer's state.
use ptx_sync::pipeline::{Empty, Full, Pipeline, PipelineState};
use ptx_sync::{wait::Budget, Cta, Mbarrier};

fn main() {
    let full: [Mbarrier<Full>; 1] = [Mbarrier::new()];
    let empty: [Mbarrier<Empty>; 1] = [Mbarrier::new()];
    let pipe = Pipeline::<1, Cta>::new(&full, &empty, 0, true);
    pipe.init(1, 1);
    let st = PipelineState::<1>::consumer_start();
    let _ = pipe.producer_acquire(st, 0, Budget::iterations(10));
}
