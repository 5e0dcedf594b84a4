//! The ring protocol on CPU threads, and the binary's no-driver path.

use tiled_copy_example::{pipelined_copy, tiles};

fn data(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

#[test]
fn copies_exactly_for_every_stage_count_and_partial_tiles() {
    for (n, tile) in [(1 << 16, 256), (10_000, 96), (5, 16), (4096, 4096)] {
        let src = data(n, n as u64);
        let mut a = vec![0xAAu8; n]; // poisoned output
        pipelined_copy::<1>(&src, &mut a, tile).unwrap();
        assert!(a == src, "1 stage, {n} bytes, tile {tile}");
        let mut b = vec![0xAAu8; n];
        pipelined_copy::<2>(&src, &mut b, tile).unwrap();
        assert!(b == src, "2 stages, {n} bytes, tile {tile}");
        let mut c = vec![0xAAu8; n];
        pipelined_copy::<4>(&src, &mut c, tile).unwrap();
        assert!(c == src, "4 stages, {n} bytes, tile {tile}");
    }
}

#[test]
fn tile_count() {
    assert_eq!(tiles(10_000, 96), 105);
    assert_eq!(tiles(4096, 4096), 1);
    assert_eq!(tiles(0, 16), 0);
}

#[test]
fn without_a_driver_the_binary_says_so_and_exits_1() {
    let has_driver = ["/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib64/libcuda.so.1"]
        .iter()
        .any(|p| std::path::Path::new(p).exists());
    if has_driver {
        return;
    }
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tiled-copy")).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.starts_with("tiled-copy: no NVIDIA driver"), "{e}");
}
