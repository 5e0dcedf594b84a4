// PTX has no `st.acq_rel`.
use ptx_sync::*;

fn main() {
    let cell = Strong::new(0u32);
    let r: AtomicRef<u32, Gpu> = AtomicRef::new(&cell);
    r.store::<AcqRel>(1);
}
