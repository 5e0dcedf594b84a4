// PTX has no `st.acquire` (PTX ISA §9.7.9.10).
use ptx_sync::*;

fn main() {
    let cell = Strong::new(0u32);
    let r: AtomicRef<u32, Gpu> = AtomicRef::new(&cell);
    r.store::<Acquire>(1);
}
