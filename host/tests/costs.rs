//! The SASS cost table (`ptx_sync_host::costs`) against the seed's facts and a committed snapshot.
//!
//! Needs the PTX tools: `PTX_SYNC_TOOLS` (set by `cargo xtask test`) or the `.venv` made by
//! `cargo xtask setup`; without them every test here fails and says so.
//!
//! The expectations are written out here, from the seed (§2.5: `fence.sc.gpu` is `MEMBAR.SC.GPU`;
//! §3.4: `fence.acq_rel.gpu` is `MEMBAR.ALL.GPU`) and from one reading of ptxas 13.0's output
//! recorded in `docs/fence-costs-sass.txt`; the first test also assembles its own hand-written PTX
//! with its own process calls and searches the raw dump, so a parsing mistake in `sass.rs` cannot
//! make table and expectation agree by accident.
//!
//! Snapshot: `docs/fence-costs-sass.txt`. After a deliberate toolchain or catalog change,
//! regenerate it with
//!
//! ```text
//! PTX_SYNC_BLESS=1 cargo test -p ptx-sync-host --test costs
//! ```
//!
//! and review the diff: a changed row means the cost of that instruction changed.

use ptx_sync_host::costs::{cost_table, render_costs, snapshot_text, CostRow};
use ptx_sync_host::sass::find_tools;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn tools() -> PathBuf {
    find_tools().unwrap_or_else(|e| panic!("{e}"))
}

fn table() -> &'static [CostRow] {
    static T: OnceLock<Vec<CostRow>> = OnceLock::new();
    T.get_or_init(|| cost_table(&tools()).unwrap_or_else(|e| panic!("{e}")))
}

fn row(ptx: &str) -> &'static CostRow {
    table()
        .iter()
        .find(|r| r.ptx == ptx)
        .unwrap_or_else(|| panic!("no row for {ptx}"))
}

fn has(ptx: &str, op: &str) -> bool {
    row(ptx).sass.iter().any(|o| o == op)
}

const SEMS: [&str; 4] = ["sc", "acq_rel", "acquire", "release"];
const SCOPES: [&str; 4] = ["cta", "cluster", "gpu", "sys"];

/// Assembles hand-written PTX with direct ptxas/cuobjdump calls and returns the raw text of the
/// dump between `Function : name` and the next function header.
fn raw_function_dump(ptx: &str, name: &str) -> String {
    let t = tools();
    let dir = std::env::temp_dir().join(format!("ptx-sync-costs-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (src, cubin) = (dir.join("hand.ptx"), dir.join("hand.cubin"));
    std::fs::write(&src, ptx).unwrap();
    let st = Command::new(t.join("ptxas"))
        .arg("-arch=sm_90")
        .arg(&src)
        .arg("-o")
        .arg(&cubin)
        .status();
    assert!(
        st.unwrap().success(),
        "ptxas rejected the hand-written module"
    );
    let out = Command::new(t.join("cuobjdump"))
        .arg("-sass")
        .arg(&cubin)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8(out.stdout).unwrap();
    let start = text
        .find(&format!("Function : {name}\n"))
        .unwrap_or_else(|| panic!("{name} not in dump"));
    let rest = &text[start + 1..];
    rest[..rest.find("Function : ").unwrap_or(rest.len())].to_string()
}

#[test]
fn seed_fences_independently_of_the_table() {
    let ptx = ".version 8.6\n.target sm_90\n.address_size 64\n\
               .visible .entry hand_sc()\n{\n\tfence.sc.gpu;\n\tret;\n}\n\
               .visible .entry hand_ar()\n{\n\tfence.acq_rel.gpu;\n\tret;\n}\n";
    let sc = raw_function_dump(ptx, "hand_sc");
    let ar = raw_function_dump(ptx, "hand_ar");
    assert!(sc.contains("MEMBAR.SC.GPU"), "fence.sc.gpu:\n{sc}");
    assert!(!sc.contains("MEMBAR.ALL"), "fence.sc.gpu:\n{sc}");
    assert!(ar.contains("MEMBAR.ALL.GPU"), "fence.acq_rel.gpu:\n{ar}");
    assert!(!ar.contains("MEMBAR.SC"), "fence.acq_rel.gpu:\n{ar}");
    // The table says the same.
    assert!(has("fence.sc.gpu", "MEMBAR.SC.GPU") && !has("fence.sc.gpu", "MEMBAR.ALL.GPU"));
    assert!(
        has("fence.acq_rel.gpu", "MEMBAR.ALL.GPU") && !has("fence.acq_rel.gpu", "MEMBAR.SC.GPU")
    );
}

#[test]
fn table_has_every_fence_and_ordered_atomic() {
    let mut want: Vec<String> = Vec::new();
    for sem in SEMS {
        for sc in SCOPES {
            want.push(format!("fence.{sem}.{sc}"));
        }
    }
    for sc in SCOPES {
        for s in ["relaxed", "acquire"] {
            want.push(format!("ld.{s}.{sc}.u32"));
        }
        for s in ["relaxed", "release"] {
            want.push(format!("st.{s}.{sc}.u32"));
        }
        for s in ["relaxed", "acquire", "release", "acq_rel"] {
            want.push(format!("atom.{s}.{sc}.add.u32"));
        }
        for s in ["relaxed", "release"] {
            want.push(format!("red.{s}.{sc}.add.u32"));
        }
    }
    let mut got: Vec<String> = table().iter().map(|r| r.ptx.clone()).collect();
    want.sort();
    got.sort();
    assert_eq!(got, want);
}

#[test]
fn fence_sc_is_membar_sc_at_every_scope_and_differs_from_acq_rel() {
    for sc in SCOPES {
        let (s, a) = (
            row(&format!("fence.sc.{sc}")),
            row(&format!("fence.acq_rel.{sc}")),
        );
        assert!(!s.sass.is_empty(), "fence.sc.{sc} emits nothing");
        assert!(
            s.sass.iter().any(|o| o.starts_with("MEMBAR.SC.")),
            "fence.sc.{sc}: {:?}",
            s.sass
        );
        assert!(
            !a.sass.iter().any(|o| o.starts_with("MEMBAR.SC.")),
            "fence.acq_rel.{sc}: {:?}",
            a.sass
        );
        assert_ne!(
            s.sass, a.sass,
            "fence.sc.{sc} and fence.acq_rel.{sc} lower identically"
        );
    }
}

/// Every fence lowers to at least one instruction — except `fence.acquire.cta`, which ptxas 13.0
/// drops entirely for sm_90 (recorded, so that a toolchain that starts emitting one is noticed).
#[test]
fn fences_other_than_acquire_cta_emit_something() {
    assert_eq!(row("fence.acquire.cta").sass, Vec::<String>::new());
    assert_eq!(row("fence.acquire.gpu").sass, ["CCTL.IVALL"]);
    for sem in SEMS {
        for sc in SCOPES {
            let p = format!("fence.{sem}.{sc}");
            if p != "fence.acquire.cta" {
                assert!(!row(&p).sass.is_empty(), "{p} emits nothing");
            }
        }
    }
}

#[test]
fn ordered_accesses_carry_their_fence_halves() {
    // Recorded from ptxas 13.0 (sm_90): a release is a MEMBAR before the access, an acquire a
    // CCTL.IVALL (L1 invalidation) after it; relaxed forms have neither.
    for sc in ["gpu", "sys"] {
        let up = sc.to_uppercase();
        let st = &row(&format!("st.release.{sc}.u32")).sass;
        let membar = st.iter().position(|o| o == &format!("MEMBAR.ALL.{up}"));
        let store = st.iter().position(|o| o.starts_with("ST.E.STRONG"));
        assert!(
            matches!((membar, store), (Some(m), Some(s)) if m < s),
            "st.release.{sc}: {st:?}"
        );
        let ld = &row(&format!("ld.acquire.{sc}.u32")).sass;
        let load = ld.iter().position(|o| o.starts_with("LD.E.STRONG"));
        let inval = ld.iter().position(|o| o == "CCTL.IVALL");
        assert!(
            matches!((load, inval), (Some(l), Some(i)) if l < i),
            "ld.acquire.{sc}: {ld:?}"
        );
        for p in [
            format!("ld.relaxed.{sc}.u32"),
            format!("st.relaxed.{sc}.u32"),
            format!("atom.relaxed.{sc}.add.u32"),
        ] {
            let r = &row(&p).sass;
            assert!(
                !r.iter()
                    .any(|o| o.starts_with("MEMBAR") || o == "CCTL.IVALL"),
                "{p}: {r:?}"
            );
        }
        let ar = &row(&format!("atom.acq_rel.{sc}.add.u32")).sass;
        assert!(
            ar.first().is_some_and(|o| o.starts_with("MEMBAR.ALL.")),
            "atom.acq_rel.{sc}: {ar:?}"
        );
        assert_eq!(
            ar.last().map(String::as_str),
            Some("CCTL.IVALL"),
            "atom.acq_rel.{sc}: {ar:?}"
        );
    }
}

fn snapshot_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/fence-costs-sass.txt")
}

/// A toolchain (or catalog) change that changes any row fails here; see the module doc for how to
/// regenerate the snapshot.
#[test]
fn matches_committed_snapshot() {
    let now = snapshot_text(&tools()).unwrap_or_else(|e| panic!("{e}"));
    let path = snapshot_path();
    if std::env::var_os("PTX_SYNC_BLESS").is_some() {
        std::fs::write(&path, &now).unwrap();
        eprintln!("wrote {}", path.display());
        return;
    }
    let old = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {}: {e}; create it with PTX_SYNC_BLESS=1",
            path.display()
        )
    });
    if old != now {
        let diff: Vec<String> = old
            .lines()
            .zip(now.lines())
            .filter(|(a, b)| a != b)
            .map(|(a, b)| format!("- {a}\n+ {b}"))
            .collect();
        panic!(
            "the SASS of the fences/atomics differs from {} ({} vs {} lines):\n{}\n\
             If the change is expected, regenerate: PTX_SYNC_BLESS=1 cargo test -p ptx-sync-host --test costs",
            path.display(),
            old.lines().count(),
            now.lines().count(),
            diff.join("\n")
        );
    }
    // The rendered table is what the snapshot holds after its header.
    assert!(old.ends_with(&render_costs(table())));
}
