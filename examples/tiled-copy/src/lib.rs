//! A tiled copy through a ring of `STAGES` buffers, in the shape of the seed's §5 pipeline: the
//! producer fills stage `i` and publishes it on `full[i]`; the consumer waits for `full[i]`,
//! drains the stage and hands it back on `empty[i]`. Stage index and phase parity come from
//! `ptx_sync::pipeline::PipelineState` (producer starts at phase 1: every stage starts empty).
//!
//! On the GPU the producer is TMA (`cp.async.bulk` completing `full[i]`'s transaction count) and
//! the barriers are mbarriers (`ptx-sync copy` runs that kernel); here the same protocol runs on
//! two CPU threads with phase counters in `Strong<u32>` cells (`st.release` / `ld.acquire`), so
//! the ring logic — index wrap, phase flip, release/acquire pairing — is tested without a GPU.

use ptx_sync::pipeline::PipelineState;
use ptx_sync::{Acquire, Data, Gpu, Release, Strong};
use std::time::{Duration, Instant};

/// Number of tiles of `tile` bytes covering `bytes` (the last one may be partial).
pub fn tiles(bytes: usize, tile: usize) -> usize {
    assert!(tile > 0, "tile size must be positive");
    bytes.div_ceil(tile)
}

/// A ring of `STAGES` tile buffers with a full and an empty phase counter per stage.
pub struct Ring<const STAGES: usize> {
    bufs: Vec<Data<u8>>,
    tile: usize,
    /// Completed fills of stage i (its phase parity is the low bit).
    full: [Strong<u32>; STAGES],
    /// Completed drains of stage i.
    empty: [Strong<u32>; STAGES],
}

/// A wait ran out of its budget.
#[derive(Debug, PartialEq, Eq)]
pub struct Timeout(pub &'static str);

fn wait_phase(c: &Strong<u32>, parity: u32, who: &'static str, budget: Duration) -> Result<(), Timeout> {
    // An mbarrier's try_wait.parity(p) succeeds once the phase with parity p has completed, i.e.
    // when the completion count's parity differs from p... expressed with counts: phase k is done
    // when count > k. We wait for the count's parity to become !p (one more completion).
    let t = Instant::now();
    while c.at::<Gpu>().load::<Acquire>() & 1 == parity {
        if t.elapsed() > budget {
            return Err(Timeout(who));
        }
        std::hint::spin_loop();
    }
    Ok(())
}

impl<const STAGES: usize> Ring<STAGES> {
    pub fn new(tile: usize) -> Self {
        Ring {
            bufs: (0..STAGES * tile).map(|_| Data::new(0)).collect(),
            tile,
            full: std::array::from_fn(|_| Strong::new(0)),
            empty: std::array::from_fn(|_| Strong::new(0)),
        }
    }

    /// Producer: copies `src` tile by tile into the ring.
    pub fn produce(&self, src: &[u8], budget: Duration) -> Result<(), Timeout> {
        let mut st = PipelineState::<STAGES>::producer_start();
        for t in 0..tiles(src.len(), self.tile) {
            let i = st.index() as usize;
            // producer_acquire: wait until the consumer drained this stage (phase parity trick:
            // the producer starts at phase 1, so a fresh stage passes at once).
            wait_empty(&self.empty[i], st.phase().bit(), budget)?;
            let chunk = &src[t * self.tile..((t + 1) * self.tile).min(src.len())];
            for (k, &b) in chunk.iter().enumerate() {
                // SAFETY: the consumer is done with stage i (acquire on empty[i]).
                unsafe { self.bufs[i * self.tile + k].write(b) };
            }
            // producer_commit: publish the stage (release).
            self.full[i].at::<Gpu>().fetch_add::<Release>(1);
            st.advance();
        }
        Ok(())
    }

    /// Consumer: drains the ring into `dst`.
    pub fn consume(&self, dst: &mut [u8], budget: Duration) -> Result<(), Timeout> {
        let mut st = PipelineState::<STAGES>::consumer_start();
        for t in 0..tiles(dst.len(), self.tile) {
            let i = st.index() as usize;
            wait_phase(&self.full[i], st.phase().bit(), "consumer waiting on full", budget)?;
            let end = ((t + 1) * self.tile).min(dst.len());
            for (k, d) in dst[t * self.tile..end].iter_mut().enumerate() {
                // SAFETY: the producer's fill of stage i happens before (acquire on full[i]).
                *d = unsafe { self.bufs[i * self.tile + k].read() };
            }
            // consumer_release: hand the stage back (release).
            self.empty[i].at::<Gpu>().fetch_add::<Release>(1);
            st.advance();
        }
        Ok(())
    }
}

/// The producer waits on `empty[i]` with parity `p` starting at 1: "phase p of empty[i] has
/// completed" — for a fresh stage (0 drains) the phase-1 wait passes at once, as on an mbarrier
/// (the phase before phase 0 counts as completed).
fn wait_empty(c: &Strong<u32>, parity: u32, budget: Duration) -> Result<(), Timeout> {
    let t = Instant::now();
    // Drains so far d; the producer's k-th visit to this stage (k = 0, 1, ...) has parity
    // 1 - (k & 1) and needs d >= k, i.e. parity of d must equal 1 - parity... see wait_phase.
    while (c.at::<Gpu>().load::<Acquire>() & 1) != (1 - parity) {
        if t.elapsed() > budget {
            return Err(Timeout("producer waiting on empty"));
        }
        std::hint::spin_loop();
    }
    Ok(())
}

/// Copies `src` into `dst` through a `STAGES`-stage ring of `tile`-byte buffers on two threads.
pub fn pipelined_copy<const STAGES: usize>(src: &[u8], dst: &mut [u8], tile: usize) -> Result<(), Timeout> {
    assert_eq!(src.len(), dst.len(), "source and destination differ in length");
    let ring = Ring::<STAGES>::new(tile);
    let budget = Duration::from_secs(10);
    std::thread::scope(|s| {
        let p = s.spawn(|| ring.produce(src, budget));
        let c = ring.consume(dst, budget);
        p.join().unwrap().and(c)
    })
}
