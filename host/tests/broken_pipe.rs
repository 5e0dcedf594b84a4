//! Every `ptx-sync` command whose reader goes away (`ptx-sync check … | head -1`) ends quietly:
//! no panic, no exit 101, nothing on stderr — the process ends on SIGPIPE, as `cat` does. Each
//! command runs with its standard output (or, once, its standard error) on a pipe whose read end
//! is already closed, so its first write meets the broken pipe. The GPU commands run against the
//! recording driver stub (`tests/stub/libcuda_stub.c`), which makes them print results.
//! (`build` is in `build_cmd.rs`, next to the crate it builds.)

mod common;

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// SIGPIPE's number on Linux (signal(7)).
const SIGPIPE: i32 = 13;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn ptx_sync(args: &[&str], driver: bool) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptx-sync"));
    c.args(args).current_dir(root());
    if driver {
        c.env("LD_LIBRARY_PATH", common::stub("full"))
            .env("CUDA_STUB_LITMUS_OUT", "1,0,0,0")
            .env("CUDA_STUB_FILE_OUT", "3,0,1,42")
            .env("CUDA_STUB_FILE_MEM", "42,1");
    }
    c
}

/// Runs `c` with stdout (or stderr, `on_stderr`) on a pipe nobody reads any more.
fn closed(mut c: Command, on_stderr: bool) -> Output {
    let (r, w) = std::io::pipe().expect("a pipe");
    drop(r);
    if on_stderr {
        c.stderr(w).stdout(Stdio::piped());
    } else {
        c.stdout(w).stderr(Stdio::piped());
    }
    c.output().expect("ptx-sync starts")
}

/// The command, on a closed stdout: ended by SIGPIPE (so it did write: a command that printed
/// nothing would exit normally), silent on stderr.
fn quiet(args: &[&str], driver: bool) {
    let o = closed(ptx_sync(args, driver), false);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        (o.status.code(), o.status.signal()),
        (None, Some(SIGPIPE)),
        "{args:?}: want the quiet end of a broken pipe, got {:?}; stderr:\n{err}",
        o.status
    );
    assert!(err.is_empty(), "{args:?} wrote to stderr:\n{err}");
}

#[test]
fn check_on_a_closed_pipe() {
    quiet(&["check", "model/litmus"], false);
}

/// `show` with a filter: the same rendering and the same one print as `show` alone, which
/// assembles all 9 347 rows first (minutes in a debug build).
#[test]
fn show_on_a_closed_pipe() {
    quiet(&["show", "fence", "sc"], false);
}

#[test]
fn show_costs_on_a_closed_pipe() {
    quiet(&["show", "--costs"], false);
}

#[test]
fn show_ptx_on_a_closed_pipe() {
    // The examples' kernels as `cargo xtask ptx` built them (`$PTX_SYNC_PTX_DIR`, default
    // `target/ptx`), like the other tests that read built PTX.
    let dir = std::env::var("PTX_SYNC_PTX_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root().join("target/ptx"));
    let ptx = dir.join("examples/handoff_example.ptx");
    assert!(ptx.is_file(), "{}: run `cargo xtask ptx`", ptx.display());
    quiet(
        &["show", "--ptx", ptx.to_str().expect("a UTF-8 path")],
        false,
    );
}

#[test]
fn tour_on_a_closed_pipe() {
    quiet(&["tour", "--no-gpu"], false);
}

#[test]
fn litmus_list_on_a_closed_pipe() {
    quiet(&["litmus", "list"], false);
}

#[test]
fn litmus_program_on_a_closed_pipe() {
    quiet(&["litmus", "sb_sc", "--iters", "1", "--quiet"], true);
}

#[test]
fn litmus_file_on_a_closed_pipe() {
    quiet(
        &[
            "litmus",
            "model/litmus/seed/seed-3.6-SB+fence.sc.litmus",
            "--iters",
            "1",
            "--quiet",
        ],
        true,
    );
}

#[test]
fn handoff_on_a_closed_pipe() {
    quiet(
        &["handoff", "--version", "3.4", "--iters", "1", "--quiet"],
        true,
    );
}

#[test]
fn copy_on_a_closed_pipe() {
    quiet(&["copy", "--bytes", "1M", "--stages", "2"], true);
}

#[test]
fn bench_on_a_closed_pipe() {
    quiet(&["bench"], true);
}

#[test]
fn devices_on_a_closed_pipe() {
    quiet(&["devices"], true);
}

#[test]
fn help_and_version_on_a_closed_pipe() {
    quiet(&["--help"], false);
    quiet(&["help", "show"], false);
    quiet(&["--version"], false);
}

/// An error line meets a closed stderr (`ptx-sync show nosuchword 2>&1 | head -0`): quiet too.
#[test]
fn an_error_on_a_closed_stderr() {
    // A library without `cuInit`: one error line, on stderr.
    let mut c = ptx_sync(&["litmus", "sb_sc", "--iters", "1"], false);
    c.env("LD_LIBRARY_PATH", common::stub("no-cuinit"));
    let o = closed(c, true);
    assert_eq!(
        (o.status.code(), o.status.signal()),
        (None, Some(SIGPIPE)),
        "{:?}; stdout: {}",
        o.status,
        String::from_utf8_lossy(&o.stdout)
    );
}
