//! One exploring thread or several: the same results (`model/SEMANTICS.md` S9). Every corpus
//! test and a scale benchmark (6 threads × 3 instructions) are checked on one thread and on two threads that share
//! the work from the first step; the reports (verdict, states, races, flags, hangs, step count)
//! and the witness graphs must be equal, and the second thread must have checked executions.

use ptx_sync_model::engine::explore::Limits;
use ptx_sync_model::kernel::{check_kernel, KernelCheck};
use ptx_sync_model::ptx::module::{Bind, Launch};
use ptx_sync_model::{check_test_with, litmus_files, parse};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The report without its timing line, the witness graph, and the executions the helper checked.
fn report(f: &Path, jobs: usize) -> (String, Option<String>, u64) {
    let text = std::fs::read_to_string(f).unwrap();
    let test = match parse::parse(&text, &f.display().to_string()) {
        Ok(t) => t,
        Err(e) => return (format!("parse error: {e}"), None, 0),
    };
    let limits = Limits {
        jobs,
        spawn_after: 0,
        ..Limits::default()
    };
    match check_test_with(test, Instant::now(), limits) {
        Ok(out) => {
            let text: String = out
                .herd()
                .lines()
                .filter(|l| !l.starts_with("Time "))
                .map(|l| format!("{l}\n"))
                .collect();
            (text, out.dot(), out.found.helped)
        }
        Err(e) => (format!("error: {e}"), None, 0),
    }
}

#[test]
fn one_thread_and_two_give_the_same_results() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = litmus_files(&[root.join("litmus")]).unwrap();
    files.push(root.join("benches/scale/6x3-st-ld-st.litmus"));
    assert!(files.len() > 400, "{} files", files.len());
    let mut helped = 0;
    let mut differ = Vec::new();
    for f in &files {
        let (one, one_dot, none) = report(f, 1);
        let (two, two_dot, h) = report(f, 2);
        assert_eq!(none, 0, "{}: one thread, yet helped", f.display());
        helped += h;
        if one != two || one_dot != two_dot {
            differ.push(format!(
                "{}:\n--- one thread\n{one}--- two\n{two}",
                f.display()
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} files differ:\n{}",
        differ.len(),
        files.len(),
        differ.join("\n")
    );
    // The second thread did take part (else the comparison above shows nothing).
    assert!(helped > 0, "the second thread checked no execution");
}

/// Eight threads of one CTA: each writes its word, then copies its neighbour's word (plain
/// accesses: every copy races with the neighbour's write) — 2^8 executions, more than the 64
/// tasks' width, so the work is shared.
const RING: &str = r#".version 8.6
.target sm_90
.address_size 64
.visible .entry ring(.param .u64 p0)
{
  .reg .b32 %r<8>; .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [p0];
  mov.u32 %r1, %tid.x;
  add.u32 %r2, %r1, 1;
  and.b32 %r3, %r2, 7;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  add.u32 %r4, %r1, 1;
  st.u32 [%rd3], %r4;
  mul.wide.u32 %rd4, %r3, 4;
  add.s64 %rd5, %rd1, %rd4;
  ld.u32 %r5, [%rd5];
  st.u32 [%rd3+32], %r5;
  ret;
}
"#;

#[test]
fn a_kernel_check_is_the_same_on_one_thread_and_on_two() {
    let run = |jobs: usize| {
        let mut launch = Launch::new([1, 1, 1], [8, 1, 1]);
        launch.params.push((0, Bind::Buf(64)));
        launch.jobs = Some(jobs);
        launch.spawn_after = Some(0);
        let check = KernelCheck {
            entry: "ring".into(),
            launch,
            assert: Some("exists (p0[8] == 0 /\\ p0[15] == 1)".into()),
        };
        check_kernel(RING, "ring.ptx", &check).unwrap_or_else(|e| panic!("{e}"))
    };
    let (one, two) = (run(1), run(2));
    assert_eq!(one.executions, 256, "{one:?}");
    assert_eq!(
        (
            &one.races,
            &one.flags,
            &one.hangs,
            one.executions,
            one.positive,
            one.negative
        ),
        (
            &two.races,
            &two.flags,
            &two.hangs,
            two.executions,
            two.positive,
            two.negative
        )
    );
    assert_eq!(format!("{:?}", one.witness), format!("{:?}", two.witness));
    assert_eq!(one.races.len(), 8, "{:?}", one.races);
    assert!(one.positive > 0 && one.negative > 0, "{one:?}");
}
