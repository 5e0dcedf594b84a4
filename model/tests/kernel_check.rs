//! The kernel checker on small modules written here: the expected values come from the PTX ISA
//! by hand (each test says which section).

use ptx_sync_model::kernel::{check_kernel, KernelCheck};
use ptx_sync_model::ptx::module::{Bind, Launch};

fn run(
    ptx: &str,
    entry: &str,
    block: u32,
    bytes: u32,
    assert: &str,
) -> ptx_sync_model::kernel::KernelOutcome {
    let mut launch = Launch::new([1, 1, 1], [block, 1, 1]);
    launch.params.push((0, Bind::Buf(bytes)));
    let check = KernelCheck {
        entry: entry.into(),
        launch,
        assert: Some(assert.into()),
    };
    check_kernel(ptx, "t.ptx", &check).unwrap_or_else(|e| panic!("{e}"))
}

const WARP: &str = r#"
.version 8.6
.target sm_90
.address_size 64
.visible .entry w(.param .u64 p0)
{
  .reg .b32 %r<10>; .reg .b64 %rd<4>; .reg .pred %p<3>;
  ld.param.u64 %rd1, [p0];
  mov.u32 %r1, %laneid;
  mul.lo.u32 %r2, %r1, 10;
  shfl.sync.idx.b32 %r3, %r2, 2, 31, 0xf;
  and.b32 %r4, %r1, 1;
  setp.ne.u32 %p1, %r4, 0;
  vote.sync.ballot.b32 %r5, %p1, 0xf;
  elect.sync %r6|%p2, 0xf;
  mul.wide.u32 %rd2, %r1, 16;
  add.s64 %rd3, %rd1, %rd2;
  st.u32 [%rd3], %r3;
  st.u32 [%rd3+4], %r5;
  st.u32 [%rd3+8], %r6;
  selp.u32 %r7, 1, 0, %p2;
  st.u32 [%rd3+12], %r7;
  ret;
}
"#;

#[test]
fn warp_collectives_give_each_lane_its_isa_result() {
    // shfl.sync.idx with b = 2, c = 31 (no segments): every lane reads lane 2's value, 20
    // (§9.7.9.6); vote.sync.ballot of "lane is odd" over lanes 0..3 is 0b1010 = 10 (§9.7.13.9);
    // elect.sync elects the lowest lane of the mask, 0 (§9.7.13.14).
    let o = run(
        WARP,
        "w",
        4,
        64,
        "forall (p0[0] == 20 /\\ p0[4] == 20 /\\ p0[8] == 20 /\\ p0[12] == 20 /\\ p0[1] == 10 /\\ p0[13] == 10 /\\ p0[2] == 0 /\\ p0[10] == 0 /\\ p0[3] == 1 /\\ p0[7] == 0 /\\ p0[15] == 0)",
    );
    assert!(
        o.races.is_empty() && o.hangs.is_empty() && o.flags.is_empty(),
        "{}",
        o.herd()
    );
    assert!(o.holds(), "{}", o.herd());
    assert!(o.executions >= 1);
}

const WARP_SYNC: &str = r#"
.version 8.6
.target sm_90
.address_size 64
.visible .entry ws(.param .u64 p0)
{
  .reg .b32 %r<4>; .reg .b64 %rd<2>; .reg .pred %p<2>;
  ld.param.u64 %rd1, [p0];
  mov.u32 %r1, %laneid;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra READER;
  st.u32 [%rd1], 7;
  bar.warp.sync 3;
  ret;
READER:
  bar.warp.sync 3;
  ld.u32 %r2, [%rd1];
  st.u32 [%rd1+4], %r2;
  ret;
}
"#;

#[test]
fn bar_warp_sync_orders_memory_between_its_lanes() {
    // §9.7.13.2: "bar.warp.sync also guarantee memory ordering among threads participating in
    // barrier": lane 1 reads lane 0's write, and the two accesses are not a race.
    let o = run(WARP_SYNC, "ws", 2, 8, "forall (p0[1] == 7)");
    assert!(o.races.is_empty() && o.hangs.is_empty(), "{}", o.herd());
    assert!(o.holds(), "{}", o.herd());
    // Without the barrier in the reader, the read races with the write and may miss it.
    let broken = WARP_SYNC.replace("READER:\n  bar.warp.sync 3;", "READER:");
    let o = run(&broken, "ws", 2, 8, "forall (p0[1] == 7)");
    assert!(!o.races.is_empty(), "{}", o.herd());
    assert!(!o.holds(), "{}", o.herd());
}

const SPIN_TIMEOUT: &str = r#"
.version 8.6
.target sm_90
.address_size 64
.visible .entry spin(.param .u64 p0)
{
  .reg .b32 %r<4>; .reg .b64 %rd<6>; .reg .pred %p<3>;
  ld.param.u64 %rd1, [p0];
  mov.u64 %rd2, %globaltimer;
WAIT:
  ld.relaxed.gpu.u32 %r1, [%rd1];
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  mov.u64 %rd3, %globaltimer;
  sub.s64 %rd4, %rd3, %rd2;
  setp.lt.u64 %p2, %rd4, 1000000000;
  @%p2 bra WAIT;
  st.u32 [%rd1+4], 1;
DONE:
  ret;
}
"#;

#[test]
fn a_bounded_wait_on_a_flag_nobody_sets_is_a_hang_and_its_timeout_path_is_explored() {
    // One thread waits for a flag that no thread writes. The bound is a %globaltimer budget:
    // the model judges the wait as the unbounded wait it bounds (a hang, issue #22 §2) and still
    // explores the timeout path (which writes p0[1] = 1).
    let o = run(SPIN_TIMEOUT, "spin", 1, 8, "exists (p0[1] == 1)");
    assert!(!o.hangs.is_empty(), "{}", o.herd());
    assert!(o.holds(), "the timeout path: {}", o.herd());
}
