// The half-precision vector atomics take `.global` (or a generic address in global memory)
// only (PTX ISA §9.7.13.6: `red{.sem}{.scope}{.global}.op.noftz.vec_16_bit.half_word_type`).
use ptx_sync::atomic::vector::{Vector, V8Bf16};
use ptx_sync::*;

fn main() {
    let cell: Strong<V8Bf16> = Strong::new(Vector([Bf16::default(); 8]));
    let r = unsafe { AtomicRef::<V8Bf16, Cluster, SharedCluster>::new_in(&cell) };
    r.red_min::<Relaxed>(Vector([Bf16::from_f32(1.0); 8]));
}
