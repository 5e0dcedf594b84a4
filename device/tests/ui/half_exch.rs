// PTX has no `atom.exch.b16` (PTX ISA §9.7.13.5: the 16-bit atom is `cas.b16` only).
use ptx_sync::*;

fn main() {
    let cell = Strong::new(Bf16::from_f32(1.0));
    let _ = cell.at::<Gpu>().swap::<Relaxed>(Bf16::from_f32(2.0));
}
