//! Shared helpers of the device crate's tool-based tests: where the PTX tools and the built
//! kernels are, and a small SASS reader. `cargo xtask test` sets `PTX_SYNC_TOOLS` and
//! `PTX_SYNC_PTX_DIR`; run by hand, the defaults under the repository root are used. A missing
//! tool or kernel is a test *failure* with the command that fixes it, never a silent skip.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Directory holding ptxas, nvcc, cuobjdump (the workspace's one finder,
/// `ptx_sync_build::tools::find_tools`, from the repository root).
pub fn tools() -> PathBuf {
    ptx_sync_build::tools::find_tools(&repo_root()).unwrap_or_else(|e| {
        panic!("PTX tools not found ({e}): run `cargo xtask setup` (or the whole suite with `cargo xtask test`)")
    })
}

/// `include/` of the CUDA toolkit from PyPI (the libcu++ headers are in `include/cccl`).
pub fn cuda_include() -> PathBuf {
    if let Ok(t) = std::env::var("PTX_SYNC_CUDA_INCLUDE") {
        return PathBuf::from(t);
    }
    tools().parent().unwrap().join("include")
}

/// Directory with the built `kernels.ptx`, `catalog.ptx` and their `.cubin`/`.sass`.
pub fn ptx_dir() -> PathBuf {
    let d = std::env::var("PTX_SYNC_PTX_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| repo_root().join("target/ptx"));
    assert!(
        d.join("kernels.ptx").exists() && d.join("catalog.ptx").exists(),
        "kernels not built in {}: run `cargo xtask ptx`",
        d.display()
    );
    d
}

pub fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Runs a tool, returning stdout; panics with stderr on failure.
pub fn tool(name: &str, args: &[&str]) -> String {
    let out = Command::new(tools().join(name))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {name}: {e}"));
    assert!(
        out.status.success(),
        "{name} {args:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// One SASS instruction: predicate (`@P0`, `@!P0` or empty), opcode with modifiers
/// (`LDG.E.STRONG.GPU`), operands text, and its address.
#[derive(Clone, Debug, PartialEq)]
pub struct Insn {
    pub addr: u32,
    pub pred: String,
    pub opcode: String,
    pub operands: String,
}

/// Parses `cuobjdump -sass` output into functions → instructions (trailing NOPs and the final
/// self-branch `BRA <own address>` that pads every function are dropped).
pub fn parse_sass(text: &str) -> Vec<(String, Vec<Insn>)> {
    // The workspace's one SASS reader; here in this module's shape (predicate with its `@`,
    // operands apart from the opcode).
    let mut funcs: Vec<(String, Vec<Insn>)> = ptx_sync_build::sass::parse_functions(text)
        .into_iter()
        .map(|f| {
            let insns = f
                .instrs
                .into_iter()
                .map(|i| Insn {
                    addr: i.offset,
                    pred: i.pred.map(|p| format!("@{p}")).unwrap_or_default(),
                    operands: i.text[i.opcode.len()..].trim().to_string(),
                    opcode: i.opcode,
                })
                .collect();
            (f.name, insns)
        })
        .collect();
    for (_, insns) in funcs.iter_mut() {
        while insns.last().is_some_and(|i| i.opcode == "NOP") {
            insns.pop();
        }
        if insns.last().is_some_and(|i| {
            i.opcode == "BRA" && i.pred.is_empty() && parse_target(&i.operands) == Some(i.addr)
        }) {
            insns.pop();
        }
    }
    funcs
}

/// The target of `BRA 0x30` (or of `BRA P1, 0x30`, a branch with a predicate operand).
pub fn parse_target(ops: &str) -> Option<u32> {
    let t = ops.trim().trim_end_matches(';').trim();
    let t = t.rsplit(',').next()?.trim();
    u32::from_str_radix(t.strip_prefix("0x")?, 16).ok()
}

pub fn function<'a>(funcs: &'a [(String, Vec<Insn>)], name: &str) -> &'a [Insn] {
    &funcs
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("function {name} not in SASS"))
        .1
}

/// The ptxas version line (`Cuda compilation tools, release 13.0, V13.0.88`).
pub fn ptxas_version() -> String {
    tool("ptxas", &["--version"])
        .lines()
        .find(|l| l.contains("release"))
        .unwrap_or("?")
        .trim()
        .to_string()
}

/// Assembles one instruction in a minimal sm_90 kernel (registers `%r1..3` with `%r1` a 32-bit
/// address, `%rd1..3` with `%rd1` the parameter, `%f1..2`, `%p1`); true if ptxas accepts it.
pub fn ptxas_accepts(insn: &str) -> bool {
    ptxas_accepts_on("sm_90", insn)
}

/// [`ptxas_accepts`] for another target (`"sm_80"`): the `.target` and `-arch` are `arch`, the
/// PTX version stays 8.6, so a rejection is the SM floor, not the ISA version.
pub fn ptxas_accepts_on(arch: &str, insn: &str) -> bool {
    ptxas_accepts_in(
        arch,
        "8.6",
        ".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .f32 %f<3>;\n.reg .pred %p<2>;\n\
         ld.param.u64 %rd1, [p];\ncvt.u32.u64 %r1, %rd1;",
        insn,
    )
}

/// ptxas on `insn` inside `.visible .entry k(.param .u64 p)` at `.version version` / `.target
/// arch` (and `-arch=arch`), after `prologue` (the register declarations and their set-up).
pub fn ptxas_accepts_in(arch: &str, version: &str, prologue: &str, insn: &str) -> bool {
    let ptx = format!(
        ".version {version}\n.target {arch}\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n\
         {prologue}\n{insn}\nret;\n}}\n"
    );
    let dir = scratch_dir("accepts");
    let f = dir.join("k.ptx");
    std::fs::write(&f, ptx).unwrap();
    let ok = Command::new(tools().join("ptxas"))
        .args([
            &format!("-arch={arch}"),
            f.to_str().unwrap(),
            "-o",
            dir.join("k.cubin").to_str().unwrap(),
        ])
        .output()
        .unwrap()
        .status
        .success();
    let _ = std::fs::remove_dir_all(&dir);
    ok
}

mod par;
#[allow(unused_imports)] // not every test binary that includes `common` maps in parallel
pub use par::par_map;

/// A fresh temporary directory `ptx-sync-{what}-{pid}-{n}` (one per call), for a test's PTX
/// and cubin files; the caller removes it.
pub fn scratch_dir(what: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "ptx-sync-{what}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Asserts that the built kernel file `ptx` (of the build `name`) links nothing external (an
/// undefined function would be an `.extern .func` declaration: nothing links later) and that
/// `ptxas -arch=arch` assembles it into a non-empty cubin (`tool` fails the test on any ptxas
/// error).
pub fn assemble_built(name: &str, ptx: &Path, text: &str, arch: &str) {
    assert!(
        !text.contains(".extern .func"),
        "{name}.ptx calls an undefined function"
    );
    // `cargo xtask ptx` assembled this very text for `arch` with this ptxas, and says so next to
    // the cubin it wrote (`NAME.cubin.stamp`, written after ptxas succeeded; the record of
    // `ptx_sync_build::testing::assembled_record`): that run is this check's ptxas run. Any
    // other text, target or ptxas — or no such record — and ptxas runs here.
    let cubin = ptx.with_extension("cubin");
    let stamp = std::fs::read_to_string(cubin.with_extension("cubin.stamp")).unwrap_or_default();
    let record =
        ptx_sync_build::testing::assembled_record(&tools().join("ptxas"), arch, text.as_bytes());
    if record.is_some_and(|r| stamp.starts_with(&r)) && cubin.metadata().is_ok_and(|m| m.len() > 0)
    {
        return;
    }
    let dir = scratch_dir(&format!("built-{name}"));
    let out = dir.join(format!("{name}.cubin"));
    tool(
        "ptxas",
        &[
            &format!("-arch={arch}"),
            ptx.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
    );
    assert!(out.metadata().unwrap().len() > 0, "{name}: empty cubin");
    let _ = std::fs::remove_dir_all(dir);
}

/// The first token of every instruction line of a PTX file (its mnemonics, `{` blocks opened).
pub fn mnemonics(ptx: &str) -> std::collections::BTreeSet<String> {
    ptx.lines()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with('.'))
        .filter_map(|l| l.split(|c: char| c.is_whitespace() || c == ';').next())
        .map(|s| s.trim_start_matches('{').to_string())
        .collect()
}
