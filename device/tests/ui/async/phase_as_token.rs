//! A parity is not a token: `try_wait` takes the state an arrive returned.
use ptx_sync::{Acquire, Cta, Mbarrier, Phase};
fn main() {
    let b: Mbarrier = Mbarrier::new();
    let _ = b.try_wait::<Acquire, Cta>(Phase::ZERO);
}
