//! Every §5 program of the registry (`ptx_sync_programs::for_each_section5!`: the programs the
//! GPU kernels `s51_*` … `s53_*` and the CPU runs are generated from), model-checked from the
//! same source with the library's copy engine (`ptx_sync::copy` under `--cfg loom`: each copy on
//! a thread of its own, completed only by its completion mechanism, proxies checked on the
//! tile), P and C in CTA 0, and the verdict compared with the program's `LOOM`:
//!
//! * `Passes`: every execution ends with the output equal to the source, without a race, a proxy
//!   race or a deadlock;
//! * `Caught(texts)`: some execution panics with one of the texts (`forbidden outcome` for a
//!   stale read, `data race on Data`, `proxy race`).
//!
//! The §5.4 programs (`ptx_sync_programs::for_each_section54!`, the source of `s54_*`) run as a
//! cluster of two CTAs, one loom thread each (P and C interleaved by round), over an `S54Host`
//! whose CTAs have their own tiles and barriers; each multicast is one copy-engine thread that
//! writes both tiles and completes on both `full`s. `NotModelled` (the init bug): the model runs
//! it without a report (the variant's `LOOM` says why).
//!
//! A program added to the §5 registry gets its test here without an edit (test name = its
//! kernel). Preemption bound: 0 for every test (loom still explores the switches at yields and
//! blocking points: up to five threads, two of them copy-engine threads).
#![cfg(loom)]

use ptx_sync_loom_tests::assert_caught;
use ptx_sync_loom_tests::programs::{section54_model, section5_model};
use ptx_sync_programs::section5::{Section5, Section54};
use ptx_sync_programs::Verdict;

const BOUND: usize = 0;
/// §5.4: two CTA threads and two copy-engine threads (bound 1 runs for more than 15 minutes).
const BOUND54: usize = 0;

fn verdict<T: Section5 + 'static>() {
    match T::LOOM {
        Verdict::Passes => section5_model::<T>(BOUND),
        Verdict::Caught(texts) => assert_caught(|| section5_model::<T>(BOUND), texts),
        Verdict::NotModelled(why) => panic!("{}: not modelled ({why})", T::NAME),
    }
}

macro_rules! section5_tests {
    ($($kernel:ident: $T:path),* $(,)?) => {$(
        #[test] fn $kernel() { verdict::<$T>(); }
    )*};
}

ptx_sync_programs::for_each_section5!(section5_tests);

fn verdict54<T: Section54 + 'static>() {
    match T::LOOM {
        Verdict::Passes => section54_model::<T>(BOUND54),
        Verdict::Caught(texts) => assert_caught(|| section54_model::<T>(BOUND54), texts),
        // The model runs it to the end without a report (if it ever catches it, the verdict is
        // to be updated): see the variant's `LOOM` for why.
        Verdict::NotModelled(_) => section54_model::<T>(BOUND54),
    }
}

macro_rules! section54_tests {
    ($($kernel:ident: $T:path),* $(,)?) => {$(
        #[test] fn $kernel() { verdict54::<$T>(); }
    )*};
}

ptx_sync_programs::for_each_section54!(section54_tests);
