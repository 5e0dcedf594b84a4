// Issue #21: a consumer that starts at the producer's state (phase 1) passes its first wait on a
// stage nobody filled. Roles are types: a consumer's wait takes only a consumer's state.
use ptx_sync::pipeline::{Empty, Full, Pipeline, PipelineState};
use ptx_sync::{wait::Budget, Cta, Mbarrier};

fn main() {
    let full: [Mbarrier<Full>; 2] = [Mbarrier::new(), Mbarrier::new()];
    let empty: [Mbarrier<Empty>; 2] = [Mbarrier::new(), Mbarrier::new()];
    let pipe = Pipeline::<2, Cta>::new(&full, &empty, 0, true);
    pipe.init(1, 1);
    let st = PipelineState::<2>::producer_start();
    let _ = pipe.consumer_wait(st, Budget::iterations(10));
}
