// A shared_array! starts uninitialised, like `.shared` memory: a reference into it is handed
// out only by the unsafe `SharedArray::get` (contract: initialise before use).
use ptx_sync::{shared::SharedArray, shared_array, Acquire, Cta, Mbarrier, Phase};

shared_array!(static BARS: [Mbarrier; 2], align 8);

fn main() {
    let b: &Mbarrier = BARS.get(0);
    let _ = b.try_wait_parity::<Acquire, Cta>(Phase::ZERO); // reads uninitialised memory
}
