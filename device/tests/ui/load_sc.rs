// PTX has no `ld.sc` (seed §4.6: only fence has .sc).
use ptx_sync::*;

fn main() {
    let cell = Strong::new(0u32);
    let r: AtomicRef<u32, Gpu> = AtomicRef::new(&cell);
    let _ = r.load::<Sc>();
}
