//! The module assembled with `ptxas -O3` for the architecture of its `.target` and dumped with
//! `cuobjdump -sass`.

use super::*;

/// The architecture of a module's `.target` (`sm_90a`), default `sm_90`.
pub fn target_arch(ptx: &str) -> String {
    ptx.lines()
        .map(|l| l.split("//").next().unwrap_or("").trim())
        .find_map(|l| l.strip_prefix(".target"))
        .and_then(|r| {
            r.split(|c: char| c == ',' || c.is_whitespace())
                .find(|t| t.starts_with("sm_"))
                .map(str::to_string)
        })
        .unwrap_or_else(|| "sm_90".into())
}

/// Assembles `ptx` for `arch` and dumps the SASS. `Err`: ptxas's (or cuobjdump's) message.
pub(super) fn assemble(tools: &Path, src: &Path, arch: &str) -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!("ptx-sync-inspect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let cubin = dir.join("module.cubin");
    let out = Command::new(tools.join("ptxas"))
        .arg(format!("-arch={arch}"))
        .arg("-O3")
        .arg(src)
        .arg("-o")
        .arg(&cubin)
        .output()
        .map_err(|e| format!("cannot start ptxas: {e}"));
    let r = out.and_then(|o| {
        if o.status.success() {
            dump(tools, &cubin)
        } else {
            Err(format!(
                "ptxas rejects {}: {}{}",
                src.display(),
                String::from_utf8_lossy(&o.stderr),
                String::from_utf8_lossy(&o.stdout)
            ))
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    r
}

pub(super) fn dump(tools: &Path, cubin: &Path) -> Result<String, String> {
    let o = Command::new(tools.join("cuobjdump"))
        .arg("-sass")
        .arg(cubin)
        .output()
        .map_err(|e| format!("cannot start cuobjdump: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "cuobjdump cannot read {}: {}{}",
            cubin.display(),
            String::from_utf8_lossy(&o.stderr),
            String::from_utf8_lossy(&o.stdout)
        ));
    }
    Ok(String::from_utf8_lossy(&o.stdout).into_owned())
}

pub(super) fn sass_text(i: &sass::Instr) -> String {
    match &i.pred {
        Some(p) => format!("@{p} {}", i.text),
        None => i.text.clone(),
    }
}
