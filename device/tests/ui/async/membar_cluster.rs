// PTX ISA §9.7.13.4: `membar.level`, `.level = { .cta, .gl, .sys }` — there is no
// `membar.cluster` (ptxas rejects it: ptxas_async.rs); the cluster-scope SC fence is
// `fence::<Sc, Cluster>()`.
fn main() {
    ptx_sync::membar::membar::<ptx_sync::Cluster>();
}
