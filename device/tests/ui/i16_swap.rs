// PTX has no `atom.exch.b16` (PTX ISA §9.7.13.5: `.exch` takes the scalar `.type` set, which has
// no 16-bit type; `.b16` appears only in `atom.cas.b16`).
use ptx_sync::*;

fn main() {
    let cell = Strong::new(0i16);
    let _ = cell.at::<Gpu>().swap::<Relaxed>(1);
}
