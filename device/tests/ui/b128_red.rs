// PTX has no 128-bit `red` (PTX ISA §9.7.13.6: `.type` has no `.b128`).
use ptx_sync::*;

fn main() {
    let cell = Strong::new(0u128);
    cell.at::<Gpu>().red_or::<Relaxed>(1);
}
