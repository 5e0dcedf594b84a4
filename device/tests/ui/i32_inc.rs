// `atom.inc` exists only for .u32.
use ptx_sync::*;

fn main() {
    let cell = Strong::new(0i32);
    let r: AtomicRef<i32, Gpu> = AtomicRef::new(&cell);
    let _ = r.fetch_inc::<Relaxed>(1);
}
