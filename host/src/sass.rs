//! Assembling PTX with ptxas and reading back the SASS, per function.
//!
//! One `ptxas` call assembles a whole module into a cubin, one `cuobjdump -sass` call dumps it;
//! [`parse_functions`] splits the dump at each `Function : name` header and turns every
//! instruction line into an [`Instr`] (offset, predicate, opcode with its modifiers, full text).
//! Pure `std`: the tools are found with [`find_tools`] (`PTX_SYNC_TOOLS`, set by `cargo xtask`,
//! else the project's `.venv` made by `cargo xtask setup`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The directory holding `ptxas` and `cuobjdump`: `$PTX_SYNC_TOOLS` if set (it must then contain
/// `ptxas`), else `<workspace>/.venv/lib/python3.*/site-packages/nvidia/cu13/bin` as installed by
/// `cargo xtask setup`.
pub fn find_tools() -> Result<PathBuf, String> {
    if let Some(d) = std::env::var_os("PTX_SYNC_TOOLS") {
        let d = PathBuf::from(d);
        return if d.join("ptxas").is_file() {
            Ok(d)
        } else {
            Err(format!("PTX_SYNC_TOOLS={} has no ptxas", d.display()))
        };
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let lib = root.join(".venv/lib");
    if let Ok(rd) = std::fs::read_dir(&lib) {
        let mut found: Vec<PathBuf> = rd
            .flatten()
            .map(|e| e.path().join("site-packages/nvidia/cu13/bin"))
            .filter(|b| b.join("ptxas").is_file())
            .collect();
        found.sort();
        if let Some(b) = found.pop() {
            return Ok(b);
        }
    }
    Err(format!(
        "no PTX tools: set PTX_SYNC_TOOLS to the directory holding ptxas and cuobjdump, or run \
         `cargo xtask setup` (installs them under {})",
        lib.display()
    ))
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

/// One SASS instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instr {
    /// Byte offset in the function (`/*0050*/` → 0x50).
    pub offset: u32,
    /// The guard predicate without `@` (`"P0"`, `"!P0"`), if any.
    pub pred: Option<String>,
    /// The opcode with its modifiers, e.g. `"MEMBAR.SC.GPU"`, `"ATOM.E.ADD.STRONG.GPU"`.
    pub opcode: String,
    /// The instruction as printed, without the encoding comment and the `;`.
    pub text: String,
}

/// One function (kernel) of a SASS dump.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// The symbol name from `Function : name`.
    pub name: String,
    /// Its instructions in address order, `NOP` padding included.
    pub instrs: Vec<Instr>,
}

impl Function {
    /// The opcodes in order, without the `NOP` padding.
    pub fn opcodes(&self) -> Vec<&str> {
        self.instrs
            .iter()
            .map(|i| i.opcode.as_str())
            .filter(|o| *o != "NOP")
            .collect()
    }
}

/// Parses one line of `cuobjdump -sass` output into an instruction, or `None` for anything else
/// (headers, the encoding-only continuation lines `/* 0x... */`, blank lines).
///
/// ```
/// use ptx_sync_host::sass::parse_instr;
/// let i = parse_instr("        /*0080*/               @!P0 MEMBAR.ALL.GPU ;   /* 0x0000000000008992 */").unwrap();
/// assert_eq!((i.offset, i.pred.as_deref(), i.opcode.as_str()), (0x80, Some("!P0"), "MEMBAR.ALL.GPU"));
/// assert_eq!(parse_instr("        /*0020*/   ERRBAR;   /* 0x00000000000079ab */").unwrap().opcode, "ERRBAR");
/// assert!(parse_instr("            /* 0x000fec000000a000 */").is_none());
/// ```
pub fn parse_instr(line: &str) -> Option<Instr> {
    let l = line.trim_start();
    let rest = l.strip_prefix("/*")?;
    let end = rest.find("*/")?;
    let offset = u32::from_str_radix(rest[..end].trim(), 16).ok()?;
    let mut body = &rest[end + 2..];
    if let Some(c) = body.find("/*") {
        body = &body[..c];
    }
    let body = body.trim().trim_end_matches(';').trim();
    if body.is_empty() {
        return None;
    }
    let (pred, ins) = match body.strip_prefix('@') {
        Some(p) => {
            let sp = p.find(char::is_whitespace)?;
            (Some(p[..sp].to_string()), p[sp..].trim_start())
        }
        None => (None, body),
    };
    let opcode = ins
        .split(|c: char| c.is_whitespace() || c == ';')
        .next()
        .filter(|o| !o.is_empty())?
        .to_string();
    Some(Instr {
        offset,
        pred,
        opcode,
        text: ins.to_string(),
    })
}

/// Splits a `cuobjdump -sass` dump into its functions, in the order the dump lists them.
pub fn parse_functions(sass: &str) -> Vec<Function> {
    let mut out: Vec<Function> = Vec::new();
    for line in sass.lines() {
        if let Some(i) = line.find("Function : ") {
            let name = line[i + "Function : ".len()..].trim().to_string();
            out.push(Function {
                name,
                instrs: Vec::new(),
            });
        } else if let (Some(f), Some(ins)) = (out.last_mut(), parse_instr(line)) {
            f.instrs.push(ins);
        }
    }
    out
}

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
