// The vector atomics take `.global` (or a generic address in global memory) only (PTX ISA
// §9.7.13.5: `atom{.sem}{.scope}{.global}.add.vec_32_bit.f32`).
use ptx_sync::atomic::vector::{Vector, V4F32};
use ptx_sync::*;

fn main() {
    let cell: Strong<V4F32> = Strong::new(Vector([0.0; 4]));
    let r = unsafe { AtomicRef::<V4F32, Cta, Shared>::new_in(&cell) };
    let _ = r.fetch_add::<Relaxed>(Vector([1.0; 4]));
}
