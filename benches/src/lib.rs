//! Helpers of the fence-cost benches (`benches/fences.rs`): the per-sample recorder behind the
//! ratio summary, and the GPU-driver check that says why the GPU part is skipped.
//!
//! Run: `cargo bench -p ptx-sync-benches` (a few minutes on two cores). The criterion output is
//! followed by a summary: median ns per operation over criterion's samples, their min–max, and
//! the ratio to the no-fence baseline (one relaxed store per iteration). Benches are not tests:
//! nothing here asserts a timing.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Every timed batch of every bench, in the order criterion ran them: `(iterations, elapsed)`.
#[derive(Default, Debug)]
pub struct Recorder {
    /// The criterion group being run (prefix of the ids pushed).
    pub group: String,
    rows: Vec<(String, Vec<(u64, Duration)>)>,
}

impl Recorder {
    /// Records one batch of `iters` iterations of bench `id` that took `d`.
    pub fn push(&mut self, id: &str, iters: u64, d: Duration) {
        match self.rows.iter_mut().find(|(n, _)| n == id) {
            Some((_, v)) => v.push((iters, d)),
            None => self.rows.push((id.to_string(), vec![(iters, d)])),
        }
    }

    /// Per-sample ns/iteration of `id`: the last `n` batches (criterion runs its warm-up first,
    /// then exactly `sample_size` batches), or fewer if fewer ran.
    pub fn samples(&self, id: &str, n: usize) -> Vec<f64> {
        let Some((_, v)) = self.rows.iter().find(|(k, _)| k == id) else {
            return vec![];
        };
        v[v.len().saturating_sub(n)..]
            .iter()
            .filter(|(i, _)| *i > 0)
            .map(|(i, d)| d.as_nanos() as f64 / *i as f64)
            .collect()
    }
}

/// Median, min and max of a sample.
pub fn stats(xs: &[f64]) -> Option<(f64, f64, f64)> {
    if xs.is_empty() {
        return None;
    }
    let mut v = xs.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    let med = if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    };
    Some((med, v[0], v[n - 1]))
}

/// The ratio table of one group: each case's median ns/op, min–max over samples, and its
/// median divided by the `baseline` case's median.
pub fn ratio_table(
    rec: &Recorder,
    group: &str,
    cases: &[&str],
    baseline: &str,
    n: usize,
) -> String {
    let id = |c: &str| format!("{group}/{c}");
    let base = stats(&rec.samples(&id(baseline), n)).map(|s| s.0);
    let mut s = format!(
        "{group}  (baseline: {baseline}; {n} samples each)\n  {:<22} {:>9} {:>19} {:>10}\n",
        "case", "ns/op", "min..max", "x baseline"
    );
    for c in cases {
        match stats(&rec.samples(&id(c), n)) {
            Some((m, lo, hi)) => {
                let r = base
                    .filter(|b| *b > 0.0)
                    .map_or("-".into(), |b| format!("{:.2}", m / b));
                let _ = writeln!(
                    s,
                    "  {c:<22} {m:>9.2} {:>19} {r:>10}",
                    format!("{lo:.2}..{hi:.2}")
                );
            }
            None => {
                let _ = writeln!(s, "  {c:<22} {:>9}", "(not run)");
            }
        }
    }
    s
}

/// Whether an NVIDIA driver is present, found without loading anything: the kernel module's
/// `/proc/driver/nvidia/version` and a `libcuda.so.1` in the usual library directories (or
/// `LD_LIBRARY_PATH`; the toolkit's `stubs/` copy does not count). `Ok(description)` or
/// `Err(what is missing)`.
pub fn gpu_driver() -> Result<String, String> {
    let proc_version = Path::new("/proc/driver/nvidia/version");
    let mut dirs: Vec<PathBuf> = std::env::var_os("LD_LIBRARY_PATH")
        .map(|v| std::env::split_paths(&v).collect())
        .unwrap_or_default();
    for d in [
        "/usr/lib/x86_64-linux-gnu",
        "/usr/lib/aarch64-linux-gnu",
        "/usr/lib64",
        "/usr/lib",
        "/usr/local/nvidia/lib64",
        "/usr/local/cuda/lib64",
        "/usr/local/cuda/compat",
    ] {
        dirs.push(PathBuf::from(d));
    }
    let lib = dirs
        .iter()
        .filter(|d| !d.ends_with("stubs"))
        .map(|d| d.join("libcuda.so.1"))
        .find(|p| p.exists());
    match (proc_version.exists(), lib) {
        (true, Some(l)) => {
            let v = std::fs::read_to_string(proc_version).unwrap_or_default();
            let first = v.lines().next().unwrap_or("").trim().to_string();
            Ok(format!("{first}; {}", l.display()))
        }
        (false, None) => Err(format!(
            "no NVIDIA driver: {} does not exist and no libcuda.so.1 in LD_LIBRARY_PATH or the system library directories",
            proc_version.display()
        )),
        (false, Some(l)) => Err(format!(
            "{} exists but the kernel driver is not loaded ({} missing)",
            l.display(),
            proc_version.display()
        )),
        (true, None) => Err("the kernel driver is loaded but no libcuda.so.1 was found".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_the_last_batches_per_iteration() {
        let mut r = Recorder::default();
        r.push("g/a", 1, Duration::from_nanos(1000)); // a warm-up batch
        r.push("g/a", 10, Duration::from_nanos(20));
        r.push("g/a", 20, Duration::from_nanos(60));
        r.push("g/b", 10, Duration::from_nanos(10));
        assert_eq!(r.samples("g/a", 2), [2.0, 3.0]);
        assert_eq!(r.samples("g/b", 5), [1.0]);
        assert!(r.samples("g/c", 5).is_empty());
        assert_eq!(stats(&[3.0, 1.0, 2.0, 10.0]), Some((2.5, 1.0, 10.0)));
        let t = ratio_table(&r, "g", &["a", "b", "c"], "b", 2);
        assert!(t.contains("2.50"), "{t}");
        assert!(
            t.lines()
                .any(|l| l.trim_start().starts_with('c') && l.contains("(not run)")),
            "{t}"
        );
    }
}
