//! The litmus front end for the exploration engine (FORMAT parts 1 and 2): every corpus file
//! gives both the enumerating checker's code and the engine's threads; format part 2 files
//! parse into a layout and threads; the audit items of #19 §4 that are parse errors are
//! rejected with `file:line`. Expected values come from FORMAT.md and the PTX ISA.

use ptx_sync_model::ast::{MemTerm, Prop, Term, Test};
use ptx_sync_model::engine::op::{Op, Program, Reply, Space, Step};
use ptx_sync_model::{litmus_files, parse, ErrorKind};
use std::path::PathBuf;

fn corpus() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("litmus");
    litmus_files(&[root]).expect("the corpus is there")
}

/// Runs every thread alone, every load reading 0 and every wait succeeding, until it ends;
/// returns the steps that are not ops.
fn run_alone(t: &Test) -> Vec<Step> {
    let mut ends = Vec::new();
    for th in &t.threads {
        let mut p = th.prog.clone().expect("an engine thread");
        for _ in 0..1000 {
            match p.step() {
                Step::Op(op, _, _) => p.resume(match op {
                    Op::Mbar { .. } => Reply::Pred(true),
                    Op::Warp(..) => Reply::Elect(true, 0),
                    _ => Reply::Value(0),
                }),
                Step::LoopHead { .. } => {}
                s => {
                    ends.push(s);
                    break;
                }
            }
        }
    }
    ends
}

#[test]
fn every_corpus_file_has_the_checkers_code_and_the_engines_threads() {
    let files = corpus();
    assert!(files.len() >= 230, "{} files", files.len());
    let mut bad = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let name = f.display().to_string();
        match parse(&text, &name) {
            Err(e) => bad.push(format!("{name}: {e}")),
            Ok(t) => {
                if let Some(e) = &t.engine {
                    bad.push(format!("{name}: engine: {e}"));
                }
                // A part-1 test keeps the part-1 reading (the GPU litmus generator reads it); a
                // part-2 test says why it has none.
                let part1_folder = [
                    "atomics", "barrier", "fence", "isa", "proxy", "scope", "seed",
                ]
                .iter()
                .any(|d| name.contains(&format!("/litmus/{d}/")));
                match &t.legacy {
                    Some(e) if part1_folder => {
                        bad.push(format!("{name}: not read as format part 1: {e}"))
                    }
                    Some(_) if t.threads.iter().any(|th| !th.code.is_empty()) => {
                        bad.push(format!("{name}: no part-1 reading but part-1 code"))
                    }
                    _ => {}
                }
                for th in &t.threads {
                    let p = th.prog.as_ref();
                    // Both numberings name the same registers.
                    if let Some(p) = p {
                        let names: Vec<&str> =
                            p.code().regs.iter().map(|r| r.name.as_str()).collect();
                        if names != th.regs.iter().map(|s| s.as_str()).collect::<Vec<_>>() {
                            bad.push(format!("{name}: P{}: register tables differ", th.id));
                        }
                    }
                }
                for s in run_alone(&t) {
                    if !matches!(s, Step::Done | Step::Cut(_)) {
                        bad.push(format!("{name}: a thread ends with {s:?}"));
                    }
                }
                // Every location of the checker is a layout variable of the same name.
                for (p, (n, _)) in t.phys.iter().enumerate() {
                    if t.layout.vars[t.loc_var[p]].name != *n {
                        bad.push(format!("{name}: location {n} maps to another variable"));
                    }
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

const MP: &str = r#"PTX MP-mbarrier
"A part 2 test: data through a shared array, published by an mbarrier."
{
shared bar; shared d[8]; x[16]={1, 2, 0xffffffff}; flag=0;
P1:r9=7;
}
 P0@cta 0,cluster 0,gpu 0                               | P1@cta 1,cluster 0,gpu 0                                  ;
 mbarrier.init.shared::cta.b64 [bar], 1                 | L1:                                                       ;
 st.shared::cluster.u32 [d@1+4], 42                     | mbarrier.try_wait.parity.shared::cta.b64 p0, [bar], 0      ;
 mbarrier.arrive.release.cluster.shared::cluster.b64 _, [bar@1] | @!p0 bra L1                                     ;
 ld.global.v2.u32 {r1, r2}, [x+4]                       | ld.shared::cta.u32 r1, [d+4]                              ;
 setp.eq.u32 p1, r2, 4294967295                         | add.u32 r9, r9, r1                                        ;
exists (P1:r1 != 42 /\ d@1+4 == 42 /\ P0:p1 == 1 /\ P1:r9 == 4294967295)
"#;

#[test]
fn a_format_part_2_test_gets_a_layout_threads_and_typed_terms() {
    let t = parse(MP, "mp.litmus").unwrap();
    // The enumerating checker does not read part 2: it says so, as `unsupported`.
    let e = t.legacy.as_ref().expect("part 2");
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert_eq!(e.line, 4);
    assert!(t.threads.iter().all(|th| th.code.is_empty()));
    // The engine reads it: a verdict.
    assert!(ptx_sync_model::check(MP, "mp.litmus").is_ok());
    // Layout: bar (shared, 8 bytes), d (shared, 8), x (global, 16: words 1, 2, 0xffffffff),
    // flag (global, 8).
    let l = &t.layout;
    let v = |n: &str| l.vars[l.var(n).unwrap()].clone();
    assert_eq!((v("bar").shared, v("bar").size), (true, 8));
    assert_eq!((v("d").shared, v("d").size), (true, 8));
    assert_eq!(
        v("x").init,
        vec![1, 0, 0, 0, 2, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]
    );
    assert_eq!((v("flag").shared, v("flag").size), (false, 8));
    // Places: one cluster, CTA ranks 0 and 1 (the order of the cta numbers).
    let p0 = t.threads[0].prog.as_ref().unwrap().geom().place;
    let p1 = t.threads[1].prog.as_ref().unwrap().geom().place;
    assert_eq!((p0.cluster, p0.rank, p1.cluster, p1.rank), (0, 0, 0, 1));
    assert_ne!(p0.cta, p1.cta);
    // The condition: P1:r1 is 32 bits wide (ld.u32), d@1+4 is CTA 1's copy at offset 4 (32
    // bits: st.u32 and ld.u32 access it), P0:p1 a predicate, P1:r9 32 bits (add.u32).
    let Prop::And(..) = &t.prop else {
        panic!("{:?}", t.prop)
    };
    let d = l.var("d").unwrap();
    let mem = t
        .observed
        .iter()
        .find_map(|x| match x {
            Term::Mem(m) => Some(*m),
            _ => None,
        })
        .unwrap();
    assert_eq!((mem.var, mem.off, mem.cta.map(|c| c.rank)), (d, 4, Some(1)));
    let widths: Vec<u32> = t.observed.iter().map(|x| t.term_bits(x).unwrap()).collect();
    assert_eq!(widths, vec![32, 32, 1, 32]);
    assert_eq!(t.term_name(&Term::Mem(mem)), "d@1+4");
    // P1:r9 starts at 7 (the init block).
    let p = t.threads[1].prog.as_ref().unwrap();
    let r9 = p.code().reg("r9").unwrap() as usize;
    assert_eq!(p.reg(r9), 7);
    // P0's remote store goes to rank 1's copy of d, through .shared::cluster.
    let mut p0t = t.threads[0].prog.clone().unwrap();
    let Step::Op(Op::Mbar { .. }, _, _) = p0t.step() else {
        panic!()
    };
    p0t.resume(Reply::None);
    let Step::Op(Op::Store(a, 42), at, _) = p0t.step() else {
        panic!()
    };
    assert_eq!(at.line, 9);
    let loc = l.resolve(a.space, a.addr, a.size, 0, 2).unwrap();
    assert_eq!(
        (a.space, loc.var as usize, loc.rank, loc.off),
        (Space::SharedCluster, d, Some(1), 4)
    );
}

#[test]
fn format_part_2_examples_parse() {
    // The instruction forms FORMAT part 2 lists, in one test.
    let text = r#"PTX forms
{
shared bar; shared tile[64]; src[64]; g[32]; shared s=3;
t @ tensormap g, .b32, {4, 2}, {2, 2};
}
 P0@cta 0,cluster 0,gpu 0 ;
 mbarrier.init.shared::cta.b64 [bar], 1 ;
 fence.mbarrier_init.release.cluster ;
 mbarrier.arrive.expect_tx.shared::cta.b64 r0, [bar], 16 ;
 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [tile], [src], 16, [bar] ;
 cp.async.bulk.global.shared::cta.bulk_group [src], [tile], 16 ;
 cp.async.bulk.commit_group ;
 cp.async.bulk.wait_group.read 0 ;
 cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [src], [tile], 16 ;
 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [tile], [t, {0, 0}], [bar] ;
 cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [t, {2, 0}], [tile] ;
 cp.async.ca.shared::cta.global [tile], [src], 4 ;
 cp.async.commit_group ;
 cp.async.wait_group 0 ;
 cp.async.mbarrier.arrive.noinc.shared::cta.b64 [bar] ;
 fence.proxy.async.shared::cta ;
 mbarrier.try_wait.parity.shared::cta.b64 p0, [bar], 0 ;
 mbarrier.test_wait.shared::cta.b64 p1, [bar], r0 ;
 mbarrier.pending_count.b64 r1, r0 ;
 mov.u32 r2, s ;
 cvta.shared::cta.u64 r3, r2 ;
 cvta.to.shared::cta.u32 r4, r3 ;
 mapa.shared::cluster.u32 r5, r2, 0 ;
 mov.u64 r6, g ;
 ld.u32 r7, [r6+4] ;
 selp.u32 r8, 1, 2, p0 ;
 barrier.cluster.arrive.release.aligned ;
 barrier.cluster.wait.acquire.aligned ;
exists (P0:r7 == 0)
"#;
    let t = parse(text, "forms.litmus").unwrap_or_else(|e| panic!("{e}"));
    assert!(t.legacy.is_some() && t.engine.is_none());
    assert_eq!(t.layout.tmaps.len(), 1);
    assert_eq!(t.layout.tmaps[0].dims, vec![4, 2]);
    // Every instruction runs (alone) to the end.
    assert_eq!(run_alone(&t), vec![Step::Done]);
}

#[test]
fn format_2_rejections_are_parse_errors_with_their_line() {
    let base = |cell: &str, cond: &str| {
        format!(
            "PTX T\n{{\nx=0; shared s;\n}}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n {cell} | ld.u32 r1, [x] ;\nexists ({cond})\n"
        )
    };
    let err = |text: &str| parse(text, "t.litmus").unwrap_err();
    // A name in a space that does not contain it.
    let e = err(&base("ld.global.u32 r0, [s]", "P1:r1 == 0"));
    assert_eq!((e.kind, e.line), (ErrorKind::Parse, 6));
    assert!(e.msg.contains("not in the .global"), "{e}");
    // A literal that fits neither 32-bit range in a comparison with a 32-bit register.
    let e = err(&base("ld.u32 r0, [x]", "P1:r1 == 4294967296"));
    assert_eq!((e.kind, e.line), (ErrorKind::Parse, 7));
    assert!(e.msg.contains("does not fit the 32-bit term"), "{e}");
    // …while 4294967295 and -1 are the same 32-bit value and both fit.
    assert!(parse(&base("ld.u32 r0, [x]", "P1:r1 == 4294967295"), "t").is_ok());
    assert!(parse(&base("ld.u32 r0, [x]", "P1:r1 == -1"), "t").is_ok());
    // A shared variable in the condition needs its CTA when several CTAs have a copy.
    let e = err(&base("ld.u32 r0, [x]", "s == 0"));
    assert!(e.msg.contains("several CTAs"), "{e}");
    assert!(parse(&base("ld.u32 r0, [x]", "s@1 == 0"), "t").is_ok());
}

#[test]
fn audit_items_of_19_are_rejected_at_parse_time() {
    let one =
        |cell: &str| format!("PTX T\n{{ x=0; }}\n P0@cta 0,gpu 0 ;\n {cell} ;\nexists (x == 0)\n");
    for (cell, what) in [
        ("bar.sync 16", "out of range 0–15"),
        ("bar.cta.sync 0, 0", "must be positive"),
        ("bar.cta.sync 0, -1", "must be positive"),
        ("atom.inc.s64 r0, x, 1", ".u32"),
        ("atom.dec.u64 r0, x, 1", ".u32"),
        // The rest of the audit's forms (each accepted by the checker of commit feb866b):
        // every barrier family with id 16, a zero or negative count on the plain form, and
        // .inc/.dec on the other 64-bit types and on `red`.
        ("barrier.sync 16", "out of range 0–15"),
        ("bar.arrive 16, 32", "out of range 0–15"),
        ("bar.red.popc.u32 r0, 16, 1", "out of range 0–15"),
        ("bar.sync 0, 0", "must be positive"),
        ("bar.sync 0, -32", "must be positive"),
        ("atom.dec.s64 r0, x, 1", ".u32"),
        ("atom.inc.u64 r0, x, 1", ".u32"),
        ("red.relaxed.gpu.inc.s64 x, 1", ".u32"),
        ("st.u32 x, 5000000000", "does not fit"),
    ] {
        let e = parse(&one(cell), "t.litmus").unwrap_err();
        assert_eq!((e.kind, e.line), (ErrorKind::Parse, 4), "{cell}: {e}");
        assert!(e.msg.contains(what), "{cell}: {e}");
        assert!(e.to_string().starts_with("t.litmus:4: "), "{e}");
    }
    // In range: accepted.
    assert!(parse(&one("bar.sync 15"), "t").is_ok());
    assert!(parse(&one("atom.inc.u32 r0, x, 1"), "t").is_ok());
}

#[test]
fn a_condition_nested_ten_thousand_deep_is_an_error_not_a_stack_overflow() {
    let cond = format!("{}x == 0{}", "(".repeat(10_000), ")".repeat(10_000));
    let text = format!("PTX T\n{{ x=0; }}\n P0@cta 0,gpu 0 ;\n st x, 1 ;\nexists {cond}\n");
    let e = parse(&text, "t.litmus").unwrap_err();
    assert_eq!((e.kind, e.line), (ErrorKind::Parse, 5));
    assert!(e.msg.contains("nests deeper than"), "{e}");
    let nots = format!("exists {}(x == 0)", "~".repeat(10_000));
    let e = parse(
        &format!("PTX T\n{{ x=0; }}\n P0@cta 0,gpu 0 ;\n st x, 1 ;\n{nots}\n"),
        "t.litmus",
    )
    .unwrap_err();
    assert!(e.msg.contains("nests deeper than"), "{e}");
    // A long flat chain is fine: it is balanced, and the checker evaluates it.
    let chain = vec!["x == 1"; 10_000].join(" /\\ ");
    let out = ptx_sync_model::check(
        &format!("PTX T\n{{ x=0; }}\n P0@cta 0,gpu 0 ;\n st x, 1 ;\nexists ({chain})\n"),
        "t.litmus",
    )
    .unwrap();
    assert!(out.ok);
}

#[test]
fn part_1_terms_map_to_layout_variables() {
    let text = "PTX T\n{ x=5; y @ generic aliases x; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, y ;\nexists (x == 5 /\\ P0:r0 == 5)\n";
    let t = parse(text, "t").unwrap();
    assert!(t.legacy.is_none() && t.engine.is_none());
    let x = t.layout.var("x").unwrap();
    assert_eq!(t.loc_var, vec![x]);
    assert_eq!(t.layout.vars[x].init, 5u64.to_le_bytes().to_vec());
    // y is an alias variable of x in the layout (another virtual address, PTX ISA §8.2.2).
    let y = t.layout.var("y").unwrap();
    assert_eq!(t.layout.vars[y].alias_of, Some(x));
    let _ = MemTerm {
        var: x,
        cta: None,
        off: 0,
    };
}
