// There is no weak fence.
fn main() {
    ptx_sync::fence::<ptx_sync::Weak, ptx_sync::Cta>();
}
