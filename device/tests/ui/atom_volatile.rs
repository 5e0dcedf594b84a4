// atom takes no .volatile.
use ptx_sync::*;

fn main() {
    let cell = Strong::new(0u32);
    let r: AtomicRef<u32, Gpu> = AtomicRef::new(&cell);
    let _ = r.swap::<Volatile>(1);
}
