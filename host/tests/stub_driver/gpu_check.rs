//! `scripts/gpu-check.sh` against the stub: the dry run, timeouts, skips, a kill.

use super::*;

const PLANNED: [&str; 10] = [
    "devices",
    "calibrate",
    "litmus",
    "copy-1",
    "copy-2",
    "copy-4",
    "bench",
    "tour",
    "litmus-files",
    "litmus-rest",
];

/// `bash scripts/gpu-check.sh` with the stub as the driver and the test's binary as ptx-sync.
fn gpu_check(tag: &str, budget: u32, env: &[(&str, &str)]) -> (std::process::Child, PathBuf) {
    let out = tmp(&format!("gpu-check-{tag}"));
    let _ = std::fs::remove_dir_all(&out);
    let mut c = Command::new("bash");
    c.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/gpu-check.sh"))
        .env("OUT", &out)
        .env("PTX_SYNC_BIN", env!("CARGO_BIN_EXE_ptx-sync"))
        .env("LD_LIBRARY_PATH", stub("full"))
        .env("GPU_CHECK_BUDGET_S", budget.to_string())
        .env("GPU_CHECK_LITMUS_ITERS", "1")
        .env("GPU_CHECK_COPY_BYTES", "1M")
        .env("GPU_CHECK_TOUR_ITERS", "1")
        // The stub run shares 2 CI cores with the other tests of this file: each step's limit
        // (sized for the device machine) times 4; the whole budget still bounds the run.
        .env("GPU_CHECK_STEP_SCALE", "4")
        .env("CUDA_STUB_LITMUS_OUT", "42,1,1,0")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    (c.spawn().expect("bash starts"), out)
}

/// The files that come back from the device machine: at most 8, at most 2 folders deep.
fn returned_files(out: &Path) -> Vec<String> {
    fn walk(d: &Path, depth: usize, acc: &mut Vec<String>, root: &Path) {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                assert!(depth < 2, "{} is more than 2 folders down", p.display());
                walk(&p, depth + 1, acc, root);
            } else {
                acc.push(p.strip_prefix(root).unwrap().display().to_string());
            }
        }
    }
    let mut v = Vec::new();
    walk(out, 0, &mut v, out);
    v.sort();
    v
}

/// Status of each step in summary.txt (`name: status ...`).
fn statuses(summary: &str) -> BTreeMap<String, String> {
    summary
        .lines()
        .filter_map(|l| l.split_once(':'))
        .filter(|(n, _)| PLANNED.contains(&n.trim()) || n.starts_with("litmus-"))
        .map(|(n, s)| (n.trim().to_string(), s.trim().to_string()))
        .collect()
}

fn archive_listing(out: &Path) -> Vec<String> {
    let o = Command::new("tar")
        .arg("-tzf")
        .arg(out.join("gpu-check.tar.gz"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| l.trim_start_matches("./").to_string())
        .collect()
}

#[test]
fn gpu_check_dry_run_fits_the_device_machine() {
    let (mut child, out) = gpu_check("dry", 120, &[]);
    let st = child.wait().unwrap();
    assert_eq!(st.code(), Some(0));
    assert_eq!(
        returned_files(&out),
        ["gpu-check.tar.gz", "results.json", "summary.txt"]
    );
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    let s = statuses(&summary);
    for p in PLANNED {
        let st = s
            .get(p)
            .unwrap_or_else(|| panic!("no status for {p}:\n{summary}"));
        assert!(
            st.starts_with("ran on ptx-sync stub H200") || st.starts_with("failed"),
            "{p}: {st}"
        );
    }
    assert!(summary.contains("device: ptx-sync stub H200"), "{summary}");
    assert!(
        summary.contains("complete: every planned step has a status"),
        "{summary}"
    );
    // count_atom_gpu (correct) sees old1 == old2 from the stub's words: the litmus step failed,
    // and says why.
    assert!(s["litmus"].starts_with("failed (exit 3"), "{summary}");
    assert!(
        s["litmus"].contains("a correct program showed a forbidden outcome"),
        "{summary}"
    );
    for p in ["copy-1", "copy-2", "copy-4", "bench", "litmus-files"] {
        assert!(
            s[p].starts_with("ran on ptx-sync stub H200 (exit 0"),
            "{p}: {summary}"
        );
    }
    // The stub's kernels never show SB's weak outcome: the calibration says the stress is
    // ineffective, at each of the 4 sweep points.
    assert!(
        s["calibrate"].starts_with("ran on ptx-sync stub H200 (exit 0"),
        "{summary}"
    );
    assert_eq!(
        s["calibrate"]
            .matches("the stress is ineffective here")
            .count(),
        4,
        "{summary}"
    );
    let v = json(&out.join("results.json"));
    assert_eq!(v["complete"], true);
    let names: Vec<&str> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, PLANNED);
    let files = archive_listing(&out);
    for f in [
        "devices.json",
        "calibrate.json",
        "calibrate.txt",
        "litmus.json",
        "litmus.svg",
        "litmus.txt",
        "copy-1.json",
        "copy-4.json",
        "copy.txt",
        "bench.json",
        "bench.md",
        "tour.txt",
        "summary.txt",
        "results.json",
        "litmus-files.txt",
        "litmus-file-1.json",
        "litmus-file-6.json",
    ] {
        assert!(
            files.iter().any(|x| x == f),
            "{f} not in the archive: {files:?}"
        );
    }
    // The archive's litmus.json holds every program.
    let x = tmp("gpu-check-dry-x");
    let _ = std::fs::remove_dir_all(&x);
    std::fs::create_dir_all(&x).unwrap();
    assert!(Command::new("tar")
        .arg("-xzf")
        .arg(out.join("gpu-check.tar.gz"))
        .arg("-C")
        .arg(&x)
        .status()
        .unwrap()
        .success());
    let l = json(&x.join("litmus.json"));
    let list = Command::new(env!("CARGO_BIN_EXE_ptx-sync"))
        .args(["litmus", "list"])
        .output()
        .unwrap();
    let n = String::from_utf8_lossy(&list.stdout).lines().count();
    assert_eq!(
        l.as_array().unwrap().len(),
        n,
        "every program of `litmus list` reported"
    );
    assert_eq!(json(&x.join("copy-2.json"))["mismatches"], 0);
    // The litmus-files step ran its six corpus files (the stub's generated kernel writes nothing
    // without CUDA_STUB_FILE_OUT: every instance is reported incomplete, none as a state).
    let lf = std::fs::read_to_string(x.join("litmus-files.txt")).unwrap();
    assert_eq!(lf.matches("\nStates 0\n").count(), 6, "{lf}");
    assert!(
        lf.contains("Test cluster-barrier-MP") && lf.contains("clusters of 2"),
        "{lf}"
    );
}

/// A kernel that never ends: the step times out at the budget, the rest are skipped (without
/// running the budget over), and the summary is complete; a kill of the script itself leaves
/// what finished. The budget is 4 s with steps skipped under 2 s left (the script's defaults,
/// 210 and 10, scaled down for the test: devices may still take up to 2 s before calibrate).
#[test]
fn gpu_check_reports_timeouts_skips_and_survives_a_kill() {
    let (mut child, out) = gpu_check(
        "hang",
        4,
        &[("CUDA_STUB_HANG", "1"), ("GPU_CHECK_MIN_STEP_S", "2")],
    );
    assert_eq!(child.wait().unwrap().code(), Some(0));
    assert!(returned_files(&out).len() <= 8);
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    // "budget 4 s, N s used": the ~40 skips after the timeout take no time of their own.
    let used: u32 = summary
        .split_once("budget 4 s, ")
        .and_then(|(_, r)| r.split_once(" s used"))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("no budget line: {summary}"));
    assert!(used <= 4 + 10, "{used} s used of a 4 s budget: {summary}");
    let s = statuses(&summary);
    assert!(
        s["devices"].starts_with("ran on ptx-sync stub H200"),
        "{summary}"
    );
    assert!(
        s["calibrate"].starts_with("timed out (exit 124"),
        "{summary}"
    );
    // Every step after devices and calibrate but the last (litmus .. litmus-files).
    for &p in &PLANNED[2..PLANNED.len() - 1] {
        assert!(
            s[p].starts_with("skipped") && s[p].contains("of the 4 s budget left"),
            "{p}: {summary}"
        );
    }
    assert!(
        summary.contains("complete: every planned step has a status"),
        "{summary}"
    );

    let (mut child, out) = gpu_check("kill", 200, &[("CUDA_STUB_HANG", "1")]);
    let t = std::time::Instant::now();
    // Wait for the devices step to be published, then kill the script during `litmus`.
    while !std::fs::read_to_string(out.join("summary.txt"))
        .unwrap_or_default()
        .contains("devices:")
    {
        assert!(
            t.elapsed().as_secs() < 60,
            "the devices step never appeared"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    unsafe_kill_term(child.id());
    let code = child.wait().unwrap().code();
    assert_eq!(code, Some(130), "the script exits 130 on TERM");
    assert!(
        t.elapsed().as_secs() < 30,
        "the kill took {:?}",
        t.elapsed()
    );
    assert_eq!(
        returned_files(&out),
        ["gpu-check.tar.gz", "results.json", "summary.txt"]
    );
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    assert!(
        statuses(&summary)["devices"].starts_with("ran on"),
        "{summary}"
    );
    assert!(
        summary.contains("INCOMPLETE: the script was cut short"),
        "{summary}"
    );
    assert!(
        summary.contains("calibrate:                 no status yet"),
        "{summary}"
    );
    assert_eq!(json(&out.join("results.json"))["complete"], false);
    assert!(archive_listing(&out).iter().any(|f| f == "devices.json"));
}

/// SIGTERM to a process we started (no libc dependency: the `kill` command).
fn unsafe_kill_term(pid: u32) {
    assert!(Command::new("kill")
        .arg("-TERM")
        .arg(pid.to_string())
        .status()
        .unwrap()
        .success());
}
