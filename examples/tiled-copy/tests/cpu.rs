//! The tiled copy on CPU threads (ptx-sync's host backend): the kernel body itself, run by
//! `ptx_sync::index::launch` — one CPU thread per GPU thread, per simulated CTA its own
//! barriers (`shared_array!`), ring (dynamic shared memory) and `sync_threads`; a host TMA copy
//! happens at issue and completes its tx on `full`. Every stage count 1..=4, matrices whose sides
//! are not multiples of the tile, several CTAs, output poisoned with guard words behind it; then
//! the broken pipelines that must report a stall instead of hanging; and the no-driver path.
#[path = "../../common/no_driver.rs"]
mod no_driver;
#[path = "../../common/xorshift.rs"]
mod xorshift;
use ptx_sync::copy::TensorMap;
use ptx_sync::index::{launch, thread_idx, Dim3};
use ptx_sync::pipeline::PipelineState;
use ptx_sync::shared::dynamic_smem;
use ptx_sync::wait::Budget;
use ptx_sync::{barrier::sync_threads, Gpu, Relaxed, Strong};
use tiled_copy_example::*;
use xorshift::xorshift;

const POISON: u32 = 0xAAAA_AAAA;
const GUARD: usize = 64;

fn data(n: usize, seed: u64) -> Vec<u32> {
    xorshift(seed).take(n).map(|x| x as u32).collect()
}

/// The job, shareable by the CPU threads of a launch (each writes disjoint words of `out`).
struct Shared<'a>(Job<'a>);
unsafe impl Sync for Shared<'_> {}
impl<'a> Shared<'a> {
    fn job(&self) -> &Job<'a> {
        &self.0
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Fault {
    None,
    /// The producer starts at phase 0 (a consumer's start state) instead of 1.
    ProducerPhase,
    /// `empty` counts `consumers` arrivals but one consumer thread is not launched.
    MissingConsumer,
}

/// Copies a `width × height` matrix with `ctas` CPU CTAs of `32 + consumers` threads. Returns the
/// output and the status word.
fn run<const S: usize>(width: u32, height: u32, ctas: u32, consumers: u32, budget: Budget, fault: Fault) -> (Vec<u32>, u32) {
    let n = (width * height) as usize;
    let src = data(n, (width as u64) << 32 | height as u64);
    let mut out = vec![POISON; n + GUARD];
    let map = TensorMap::host_tiled(src.as_ptr() as *const u8, 4, &[width as u64, height as u64], &[width as u64 * 4], &[TILE_W, TILE_H])
        .expect("tensor map");
    let job = Shared(Job { map: &map, out: out.as_mut_ptr(), width, height, consumers, budget });
    let status = Strong::new(0u32);
    let threads = if fault == Fault::MissingConsumer { 32 + consumers - 1 } else { 32 + consumers };
    launch(Dim3::x(ctas), Dim3::x(threads), S * TILE_BYTES as usize, || unsafe {
        if fault != Fault::ProducerPhase {
            return tiled_copy::<S>(job.job(), &status);
        }
        // The kernel body with the producer started at the consumer's phase.
        let (pipe, ring, t) = (pipeline::<S>(), dynamic_smem(), thread_idx().x);
        if t == 0 {
            pipe.init(1, consumers);
        }
        sync_threads();
        let r = match t {
            // SAFETY: the bug under test (a producer at the consumers' phase 0).
            0 => job.job().produce(&pipe, PipelineState::consumer_start().with_role(), ring),
            t if t >= 32 => job.job().consume(&pipe, t - 32, ring),
            _ => Ok(()),
        };
        if let Err(bit) = r {
            status.at::<Gpu>().red_or::<Relaxed>(bit);
        }
    });
    let guard = out.split_off(n);
    // Whatever happened: nothing written past the matrix, and every written word is the source's.
    assert!(guard.iter().all(|&w| w == POISON), "a write past the end of the output");
    for (i, (&o, &w)) in out.iter().zip(&src).enumerate() {
        assert!(o == POISON || o == w, "word {i} is neither poison nor the source");
    }
    (out, status.at::<Gpu>().load::<Relaxed>())
}

fn copies_exactly<const S: usize>(width: u32, height: u32, ctas: u32, consumers: u32) {
    let (out, status) = run::<S>(width, height, ctas, consumers, Budget::iterations(500_000_000), Fault::None);
    assert_eq!(status, 0, "{S} stages, {width} x {height}: a wait stalled");
    let src = data((width * height) as usize, (width as u64) << 32 | height as u64);
    let bad = out.iter().zip(&src).filter(|(a, b)| a != b).count();
    assert_eq!(bad, 0, "{S} stages, {width} x {height}, {ctas} CTA(s), {consumers} consumers: {bad} words differ");
}

#[test]
fn copies_exactly_with_1_to_4_stages_and_partial_tiles() {
    // (width, height): partial tiles on the right, at the bottom, both; one partial tile; exact.
    let shapes = [(100, 45), (64, 70), (132, 32), (4, 1), (128, 64), (196, 97)];
    for (w, h) in shapes {
        copies_exactly::<1>(w, h, 1, 2);
        copies_exactly::<2>(w, h, 1, 3);
        copies_exactly::<3>(w, h, 1, 2);
        copies_exactly::<4>(w, h, 1, 1);
    }
}

#[test]
fn copies_exactly_with_several_ctas_striding_the_tiles() {
    copies_exactly::<2>(196, 97, 2, 2); // 4 × 4 tiles over 2 CTAs
    copies_exactly::<1>(100, 45, 3, 2); // 2 × 2 tiles over 3 CTAs: one CTA gets one tile
    copies_exactly::<4>(64, 32, 2, 2); // one tile: the second CTA has none
}

#[test]
fn a_producer_starting_at_phase_0_stalls_instead_of_hanging() {
    // producer_start() is phase 1: a fresh `empty` (phase 0 in progress) lets it pass. Starting
    // at phase 0 it waits for a phase nobody completes; the consumers wait for a tile that never
    // comes. Both report their stall; nothing is written.
    let (out, status) = run::<2>(100, 45, 1, 2, Budget::iterations(200_000), Fault::ProducerPhase);
    assert_eq!(status, PRODUCER_STALL | CONSUMER_STALL);
    assert!(out.iter().all(|&w| w == POISON));
}

#[test]
fn a_consumer_that_never_releases_stalls_the_producer() {
    // `empty` expects 2 arrivals per phase; only consumer 0 runs. With one stage the producer's
    // second acquire waits forever (bounded: PRODUCER_STALL); consumer 0 copied its half of tile 0
    // and then waits for tile 1 (CONSUMER_STALL).
    let (w, h) = (100, 45);
    let (out, status) = run::<1>(w, h, 1, 2, Budget::iterations(200_000), Fault::MissingConsumer);
    assert_eq!(status, PRODUCER_STALL | CONSUMER_STALL);
    let src = data((w * h) as usize, (w as u64) << 32 | h as u64);
    let copied = out.iter().zip(&src).filter(|(a, b)| a == b).count();
    // At most consumer 0's half of tile 0 (none if it gave up before the tile landed).
    assert!(copied <= (TILE_W * TILE_H / 2) as usize, "{copied} words copied");
}

#[test]
fn tile_count() {
    assert_eq!(tiles(100, 45), (2, 4));
    assert_eq!(tiles(64, 32), (1, 1));
    assert_eq!(tiles(4, 1), (1, 1));
    assert_eq!(tiles(4100, 4000), (65, 65 * 125));
}

#[test]
fn without_a_driver_the_binary_says_so_and_exits_1() {
    no_driver::says_so_and_exits_1(env!("CARGO_BIN_EXE_tiled-copy"), "tiled-copy");
}
