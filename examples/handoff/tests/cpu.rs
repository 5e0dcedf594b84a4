//! The hand-off on CPU threads (ptx-sync's host backend): the kernel body itself, run by
//! `ptx_sync::index::launch` as 3 CTAs of 1 thread; then the timeouts; then the binary's
//! no-driver path.
#[path = "../../common/no_driver.rs"]
mod no_driver;
use handoff_example::{handoff, Handoff};
use ptx_sync::index::{launch, Dim3};
use ptx_sync::wait::Budget;

/// Long enough for a loaded CPU (iterations of a spin-loop hint).
const LONG: Budget = Budget::iterations(2_000_000_000);

#[test]
fn the_kernel_body_on_three_cpu_ctas_hands_off() {
    for _ in 0..100 {
        let h = Handoff::new();
        let mut out = [0u32; 3];
        let o = out.as_mut_ptr() as usize;
        // SAFETY: `out` is 3 words; each CTA writes its own; read after the launch joined.
        launch(Dim3::x(3), Dim3::x(1), 0, || unsafe { handoff(&h, o as *mut u32, LONG) });
        assert_eq!(out, [42, 42, 1]);
        assert_eq!(unsafe { h.data.read() }, 43, "P overwrites after both reads");
    }
}

#[test]
fn a_missing_consumer_times_out_instead_of_hanging() {
    let h = Handoff::new();
    let (c, p) = std::thread::scope(|s| {
        let c = s.spawn(|| h.consume(LONG));
        let p = h.produce(42, Budget::iterations(10_000));
        (c.join().unwrap(), p)
    });
    assert_eq!(c, Ok(42), "the one consumer reads the published value");
    assert!(p.is_err(), "P must not see count == 2 with one consumer");
    assert_eq!(unsafe { h.data.read() }, 42, "P must not overwrite data after a timeout");
    assert!(Handoff::new().consume(Budget::iterations(1000)).is_err(), "no producer: timeout");
}

#[test]
fn without_a_driver_the_binary_says_so_and_exits_1() {
    no_driver::says_so_and_exits_1(env!("CARGO_BIN_EXE_handoff"), "handoff");
}
