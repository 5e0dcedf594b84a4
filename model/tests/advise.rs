//! `--advise` (issue #22 §3): which synchronization instructions can be weakened and to what.
//!
//! Every expectation here was derived by hand from the PTX ISA (chapter 8's patterns and axioms,
//! the instruction grammars of chapter 9) and the seed's §2–§3 before the advice was run; the
//! derivations are in the comments.

use ptx_sync_model::advise::{advise_kernel, advise_litmus, weaker_forms, Isa};
use ptx_sync_model::kernel::KernelCheck;
use ptx_sync_model::ptx::module::{Bind, Launch};
use std::collections::BTreeSet;

fn set(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn forms(text: &str, isa: Isa) -> Vec<String> {
    weaker_forms(text, isa)
        .into_iter()
        .map(|f| f.text.unwrap_or_else(|| "(removed)".into()))
        .collect()
}

const PTX86_SM90: Isa = Isa {
    ptx: (8, 6),
    sm: 90,
};

/// The rewrites, from the grammars of PTX ISA §9.7.13.4 (fence/membar), §9.7.9.8/§9.7.9.11
/// (ld/st), §9.7.13.5–6 (atom/red), §9.7.13.15.13–16 (mbarrier), §9.7.13.3 (barrier.cluster).
#[test]
fn weaker_forms_follow_the_isa_grammar() {
    // fence{.sem}.scope; .sem = {.sc, .acq_rel, .acquire, .release} (acquire/release: PTX 8.6).
    assert_eq!(
        forms("fence.sc.sys", PTX86_SM90),
        [
            "fence.acq_rel.sys",
            "fence.release.sys",
            "fence.acquire.sys",
            "(removed)",
            "fence.sc.gpu"
        ]
    );
    // No `.sem`: `.acq_rel` (§9.7.13.4 "If the optional .sem qualifier is absent, .acq_rel is
    // assumed"); the narrower scope keeps the spelling.
    assert_eq!(
        forms("fence.gpu", PTX86_SM90),
        [
            "fence.release.gpu",
            "fence.acquire.gpu",
            "(removed)",
            "fence.cluster"
        ]
    );
    assert_eq!(forms("fence.acquire.cta", PTX86_SM90), ["(removed)"]);
    // PTX 8.5 has no fence.acquire/fence.release; sm_80 has no .cluster (PTX 7.8, sm_90).
    let old = Isa {
        ptx: (8, 5),
        sm: 80,
    };
    assert_eq!(
        forms("fence.sc.gpu", old),
        ["fence.acq_rel.gpu", "(removed)", "fence.sc.cta"]
    );
    // membar.L is fence.sc at scope L (gl = gpu); its weaker forms are fences.
    assert_eq!(
        forms("membar.gl", PTX86_SM90),
        [
            "fence.acq_rel.gpu",
            "fence.release.gpu",
            "fence.acquire.gpu",
            "(removed)",
            "fence.sc.cluster"
        ]
    );
    assert_eq!(
        forms("membar.sys", old),
        ["fence.acq_rel.sys", "(removed)", "membar.gl"]
    );
    // Restricted fences and proxy fences: only their removal.
    assert_eq!(
        forms("fence.mbarrier_init.release.cluster", PTX86_SM90),
        ["(removed)"]
    );
    assert_eq!(
        forms("fence.proxy.async.shared::cta", PTX86_SM90),
        ["(removed)"]
    );
    assert!(forms("fence.proxy.alias", PTX86_SM90).is_empty());
    // ld.acquire.scope → ld.relaxed.scope; scope one step narrower; guard and operands kept.
    assert_eq!(
        forms("@%p1 ld.acquire.gpu.global.u32 %r1, [%rd2]", PTX86_SM90),
        [
            "@%p1 ld.relaxed.gpu.global.u32 %r1, [%rd2]",
            "@%p1 ld.acquire.cluster.global.u32 %r1, [%rd2]"
        ]
    );
    assert_eq!(
        forms("st.release.cta.shared.u32 [%r1], %r2", PTX86_SM90),
        ["st.relaxed.cta.shared.u32 [%r1], %r2"]
    );
    assert!(forms("ld.volatile.global.u32 %r1, [%rd1]", PTX86_SM90).is_empty());
    assert!(forms("ld.global.u32 %r1, [%rd1]", PTX86_SM90).is_empty());
    // atom{.sem}{.scope}: acq_rel → acquire, release, relaxed; no scope is .gpu.
    assert_eq!(
        forms("atom.acq_rel.sys.global.add.u32 %r1, [%rd1], 1", PTX86_SM90),
        [
            "atom.acquire.sys.global.add.u32 %r1, [%rd1], 1",
            "atom.release.sys.global.add.u32 %r1, [%rd1], 1",
            "atom.relaxed.sys.global.add.u32 %r1, [%rd1], 1",
            "atom.acq_rel.gpu.global.add.u32 %r1, [%rd1], 1"
        ]
    );
    assert_eq!(
        forms("atom.global.add.u32 %r1, [%rd1], 1", PTX86_SM90),
        ["atom.cluster.global.add.u32 %r1, [%rd1], 1"]
    );
    // red{.sem}: .sem = {.relaxed, .release}.
    assert_eq!(
        forms("red.release.gpu.global.add.u32 [%rd1], 1", PTX86_SM90),
        [
            "red.relaxed.gpu.global.add.u32 [%rd1], 1",
            "red.release.cluster.global.add.u32 [%rd1], 1"
        ]
    );
    // mbarrier.arrive{.sem.scope}: .sem = {.release, .relaxed} (relaxed: PTX 8.6), .scope =
    // {.cta, .cluster}, "must be specified together"; the default is .release.cta.
    assert_eq!(
        forms("mbarrier.arrive.shared::cta.b64 %rd1, [%r1]", PTX86_SM90),
        ["mbarrier.arrive.relaxed.cta.shared::cta.b64 %rd1, [%r1]"]
    );
    assert_eq!(
        forms(
            "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r1]",
            PTX86_SM90
        ),
        [
            "mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%r1]",
            "mbarrier.arrive.release.cta.shared::cluster.b64 _, [%r1]"
        ]
    );
    assert!(forms(
        "mbarrier.arrive.noComplete.shared.b64 %rd1, [%r1], 2",
        PTX86_SM90
    )
    .is_empty());
    assert!(forms("mbarrier.arrive.shared.b64 %rd1, [%r1]", old).is_empty());
    // mbarrier waits: .sem = {.acquire, .relaxed}, default .acquire.cta.
    assert_eq!(
        forms(
            "mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2",
            PTX86_SM90
        ),
        ["mbarrier.try_wait.parity.relaxed.cta.shared::cta.b64 %p1, [%r1], %r2"]
    );
    // barrier.cluster.arrive{.sem}{.aligned}: .sem = {.release, .relaxed}, default .release;
    // barrier.cluster.wait has only .acquire.
    assert_eq!(
        forms("barrier.cluster.arrive.aligned", PTX86_SM90),
        ["barrier.cluster.arrive.relaxed.aligned"]
    );
    assert!(forms("barrier.cluster.arrive.relaxed", PTX86_SM90).is_empty());
    assert!(forms("barrier.cluster.wait", PTX86_SM90).is_empty());
    assert!(forms("bar.sync 0", PTX86_SM90).is_empty());
    // Module targets.
    assert_eq!(
        Isa::of_module(".version 8.5\n.target sm_90a\n"),
        Isa {
            ptx: (8, 5),
            sm: 90
        }
    );
}

fn read(name: &str) -> String {
    let p = format!("{}/litmus/seed/{name}.litmus", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

/// The seed's §2.5 hand-off with its ten `fence.sc.gpu`, as its two corpus tests (one program, two
/// conditions: a consumer that saw `full` reads 42; at least one consumer reads the other's done).
///
/// Lines of the fences (both files): 11 P0 F0a (st data → st full), P1/P2 Fa (ld full → ld data);
/// 13 P1/P2 Fb (ld data → st done); 14 P0 F0b (ld empty → st data 43); 15 P1/P2 Fc (st own done
/// → ld other's done); 17 P1/P2 Fd (ld other's done → st empty). Every thread is in its own CTA
/// and cluster (FORMAT: no `cluster` level), so a `.cluster` fence or access synchronizes with
/// no other thread.
///
/// Derivation, one fence weakened at a time (the other nine stay `fence.sc`; PTX ISA 8.8 patterns,
/// 8.9.3–4 Fence-SC, 8.10.6 Causality):
/// - F0a needs its release half (release pattern F0a; st full → the consumer's Fa): acq_rel and
///   release keep it; acquire loses it (a consumer reads full == 1 and data == 0 while P reads
///   empty == 1); removed is weaker still; `.cluster` makes F0a morally strong with no consumer.
/// - F0b needs its acquire half (acquire pattern ld empty; F0b ← the emptier's Fd; st empty):
///   with only release, no path orders a consumer's data read before st 43 (Fence-SC order can
///   put F0a before every consumer fence), so a consumer that saw full reads 43.
/// - Fa needs its acquire half (§3.3): with release only the data read can return 0.
/// - Fb needs its release half (§3.4, edge 1): with acquire only, take P reading the other
///   consumer's empty and the Fence-SC order F0a, Fa, other's Fa–Fd, F0b, own Fc, own Fd: the other
///   consumer reads done == 1 although nothing orders this consumer's data read before st 43.
/// - Fc must stay `fence.sc` (§3.6): with acq_rel both consumers can read the other's done == 0
///   (store buffering; the other SC fences of the thread are before its done write or after its
///   done read), which the someone-empties condition forbids.
/// - Fd (take C1's; C2's is symmetric): every weakening that keeps one half holds here, because
///   the other fences are still SC. If P reads C2's empty, C2's Fd (SC) carries both data reads.
///   If P reads C1's empty == 1, C1 read done2 == 1 from C2's st done2 (after C2's Fb), and
///   Fence-SC order puts C2's Fb before or after F0b. After is impossible: with release only,
///   C1's ld done2 → Fd; st empty ⇒ F0b → C2's Fb → st done2 puts the read before the write it
///   reads (8.10.6); with acquire only, C2's Fb; st done2 ⇒ C1's Fd → st empty and P's ld empty →
///   F0b → C2's Fb put P's read of empty before the write it reads. So C2's Fb precedes F0b and
///   C2's data read precedes st 43; C1's own data read precedes st 43 through Fd's release half,
///   or (acquire only) through its Fb: Fb after F0b would again put P's read of empty before
///   C1's st empty. Removed (or `.cluster`, which synchronizes with no other thread) breaks both
///   arguments: nothing after ld done2 orders it, and C2's Fb after F0b and C1's Fc before C2's Fb
///   (so that "Fc; st empty", a release pattern, does not carry C2's read) lets C2 read 43.
///   (A first derivation here said release breaks; it missed that Fd's release pattern puts C1's
///   done2 read before F0b, which excludes the Fence-SC order it relied on.)
/// - Every flag access narrowed to `.cluster` is no longer morally strong with the other side's
///   `.gpu` access: a new data race on the flag.
///
/// The greedy combination (program order, weakest kept form first): F0a release, F0b acquire,
/// Fa acquire, Fb release, Fc stays, and Fd: with the earlier choices P has no SC fence any more,
/// so C2's chain through C1 needs both halves of C1's Fd: acquire only fails (the pattern
/// "Fc; st empty" carries only what precedes Fc, PTX ISA 8.8), release only fails (C1 does not
/// acquire C2's done2 release, and Fence-SC order may put C1's Fc before C2's Fb), so Fd is
/// acq_rel — the seed's §3.4 program.
#[test]
fn seed_2_5_ten_fences() {
    let data = read("seed-2.5-ten-fences-data");
    let some = read("seed-2.5-ten-fences-someone-empties");
    let a = advise_litmus(&[
        (&data, "seed-2.5-ten-fences-data.litmus"),
        (&some, "seed-2.5-ten-fences-someone-empties.litmus"),
    ])
    .unwrap();
    let f = |v: &[&str]| set(v);
    let kept = |th: &str, line: usize| a.kept_at(th, line).into_iter().collect::<BTreeSet<_>>();
    let broken = |th: &str, line: usize| a.broken_at(th, line).into_iter().collect::<BTreeSet<_>>();
    // P0
    assert_eq!(
        kept("P0", 11),
        f(&["fence.acq_rel.gpu", "fence.release.gpu"])
    );
    assert_eq!(
        broken("P0", 11),
        f(&["fence.acquire.gpu", "(removed)", "fence.sc.cluster"])
    );
    assert_eq!(
        kept("P0", 14),
        f(&["fence.acq_rel.gpu", "fence.acquire.gpu"])
    );
    assert_eq!(
        broken("P0", 14),
        f(&["fence.release.gpu", "(removed)", "fence.sc.cluster"])
    );
    for c in ["P1", "P2"] {
        assert_eq!(
            kept(c, 11),
            f(&["fence.acq_rel.gpu", "fence.acquire.gpu"]),
            "{c} Fa"
        );
        assert_eq!(
            broken(c, 11),
            f(&["fence.release.gpu", "(removed)", "fence.sc.cluster"]),
            "{c} Fa"
        );
        assert_eq!(
            kept(c, 13),
            f(&["fence.acq_rel.gpu", "fence.release.gpu"]),
            "{c} Fb"
        );
        assert_eq!(
            broken(c, 13),
            f(&["fence.acquire.gpu", "(removed)", "fence.sc.cluster"]),
            "{c} Fb"
        );
        assert!(kept(c, 15).is_empty(), "{c} Fc must stay fence.sc.gpu");
        assert_eq!(
            broken(c, 15),
            f(&[
                "fence.acq_rel.gpu",
                "fence.release.gpu",
                "fence.acquire.gpu",
                "(removed)",
                "fence.sc.cluster"
            ]),
            "{c} Fc"
        );
        assert_eq!(
            kept(c, 17),
            f(&[
                "fence.acq_rel.gpu",
                "fence.release.gpu",
                "fence.acquire.gpu"
            ]),
            "{c} Fd"
        );
        assert_eq!(
            broken(c, 17),
            f(&["(removed)", "fence.sc.cluster"]),
            "{c} Fd"
        );
    }
    // Flags: every `.gpu` → `.cluster` breaks (rows 10, 12, 13, 14, 16, 18).
    for (th, line, text) in [
        ("P0", 12, "st.relaxed.gpu.u32 [full], 1"),
        ("P0", 13, "ld.relaxed.gpu.u32 r0, [empty]"),
        ("P1", 10, "ld.relaxed.gpu.u32 r0, [full]"),
        ("P1", 14, "st.relaxed.gpu.u32 [done1], 1"),
        ("P1", 16, "ld.relaxed.gpu.u32 r2, [done2]"),
        ("P1", 18, "st.relaxed.gpu.u32 [empty], r2"),
        ("P2", 10, "ld.relaxed.gpu.u32 r0, [full]"),
        ("P2", 14, "st.relaxed.gpu.u32 [done2], 1"),
        ("P2", 16, "ld.relaxed.gpu.u32 r2, [done1]"),
        ("P2", 18, "st.relaxed.gpu.u32 [empty], r2"),
    ] {
        assert!(kept(th, line).is_empty(), "{th} line {line}");
        assert_eq!(
            broken(th, line),
            set(&[&text.replace(".gpu", ".cluster")]),
            "{th} line {line}"
        );
    }
    assert_eq!(a.sites.len(), 20, "ten fences and ten flag accesses");
    // The greedy combination is the seed's §3.4 program.
    let mut combined = a.combined();
    combined.sort();
    let mut want = vec![
        ("P0".to_string(), 11, "fence.release.gpu".to_string()),
        ("P0".into(), 14, "fence.acquire.gpu".into()),
    ];
    for c in ["P1", "P2"] {
        want.push((c.into(), 11, "fence.acquire.gpu".into()));
        want.push((c.into(), 13, "fence.release.gpu".into()));
        want.push((c.into(), 17, "fence.acq_rel.gpu".into()));
    }
    want.sort();
    assert_eq!(combined, want);
    let text = a.render(&|_| None);
    assert!(text.contains("Kept (each alone"), "{text}");
    assert!(text.contains("Not tried:"), "{text}");
}

/// One test alone: the data condition does not need the store-buffering fences at all (it is
/// about a consumer that saw `full`, and P reading empty == 1 already means some consumer read
/// the other's done == 1), so Fc can go — what the someone-empties condition then forbids.
#[test]
fn seed_2_5_data_alone_lets_the_sb_fences_go() {
    let data = read("seed-2.5-ten-fences-data");
    let a = advise_litmus(&[(&data, "seed-2.5-ten-fences-data.litmus")]).unwrap();
    for c in ["P1", "P2"] {
        assert!(
            a.kept_at(c, 15).contains(&"(removed)".to_string()),
            "{c}: {:?}",
            a.kept_at(c, 15)
        );
    }
    let some = read("seed-2.5-ten-fences-someone-empties");
    let b = advise_litmus(&[(&some, "seed-2.5-ten-fences-someone-empties.litmus")]).unwrap();
    for c in ["P1", "P2"] {
        assert!(b.kept_at(c, 15).is_empty(), "{c}: {:?}", b.kept_at(c, 15));
    }
}

#[test]
fn tests_with_different_programs_are_refused_together() {
    let data = read("seed-2.5-ten-fences-data");
    let mp = "PTX MP\n{\nx=0; y=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak [x], 1 | ld.acquire.gpu r0, [y] ;\n st.release.gpu [y], 1 | ld.weak r1, [x] ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";
    let e = advise_litmus(&[(&data, "a.litmus"), (mp, "b.litmus")]).unwrap_err();
    assert!(e.to_string().contains("program differs"), "{e}");
}

/// Message passing between two threads: the producer's `fence.sc.gpu` between the data and the
/// flag needs only its release half, the consumer's between the flag spin and the data read only
/// its acquire half (PTX ISA 8.8).
fn mp_kernel() -> &'static str {
    r#".version 8.6
.target sm_90
.address_size 64
.visible .entry mp(.param .u64 p0)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<3>;
	.reg .pred %p<3>;
	ld.param.u64 %rd1, [p0];
	mov.u32 %r1, %tid.x;
	mov.u32 %r5, %ctaid.x;
	add.u32 %r1, %r1, %r5;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra CONSUMER;
	st.u32 [%rd1+4], 42;
	fence.sc.gpu;
	st.relaxed.gpu.u32 [%rd1], 1;
	ret;
CONSUMER:
	ld.relaxed.gpu.u32 %r2, [%rd1];
	setp.eq.u32 %p2, %r2, 0;
	@%p2 bra CONSUMER;
	fence.sc.gpu;
	ld.u32 %r3, [%rd1+4];
	st.u32 [%rd1+8], %r3;
	ret;
}
"#
}

fn mp_check(grid: u32, block: u32) -> KernelCheck {
    let mut launch = Launch::new([grid, 1, 1], [block, 1, 1]);
    launch.params.push((0, Bind::Buf(16)));
    KernelCheck {
        entry: "mp".into(),
        launch,
        assert: Some("exists (p0[2] != 42)".into()),
    }
}

/// Producer and consumer in two CTAs (grid 2, block 1; the thread with `%tid.x + %ctaid.x == 0`
/// produces). Lines: 16 producer fence, 17 flag store, 20 flag load, 23 consumer fence.
/// - Producer fence: acq_rel, release keep the release pattern; acquire and removal lose it (the
///   consumer's weak data read then races with the weak data store, and can read 0);
///   `fence.sc.cluster` (one step narrower) is not morally strong with the consumer in another
///   cluster, so the pattern does not synchronize (PTX ISA 8.9.4).
/// - Consumer fence: acq_rel and acquire keep the acquire pattern; release and removal do not;
///   `.cluster` as above.
/// - Flag store / load at `.cluster`: not morally strong with the other side's `.gpu` access:
///   a data race on the flag.
///
/// Combined: fence.release.gpu and fence.acquire.gpu (their `.cluster` forms break).
#[test]
fn mp_kernel_across_ctas() {
    let a = advise_kernel(mp_kernel(), "mp.ptx", &mp_check(2, 1)).unwrap();
    let kept = |line| a.kept_at("mp", line).into_iter().collect::<BTreeSet<_>>();
    let broken = |line| a.broken_at("mp", line).into_iter().collect::<BTreeSet<_>>();
    assert_eq!(kept(16), set(&["fence.acq_rel.gpu", "fence.release.gpu"]));
    assert_eq!(
        broken(16),
        set(&["fence.acquire.gpu", "(removed)", "fence.sc.cluster"])
    );
    assert_eq!(kept(23), set(&["fence.acq_rel.gpu", "fence.acquire.gpu"]));
    assert_eq!(
        broken(23),
        set(&["fence.release.gpu", "(removed)", "fence.sc.cluster"])
    );
    assert!(kept(17).is_empty());
    assert_eq!(broken(17), set(&["st.relaxed.cluster.u32 [%rd1], 1"]));
    assert!(kept(20).is_empty());
    assert_eq!(broken(20), set(&["ld.relaxed.cluster.u32 %r2, [%rd1]"]));
    let mut c = a.combined();
    c.sort();
    assert_eq!(
        c,
        [
            ("mp".to_string(), 16, "fence.release.gpu".to_string()),
            ("mp".to_string(), 23, "fence.acquire.gpu".to_string())
        ]
    );
}

/// The same kernel with both threads in one CTA (grid 1, block 2): now `.cluster` and `.cta`
/// include the other thread, so every scope narrows. Singles go one step (`.gpu` → `.cluster`);
/// the greedy pass narrows further: producer `fence.release.cta`, consumer `fence.acquire.cta`,
/// flag store and load `.cta`.
#[test]
fn mp_kernel_in_one_cta_narrows_to_cta() {
    let a = advise_kernel(mp_kernel(), "mp.ptx", &mp_check(1, 2)).unwrap();
    let kept = |line| a.kept_at("mp", line).into_iter().collect::<BTreeSet<_>>();
    assert_eq!(
        kept(16),
        set(&["fence.acq_rel.gpu", "fence.release.gpu", "fence.sc.cluster"])
    );
    assert_eq!(
        kept(23),
        set(&["fence.acq_rel.gpu", "fence.acquire.gpu", "fence.sc.cluster"])
    );
    assert_eq!(kept(17), set(&["st.relaxed.cluster.u32 [%rd1], 1"]));
    assert_eq!(kept(20), set(&["ld.relaxed.cluster.u32 %r2, [%rd1]"]));
    let mut c = a.combined();
    c.sort();
    assert_eq!(
        c,
        [
            ("mp".to_string(), 16, "fence.release.cta".to_string()),
            (
                "mp".to_string(),
                17,
                "st.relaxed.cta.u32 [%rd1], 1".to_string()
            ),
            (
                "mp".to_string(),
                20,
                "ld.relaxed.cta.u32 %r2, [%rd1]".to_string()
            ),
            ("mp".to_string(), 23, "fence.acquire.cta".to_string()),
        ]
    );
    // The SASS column with `docs/fence-costs.md`'s rows (`fence.acquire.cta` is `(none)`: no SASS
    // beyond the baseline), so fence.sc.gpu → fence.acquire.cta saves all four opcodes.
    let rows = |mn: &str| -> Option<(String, String)> {
        let v = match mn {
            "fence.sc.gpu" => "MEMBAR.SC.GPU ERRBAR CGAERRBAR CCTL.IVALL",
            "fence.release.cta" => "MEMBAR.ALL.CTA",
            "fence.acquire.cta" => "(none)",
            _ => return None,
        };
        Some((mn.to_string(), v.to_string()))
    };
    let text = a.render(&rows);
    let combined: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("Combined"))
        .collect();
    assert!(
        combined.iter().any(|l| l.contains("| fence.acquire.cta")
            && l.ends_with("| −MEMBAR.SC.GPU −ERRBAR −CGAERRBAR −CCTL.IVALL")),
        "{text}"
    );
    assert!(
        combined.iter().any(|l| l.contains("| fence.release.cta")
            && l.ends_with("| −MEMBAR.SC.GPU −ERRBAR −CGAERRBAR −CCTL.IVALL +MEMBAR.ALL.CTA")),
        "{text}"
    );
}

/// A kernel whose baseline is bounded (a loop cut at the unroll bound) has no decided verdict to
/// compare with: refused with a one-line error, not advised.
#[test]
fn a_bounded_baseline_is_refused() {
    let ptx = r#".version 8.6
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p0)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [p0];
	mov.u32 %r1, 0;
L:
	add.u32 %r1, %r1, 1;
	fence.sc.gpu;
	setp.lt.u32 %p1, %r1, 100;
	@%p1 bra L;
	st.u32 [%rd1], %r1;
	ret;
}
"#;
    let mut launch = Launch::new([1, 1, 1], [1, 1, 1]);
    launch.params.push((0, Bind::Buf(4)));
    let e = advise_kernel(
        ptx,
        "k.ptx",
        &KernelCheck {
            entry: "k".into(),
            launch,
            assert: None,
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("unroll"), "{e}");
}
