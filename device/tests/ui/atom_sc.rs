// atom has no .sc (PTX ISA §9.7.13.5).
use ptx_sync::*;

fn main() {
    let cell = Strong::new(0u32);
    let r: AtomicRef<u32, Gpu> = AtomicRef::new(&cell);
    let _ = r.fetch_add::<Sc>(1);
}
