//! The instruction rows (`device/isa/*.rows`) and what the generator (`device/isa/gen`, run by
//! `device/build.rs`) makes of them: the docs tables in the sources must be the generated ones
//! (`cargo xtask isa` rewrites them), and a bad row must stop the generator with its
//! `file:line`.

#[path = "../isa/gen/mod.rs"]
#[allow(unused_imports)]
mod isa_gen;

use std::path::{Path, PathBuf};

fn isa_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("isa")
}

/// The source file of an API module (`barrier` → `device/src/barrier.rs`).
fn module_source(module: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let flat = src.join(format!("{}.rs", module.replace("::", "/")));
    if flat.exists() {
        flat
    } else {
        src.join(module.replace("::", "/")).join("mod.rs")
    }
}

#[test]
fn generated_docs_tables_match_the_rows() {
    let isa = isa_gen::read(&isa_dir()).unwrap_or_else(|e| panic!("{e}"));
    let modules = isa_gen::table_modules(&isa);
    assert!(!modules.is_empty(), "no family file in device/isa");
    let mut stale = Vec::new();
    for (module, files) in &modules {
        let path = module_source(module);
        let src =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let table = isa_gen::emit::doc_table(&isa, module).unwrap_or_else(|e| panic!("{e}"));
        assert!(table.len() > 2, "module `{module}` has no row in its table");
        let marker = isa_gen::table_marker(files);
        let want = isa_gen::splice_table(&src, &marker, &table)
            .unwrap_or_else(|e| panic!("{}: {e} (the docs table's place)", path.display()));
        if want != src {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "the docs tables of {stale:?} differ from the rows: run `cargo xtask isa`"
    );
}

/// Writes `files` (name, text) into a fresh directory beside a copy of the real `blocks.rows`
/// and `sem.rs` token table, and runs the generator on it.
fn generate(files: &[(&str, &str)]) -> Result<Vec<(String, String)>, String> {
    let root = std::env::temp_dir().join(format!(
        "ptx-sync-isa-{}-{}",
        std::process::id(),
        files[0].0
    ));
    let (isa, src) = (root.join("isa"), root.join("src"));
    std::fs::create_dir_all(&isa).unwrap();
    std::fs::create_dir_all(&src).unwrap();
    std::fs::copy(isa_dir().join("blocks.rows"), isa.join("blocks.rows")).unwrap();
    std::fs::copy(isa_dir().join("../src/sem.rs"), src.join("sem.rs")).unwrap();
    for (name, text) in files {
        std::fs::write(isa.join(name), text).unwrap();
    }
    let out = isa_gen::run(&isa);
    std::fs::remove_dir_all(&root).unwrap();
    out
}

const GOOD: &str = "family Test\n    ptx test\n    module test\n    isa 1.2\n    seed 3\n    floor sm_90 ptx 8.0\n\nform TestOp :: exec\n    ptx test.op$Release\n    doc `test.op.release;`\n    fn ()\n    rust test_op()\n    call test_op();\n";

#[test]
fn a_good_file_generates_its_leaf_row_and_call() {
    let out = generate(&[("t1.rows", GOOD)]).unwrap_or_else(|e| panic!("{e}"));
    let file = |n: &str| &out.iter().find(|(name, _)| name == n).unwrap().1;
    // The token of `$Release` comes from sem.rs's `tok!`.
    assert!(
        file("t1.rs").contains(r#"core::arch::asm!("test.op.release;""#),
        "{}",
        file("t1.rs")
    );
    assert!(file("t1.rs").contains(r#"ptx: "test.op.release","#));
    assert!(file("t1.rs").contains("sm: 90,") && file("t1.rs").contains("ptx_isa: 80,"));
    assert!(file("calls.rs").contains("macro_rules! catalog_calls_t1"));
    assert!(file("calls.rs").contains("        test_op();\n"));
}

#[test]
fn a_bad_row_names_its_file_and_line() {
    let cases: &[(&str, &str)] = &[
        // line 10: a key no form has
        (
            "bad1.rows",
            &GOOD.replace(
                "    ptx test.op$Release\n",
                "    ptx test.op$Release\n    colour red\n",
            ),
        ),
        // line 8 (its form): a token sem.rs does not have
        ("bad2.rows", &GOOD.replace("$Release", "$Purple")),
        // line 8: a form whose Rust path no call reaches
        (
            "bad3.rows",
            &GOOD.replace("    call test_op();\n", "    call other();\n"),
        ),
        // line 6: a floor without its PTX version
        (
            "bad4.rows",
            &GOOD.replace("floor sm_90 ptx 8.0", "floor sm_90"),
        ),
        // line 1: hand-written forms (`forms PATH`) outside hand.rows
        (
            "bad5.rows",
            &GOOD.replace("family Test\n", "family Test\n    forms device/src/x.rs\n"),
        ),
    ];
    let want = [
        "device/isa/bad1.rows:10:",
        "device/isa/bad2.rows:8:",
        "device/isa/bad3.rows:8:",
        "device/isa/bad4.rows:6:",
        "device/isa/bad5.rows:1:",
    ];
    for ((name, text), want) in cases.iter().zip(want) {
        let e = generate(&[(name, text)]).expect_err(name);
        assert!(
            e.starts_with(want),
            "{name}: `{e}` does not start with `{want}`"
        );
    }
}

/// An `access` table (the access families' dimension products): its rows in `access_rows!`, the
/// (type, op) pairs outermost and a `scope=none` semantic generic in the scope, and each row's
/// trait impl with the mnemonic spelled from `sem.rs`'s tokens.
const ACCESS: &str = "family Test\n    ptx test\n    module test\n    isa 1.2\n    seed 3\n    floor sm_90 ptx 8.0\n\naccess t\n    impl TInstr<$sem, $scope> for $type\n    ptx t$sem$scope.$op.$ty\n    row $type $op \"$op.tok\"; $sem; [$scope.g] $scope\n    rust t::<$type, $sem, $scope.path>\n    sem Relaxed Weak(scope=none)\n    scope Cta Gpu(sm=100 ptx@Relaxed=8.6)\n    type u32(ty=b32) Add(ty=u32) Exch\n    type i32(ty=s32) Add(op=add.x)\n\naccess u\n    impl UInstr<$sem, $scope> for $type\n    ptx u$sem$scope.$op.$ty\n    row $type $op\n    rust u::<$type>\n    sem Relaxed\n    scope Sys\n    types t\n    except Exch\n";

#[test]
fn an_access_table_generates_its_rows_and_impls() {
    let out = generate(&[("t2.rows", ACCESS)]).unwrap_or_else(|e| panic!("{e}"));
    let file = |n: &str| &out.iter().find(|(name, _)| name == n).unwrap().1;
    let rows: Vec<&str> = file("access.rs")
        .lines()
        .filter_map(|l| l.trim().strip_prefix("$leaf! { "))
        .collect();
    assert_eq!(
        rows,
        [
            "u32 Add \"add\"; Relaxed; [] Cta }",
            "u32 Add \"add\"; Relaxed; [] Gpu }",
            "u32 Add \"add\"; Weak; [Sco: Scope] Sco }",
            "u32 Exch \"exch\"; Relaxed; [] Cta }",
            "u32 Exch \"exch\"; Relaxed; [] Gpu }",
            "u32 Exch \"exch\"; Weak; [Sco: Scope] Sco }",
            "i32 Add \"add.x\"; Relaxed; [] Cta }",
            "i32 Add \"add.x\"; Relaxed; [] Gpu }",
            "i32 Add \"add.x\"; Weak; [Sco: Scope] Sco }",
            "u32 Add }",
            "i32 Add }",
        ]
    );
    let impls = file("access_test.rs");
    for want in [
        "unsafe impl TInstr<Relaxed, Cta> for u32 {\n    const PTX: &'static str = \"t.relaxed.cta.add.u32\";",
        "unsafe impl<Sco: Scope> TInstr<Weak, Sco> for u32 {\n    const PTX: &'static str = \"t.exch.b32\";",
        "unsafe impl UInstr<Relaxed, Sys> for i32 {\n    const PTX: &'static str = \"u.relaxed.sys.add.x.s32\";",
    ] {
        assert!(impls.contains(want), "no `{want}` in\n{impls}");
    }
    // The catalog rows: the family's floor raised by the values' `sm=`/`ptx=` (`ptx@Relaxed`:
    // only on a row with `Relaxed`), the Rust path (`$scope.path`: `_` for a scope-less row).
    let cat = file("access_catalog.rs");
    for want in [
        "ptx: \"t.relaxed.gpu.add.u32\", operands: Some(\"\"), asm_pre: \"\", asm_post: \"\", rust: \"t::<u32, Relaxed, Gpu>\", sm: 100, ptx_isa: 86,",
        "ptx: \"t.relaxed.cta.add.u32\", operands: Some(\"\"), asm_pre: \"\", asm_post: \"\", rust: \"t::<u32, Relaxed, Cta>\", sm: 90, ptx_isa: 80,",
        "ptx: \"t.exch.b32\", operands: Some(\"\"), asm_pre: \"\", asm_post: \"\", rust: \"t::<u32, Weak, _>\", sm: 90, ptx_isa: 80,",
    ] {
        assert!(cat.contains(want), "no `{want}` in\n{cat}");
    }
    assert!(!impls.contains(
        "UInstr<Relaxed, Sys> for u32 {\n    const PTX: &'static str = \"u.relaxed.sys.exch"
    ));
}

#[test]
fn a_bad_access_table_names_its_file_and_line() {
    let cases: &[(&str, String)] = &[
        // line 13: a key no access table has
        (
            "bad6.rows",
            ACCESS.replace(
                "    sem Relaxed Weak",
                "    colour red\n    sem Relaxed Weak",
            ),
        ),
        // line 8 (its table): a semantic sem.rs has no token for
        (
            "bad7.rows",
            ACCESS.replace("sem Relaxed Weak", "sem Purple Weak"),
        ),
        // line 18 (its table): `types` naming no table
        ("bad8.rows", ACCESS.replace("types t", "types nosuch")),
        // line 8: a template naming a property its rows lack
        (
            "bad9.rows",
            ACCESS.replace("$op.$ty\n    row $type", "$op.$width\n    row $type"),
        ),
        // line 8: a leaf the generator has no binding of (`frob`, no `reg`)
        (
            "bad10.rows",
            ACCESS.replace(
                "    rust t::<",
                "    leaf TLeaf<$sem> for $type :: frob\n    rust t::<",
            ),
        ),
    ];
    let want = [
        "device/isa/bad6.rows:13:",
        "device/isa/bad7.rows:8:",
        "device/isa/bad8.rows:18:",
        "device/isa/bad9.rows:8:",
        "device/isa/bad10.rows:8:",
    ];
    for ((name, text), want) in cases.iter().zip(want) {
        let e = generate(&[(name, text)]).expect_err(name);
        assert!(
            e.starts_with(want),
            "{name}: `{e}` does not start with `{want}`"
        );
    }
}

/// The catalog's `Family` enum is exactly the families of the rows files, then those of
/// `hand.rows` if any (in that order, each displayed as its `ptx` name); every hand family
/// names a file that exists; every family but the special registers' has a catalog row (a
/// family whose forms moved to a rows file leaves hand.rows: its name would be declared twice).
#[test]
fn the_family_enum_is_the_rows_families() {
    use ptx_sync::catalog::{for_each_variant, Family};
    let isa = isa_gen::read(&isa_dir()).unwrap_or_else(|e| panic!("{e}"));
    let want: Vec<(String, String)> = isa
        .files
        .iter()
        .flat_map(|f| f.families.iter())
        .chain(isa.hand.iter())
        .map(|f| (f.name.clone(), f.ptx.clone()))
        .collect();
    let have: Vec<(String, String)> = Family::ALL
        .iter()
        .map(|f| (format!("{f:?}"), f.to_string()))
        .collect();
    assert_eq!(have, want);
    // The access families are rows too (`ld.rows`, …, `access` tables): no hand-written family.
    assert!(
        isa.files
            .iter()
            .any(|f| f.families.iter().any(|fam| fam.ptx == "ld") && !f.access.is_empty()),
        "no `ld.rows` with its access table"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for f in &isa.hand {
        let p = f.hand.as_deref().unwrap_or_else(|| panic!("{f:?}"));
        assert!(
            root.join(p).is_file(),
            "hand.rows: family `{}`: no file {p}",
            f.name
        );
    }
    let mut seen = std::collections::BTreeSet::new();
    for_each_variant(|v| {
        seen.insert(v.family);
    });
    // The families whose forms are all `catalog none` (special registers) have no row.
    let rowless: Vec<&str> = isa
        .files
        .iter()
        .flat_map(|f| f.families.iter().map(move |fam| (f, fam)))
        .filter(|(f, fam)| {
            !f.items.iter().any(
                |i| matches!(i, isa_gen::parse::Item::Form(x) if x.family == fam.name && x.row),
            )
        })
        .map(|(_, fam)| fam.name.as_str())
        .collect();
    assert!(rowless.contains(&"Sreg"), "{rowless:?}");
    let missing: Vec<&Family> = Family::ALL
        .iter()
        .filter(|f| !seen.contains(f) && !rowless.contains(&format!("{f:?}").as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "families without a catalog row: {missing:?}"
    );
}

/// The access tables' floors (the `sm=`/`ptx=` properties of their values) agree with
/// `catalog::access_floor`, the rule of (family, semantic, scope, space): no row is below it,
/// and the 32-bit integer rows (no type floor) are exactly at it.
#[test]
fn access_rows_keep_the_access_floor_rule() {
    use ptx_sync::catalog::{access_floor, for_each_variant, Family};
    let (mut n, mut exact) = (0, 0);
    for_each_variant(|v| {
        if !matches!(
            v.family,
            Family::Ld | Family::St | Family::Atom | Family::Red | Family::Fence
        ) {
            return;
        }
        n += 1;
        let (sm, ptx) = access_floor(v.family, v.sem, v.scope, v.space);
        assert!(
            v.sm >= sm && v.ptx_isa >= ptx,
            "{}: sm_{} / {} is below access_floor's sm_{sm} / {ptx}",
            v.ptx,
            v.sm,
            v.ptx_isa
        );
        if matches!(v.ty, "u32" | "i32" | "") {
            exact += 1;
            assert_eq!((v.sm, v.ptx_isa), (sm, ptx), "{}", v.ptx);
        }
    });
    assert!(
        n > 8000 && exact > 1000,
        "{n} access rows, {exact} at the rule"
    );
}
