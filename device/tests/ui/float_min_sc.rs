// The seq_cst RMWs keep the type rules of the access they end with: `fetch_min_sc` is
// `fence.sc.gpu; atom.acquire.gpu.min.f32`, and PTX has no `atom.min.f32` (ptxas rejects
// `atom.relaxed.gpu.min.f32`: ptxas_catalog.rs).
use ptx_sync::*;

fn main() {
    let cell = Strong::new(0f32);
    let r: AtomicRef<f32, Gpu> = AtomicRef::new(&cell);
    let _ = r.fetch_min_sc(1.0);
}
