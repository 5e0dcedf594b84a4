//! [`par_map`]: a test's independent jobs (ptxas runs, model checks) one thread per core.
//! Shared by the device tests (`common`) and, by path, the host tests that loop over ptxas or
//! the model checker (`floors.rs`, `litmus_ptx.rs`, `kernel_check.rs`).

/// `f` on each of `items`, one thread per core, the results in `items`' order: for loops of
/// ptxas runs (processes of their own, which the cores then take side by side).
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let out: Vec<std::sync::Mutex<Option<R>>> =
        items.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..cores.min(items.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(x) = items.get(i) else { break };
                *out[i].lock().unwrap() = Some(f(x));
            });
        }
    });
    out.into_iter()
        .map(|r| r.into_inner().unwrap().expect("every item was mapped"))
        .collect()
}
