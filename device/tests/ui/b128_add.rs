// PTX has no `atom.add.b128`: the 128-bit atoms are `cas.b128` and `exch.b128` only (PTX ISA
// §9.7.13.5).
use ptx_sync::*;

fn main() {
    let cell = Strong::new(0u128);
    let _ = cell.at::<Gpu>().fetch_add::<Relaxed>(1);
}
