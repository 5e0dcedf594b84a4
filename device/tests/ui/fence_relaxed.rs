// There is no relaxed fence: a fence is always synchronizing (PTX ISA §9.7.13.4).
fn main() {
    ptx_sync::fence::<ptx_sync::Relaxed, ptx_sync::Gpu>();
}
