// PTX ISA §9.7.13.1: the safe constructor makes the non-aligned barrier (`barrier.*`) only:
// `NamedBarrier::<Aligned>::new` does not exist, and `new` is not an aligned barrier.
use ptx_sync::barrier::{Aligned, NamedBarrier};
fn main() {
    let _ = NamedBarrier::<Aligned>::new(1, 64);
    let _: NamedBarrier<Aligned> = NamedBarrier::new(1, 64);
}
