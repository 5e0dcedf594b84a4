// PTX has no `st.sc` (seed §4.6).
use ptx_sync::*;

fn main() {
    let cell = Strong::new(0u32);
    let r: AtomicRef<u32, Gpu> = AtomicRef::new(&cell);
    r.store::<Sc>(1);
}
