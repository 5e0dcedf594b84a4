//! The three ported kernels on CPU threads (ptx-sync's host backend): each kernel body run by
//! `ptx_sync::index::launch` (one thread per GPU thread; per CTA its own `sync_threads` barrier
//! and `shared_array!` copies), checked against a plain computation of what it must produce.
#[path = "../../common/xorshift.rs"]
mod xorshift;
use ports_example::{block_sum, flag_handoff, histogram};
use ptx_sync::index::{launch, Dim3};
use xorshift::xorshift;

fn bytes(n: usize) -> Vec<u8> {
    xorshift(0x9E37_79B9).take(n).map(|x| x as u8).collect()
}

#[test]
fn histogram_counts_every_byte_once() {
    let input = bytes(5000);
    let mut want = [0u32; 256];
    input.iter().for_each(|&b| want[b as usize] += 1);
    for (grid, block) in [(1, 1), (1, 64), (3, 32), (4, 100)] {
        let mut bins = vec![0u32; 256];
        // Raw pointers are not `Sync`: the threads get the addresses.
        let (i, b) = (input.as_ptr() as usize, bins.as_mut_ptr() as usize);
        launch(Dim3::x(grid), Dim3::x(block), 0, || unsafe {
            histogram(i as *const u8, input.len() as u32, b as *mut u32)
        });
        assert_eq!(bins, want, "grid {grid} block {block}");
    }
}

#[test]
fn cta_1_copies_what_cta_0_published() {
    for _ in 0..50 {
        let mut w = [0u32; 3]; // data, flag, out
        let p = w.as_mut_ptr() as usize;
        launch(Dim3::x(2), Dim3::x(1), 0, || unsafe {
            let p = p as *mut u32;
            flag_handoff(p, p.add(1), p.add(2))
        });
        assert_eq!(w, [42, 1, 42]);
    }
}

#[test]
fn block_sum_adds_every_element_once() {
    // Small integers: every partial sum is exact in f32, whatever the order.
    let input: Vec<f32> = (0..3000u32).map(|i| (i % 7) as f32).collect();
    let want: f32 = input.iter().sum();
    for grid in [1, 3] {
        let mut out = 0.0f32;
        let (i, o) = (input.as_ptr() as usize, &mut out as *mut f32 as usize);
        launch(Dim3::x(grid), Dim3::x(256), 0, || unsafe {
            block_sum(i as *const f32, input.len() as u32, o as *mut f32)
        });
        assert_eq!(out, want, "grid {grid}");
    }
}
