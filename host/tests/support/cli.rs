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

/// The run's standard output, as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The run's standard error, as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
