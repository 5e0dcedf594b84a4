//! The thin wrappers of `ptx_sync::model` the tests use (`check`, `spin_until`, `spawn*`,
//! `assert_caught*`). The copy engine and proxy stand-ins that used to live here are retired: the
//! library's own copy functions run on its copy engine under loom, and `ptx_sync::model::Tile` is
//! shared memory whose async- and generic-proxy accesses the model checks (`device/src/copy/engine.rs`).
//! The hand-off is `ptx_sync_programs::handoff`, run by [`crate::programs::handoff`]; the
//! library's `Mbarrier`, `RemoteMbarrier`, `NamedBarrier` and `ClusterBarrier` report to the
//! scope model themselves.

use ptx_sync::model;

pub use ptx_sync::model::{spawn, spawn_at, spawn_in, Explored, Handle, SPIN_LIMIT};

/// The [`model::Place`] of CTA `cta` of cluster `cluster` on GPU 0: where the tests put their
/// threads.
pub const fn place(cluster: u32, cta: u32) -> model::Place {
    model::Place {
        gpu: 0,
        cluster,
        cta,
    }
}

/// Runs `f` as a loom model with the given preemption bound (every test states its bound):
/// [`ptx_sync::model::check`], which resets the model per execution, counts the executions that
/// a model spin abandoned because loom's schedule starved a thread (printed on stderr), and fails
/// if every execution was abandoned. Every other panic fails the test.
pub fn check<F>(preemption_bound: usize, f: F)
where
    F: Fn() + Sync + Send + 'static,
{
    model::check(preemption_bound, f);
}

/// Runs `f`, which must panic (the model caught the bug), and returns the panic's message.
fn caught_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let err = std::panic::catch_unwind(f).expect_err("the model did not catch the bug");
    err.downcast_ref::<String>()
        .cloned()
        .or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

/// Runs `f` and asserts that it panics with a message containing one of `expected` (for bugs that
/// show up either as a stale value or as a race report, depending on the schedule loom meets
/// first).
pub fn assert_caught(f: impl FnOnce() + std::panic::UnwindSafe, expected: &[&str]) {
    let msg = caught_message(f);
    assert!(
        expected.iter().any(|e| msg.contains(e)),
        "caught, but with an unexpected message: {msg:?} (expected one of {expected:?})"
    );
}

/// Runs `f` and asserts that it panics with a message containing every one of `parts` (the exact
/// pieces of a report whose thread order depends on the schedule).
pub fn assert_caught_all(f: impl FnOnce() + std::panic::UnwindSafe, parts: &[&str]) {
    let msg = caught_message(f);
    for p in parts {
        assert!(
            msg.contains(p),
            "caught, but the message {msg:?} lacks {p:?}"
        );
    }
}

/// Spins (with `loom::thread::yield_now`) until `done()`: [`ptx_sync::model::spin_until`]. A wait
/// that no thread can end panics with `"deadlock: {what} (no thread can make it true)"` (also
/// when it is a library wait inside `done`, e.g. `Pipeline::consumer_wait`: the outermost label
/// names it); a schedule that starves a thread abandons the execution (counted by [`check`]).
///
/// Threads must be started with [`spawn`], [`spawn_in`] or [`spawn_at`] and joined with
/// [`Handle::join`], so that the bookkeeping knows who can make progress.
pub fn spin_until(what: &str, done: impl FnMut() -> bool) {
    model::spin_until(what, done)
}
