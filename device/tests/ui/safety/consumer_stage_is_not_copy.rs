// Issue #21: the stage a wait returns cannot be duplicated to release it twice.
use ptx_sync::pipeline::ConsumerStage;

fn dup(s: &ConsumerStage<2>) -> ConsumerStage<2> {
    s.clone()
}

fn main() {}
