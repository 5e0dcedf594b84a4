//! `guide`: runs `docs/guide.md` — its files in a fresh `cargo new` crate, its commands, each
//! step's output judged.

use super::*;

/// One step of `docs/guide.md`, in page order: a file (the code block right after a
/// `<!-- file: PATH -->` line) or a shell command (a line of a ```` ```sh ```` block, its `# …`
/// comment cut off).
#[derive(Debug)]
pub(super) enum GuideStep {
    File(String, String),
    Sh(String),
}

pub(super) fn guide_steps(md: &str) -> Vec<GuideStep> {
    let mut steps = Vec::new();
    let mut lines = md.lines();
    while let Some(l) = lines.next() {
        if let Some(name) = l
            .strip_prefix("<!-- file: ")
            .and_then(|r| r.strip_suffix(" -->"))
        {
            let fence = lines.next().unwrap_or_default();
            assert!(
                fence.starts_with("```"),
                "guide: {name}: no code block after its marker"
            );
            let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
            steps.push(GuideStep::File(name.to_string(), body.join("\n") + "\n"));
        } else if l == "```sh" {
            // A line ending in `\` continues on the next, as in sh.
            let mut pending = String::new();
            for c in lines.by_ref().take_while(|l| *l != "```") {
                let cmd = match c.find(" #") {
                    Some(i) => &c[..i],
                    None => c,
                }
                .trim();
                if let Some(head) = cmd.strip_suffix('\\') {
                    pending.push_str(head.trim_end());
                    pending.push(' ');
                    continue;
                }
                let cmd = format!("{pending}{cmd}");
                pending.clear();
                if !cmd.trim().is_empty() {
                    steps.push(GuideStep::Sh(cmd.trim().to_string()));
                }
            }
        }
    }
    steps
}

/// Output of a command that must run; `(success, stdout + stderr)`.
pub(super) fn output(cmd: &mut Command) -> (bool, String) {
    let o = cmd.output().unwrap_or_else(|e| {
        eprintln!("xtask: cannot start {cmd:?}: {e}");
        exit(1)
    });
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.success(), text)
}

pub(super) fn guide_fail(what: &str, text: &str) -> ! {
    eprintln!("xtask: guide: {what}\n{text}");
    exit(1)
}

/// The `warning:` lines of a build's output (a user's build of the guide's crate must have none:
/// no note about the checkout's kernels, no `cfg(loom)`, no `+ptx86`).
pub(super) fn warnings(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.trim_start().starts_with("warning"))
        .collect()
}

/// Runs `docs/guide.md` as a user would, in the layout it describes: a directory holding the
/// checkout as `ptx-sync/` (a link to this one) where the page's commands run in page order,
/// with its files written where they fall — `cd` moves, `cargo install --path P` is checked to
/// name this checkout's `host/` crate from there and stands for the workspace's own build of
/// `ptx-sync` put first on `PATH`. Nothing points the commands at the PTX tools: the `PTX_SYNC_*`
/// variables are removed, and the cubin and SASS come from where the page's `ptx-sync setup`
/// put the tools. Four additions, none a tool path: `CARGO_TARGET_DIR` is the workspace's
/// target directory (the dependency tree is built once), and so is `build.target-dir` in a
/// `.cargo/config.toml` of the guide's directory (the nvptx builds' cargo runs without the
/// outer `CARGO_*` variables, so `ptx-sync build` reads it there: its `ptx-sync-build` directory
/// is then the workspace's, where `core` and ptx-sync for sm_90 are built once, instead of the
/// new crate's own, built afresh on every run), `PTX_SYNC_PTX_DIR` an empty directory (the
/// launcher library built as in a checkout whose own kernels were never built), and the
/// examples' `Cargo.lock` is copied next to the new crate's manifest (the same versions, no
/// registry resolution). Each command's output is checked against what the page says it does;
/// builds of the user's crates must print no warning.
pub(super) fn guide(total: &mut (u64, u64)) {
    // Outside the workspace (inside it, `cargo new` would join the crate to the workspace), at a
    // path fixed per checkout (`user_dir`): cargo keys path dependencies by their path
    // (`…/ptx-sync/device` through the link), so a second run — and the examples, built through
    // the same link — find the ptx-sync crates it built fresh.
    let dir = user_dir();
    clear_user_dir(&dir);
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    std::fs::create_dir_all(dir.join(".cargo")).unwrap();
    std::fs::write(
        dir.join(".cargo/config.toml"),
        format!(
            "# cargo xtask guide: the workspace's target directory (see xtask/src/guide.rs)\n\
             [build]\ntarget-dir = {:?}\n",
            root().join("target").display().to_string()
        ),
    )
    .unwrap();
    // The `ptx-sync` command, as `cargo install` would put it on PATH.
    // `--workspace`: the features `cargo test --workspace` resolves (ptx-sync's `panic-handler`,
    // which the loom suite asks for), so that this is the binary that run built.
    run(cargo().args(["build", "-q", "--workspace", "--bin", "ptx-sync"]));
    std::os::unix::fs::symlink(
        root().join("target/debug/ptx-sync"),
        dir.join("bin/ptx-sync"),
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        dir.join("bin").display(),
        env::var("PATH").unwrap_or_default()
    );
    let tdir = root().join("target");
    // Under `target/`, not in the guide's directory (made afresh each run): the host crate's
    // build script watches this directory while it holds no kernels, and a new one would rebuild
    // the guide's launcher library on every run.
    let no_kernels = no_kernels_dir();
    // A user's shell: none of cargo's variables for this `cargo xtask` run, no tool paths.
    let user = |c: &mut Command, cwd: &Path| {
        c.current_dir(cwd);
        for (k, _) in env::vars_os() {
            let k = k.to_string_lossy().into_owned();
            let cargo_var = (k.starts_with("CARGO") && k != "CARGO_HOME")
                || k.starts_with("RUSTC")
                // Tool paths and build settings; `PTX_SYNC_HOME` (where the user's cache is,
                // that `ptx-sync setup` fills) is the user's own and stays.
                || (k.starts_with("PTX_SYNC_") && k != "PTX_SYNC_HOME")
                || ["RUSTFLAGS", "RUSTDOCFLAGS", "OUT_DIR", "RUSTUP_TOOLCHAIN"]
                    .contains(&k.as_str());
            if cargo_var {
                c.env_remove(&k);
            }
        }
        // The launcher library's own kernels as in a checkout where `cargo xtask ptx` never
        // ran (the binary standing for `cargo install` has them): its build must stay quiet.
        c.env("PATH", &path)
            .env("CARGO_TARGET_DIR", &tdir)
            .env("PTX_SYNC_PTX_DIR", &no_kernels);
    };
    let md = std::fs::read_to_string(root().join("docs/guide.md")).unwrap();
    let mut cwd = dir.clone();
    let mut seen = Vec::new();
    for step in guide_steps(&md) {
        let cmd = match step {
            GuideStep::File(name, body) => {
                let p = cwd.join(&name);
                std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                std::fs::write(&p, body).unwrap();
                continue;
            }
            GuideStep::Sh(c) => c,
        };
        eprintln!("xtask: guide: $ {cmd}");
        let words: Vec<&str> = cmd.split_whitespace().collect();
        if let Some(d) = cmd.strip_prefix("cd ") {
            cwd = cwd.join(d.trim());
            if !cwd.is_dir() {
                guide_fail(&format!("`{cmd}`: no directory {}", cwd.display()), "");
            }
            if cwd.join("Cargo.toml").is_file() && !cwd.join("Cargo.lock").exists() {
                std::fs::copy(
                    root().join("examples/handoff/Cargo.lock"),
                    cwd.join("Cargo.lock"),
                )
                .unwrap();
            }
            continue;
        }
        if let ["cargo", "install", "--path", p] = words[..] {
            let m = std::fs::read_to_string(cwd.join(p).join("Cargo.toml")).unwrap_or_default();
            if !m.contains("name = \"ptx-sync-host\"") {
                guide_fail(
                    &format!(
                        "`{cmd}` run from {} names no ptx-sync-host crate",
                        cwd.display()
                    ),
                    &m,
                );
            }
            seen.push("install".to_string());
            continue;
        }
        let mut c = Command::new("sh");
        c.arg("-c").arg(&cmd);
        user(&mut c, &cwd);
        if cmd == "cargo test" {
            let err = run_tests_stderr(&mut c, total, true);
            if !warnings(&err).is_empty() {
                guide_fail(
                    "building the user's crate for `cargo test` printed warnings",
                    &err,
                );
            }
            seen.push("test".to_string());
            continue;
        }
        let (ok, t) = output(&mut c);
        match words[..] {
            ["ptx-sync", "setup"] => {
                if !ok
                    || !t
                        .lines()
                        .any(|l| Path::new(l.trim()).join("ptxas").is_file())
                {
                    guide_fail(
                        "ptx-sync setup must print the tool directory (ptxas in it)",
                        &t,
                    );
                }
            }
            ["cargo", "new", ..] => {
                if !ok {
                    guide_fail(&format!("`{cmd}`"), &t);
                }
            }
            ["ptx-sync", "build", ..] => {
                guide_build(&cwd, ok, &t);
                // The page's claim about an older target: ptx-sync's own error, at once (built
                // where the handoff example's sm_80 test builds: `core` for sm_80 is shared).
                let mut c = Command::new("ptx-sync");
                c.args([
                    "build",
                    "--manifest-path",
                    "Cargo.toml",
                    "--arch",
                    "sm_80",
                    "--out",
                    "ptx80",
                    "--target-dir",
                ])
                .arg(root().join(NVPTX_DIR));
                user(&mut c, &cwd);
                let (ok, t) = output(&mut c);
                if ok || !t.contains("ptx-sync needs sm_90 and PTX ISA 8.6 or newer: build with `-C target-cpu=sm_90 -C target-feature=+ptx86`") {
                    guide_fail("--arch sm_80 must stop with ptx-sync's compile_error", &t);
                }
            }
            ["ptx-sync", "show", "--ptx", _] => guide_show(&md, ok, &t),
            ["cargo", "run"] => guide_run(&cwd, &tdir, ok, &t),
            ["ptx-sync", "check", f, ..] if f.ends_with(".ptx") => {
                // Step 7: the built kernel's PTX, checked: the page says `Observation mp Never`
                // and no `Flag` line.
                if !ok
                    || !t.contains("Observation mp Never")
                    || t.lines().any(|l| l.starts_with("Flag"))
                {
                    guide_fail("ptx-sync check FILE.ptx: mp Never, no flag", &t);
                }
            }
            ["ptx-sync", "check", ..] => {
                if !ok
                    || !t.contains("Observation mp Never")
                    || !t.contains("Observation mp-cta Sometimes")
                {
                    guide_fail("ptx-sync check: mp Never, mp-cta Sometimes", &t);
                }
            }
            _ => guide_fail(&format!("a command this runner does not know: `{cmd}`"), ""),
        }
        seen.push(words[1].to_string());
    }
    for want in [
        "install", "setup", "new", "test", "build", "show", "run", "check",
    ] {
        if !seen.iter().any(|s| s == want) {
            guide_fail(
                &format!("the page has no `{want}` step"),
                &format!("{seen:?}"),
            );
        }
    }
    clear_user_dir(&dir);
    println!("xtask: guide: every step of docs/guide.md ran as it says");
}

/// Removes what an earlier run left in the guide's directory, all but the `ptx-sync` link.
fn clear_user_dir(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        if e.file_name() != "ptx-sync" {
            let p = e.path();
            let _ = std::fs::remove_dir_all(&p).or_else(|_| std::fs::remove_file(&p));
        }
    }
}

/// `ptx-sync build … --out ptx`: both artifacts, the flag's strong accesses, no dynamic shared
/// memory, and no warning.
pub(super) fn guide_build(k: &Path, ok: bool, t: &str) {
    if !ok || !k.join("ptx/mykernels.cubin").exists() {
        guide_fail("ptx-sync build did not write ptx/mykernels.{ptx,cubin}", t);
    }
    if !warnings(t).is_empty() {
        guide_fail("ptx-sync build printed warnings", t);
    }
    let ptx = std::fs::read_to_string(k.join("ptx/mykernels.ptx")).unwrap();
    for want in ["st.release.gpu.u32", "ld.acquire.gpu.u32", ".entry mp("] {
        if !ptx.contains(want) {
            guide_fail(&format!("the PTX lacks {want}"), &ptx);
        }
    }
    if ptx.contains(".extern .shared") {
        guide_fail(
            "the PTX declares dynamic shared memory it does not use",
            &ptx,
        );
    }
}

/// `ptx-sync show --ptx`: the flag's accesses, and the SASS the page's table promises for step 4
/// (the backquoted upper-case opcode in the row `| 4 |`).
pub(super) fn guide_show(md: &str, ok: bool, t: &str) {
    if !ok || !t.contains("st.release.gpu") || !t.contains("ld.acquire.gpu") {
        guide_fail("ptx-sync show --ptx", t);
    }
    let row = md
        .lines()
        .find(|l| l.starts_with("| 4 |"))
        .unwrap_or_default();
    let sass: Vec<&str> = row
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| {
            w.contains('.')
                && w.chars()
                    .all(|c| c.is_ascii_uppercase() || c == '.' || c.is_ascii_digit())
        })
        .collect();
    if sass.is_empty() {
        guide_fail("the table's step 4 names no SASS", row);
    }
    for s in sass {
        if !t.contains(s) {
            guide_fail(
                &format!("the table promises {s}; ptx-sync show --ptx shows"),
                t,
            );
        }
    }
}

/// `cargo run`: without a driver one line naming it, exit 1; no warning from the build; and
/// the launcher run where `ptx/` is missing names the file it could not read.
pub(super) fn guide_run(k: &Path, tdir: &Path, ok: bool, t: &str) {
    let has_driver = [
        "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
        "/usr/lib64/libcuda.so.1",
    ]
    .iter()
    .any(|p| Path::new(p).exists());
    if !warnings(t).is_empty() {
        guide_fail("building the user's host crate printed warnings", t);
    }
    let last = t.lines().last().unwrap_or_default().to_string();
    if has_driver {
        if !ok && last.contains("no NVIDIA driver") {
            guide_fail(
                "cargo run: a driver is installed, yet it says there is none",
                t,
            );
        }
    } else if ok || !last.starts_with("mykernels: no NVIDIA driver") {
        guide_fail(
            "cargo run without a driver: one line `mykernels: no NVIDIA driver …`, exit 1",
            t,
        );
    }
    // Run from a directory without `ptx/` (the launcher reads the PTX before it opens the
    // device): the error names the file.
    let (ok, t) = output(Command::new(tdir.join("debug/mykernels")).current_dir(k.join("src")));
    if ok || !t.contains("ptx/mykernels.ptx") {
        guide_fail(
            "the launcher's missing-file error must name ptx/mykernels.ptx",
            &t,
        );
    }
}
