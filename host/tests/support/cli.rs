//! Running the `ptx-sync` binary from an integration test: one copy for every test file that
//! drives the CLI (`#[path = "support/cli.rs"] mod cli;`).

use std::process::{Command, Output};

/// Runs `ptx-sync ARGS` to the end.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptx-sync"))
        .args(args)
        .output()
        .expect("the ptx-sync binary starts")
}

/// `check MODULE --grid G --block B --param 0=buf:12 --assert '~exists (p0[2] != 42)'` plus
/// `extra`: the message-passing kernels of `check_cli` and `check_containers` (word 0 the flag,
/// word 1 the data, word 2 the reader's copy of it) under "no execution copies anything but 42".
pub fn check_mp(module: &str, grid: &str, block: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "check",
        module,
        "--grid",
        grid,
        "--block",
        block,
        "--param",
        "0=buf:12",
        "--assert",
        "~exists (p0[2] != 42)",
    ];
    args.extend_from_slice(extra);
    run(&args)
}

/// The run's standard output, as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The run's standard error, as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
