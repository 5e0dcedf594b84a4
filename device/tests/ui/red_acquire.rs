// red cannot acquire (seed §4.5; PTX ISA §9.7.13.6: .sem = { .relaxed, .release }).
use ptx_sync::*;

fn main() {
    let cell = Strong::new(0u32);
    let r: AtomicRef<u32, Gpu> = AtomicRef::new(&cell);
    r.red_add::<Acquire>(1);
}
