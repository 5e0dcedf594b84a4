// `red.inc` exists only for .u32.
use ptx_sync::*;

fn main() {
    let cell = Strong::new(0u64);
    let r: AtomicRef<u64, Gpu> = AtomicRef::new(&cell);
    r.red_inc::<Relaxed>(1);
}
