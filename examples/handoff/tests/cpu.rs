//! The hand-off on CPU threads (ptx-sync's host backend), and the binary's no-driver path.

use handoff_example::Handoff;
use std::time::{Duration, Instant};

fn budget(d: Duration) -> impl FnMut() -> bool {
    let t = Instant::now();
    move || t.elapsed() < d
}

#[test]
fn both_consumers_read_42_and_p_writes_43_after() {
    for _ in 0..200 {
        let h = Handoff::new();
        let (v1, v2, p) = std::thread::scope(|s| {
            let c1 = s.spawn(|| h.consume(budget(Duration::from_secs(5))));
            let c2 = s.spawn(|| h.consume(budget(Duration::from_secs(5))));
            let p = h.produce(42, budget(Duration::from_secs(5)));
            (c1.join().unwrap(), c2.join().unwrap(), p)
        });
        assert_eq!((v1, v2, p), (Some(42), Some(42), true));
        assert_eq!(unsafe { h.data.read() }, 43);
    }
}

#[test]
fn a_missing_consumer_times_out_instead_of_hanging() {
    let h = Handoff::new();
    let (c, p) = std::thread::scope(|s| {
        let c = s.spawn(|| h.consume(budget(Duration::from_secs(5))));
        let p = h.produce(42, budget(Duration::from_millis(50)));
        (c.join().unwrap(), p)
    });
    assert_eq!(c, Some(42), "the one consumer reads the published value");
    assert!(!p, "P must not see count == 2 with one consumer");
    assert_eq!(unsafe { h.data.read() }, 42, "P must not overwrite data after a timeout");
    let lone = Handoff::new();
    assert_eq!(lone.consume(budget(Duration::from_millis(20))), None, "no producer: timeout");
}

#[test]
fn without_a_driver_the_binary_says_so_and_exits_1() {
    let has_driver = ["/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib64/libcuda.so.1"]
        .iter()
        .any(|p| std::path::Path::new(p).exists());
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_handoff")).output().unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(!e.contains("panicked"), "{e}");
    if has_driver {
        // A real driver is installed: the binary must not claim there is none.
        assert!(!e.contains("no NVIDIA driver"), "{e}");
        return;
    }
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.starts_with("handoff: no NVIDIA driver"), "{e}");
}
