// red has no .acq_rel (seed §4.5).
use ptx_sync::*;

fn main() {
    let cell = Strong::new(0u32);
    let r: AtomicRef<u32, Gpu> = AtomicRef::new(&cell);
    r.red_add::<AcqRel>(1);
}
