//! `ptx-sync show --ptx FILE [FUNCTION]` on the hand-written modules of `tests/data/lints/`: each
//! lint fires on its triggering module (at the expected line) and on none of the clean ones;
//! every module is accepted by ptxas; a cubin shows its SASS; bad input exits 2.
//!
//! Needs the PTX tools: `PTX_SYNC_TOOLS` (set by `cargo xtask test`) or the `.venv` made by
//! `cargo xtask setup`. Without them these tests fail (they never pass vacuously).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tools() -> PathBuf {
    ptx_sync_host::sass::find_tools().unwrap_or_else(|e| {
        panic!("{e}\nthe inspector needs ptxas and cuobjdump: run `cargo xtask setup`")
    })
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/lints")
        .join(name)
}

fn show(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptx-sync"))
        .env("PTX_SYNC_TOOLS", tools())
        .arg("show")
        .args(args)
        .output()
        .expect("the ptx-sync binary starts")
}

/// `show --ptx FILE`: (exit code, stdout, stderr).
fn inspect(file: &Path) -> (i32, String, String) {
    let o = show(&["--ptx", file.to_str().unwrap()]);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn lints(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("lint: ")).collect()
}

/// (module, lint, function, line) that must fire.
const FIRES: &[(&str, &str, &str, usize)] = &[
    (
        "barrier_two_paths.ptx",
        "aligned-barrier-two-paths",
        "two_paths",
        24,
    ),
    ("weak_spin.ptx", "weak-spin-loop", "spin_weak", 17),
    ("hoisted_spin.ptx", "weak-spin-loop", "spin_hoisted", 21),
    (
        "hoisted_spin.ptx",
        "sass-loop-without-load",
        "spin_hoisted",
        9,
    ),
    (
        "remote_arrive_cta.ptx",
        "remote-arrive-cta-scope",
        "remote_arrive",
        16,
    ),
    (
        "tma_after_load.ptx",
        "generic-load-then-tma-write",
        "tma_reuse",
        24,
    ),
];

/// Modules on which no lint fires: the fixed counterpart of each triggering one.
const CLEAN: &[&str] = &[
    "barrier_joined.ptx",
    "strong_spin.ptx",
    "remote_arrive_cluster.ptx",
    "tma_after_fence.ptx",
];

#[test]
fn each_lint_fires_on_its_module_at_its_line() {
    for (file, lint, func, line) in FIRES {
        let (rc, out, err) = inspect(&data(file));
        assert_eq!(rc, 0, "{file}: lints are warnings\n{out}{err}");
        let want = format!("lint: {lint}: {func}: ");
        let hit: Vec<&str> = lints(&out)
            .into_iter()
            .filter(|l| l.starts_with(&want))
            .collect();
        assert_eq!(hit.len(), 1, "{file}: expected one `{want}…`:\n{out}");
        assert!(
            hit[0].ends_with(&format!("(line {line})")),
            "{file}: {lint} at the wrong line: {}",
            hit[0]
        );
    }
    // Each triggering module fires only its own lints.
    for file in [
        "barrier_two_paths.ptx",
        "weak_spin.ptx",
        "remote_arrive_cta.ptx",
        "tma_after_load.ptx",
    ] {
        let (_, out, _) = inspect(&data(file));
        let expected = FIRES.iter().filter(|f| f.0 == file).count();
        assert_eq!(lints(&out).len(), expected, "{file}:\n{out}");
    }
}

#[test]
fn no_lint_fires_on_the_fixed_modules() {
    for file in CLEAN {
        let (rc, out, err) = inspect(&data(file));
        assert_eq!(rc, 0, "{file}\n{out}{err}");
        assert!(lints(&out).is_empty(), "{file}:\n{out}");
        assert!(out.contains("no lint"), "{file}:\n{out}");
    }
}

#[test]
fn every_lint_has_a_firing_and_a_clean_module() {
    let names = [
        "aligned-barrier-two-paths",
        "weak-spin-loop",
        "sass-loop-without-load",
        "remote-arrive-cta-scope",
        "generic-load-then-tma-write",
    ];
    for n in names {
        assert!(FIRES.iter().any(|f| f.1 == n), "{n} has no firing module");
    }
    // Every module under tests/data/lints is one of the two lists (and so is checked above).
    for e in std::fs::read_dir(data("")).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        assert!(
            FIRES.iter().any(|f| f.0 == name) || CLEAN.contains(&name.as_str()),
            "{name} is in no list"
        );
    }
}

#[test]
fn the_report_shows_meaning_sass_and_cost_row() {
    let (rc, out, _) = inspect(&data("strong_spin.ptx"));
    assert_eq!(rc, 0);
    assert!(out.contains("spin_strong (.entry, line 6), sm_90"), "{out}");
    assert!(
        out.contains("ld.relaxed.gpu.global.u32 %r1, [%rd2]"),
        "{out}"
    );
    assert!(
        out.contains("load: sem relaxed, scope gpu, space global, proxy generic; seed §3.5"),
        "{out}"
    );
    assert!(out.contains("SASS: LDG.E.STRONG.GPU"), "{out}");
    assert!(out.contains("approximate"), "{out}");
    assert!(
        out.contains("`ld.relaxed.gpu.u32` → LD.E.STRONG.GPU"),
        "{out}"
    );
    let (_, out, _) = inspect(&data("tma_after_fence.ptx"));
    assert!(
        out.contains("SASS: MEMBAR.ALL.CTA FENCE.VIEW.ASYNC.S"),
        "{out}"
    );
    assert!(out.contains("proxy async; seed §5.2"), "{out}");
    assert!(out.contains("SASS: UBLKCP.S.G"), "{out}");
    let (_, out, _) = inspect(&data("remote_arrive_cluster.ptx"));
    assert!(out.contains("SYNCS.ARRIVE.TRANS64.RED.A1T0"), "{out}");
    assert!(out.contains("seed §5.4"), "{out}");
}

#[test]
fn one_function_and_an_unknown_one() {
    let f = data("barrier_two_paths.ptx");
    let o = show(&["--ptx", f.to_str().unwrap(), "two_paths"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("two_paths (.entry"));
    let o = show(&["--ptx", f.to_str().unwrap(), "nope"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no function `nope`") && err.contains("two_paths"),
        "{err}"
    );
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ptx-sync-inspect-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

#[test]
fn a_cubin_shows_its_sass_sync_instructions_and_sass_lints() {
    for (src, lint) in [("hoisted_spin.ptx", true), ("strong_spin.ptx", false)] {
        let cubin = scratch(&src.replace(".ptx", ".cubin"));
        let o = Command::new(tools().join("ptxas"))
            .args(["-arch=sm_90", "-O3"])
            .arg(data(src))
            .arg("-o")
            .arg(&cubin)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let (rc, out, err) = inspect(&cubin);
        assert_eq!(rc, 0, "{out}{err}");
        assert!(out.contains("(SASS, dump line"), "{out}");
        assert_eq!(
            out.contains("lint: sass-loop-without-load: spin_hoisted: "),
            lint,
            "{src}:\n{out}"
        );
        if !lint {
            assert!(out.contains("LDG.E.STRONG.GPU"), "{out}");
            assert!(out.contains("no lint"), "{out}");
        }
    }
}

#[test]
fn bad_input_exits_2_with_the_message_first() {
    let (rc, _, err) = inspect(Path::new("/nonexistent/x.ptx"));
    assert_eq!(rc, 2, "{err}");
    assert!(
        err.starts_with("ptx-sync: cannot read /nonexistent/x.ptx"),
        "{err}"
    );
    let bad = scratch("bad.ptx");
    std::fs::write(
        &bad,
        ".version 8.6\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tfoo.bar;\n\tret;\n}\n",
    )
    .unwrap();
    let (rc, out, err) = inspect(&bad);
    assert_eq!(rc, 2, "{out}{err}");
    let first = err.lines().next().unwrap_or("");
    assert!(
        first.starts_with("ptx-sync: ptxas rejects") && first.contains("line 6"),
        "{err}"
    );
    let junk = scratch("junk.cubin");
    std::fs::write(&junk, b"not an ELF").unwrap();
    let (rc, _, err) = inspect(&junk);
    assert_eq!(rc, 2, "{err}");
    assert!(err.starts_with("ptx-sync: cuobjdump cannot read"), "{err}");
}
