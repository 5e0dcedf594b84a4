//! The tiled copy on CPU threads (ptx-sync's host backend: a TMA copy happens at issue and
//! completes its tx on the `full` mbarrier): one producer thread and `consumers` consumer threads
//! per simulated CTA, every stage count 1..=4, matrices whose sides are not multiples of the tile,
//! output poisoned (with guard words behind it); then the broken pipelines that must report a
//! `Stall` instead of hanging; and the binary's no-driver path.

use ptx_sync::copy::TensorMap;
use ptx_sync::pipeline::{Empty, Full, PipelineState};
use ptx_sync::shared::to_shared;
use ptx_sync::wait::Budget;
use ptx_sync::Mbarrier;
use tiled_copy_example::{tiles, Stall, TiledCopy, TILE_H, TILE_W};

const POISON: u32 = 0xAAAA_AAAA;
const GUARD: usize = 64;

/// One stage buffer: a tile, 128-byte aligned like the kernel's shared-memory ring.
#[repr(C, align(128))]
#[derive(Clone, Copy)]
struct Stage([u32; (TILE_W * TILE_H) as usize]);

#[derive(Clone, Copy, Default)]
struct Faults {
    /// The producer starts at phase 0 (a consumer's start state) instead of 1.
    wrong_producer_phase: bool,
    /// `empty` counts `consumers` arrivals but one consumer thread never runs.
    missing_consumer: bool,
}

fn data(n: usize, seed: u64) -> Vec<u32> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        })
        .collect()
}

/// Copies a `width × height` matrix with `ctas` simulated CTAs (each its own barriers and ring,
/// tiles `cta, cta + ctas, …`). Returns the output and every role's result (producer first, then its consumers, per CTA).
fn run<const S: usize>(width: u32, height: u32, ctas: u32, consumers: u32, budget: Budget, faults: Faults) -> (Vec<u32>, Vec<Result<(), Stall>>) {
    let n = (width * height) as usize;
    let src = data(n, (width as u64) << 32 | height as u64);
    let mut out = vec![POISON; n + GUARD];
    let map = TensorMap::host_tiled(src.as_ptr() as *const u8, 4, &[width as u64, height as u64], &[width as u64 * 4], &[TILE_W, TILE_H])
        .expect("tensor map");
    let full: Vec<Vec<Mbarrier<Full>>> = (0..ctas).map(|_| (0..S).map(|_| Mbarrier::new()).collect()).collect();
    let empty: Vec<Vec<Mbarrier<Empty>>> = (0..ctas).map(|_| (0..S).map(|_| Mbarrier::new()).collect()).collect();
    let mut rings: Vec<Vec<Stage>> = (0..ctas).map(|_| vec![Stage([0xDEAD_BEEF; (TILE_W * TILE_H) as usize]); S]).collect();
    let out_p = out.as_mut_ptr();
    let copies: Vec<TiledCopy<S>> = (0..ctas as usize)
        .map(|b| {
            let ring = to_shared(rings[b].as_mut_ptr());
            // SAFETY: each CTA has its own ring of S 128-aligned tiles; `out` holds width × height
            // words and is only written by the copies until they are joined.
            unsafe { TiledCopy::<S>::new(&full[b], &empty[b], ring, &map, out_p, width, height, consumers, budget) }
        })
        .collect();
    for c in &copies {
        c.init(); // published to the role threads by their spawn
    }
    let results = std::thread::scope(|s| {
        let mut hs = Vec::new();
        for (b, copy) in copies.iter().enumerate() {
            let b = b as u32;
            hs.push(s.spawn(move || {
                if faults.wrong_producer_phase {
                    copy.produce_from(PipelineState::consumer_start(), b, ctas)
                } else {
                    copy.produce(b, ctas)
                }
            }));
            let running = if faults.missing_consumer { consumers - 1 } else { consumers };
            for c in 0..running {
                hs.push(s.spawn(move || copy.consume(c, b, ctas)));
            }
        }
        hs.into_iter().map(|h| h.join().unwrap()).collect::<Vec<_>>()
    });
    drop(copies);
    let guard = out.split_off(n);
    // Whatever happened: nothing written past the matrix, and every written word is the source's.
    assert!(guard.iter().all(|&w| w == POISON), "a write past the end of the output");
    for (i, (&o, &w)) in out.iter().zip(&src).enumerate() {
        assert!(o == POISON || o == w, "word {i} is neither poison nor the source");
    }
    (out, results)
}

fn copies_exactly<const S: usize>(width: u32, height: u32, ctas: u32, consumers: u32) {
    let (out, results) = run::<S>(width, height, ctas, consumers, Budget::iterations(500_000_000), Faults::default());
    assert!(results.iter().all(|r| r.is_ok()), "{S} stages, {width} x {height}: {results:?}");
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
    // comes. Both report their Stall; nothing is written.
    let (out, results) = run::<2>(100, 45, 1, 2, Budget::iterations(200_000), Faults { wrong_producer_phase: true, ..Faults::default() });
    assert!(matches!(results[0], Err(Stall::Producer(_))), "{:?}", results[0]);
    assert!(results[1..].iter().all(|r| matches!(r, Err(Stall::Consumer(_)))), "{results:?}");
    assert!(out.iter().all(|&w| w == POISON));
    assert_eq!(Stall::Producer(ptx_sync::wait::Timeout { checks: 1 }).bit(), 2);
}

#[test]
fn a_consumer_that_never_releases_stalls_the_producer() {
    // `empty` expects 2 arrivals per phase; only consumer 0 runs. With one stage the producer's
    // second acquire waits forever (bounded: Stall::Producer); consumer 0 copied tile 0 and then
    // waits for tile 1 (Stall::Consumer).
    let (w, h) = (100, 45);
    let (out, results) = run::<1>(w, h, 1, 2, Budget::iterations(200_000), Faults { missing_consumer: true, ..Faults::default() });
    assert!(matches!(results[0], Err(Stall::Producer(_))), "{:?}", results[0]);
    assert!(matches!(results[1], Err(Stall::Consumer(_))), "{:?}", results[1]);
    assert_eq!(results.len(), 2);
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
    let has_driver = ["/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib64/libcuda.so.1"]
        .iter()
        .any(|p| std::path::Path::new(p).exists());
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tiled-copy")).output().unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(!e.contains("panicked"), "{e}");
    if has_driver {
        // A real driver is installed: the binary must not claim there is none.
        assert!(!e.contains("no NVIDIA driver"), "{e}");
        return;
    }
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.starts_with("tiled-copy: no NVIDIA driver"), "{e}");
}
