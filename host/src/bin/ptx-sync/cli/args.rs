//! Argument checks of the `ptx-sync` CLI that run before any driver call (bad input: one line
//! on stderr, exit 2): bounded `--iters`, output paths whose directory exists, `copy --bytes` of
//! the copy kernels' shape, and clap's errors folded into one line.

use std::path::PathBuf;
use std::process::ExitCode;

/// The most launches `--iters` takes (each launch runs thousands of instances).
pub const MAX_ITERS: u64 = 100_000;

/// An output path whose directory exists (checked before any GPU work, so a long run never
/// ends in "cannot write"); `-` is stdout.
pub fn parse_out_path(s: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(s);
    if s == "-" {
        return Ok(p);
    }
    let dir = p.parent().filter(|d| !d.as_os_str().is_empty());
    match dir {
        Some(d) if !d.is_dir() => Err(format!("directory {} does not exist", d.display())),
        _ if p.is_dir() => Err(format!("{s} is a directory")),
        _ => Ok(p),
    }
}

/// `copy --bytes`: a byte count of the shape the copy kernels take.
pub fn parse_copy_bytes(s: &str) -> Result<u64, String> {
    let b = crate::parse_bytes(s)?;
    crate::exec::copy::shape(b).map(|_| b)
}

/// Help and version as clap prints them; any other argument error as one line, exit 2.
pub fn arg_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind::*;
    if matches!(
        e.kind(),
        DisplayHelp | DisplayVersion | DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
    }
    // clap's message up to its first blank line (the usage and tips follow), as one line.
    let text = e.render().to_string();
    let msg: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    eprintln!("ptx-sync: {}", msg.join(" ").trim_start_matches("error: "));
    ExitCode::from(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_paths_and_copy_sizes() {
        assert_eq!(parse_out_path("-"), Ok(PathBuf::from("-")));
        assert_eq!(parse_out_path("out.json"), Ok(PathBuf::from("out.json")));
        let tmp = std::env::temp_dir();
        assert!(parse_out_path(tmp.join("x.json").to_str().unwrap()).is_ok());
        assert!(parse_out_path(tmp.to_str().unwrap())
            .unwrap_err()
            .contains("is a directory"));
        assert!(parse_out_path("/no/such/dir/x.json")
            .unwrap_err()
            .contains("directory /no/such/dir does not exist"));
        assert_eq!(parse_copy_bytes("64M"), Ok(64 << 20));
        assert!(parse_copy_bytes("7")
            .unwrap_err()
            .contains("not a multiple of the 16384-byte row"));
        assert!(parse_copy_bytes("x")
            .unwrap_err()
            .contains("not a byte count"));
    }
}
