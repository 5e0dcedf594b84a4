// Issue #21: a second `consumer_release` of one stage arrives on `empty` twice, so the producer
// refills a stage another consumer may still read. A release consumes the stage its wait gave.
use ptx_sync::pipeline::{Empty, Full, Pipeline, PipelineState};
use ptx_sync::{wait::Budget, Cta, Mbarrier};

fn main() {
    let full: [Mbarrier<Full>; 2] = [Mbarrier::new(), Mbarrier::new()];
    let empty: [Mbarrier<Empty>; 2] = [Mbarrier::new(), Mbarrier::new()];
    let pipe = Pipeline::<2, Cta>::new(&full, &empty, 0, true);
    pipe.init(1, 2);
    let b = Budget::iterations(10);
    let _ = pipe.producer_acquire(PipelineState::producer_start(), 0, b);
    let stage = pipe.consumer_wait(PipelineState::consumer_start(), b).unwrap();
    pipe.consumer_release(stage);
    pipe.consumer_release(stage);
}
