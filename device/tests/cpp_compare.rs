//! Zero cost against CUDA C++: for each compared operation, the SASS of the Rust kernel
//! `cmp_<op>` (`host/kernels/src/facts.rs`, built with ptx-sync) equals, opcode for opcode, the
//! SASS of `cpp_<op>` (`host/kernels/cpp/reference.cu`, libcu++ `cuda::atomic_ref`,
//! `cuda::atomic_thread_fence`, `cuda::ptx::fence`, built with the PyPI nvcc 13.0). Predicates
//! and opcodes with all modifiers are compared; register numbers and operands are not.
//! The table is printed (run with `--nocapture`) and kept in `docs/zero-cost.md`.
//!
//! The architecture-specific forms ([`ARCH_OPS`]) are compared the same way for their target:
//! `cpp_<op>` of `host/kernels/cpp/reference_arch.cu` built by `nvcc -arch=sm_90a` /
//! `-arch=sm_100a`, against `cmp_<op>` of the Rust build for that target — the arch catalogs
//! `catalog_sm90a.cubin` / `catalog_sm100a.cubin` (`host/kernels/src/facts_arch.rs`, built with
//! `-Ctarget-cpu=sm_90a` / `sm_100a` by `cargo xtask ptx`), or `kernels.sm_90a.cubin` for the
//! crate's portable rows that libcu++ gates on sm_90a (the multicast copies).

mod common;
use common::*;

const OPS: &[&str] = &[
    "fence_sc_gpu",
    "fence_sc_cta",
    "fence_acq_rel_gpu",
    "fence_acq_rel_cta",
    "fence_acquire_gpu",
    "fence_acquire_cta",
    "fence_release_gpu",
    "fence_release_cta",
    "load_acquire_gpu",
    "load_relaxed_gpu",
    "store_release_gpu",
    "store_relaxed_gpu",
    "fetch_add_relaxed_gpu",
    "fetch_add_acq_rel_gpu",
    "fetch_add_relaxed_cta",
    "cas_acq_rel_gpu",
    "cas_relaxed_gpu",
    // sequentially consistent accesses: fence.sc + the access (libcu++'s seq_cst, item 10)
    "load_sc_gpu",
    "load_sc_cta",
    "store_sc_gpu",
    "store_sc_sys",
    "fetch_add_sc_gpu",
    "swap_sc_gpu",
    "cas_sc_gpu",
    // half-precision and vector float atomics (item 7), against CUDA's atomicAdd overloads
    "fetch_add_f16_relaxed_gpu",
    "fetch_add_v4f32_relaxed_gpu",
    // cuda::ptx forms added in this session (issue #13 "What must be shown")
    "fence_sync_restrict_release_shared",
    "fence_sync_restrict_acquire_cluster",
    "fence_proxy_async_sync_restrict_release_shared",
    "fence_proxy_async_sync_restrict_acquire_cluster",
    "griddepcontrol_wait",
    "griddepcontrol_launch_dependents",
    "tensormap_cp_fenceproxy_gpu",
    "cp_reduce_async_bulk_add_u32",
    "mbarrier_arrive_expect_tx_release_cta",
    "mbarrier_expect_tx_relaxed_cta",
    "mbarrier_arrive_expect_tx_remote_cluster",
    "st_async_u32",
    "red_async_add_u32",
    "st_async_v4_b32",
    "cp_reduce_async_bulk_tensor_2d_add",
    "cp_reduce_async_bulk_s2c_add_u32",
];

/// The compared operations whose SASS has no memory/sync instruction at all on sm_90 (both
/// sides; the whole functions are still compared).
const NO_SYNC_SASS: &[&str] = &[
    "fence_acquire_cta",
    "fence_sync_restrict_acquire_cluster",
    "fence_proxy_async_sync_restrict_acquire_cluster",
];

/// The pairs whose memory/sync SASS is equal but whose whole functions are not, with the reason
/// (kept in `docs/zero-cost.md`'s notes). Both halves are asserted, so a toolchain that makes
/// a pair equal, or that changes its sync instructions, is noticed.
const ADDRESS_DIFF: &[(&str, &str)] = &[
    (
        "mbarrier_arrive_expect_tx_remote_cluster",
        "mapa.shared::cluster.u32 of the cvta'd address (crate) vs generic mapa.u64 then cvta (C++)",
    ),
    (
        "st_async_u32",
        "mapa.shared::cluster.u32 of the cvta'd addresses (crate) vs generic mapa.u64 then cvta (C++)",
    ),
    (
        "st_async_v4_b32",
        "mapa.shared::cluster.u32 of the cvta'd addresses (crate) vs generic mapa.u64 then cvta (C++)",
    ),
    (
        "cp_reduce_async_bulk_s2c_add_u32",
        "mapa.shared::cluster.u32 of the cvta'd addresses (crate) vs generic mapa.u64 then cvta (C++)",
    ),
    (
        "red_async_add_u32",
        "mapa.shared::cluster.u32 of the cvta'd addresses (crate) vs generic mapa.u64 then cvta (C++)",
    ),
];

/// Memory and synchronization opcodes, for the printed table.
fn is_sync(op: &str) -> bool {
    [
        "MEMBAR",
        "ERRBAR",
        "CGAERRBAR",
        "CCTL",
        "FENCE",
        "ATOM",
        "RED",
        "LD",
        "ST",
        // griddepcontrol.wait / .launch_dependents, the bulk (TMA) engine, mbarriers
        "ACQBULK",
        "PREEXIT",
        "UBLK",
        "UTMA",
        "SYNCS",
        // clusterlaunchcontrol.try_cancel (sm_100)
        "UGETNEXTWORKID",
    ]
    .iter()
    .any(|p| op.starts_with(p))
        && !op.starts_with("LDC")
        && !op.starts_with("ULDC")
}

fn seq(f: &[Insn]) -> Vec<String> {
    f.iter()
        .map(|i| {
            if i.pred.is_empty() {
                i.opcode.clone()
            } else {
                format!("{} {}", i.pred, i.opcode)
            }
        })
        .collect()
}

/// The sm_90a / sm_100a pairs: (nvcc target of `reference_arch.cu`, Rust cubin in `target/ptx`,
/// the ops compared there).
const ARCH_OPS: &[(&str, &str, &[&str])] = &[
    // libcu++ gates the multicast copies on sm_90a; the crate's are portable (kernels.ptx)
    (
        "sm_90a",
        "kernels.sm_90a.cubin",
        &[
            "cp_async_bulk_g2s_multicast",
            "cp_async_bulk_tensor_2d_multicast",
        ],
    ),
    // tensormap.replace: sm_90a (and sm_100a)
    (
        "sm_90a",
        "catalog_sm90a.cubin",
        &[
            "tensormap_replace_global_address_global",
            "tensormap_replace_rank_shared",
            "tensormap_replace_box_dim_global",
            "tensormap_replace_global_stride_shared",
            "tensormap_replace_elemtype_global",
            "tensormap_replace_swizzle_mode_shared",
            "tensormap_replace_global_dim_global",
            "tensormap_replace_element_stride_shared",
            "tensormap_replace_interleave_layout_global",
            "tensormap_replace_fill_mode_shared",
        ],
    ),
    (
        "sm_100a",
        "catalog_sm100a.cubin",
        &[
            "tensormap_replace_global_address_global",
            "tensormap_replace_swizzle_atomicity_global",
            // the Blackwell bulk forms: `.shared::cta` destination (sm_90, PTX 8.6), `.cp_mask`
            // and a `.shared::cta` gather4 (sm_100), scatter4 (sm_100a)
            "cp_async_bulk_g2s_cta",
            "cp_async_bulk_s2g_cp_mask",
            "cp_async_bulk_tensor_gather4_cta",
            "cp_async_bulk_tensor_scatter4",
            // clusterlaunchcontrol (sm_100; the multicast request sm_100a)
            "clusterlaunchcontrol_try_cancel",
            "clusterlaunchcontrol_try_cancel_multicast",
            "clusterlaunchcontrol_query_cancel_is_canceled",
            "clusterlaunchcontrol_query_cancel_get_first_ctaid_x",
            "clusterlaunchcontrol_query_cancel_get_first_ctaid_v4",
        ],
    ),
];

/// `nvcc -arch=<arch> -cubin -O3` of `host/kernels/cpp/<file>`, parsed SASS.
fn nvcc_sass(file: &str, arch: &str) -> Vec<(String, Vec<Insn>)> {
    let cu = repo_root().join("host/kernels/cpp").join(file);
    let out = std::env::temp_dir().join(format!(
        "ptx-sync-ref-{}-{arch}-{}.cubin",
        std::process::id(),
        file.replace('.', "_")
    ));
    let inc = cuda_include().join("cccl");
    // nvcc finds ptxas, cicc and its headers next to itself.
    let status = std::process::Command::new(tools().join("nvcc"))
        .env(
            "PATH",
            format!(
                "{}:{}",
                tools().display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .args([
            &format!("-arch={arch}"),
            "-cubin",
            "-O3",
            "-I",
            inc.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .arg(&cu)
        .status()
        .expect("run nvcc");
    assert!(status.success(), "nvcc failed on {}", cu.display());
    let cpp = parse_sass(&tool("cuobjdump", &["-sass", out.to_str().unwrap()]));
    let _ = std::fs::remove_file(&out);
    cpp
}

/// The parsed SASS of `target/ptx/<cubin>` (built by `cargo xtask ptx`).
fn rust_sass(cubin: &str) -> Vec<(String, Vec<Insn>)> {
    parse_sass(&tool(
        "cuobjdump",
        &["-sass", ptx_dir().join(cubin).to_str().unwrap()],
    ))
}

/// The memory/sync opcodes of a function, `" ; "`-joined.
fn sync(v: &[String]) -> String {
    v.iter()
        .filter(|o| is_sync(o.rsplit(' ').next().unwrap()))
        .cloned()
        .collect::<Vec<_>>()
        .join(" ; ")
}

#[test]
fn rust_sass_equals_libcuxx_sass() {
    let root = repo_root();
    let cpp = nvcc_sass("reference.cu", "sm_90");
    let rust = rust_sass("kernels.cubin");

    println!("ptxas: {}", ptxas_version());
    println!("| operation | Rust (ptx-sync) memory/sync SASS | CUDA C++ (libcu++) | whole function equal |");
    println!("|---|---|---|---|");
    // docs/zero-cost.md keeps this table; a toolchain change that changes a row is noticed here.
    let doc = read(&root.join("docs/zero-cost.md"));
    let mut stale: Vec<String> = Vec::new();
    let mut diffs = Vec::new();
    for op in OPS {
        let r = seq(function(&rust, &format!("cmp_{op}")));
        let c = seq(function(&cpp, &format!("cpp_{op}")));
        let (rs, cs) = (sync(&r), sync(&c));
        let known = ADDRESS_DIFF
            .iter()
            .find(|(o, _)| o == op)
            .map(|(_, why)| *why);
        let row = format!(
            "| `{op}` | {rs} | {cs} | {} |",
            match (r == c, known) {
                (true, _) => "yes",
                (false, Some(_)) => "no: address arithmetic only (see notes)",
                (false, None) => "NO",
            }
        );
        println!("{row}");
        if !doc.lines().any(|l| l == row) {
            stale.push(row);
        }
        assert_eq!(
            rs.is_empty(),
            NO_SYNC_SASS.contains(op),
            "{op}: sync instructions {rs:?}; NO_SYNC_SASS lists the ops with none"
        );
        if let Some(why) = known {
            // the sync instructions are equal; only the address computation differs
            if rs != cs || r == c {
                diffs.push(format!(
                    "{op} (listed as differing in addresses only: {why}):\n  rust {r:?}\n  c++  {c:?}"
                ));
            }
        } else if r != c {
            diffs.push(format!("{op}:\n  rust {r:?}\n  c++  {c:?}"));
        }
    }
    assert!(diffs.is_empty(), "SASS differs:\n{}", diffs.join("\n"));
    assert!(
        stale.is_empty(),
        "docs/zero-cost.md is out of date (regenerate as it says); rows now:\n{}",
        stale.join("\n")
    );
    assert!(
        doc.contains(&ptxas_version()),
        "docs/zero-cost.md names another ptxas"
    );
}

/// The sm_90a / sm_100a forms ([`ARCH_OPS`]): the whole SASS function of each `cmp_<op>` of the
/// Rust build for the target equals that of `cpp_<op>` built by nvcc for the same target, and
/// the row is in `docs/zero-cost.md`'s table.
#[test]
fn arch_rust_sass_equals_libcuxx_sass() {
    let doc = read(&repo_root().join("docs/zero-cost.md"));
    let mut cpp = std::collections::BTreeMap::new();
    let mut rust = std::collections::BTreeMap::new();
    let (mut diffs, mut stale) = (Vec::new(), Vec::new());
    println!("| operation (target) | Rust (ptx-sync) memory/sync SASS | CUDA C++ (libcu++) | whole function equal |");
    println!("|---|---|---|---|");
    for (op, arch, cubin) in ARCH_OPS
        .iter()
        .flat_map(|(a, c, ops)| ops.iter().map(move |o| (o, a, c)))
    {
        let c = cpp
            .entry(*arch)
            .or_insert_with(|| nvcc_sass("reference_arch.cu", arch));
        let c = seq(function(c, &format!("cpp_{op}")));
        let r = rust.entry(*cubin).or_insert_with(|| rust_sass(cubin));
        let r = seq(function(r, &format!("cmp_{op}")));
        let (rs, cs) = (sync(&r), sync(&c));
        assert!(!rs.is_empty(), "{op} ({arch}): no memory/sync SASS");
        let row = format!(
            "| `{op}` ({arch}) | {rs} | {cs} | {} |",
            if r == c { "yes" } else { "NO" }
        );
        println!("{row}");
        if !doc.lines().any(|l| l == row) {
            stale.push(row);
        }
        if r != c {
            diffs.push(format!("{op} ({arch}):\n  rust {r:?}\n  c++  {c:?}"));
        }
    }
    assert!(diffs.is_empty(), "SASS differs:\n{}", diffs.join("\n"));
    assert!(
        stale.is_empty(),
        "docs/zero-cost.md is out of date (regenerate as it says); rows now:\n{}",
        stale.join("\n")
    );
}
