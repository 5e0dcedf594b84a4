//! The kernel-check flags both examples take (`--entry`, `--grid`, `--block`, `--cluster`,
//! `--param`, `--dyn-smem`, `--unroll`, `--max-steps`, `--jobs`, `--assert`), read into [`KernelOptions`].

use ptx_sync_model::kernel::KernelOptions;

/// `args` read as kernel-check flags (each followed by its value) and the other words, in order.
pub fn kernel_options(args: &[String]) -> (KernelOptions, Vec<String>) {
    let mut o = KernelOptions::default();
    let mut rest = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1).cloned();
        match args[i].as_str() {
            "--entry" => o.entry = v,
            "--grid" => o.grid = v,
            "--block" => o.block = v,
            "--cluster" => o.cluster = v,
            "--param" => o.params.extend(v),
            "--dyn-smem" => o.dyn_smem = v.and_then(|s| s.parse().ok()),
            "--unroll" => o.unroll = v.and_then(|s| s.parse().ok()),
            "--max-steps" => o.max_steps = v.and_then(|s| s.parse().ok()),
            "--jobs" => o.jobs = v.and_then(|s| s.parse().ok()),
            "--assert" => o.assert = v,
            f => {
                rest.push(f.to_string());
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    (o, rest)
}
