//! Assembling PTX with ptxas and reading back the SASS, per function.
//!
//! One `ptxas` call assembles a whole module into a cubin, one `cuobjdump -sass` call dumps it;
//! [`parse_functions`] (the workspace's one SASS reader, from `ptx-sync-build`) splits the dump at each `Function : name` header and turns every
//! instruction line into an [`Instr`] (offset, predicate, opcode with its modifiers, full text).
//! Pure `std`: the tools are found with [`find_tools`] (`PTX_SYNC_TOOLS`, set by `cargo xtask`,
//! else the project's `.venv` made by `cargo xtask setup`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The directory holding `ptxas` and `cuobjdump` (the workspace's one finder,
/// `ptx_sync_build::tools::find_tools`, from the workspace root): `$PTX_SYNC_TOOLS` if set (it
/// must then contain `ptxas`), else the project's `.venv` made by `cargo xtask setup`.
pub fn find_tools() -> Result<PathBuf, String> {
    ptx_sync_build::tools::find_tools(&Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
}

/// The version line of `<tool> --version` (the one naming the release, else the last), e.g. `Cuda compilation tools, release 13.0, V13.0.88`.
pub fn tool_version(tools: &Path, tool: &str) -> Result<String, String> {
    let out = run(Command::new(tools.join(tool)).arg("--version"))?;
    let lines: Vec<&str> = out
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines
        .iter()
        .rev()
        .find(|l| l.contains("release"))
        .or(lines.last())
        .map(|l| l.to_string())
        .ok_or_else(|| format!("{tool} --version printed no version line"))
}

fn run(cmd: &mut Command) -> Result<String, String> {
    let out = cmd
        .output()
        .map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{cmd:?} failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// A scratch directory removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Self, String> {
        static N: AtomicUsize = AtomicUsize::new(0);
        let d = std::env::temp_dir().join(format!(
            "ptx-sync-sass-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
        Ok(Scratch(d))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Assembles `ptx` for `arch` (`"sm_90"`) with `ptxas -O3` and returns `cuobjdump -sass` of the
/// cubin: two process calls for the whole module.
pub fn sass_of_ptx(tools: &Path, ptx: &str, arch: &str) -> Result<String, String> {
    let dir = Scratch::new()?;
    let src = dir.0.join("module.ptx");
    let cubin = dir.0.join("module.cubin");
    std::fs::write(&src, ptx).map_err(|e| format!("cannot write {}: {e}", src.display()))?;
    run(Command::new(tools.join("ptxas"))
        .arg(format!("-arch={arch}"))
        .arg("-O3")
        .arg(&src)
        .arg("-o")
        .arg(&cubin))?;
    run(Command::new(tools.join("cuobjdump"))
        .arg("-sass")
        .arg(&cubin))
}

/// The SASS reader is the workspace's one (`ptx_sync_build::sass`).
pub use ptx_sync_build::sass::{parse_functions, parse_instr, Function, Instr};

/// Removes from `opcodes`, in order, one occurrence of each opcode of `baseline` (a multiset
/// difference that keeps the order of what remains): what a variant adds to its wiring-only
/// baseline function.
pub fn minus<'a>(opcodes: &[&'a str], baseline: &[&str]) -> Vec<&'a str> {
    let mut left: Vec<&str> = baseline.to_vec();
    let mut out = Vec::new();
    for &o in opcodes {
        match left.iter().position(|b| *b == o) {
            Some(k) => {
                left.remove(k);
            }
            None => out.push(o),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const DUMP: &str = "
\tcode for sm_90
\t\tFunction : k_b
\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"
        /*0000*/                   LDC R1, c[0x0][0x28] ;     /* 0x00000a00ff017b82 */
                                                              /* 0x000fe20000000800 */
        /*0010*/                   MEMBAR.SC.GPU ;            /* 0x0000000000007992 */
        /*0020*/                   ERRBAR;                    /* 0x00000000000079ab */
        /*0030*/               @P0 ATOM.E.ADD.STRONG.GPU PT, RZ, desc[UR4][R2.64], R5 ; /* 0x0 */
        /*0040*/                   EXIT ;                     /* 0x000000000000794d */
        /*0050*/                   NOP;                       /* 0x0000000000007918 */
\t\t..........
\t\tFunction : k_a
        /*0000*/                   EXIT ;                     /* 0x000000000000794d */
";

    #[test]
    fn splits_by_function_and_reads_opcodes() {
        let fs = parse_functions(DUMP);
        assert_eq!(fs.len(), 2);
        assert_eq!(fs[0].name, "k_b");
        assert_eq!(
            fs[0].opcodes(),
            [
                "LDC",
                "MEMBAR.SC.GPU",
                "ERRBAR",
                "ATOM.E.ADD.STRONG.GPU",
                "EXIT"
            ]
        );
        assert_eq!(fs[0].instrs[3].pred.as_deref(), Some("P0"));
        assert_eq!(
            fs[0].instrs[3].text,
            "ATOM.E.ADD.STRONG.GPU PT, RZ, desc[UR4][R2.64], R5"
        );
        assert_eq!(fs[0].instrs.len(), 6);
        assert_eq!(
            (fs[1].name.as_str(), fs[1].opcodes()),
            ("k_a", vec!["EXIT"])
        );
    }

    #[test]
    fn minus_is_an_ordered_multiset_difference() {
        assert_eq!(
            minus(&["LDC", "A", "LDC", "B", "EXIT"], &["LDC", "EXIT", "C"]),
            ["A", "LDC", "B"]
        );
        assert!(minus(&["LDC", "EXIT"], &["EXIT", "LDC"]).is_empty());
    }
}
