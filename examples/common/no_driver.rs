//! Shared by the examples' `tests/cpu.rs`: an example's binary on a machine without the NVIDIA
//! driver prints one line, `NAME: no NVIDIA driver…`, and exits 1 (no panic).

/// Runs the binary `exe` (the example named `name`) and checks its no-driver path. Where a
/// driver is installed, checks only that the binary does not claim there is none.
pub fn says_so_and_exits_1(exe: &str, name: &str) {
    let has_driver = ["/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib64/libcuda.so.1"]
        .iter()
        .any(|p| std::path::Path::new(p).exists());
    let o = std::process::Command::new(exe).output().unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(!e.contains("panicked"), "{e}");
    if has_driver {
        // A real driver is installed: the binary must not claim there is none.
        assert!(!e.contains("no NVIDIA driver"), "{e}");
        return;
    }
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.starts_with(&format!("{name}: no NVIDIA driver")), "{e}");
}
