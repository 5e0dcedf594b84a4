//! Host-side instance memory: the variables as `Data`/`Strong` cells (loom cells under
//! `--cfg loom`) and the output words as strong locations, for the CPU runner and the loom
//! tests; plus [`Sequential`], an [`Env`] whose waits are bounded by iterations.

use crate::env::{Env, Mem};
use ptx_sync::{Data, Gpu, Relaxed, Strong};

/// Variables per instance (the hand-off has the most: data, full, done1, done2, empty, count).
pub const VARS: usize = 6;
/// Output words per instance (word 3: the timeout mask).
pub const WORDS: usize = 4;

/// One instance: variable 0 as [`Data`] and every variable as a [`Strong`] flag (a program uses
/// each variable in one way only), and the output words.
pub struct Cells {
    data: Data<u32>,
    flags: [Strong<u32>; VARS],
    words: [Strong<u32>; WORDS],
}

impl Default for Cells {
    fn default() -> Self {
        Self::new()
    }
}

impl Cells {
    /// Every variable and word 0.
    pub fn new() -> Self {
        Cells {
            data: Data::new(0),
            flags: core::array::from_fn(|_| Strong::new(0)),
            words: core::array::from_fn(|_| Strong::new(0)),
        }
    }
    /// Output word `k` (after the roles are joined).
    pub fn word(&self, k: usize) -> u32 {
        self.words[k].at::<Gpu>().load::<Relaxed>()
    }
    /// The output words.
    pub fn words(&self) -> [u32; WORDS] {
        core::array::from_fn(|k| self.word(k))
    }
    /// Sets bit `role` of word 3 (a role's wait gave up).
    pub fn mark_timeout(&self, role: u32) {
        let _ = self.words[3].at::<Gpu>().fetch_or::<Relaxed>(1 << role);
    }
}

impl Mem for Cells {
    fn data(&self, v: usize) -> &Data<u32> {
        assert_eq!(v, 0, "only variable 0 is data");
        &self.data
    }
    fn flag(&self, v: usize) -> &Strong<u32> {
        &self.flags[v]
    }
    fn put(&self, k: usize, x: u32) {
        self.words[k].at::<Gpu>().store::<Relaxed>(x)
    }
}

/// An [`Env`] for running roles on one host thread (or on threads that need no stress): a wait
/// gives up after `limit` checks.
#[derive(Clone, Copy, Debug)]
pub struct Sequential {
    /// Checks before a wait gives up.
    pub limit: u64,
}

impl Default for Sequential {
    fn default() -> Self {
        Sequential { limit: 1 << 20 }
    }
}

impl Env for Sequential {
    fn wait(&self, _what: &'static str, mut done: impl FnMut() -> bool) -> bool {
        (0..self.limit).any(|_| {
            let d = done();
            if !d {
                core::hint::spin_loop();
            }
            d
        })
    }
}
