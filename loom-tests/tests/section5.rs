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
//! A program added to the §5 registry gets its test here without an edit (test name = its
//! kernel). Preemption bound: 0 for every test (loom still explores the switches at yields and
//! blocking points: up to five threads, two of them copy-engine threads).
#![cfg(loom)]

use ptx_sync_loom_tests::assert_caught;
use ptx_sync_loom_tests::programs::section5_model;
use ptx_sync_programs::section5::Section5;
use ptx_sync_programs::Verdict;

const BOUND: usize = 0;

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
