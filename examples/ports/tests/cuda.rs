//! The CUDA C++ the kernels were ported from compiles with nvcc, and README.md's line counts are
//! the current ones: per kernel (the lines between its `// ---- NAME` marker and the next, in
//! `cuda/ports.cu` and in `src/lib.rs`) and in total (the prologue — `#include`, crate attribute,
//! `use` — counted there), each within the goal of 1.3 × the CUDA C++.
#[path = "../../common/cuda.rs"]
mod common;

/// Code lines per region: `(name, lines)`, the prologue first (`"total"` is not a region).
fn regions(src: &str) -> Vec<(String, usize)> {
    let mut out = vec![("(prologue)".to_string(), 0)];
    for l in src.lines().map(str::trim) {
        if let Some(m) = l.strip_prefix("// ---- ") {
            let name = m.split([':', ' ']).next().unwrap_or_default();
            out.push((name.to_string(), 0));
        } else if !l.is_empty() && !l.starts_with("//") {
            out.last_mut().unwrap().1 += 1;
        }
    }
    out
}

#[test]
fn the_cuda_kernels_compile_to_ptx() {
    let ptx = common::nvcc_ptx(&common::here().join("cuda/ports.cu"));
    for entry in [".entry histogram(", ".entry flag_handoff(", ".entry block_sum("] {
        assert!(ptx.contains(entry), "nvcc's PTX lacks {entry}");
    }
    // libcu++'s release store and acquire load of the flag (PTX ISA §9.7.9.8/§9.7.9.9).
    for insn in ["st.release.gpu", "ld.acquire.gpu", "bar.sync"] {
        assert!(ptx.contains(insn), "nvcc's PTX lacks {insn}");
    }
}

#[test]
fn regions_count_code_lines_per_marker() {
    let r = regions("a;\n// ---- k: doc\n// c\nb;\n\nc;\n// ---- m\nd;\n");
    assert_eq!(r, [("(prologue)".into(), 1), ("k".into(), 2), ("m".into(), 1)]);
}

#[test]
fn readme_reports_the_line_counts() {
    let read = |f: &str| std::fs::read_to_string(common::here().join(f)).unwrap();
    let (before, after, cuda) =
        (regions(&read("before/lib.rs")), regions(&read("src/lib.rs")), regions(&read("cuda/ports.cu")));
    let names: Vec<&str> = cuda.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(names, ["(prologue)", "histogram", "flag_handoff", "block_sum"]);
    let readme = read("README.md");
    let mut rows = Vec::new();
    for k in 1..=cuda.len() {
        // k == cuda.len(): the total (prologue included).
        let total = k == cuda.len();
        let pick = |r: &[(String, usize)]| if total { r.iter().map(|x| x.1).sum() } else { r[k].1 };
        let name = if total { "total".to_string() } else { cuda[k].0.clone() };
        let (b, a, c) = (pick(&before), pick(&after), pick(&cuda));
        let ratio = a as f64 / c as f64;
        let row = format!("| {name} | {c} | {b} | {:.2} | {a} | {ratio:.2} |", b as f64 / c as f64);
        println!("{row}");
        assert!(readme.lines().any(|l| l.trim() == row), "README.md must have the row {row:?}");
        assert!(ratio <= 1.3, "{name}: Rust is {ratio:.2}× the CUDA C++ lines (goal ≤ 1.3×)");
        rows.push(row);
    }
    assert_eq!(rows.len(), 4);
}
