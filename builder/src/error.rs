//! [`Error`]: a failed build, its kind and the message with its fix; nested cargo's output read for
//! the known failures.

use super::*;

/// A failed build; [`Display`](fmt::Display) gives the message with its fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What went wrong, as a category.
    pub kind: ErrorKind,
    /// The message, naming the fix.
    pub message: String,
}

/// The categories of [`Error`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// `rustup`, the nightly toolchain, `rust-src` or the nvptx64 target is missing.
    Toolchain,
    /// An option has a value the builder does not accept (arch, PTX version, a path).
    Config,
    /// The kernel crate's manifest: not found, no library target, unreadable.
    Manifest,
    /// cargo/rustc failed on the kernel crate.
    Compile,
    /// ptxas is required and was not found.
    PtxasMissing,
    /// ptxas rejected the PTX.
    Ptxas,
    /// Reading or writing a file.
    Io,
}

impl Error {
    pub(super) fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// `stderr` of a successful nested build without rustc's note on the PTX-version feature it was
/// given (`warning: unstable feature specified for `-Ctarget-feature`: `ptx86`` and its `= note`
/// lines): the flag is the builder's own, deliberate and the same on every build, and the note
/// is not a lint (no `-A` silences it). The per-crate counts it causes (`warning: `ptx-sync`
/// (lib) generated 1 warning`, `… (1 duplicate)`) go with it; a crate with a warning of its own
/// keeps its count line.
///
/// ```
/// let log = "warning: unstable feature specified for `-Ctarget-feature`: `ptx86`\n  |\n  = note: this feature is not stably supported; its behavior can change in the future\n\nwarning: `k` (lib) generated 1 warning\nwarning: unused variable: `x`\n";
/// assert_eq!(ptx_sync_build::without_ptx_feature_note(log), "warning: unused variable: `x`\n");
/// ```
pub fn without_ptx_feature_note(stderr: &str) -> String {
    let mut out = String::new();
    let mut lines = stderr.lines().peekable();
    let mut seen = false;
    while let Some(l) = lines.next() {
        if l.starts_with("warning: unstable feature specified for `-Ctarget-feature`: `ptx") {
            seen = true;
            // Its body: `  |`, `  = note: …`, then one blank line.
            while lines.peek().is_some_and(|n| {
                n.trim_start().starts_with('|') || n.trim_start().starts_with("= ")
            }) {
                lines.next();
            }
            if lines.peek().is_some_and(|n| n.trim().is_empty()) {
                lines.next();
            }
            continue;
        }
        if seen
            && l.starts_with("warning: `")
            && (l.ends_with("generated 1 warning")
                || l.ends_with("generated 1 warning (1 duplicate)"))
        {
            continue;
        }
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// The message for a failed nested cargo: rustc's errors, with the fix for the known ones.
pub(super) fn compile_error(stderr: &str, manifest: &Path) -> Error {
    let hints: &[(&str, &str)] = &[
        ("rust-src", INSTALL_RUST_SRC),
        ("\"ptx-kernel\" ABI is experimental", "add #![feature(abi_ptx)] to the kernel crate's lib.rs"),
        ("inline assembly is not stable yet on this architecture", "add #![feature(asm_experimental_arch)] to the kernel crate's lib.rs"),
        ("`#[panic_handler]` function required", "add a #[panic_handler] (e.g. one that runs `trap;`) to the kernel crate"),
        ("can't find crate for `std`", "the kernel crate and its dependencies must be #![no_std]"),
        ("no library targets found", "give the kernel crate a [lib] (src/lib.rs) with crate-type [\"cdylib\"] or [\"cdylib\", \"rlib\"]"),
        ("is not supported for this target", "a dependency does not build for nvptx64; gate it with [target.'cfg(not(target_arch = \"nvptx64\"))'.dependencies]"),
    ];
    let mut fix: Vec<&str> = hints
        .iter()
        .filter(|(needle, _)| stderr.contains(needle))
        .map(|(_, f)| *f)
        .collect();
    fix.dedup();
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            !(t.starts_with("Compiling ")
                || t.starts_with("Updating ")
                || t.starts_with("Locking "))
        })
        .collect();
    let tail = &lines[lines.len().saturating_sub(60)..];
    let mut msg = format!("building {} for {TARGET} failed", manifest.display());
    if !fix.is_empty() {
        msg.push_str(": ");
        msg.push_str(&fix.join("; "));
    }
    msg.push('\n');
    msg.push_str(&tail.join("\n"));
    Error::new(ErrorKind::Compile, msg)
}
