//! Every file of `model/litmus/` through the litmus-file PTX generator (`host/src/exec/litmus_ptx.rs`,
//! run by `ptx-sync litmus FILE.litmus`): each file it supports gives a module that ptxas 13.0
//! assembles for sm_90; each file it does not support has a reason. The generator reads only the
//! parsed test, never the model's verdicts.

#[path = "../../device/tests/common/par.rs"]
mod par;

use ptx_sync_host::litmus_ptx;
use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../model/litmus");
    let mut v = ptx_sync_model::litmus_files(&[root]).expect("the corpus is there");
    v.sort();
    v
}

#[test]
fn every_supported_corpus_file_assembles_with_ptxas() {
    let tools = ptx_sync_host::sass::find_tools().expect("PTX tools (cargo xtask setup)");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("litmus-ptx");
    std::fs::create_dir_all(&dir).unwrap();
    let files = corpus();
    assert!(files.len() >= 200, "only {} corpus files", files.len());
    let (mut ok, mut unsupported, mut failed) = (Vec::new(), Vec::new(), Vec::new());
    // The generated modules, then ptxas on them, one process per core at a time.
    let mut modules = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let name = f.display().to_string();
        let t = ptx_sync_model::parse(&text, &name).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        match litmus_ptx::generate(&t) {
            Err(why) => {
                assert!(
                    !why.trim().is_empty(),
                    "{name}: unsupported without a reason"
                );
                unsupported.push(format!("{name}: {why}"));
            }
            Ok(k) => {
                assert!(k.ptx.contains(".version 8.6\n.target sm_90\n"), "{name}");
                assert_eq!(k.ptx.matches(".entry ").count(), 1, "{name}");
                assert_eq!(
                    k.ptx.contains(".explicitcluster"),
                    k.layout.cluster.is_some(),
                    "{name}"
                );
                let stem = f.file_stem().unwrap().to_string_lossy().to_string();
                let src = dir.join(format!("{stem}.ptx"));
                std::fs::write(&src, &k.ptx).unwrap();
                modules.push((name, src, dir.join(format!("{stem}.cubin"))));
            }
        }
    }
    let results = par::par_map(&modules, |(_, src, cubin)| {
        Command::new(tools.join("ptxas"))
            .args(["-arch=sm_90", "-O3"])
            .arg(src)
            .arg("-o")
            .arg(cubin)
            .output()
            .expect("ptxas runs")
    });
    for ((name, src, _), o) in modules.into_iter().zip(results) {
        if o.status.success() {
            ok.push(name);
        } else {
            failed.push(format!(
                "{name} ({}): {}",
                src.display(),
                String::from_utf8_lossy(&o.stderr)
            ));
        }
    }
    eprintln!(
        "{} of {} corpus files run on hardware; not supported:",
        ok.len(),
        files.len()
    );
    for u in &unsupported {
        eprintln!("  {u}");
    }
    assert!(
        failed.is_empty(),
        "ptxas rejected {} generated modules:\n{}",
        failed.len(),
        failed.join("\n")
    );
    assert_eq!(ok.len() + unsupported.len(), files.len());
    assert!(
        ok.len() >= 185,
        "only {} of {} files supported (189 when written)",
        ok.len(),
        files.len()
    );
    // The directories the brief names run almost entirely.
    for d in ["isa", "scope", "fence", "atomics", "seed", "barrier"] {
        let n = files
            .iter()
            .filter(|f| f.parent().unwrap().ends_with(d))
            .count();
        let s = ok
            .iter()
            .filter(|f| Path::new(f).parent().unwrap().ends_with(d))
            .count();
        assert!(2 * s >= n, "{d}/: only {s} of {n} supported");
    }
}
