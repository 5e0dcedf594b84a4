//! The reduction on CPU threads (ptx-sync's host backend): the kernel body itself, run by
//! `ptx_sync::index::launch` (per CTA its own `sync_threads` barrier and dynamic shared memory);
//! then the binary's no-driver path.
#[path = "../../common/no_driver.rs"]
mod no_driver;
use ptx_sync::index::{launch, Dim3};
use ptx_sync::shared::dynamic_smem;
use ptx_sync::{AcqRel, Data, Gpu, Relaxed, Strong};
use reduction_example::{reduce, Tickets};

fn run(input: &[u32], grid: u32, block: u32) -> u32 {
    let partials: Vec<Data<u32>> = (0..grid).map(|_| Data::new(0xDEAD)).collect();
    let ticket = Strong::new(0u32);
    let t = Tickets { partials: &partials, ticket: &ticket };
    let out = Data::new(0xBAD);
    launch(Dim3::x(grid), Dim3::x(block), 4, || unsafe {
        // SAFETY: the CTA's own 4-byte window; `out` is written by the last CTA only.
        let acc = Strong::from_ptr(dynamic_smem().to_generic());
        reduce(input, acc, &t, &out)
    });
    assert_eq!(ticket.at::<Gpu>().load::<Relaxed>(), 0, "the last CTA re-arms the ticket");
    unsafe { out.read() }
}

#[test]
fn the_kernel_body_sums_on_cpu_ctas() {
    let input: Vec<u32> = (0..1000u32).map(|i| i.wrapping_mul(2654435761)).collect();
    let want = input.iter().fold(0u32, |s, &x| s.wrapping_add(x));
    for (grid, block) in [(1, 1), (1, 32), (3, 7), (4, 64), (8, 16)] {
        for _ in 0..5 {
            assert_eq!(run(&input, grid, block), want, "grid {grid} block {block}");
        }
    }
    assert_eq!(run(&[], 2, 4), 0, "an empty input sums to 0");
}

#[test]
fn only_the_last_ticket_sums() {
    let partials: Vec<Data<u32>> = (0..3).map(|_| Data::new(0)).collect();
    let ticket = Strong::new(0u32);
    let t = Tickets { partials: &partials, ticket: &ticket };
    assert_eq!(t.finish::<AcqRel>(2, 5), None);
    assert_eq!(t.finish::<AcqRel>(0, 7), None);
    assert_eq!(t.finish::<AcqRel>(1, 11), Some(23));
    assert_eq!(ticket.at::<Gpu>().load::<Relaxed>(), 0);
}

#[test]
fn without_a_driver_the_binary_says_so_and_exits_1() {
    no_driver::says_so_and_exits_1(env!("CARGO_BIN_EXE_reduction"), "reduction");
}
