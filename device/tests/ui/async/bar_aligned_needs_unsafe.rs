// PTX ISA §9.7.13.1: `.aligned` (every `bar.*`) requires all threads of the CTA to execute the
// same barrier instruction, which no type can promise (rustc's asm is not convergent): the
// aligned barrier and the aligned `sync_threads` are `unsafe`.
use ptx_sync::barrier::{sync_threads_aligned, NamedBarrier};
fn main() {
    let _ = NamedBarrier::new_aligned(1, 64);
    sync_threads_aligned();
}
