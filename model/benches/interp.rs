//! Benchmark (not a test): the thread interpreter's costs the engine pays millions of times —
//! cloning a thread, and stepping one from its start to its end with every op answered 0.
//! `cargo bench -p ptx-sync-model --bench interp`. Inputs: a litmus test of the corpus and the
//! largest-loop kernel of `target/ptx/kernels.ptx` (`cargo xtask ptx`).
use ptx_sync_model::engine::op::{Program, Reply, Step};
use ptx_sync_model::ptx::module::{Bind, Launch, Module};
use ptx_sync_model::ptx::Thread;
use std::path::PathBuf;
use std::time::Instant;

/// Runs `t` to its end (every reply 0); returns (ops, steps).
fn run(mut t: Thread) -> (usize, usize) {
    let (mut ops, mut steps) = (0, 0);
    loop {
        steps += 1;
        match t.step() {
            Step::Op(..) => {
                ops += 1;
                t.resume(Reply::Value(0));
            }
            Step::LoopHead { .. } => {}
            _ => return (ops, steps),
        }
    }
}

fn measure(name: &str, t: &Thread) {
    let n = 200_000;
    let t0 = Instant::now();
    let mut keep = 0usize;
    for _ in 0..n {
        let c = t.clone();
        keep += c.pc();
    }
    let clone_ns = t0.elapsed().as_nanos() as f64 / n as f64;
    let (ops, steps) = run(t.clone());
    let m = 2_000;
    let t0 = Instant::now();
    for _ in 0..m {
        keep += run(t.clone()).0;
    }
    let run_ns = t0.elapsed().as_nanos() as f64 / m as f64;
    println!(
        "{name}: {} registers; clone {clone_ns:.0} ns; a run of {ops} ops / {steps} steps {:.1} µs ({:.0} ns per step) [{keep}]",
        t.code().regs.len(),
        run_ns / 1000.0,
        run_ns / steps as f64
    );
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("litmus/seed/seed-2.5-handoff-fenced.litmus"))
        .or_else(|_| {
            let f = ptx_sync_model::litmus_files(&[root.join("litmus/seed")]).expect("corpus");
            std::fs::read_to_string(&f[0])
        })
        .expect("a seed litmus test");
    let t = ptx_sync_model::parse(&text, "seed").expect("parses");
    let p = t.threads.iter().max_by_key(|th| th.code.len()).unwrap();
    measure(
        &format!("litmus {} P{}", t.name, p.id),
        p.prog.as_ref().unwrap(),
    );
    let dir = std::env::var("PTX_SYNC_PTX_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root.join("../target/ptx"));
    let Ok(ptx) = std::fs::read_to_string(dir.join("kernels.ptx")) else {
        println!("kernels.ptx: not built (cargo xtask ptx): kernel rows skipped");
        return;
    };
    let m = Module::parse(&ptx, "kernels.ptx").expect("kernels.ptx parses");
    for name in ["tiled_copy_s2", "deepep_barrier", "bench_fence_sc_gpu"] {
        let Some(f) = m.entry(name) else { continue };
        let mut l = Launch::new([1, 1, 1], [1, 1, 1]);
        l.params = f
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| match (name.starts_with("tiled"), i, p.size) {
                (true, 0, _) => (
                    i,
                    Bind::Tmap {
                        dims: [64, 32],
                        boxdim: [64, 32],
                        rank: 2,
                    },
                ),
                (_, _, 8) => (i, Bind::Buf(4096)),
                _ => (i, Bind::Int(2)),
            })
            .collect();
        let k = m.launch(name, &l).expect("launch");
        measure(&format!("kernel {name}"), &k.threads[0]);
    }
}
