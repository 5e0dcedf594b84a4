// PTX has no `ld.release` (PTX ISA §9.7.9.8; seed §4.6).
use ptx_sync::*;

fn main() {
    let cell = Strong::new(0u32);
    let r: AtomicRef<u32, Gpu> = AtomicRef::new(&cell);
    let _ = r.load::<Release>();
}
