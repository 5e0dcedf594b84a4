// PTX has no scalar `atom.min` on a half (PTX ISA §9.7.13.5: `.f16`/`.bf16` take only
// `.add.noftz`; `min`/`max` exist only in the sm_90 vector forms).
use ptx_sync::*;

fn main() {
    let cell = Strong::new(F16::from_f32(1.0));
    let _ = cell.at::<Gpu>().fetch_min::<Relaxed>(F16::from_f32(0.5));
}
