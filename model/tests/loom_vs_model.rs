//! `model/README.md`'s table "Loom and the axioms, program by program": every row's litmus
//! file is checked and its "model" cell asserted — in particular the rows loom cannot express
//! (load buffering, seed §2.4; the value 43 of §3.4 without C2's release; `red; fence.acquire`).

use std::path::PathBuf;

#[test]
fn every_row_of_the_readme_table_holds() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut rows = 0;
    let mut loom_only_gaps = 0;
    for line in readme.lines() {
        let cells: Vec<&str> = line.split('|').map(|c| c.trim()).collect();
        // | seed | loom test | loom verdict | litmus file | model |
        if cells.len() != 7 || !cells[4].ends_with(".litmus`") {
            continue;
        }
        let file = cells[4].trim_matches('`');
        let want: ptx_sync_model::Observation = cells[5].parse().unwrap();
        let out = ptx_sync_model::check_file(&root.join("litmus").join(file))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.observation, want, "{file} (seed {})", cells[1]);
        if cells[2].starts_with('—') {
            loom_only_gaps += 1;
        } else if let Some((file, func)) = cells[2].trim_matches('`').split_once("::") {
            // the loom test the row names exists
            let src = std::fs::read_to_string(
                root.join("../loom-tests/tests").join(format!("{file}.rs")),
            )
            .unwrap_or_else(|e| panic!("loom-tests/tests/{file}.rs: {e}"));
            assert!(
                src.contains(&format!("fn {func}(")),
                "no loom test {file}::{func}"
            );
        }
        rows += 1;
    }
    assert!(rows >= 20, "only {rows} rows found in model/README.md");
    assert!(
        loom_only_gaps >= 3,
        "the rows loom cannot express are in the table"
    );
}
