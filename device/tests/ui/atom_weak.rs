// atom is always strong: there is no weak atom (PTX ISA §8.4).
use ptx_sync::*;

fn main() {
    let cell = Strong::new(0u32);
    let r: AtomicRef<u32, Gpu> = AtomicRef::new(&cell);
    let _ = r.fetch_add::<Weak>(1);
}
