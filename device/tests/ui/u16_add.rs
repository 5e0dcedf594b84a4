// PTX has no 16-bit integer `atom.add` (PTX ISA §9.7.13.5: the scalar `.type` set is `.b32`,
// `.b64`, `.u32`, `.u64`, `.s32`, `.s64`, `.f32`, `.f64`; the only 16-bit integer atom is
// `atom.cas.b16`).
use ptx_sync::*;

fn main() {
    let cell = Strong::new(0u16);
    let _ = cell.at::<Gpu>().fetch_add::<Relaxed>(1);
}
