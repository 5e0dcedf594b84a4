// PTX has no `atom.and` on f32 (.and takes .b32/.b64 only).
use ptx_sync::*;

fn main() {
    let cell = Strong::new(0f32);
    let r: AtomicRef<f32, Gpu> = AtomicRef::new(&cell);
    let _ = r.fetch_and::<Relaxed>(1.0);
}
