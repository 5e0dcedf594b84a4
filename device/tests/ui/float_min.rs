// PTX has no `atom.min.f32` (ptxas: .min requires an integer or f16/bf16 type).
use ptx_sync::*;

fn main() {
    let cell = Strong::new(0f32);
    let r: AtomicRef<f32, Gpu> = AtomicRef::new(&cell);
    let _ = r.fetch_min::<Relaxed>(1.0);
}
