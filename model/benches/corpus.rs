//! Benchmark (not a test): every file of `model/litmus/` decided, with the time per test and in
//! total. `cargo bench -p ptx-sync-model`.
use std::path::PathBuf;
use std::time::Instant;

/// The `ptx-sync` binary's allocator (host/Cargo.toml says why): the benchmark times what it does.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("litmus");
    let files = ptx_sync_model::litmus_files(&[dir]).expect("model/litmus");
    let t0 = Instant::now();
    let mut times: Vec<(f64, String, usize)> = Vec::new();
    for f in &files {
        let t = Instant::now();
        match ptx_sync_model::check_file(f) {
            Ok(o) => times.push((
                t.elapsed().as_secs_f64(),
                o.test.name.clone(),
                o.found.candidates,
            )),
            Err(e) => println!("not decided: {e}"),
        }
    }
    let total = t0.elapsed().as_secs_f64();
    times.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
    println!(
        "{} tests in {:.2} s (mean {:.1} ms)",
        times.len(),
        total,
        1000.0 * total / times.len().max(1) as f64
    );
    println!("slowest:");
    for (s, n, c) in times.iter().take(10) {
        println!("  {:8.1} ms  {:6} candidates  {}", s * 1000.0, c, n);
    }
}
