//! Every program of the registry (`ptx_sync_programs::for_each_litmus!`: the programs the GPU
//! kernels and the CPU runs are generated from), model-checked from the same source: each role a
//! loom thread in its own CTA and cluster (as the GPU runner places them), the outcome checked
//! with the program's shape, and the verdict compared with the program's `LOOM`:
//!
//! * `Passes`: every execution ends without a forbidden outcome, race or deadlock;
//! * `Caught(texts)`: some execution panics with one of the texts;
//! * `NotModelled(why)`: the once-forms, whose consumer reads `data` whether or not it saw the
//!   flag — loom reports that read as a data race in every variant, correct or not (checked
//!   here), so the verdict is the GPU runner's.
//!
//! A program added to the registry gets its test here without an edit (test name = its kernel).
//! Preemption bound: 1 for every test.
#![cfg(loom)]

use ptx_sync_loom_tests::assert_caught;
use ptx_sync_loom_tests::programs::registry_model;
use ptx_sync_programs::{Litmus, Verdict};

const BOUND: usize = 1;

fn verdict<T: Litmus + 'static>() {
    match T::LOOM {
        Verdict::Passes => registry_model::<T>(BOUND),
        Verdict::Caught(texts) => assert_caught(|| registry_model::<T>(BOUND), texts),
        Verdict::NotModelled(_) => assert_caught(
            || registry_model::<T>(BOUND),
            &["ptx-sync model: data race on Data"],
        ),
    }
}

macro_rules! registry_tests {
    ($($kernel:ident: $T:path),* $(,)?) => {$(
        #[test] fn $kernel() { verdict::<$T>(); }
    )*};
}

ptx_sync_programs::for_each_litmus!(registry_tests);
