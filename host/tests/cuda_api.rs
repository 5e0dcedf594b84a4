//! The public host API (`ptx_sync_host::cuda`) on a user kernel, through the example program
//! `examples/launch_user_kernel.rs`, against the recording driver stub (`tests/stub/libcuda_stub.c`,
//! built with `cc`, found by cudarc's `dlopen("libcuda.so")` through `LD_LIBRARY_PATH`): the
//! launch configuration (grid, block, cluster, dynamic shared memory and its attribute, the PDL
//! attribute) and the parameter bytes the driver receives; a parameter struct that differs from
//! the PTX is refused before the launch, naming the field; a JIT error shows its log; a
//! device-side timeout reported into the status word is an error; no driver is an error value.
//! The tensor-map rules are checked in-process, one test per rule, and the encode call's
//! arguments in the stub's log.
//!
//! The user kernel's PTX is written here from the PTX ISA grammar (§11 directives: `.version`,
//! `.target`, `.address_size`, `.visible .entry` with `.param` state-space parameters), not
//! produced by the code under test.

mod common;

use common::{parse_log, run_logged, Run};
use ptx_sync_host::cuda::tensor_map::{Elem, Interleave, Swizzle, TensorMapError, TiledMap};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// `user_kernel(out: *mut u32, n: u32, status: *mut u32)` as rustc's nvptx backend declares it.
const USER_PTX: &str = "//\n// user kernels\n//\n.version 8.6\n.target sm_90\n.address_size 64\n\n\
.visible .entry user_kernel(\n\t.param .u64 .ptr .align 1 user_kernel_param_0,\n\t.param .u32 user_kernel_param_1,\n\t.param .u64 .ptr .align 1 user_kernel_param_2\n)\n{\n\tret;\n}\n\n\
.visible .entry swapped(\n\t.param .u32 swapped_param_0,\n\t.param .u64 .ptr .align 1 swapped_param_1,\n\t.param .u64 .ptr .align 1 swapped_param_2\n)\n{\n\tret;\n}\n\n\
.visible .entry short(\n\t.param .u64 .ptr .align 1 short_param_0,\n\t.param .u32 short_param_1\n)\n{\n\tret;\n}\n";

fn stub() -> PathBuf {
    common::stub("full")
}

/// The example binary: built by `cargo test` with the workspace; built here if this test runs
/// alone (`cargo test --test cuda_api` builds no examples).
fn example() -> PathBuf {
    example_named("launch_user_kernel")
}

/// Example `name` of ptx-sync-host, built if missing or older than this test binary.
fn example_named(name: &str) -> PathBuf {
    static BUILT: OnceLock<std::sync::Mutex<BTreeMap<String, PathBuf>>> = OnceLock::new();
    let mut built = BUILT.get_or_init(Default::default).lock().unwrap();
    if let Some(p) = built.get(name) {
        return p.clone();
    }
    let deps = std::env::current_exe().unwrap();
    let exe = deps
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("examples")
        .join(name);
    let me = deps.metadata().unwrap().modified().unwrap();
    let fresh = exe
        .metadata()
        .and_then(|m| m.modified())
        .is_ok_and(|t| t >= me);
    if !fresh {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        // `--workspace`: the features `cargo test --workspace` resolves, so that this is the
        // example (and dependency tree) that run built, not a second one (`-p ptx-sync-host`
        // alone resolves serde's and ptx-sync's features differently and rebuilt the model, the
        // host crate and their dependencies, on one job, whenever the test binary was linked
        // after the example).
        let st = Command::new(cargo)
            .args(["build", "--workspace", "--example", name])
            .env("CARGO_BUILD_JOBS", "1")
            .status()
            .expect("cargo runs");
        assert!(st.success(), "cargo build --example {name} failed");
    }
    assert!(exe.exists(), "{} not built", exe.display());
    built.insert(name.into(), exe.clone());
    exe
}

impl Run {
    fn calls(&self, name: &str) -> Vec<&BTreeMap<String, String>> {
        self.log
            .iter()
            .filter(|c| c.name == name)
            .map(|c| &c.args)
            .collect()
    }
    fn launch(&self) -> &BTreeMap<String, String> {
        let l = self.calls("cuLaunchKernelEx");
        assert_eq!(
            l.len(),
            1,
            "one launch expected:\n{}\n{}",
            self.out,
            self.err
        );
        l[0]
    }
}

fn run(tag: &str, args: &[&str], env: &[(&str, &str)]) -> Run {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cuda-api-runs");
    std::fs::create_dir_all(&dir).unwrap();
    let ptx = dir.join(format!("{tag}.ptx"));
    std::fs::write(&ptx, USER_PTX).unwrap();
    let log = dir.join(format!("{tag}.log"));
    let _ = std::fs::remove_file(&log);
    let mut c = Command::new(example());
    c.arg(&ptx)
        .args(args)
        .env("LD_LIBRARY_PATH", stub())
        .env("CUDA_STUB_LOG", &log);
    for (k, v) in env {
        c.env(k, v);
    }
    let o = c.output().unwrap();
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let log = parse_log(&text);
    let r = Run {
        code: o.status.code(),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
        log,
    };
    assert!(!r.err.contains("panicked"), "{tag}: {}", r.err);
    r
}

fn hex_le(words: &[(u64, usize)]) -> String {
    words
        .iter()
        .flat_map(|&(v, n)| v.to_le_bytes()[..n].to_vec())
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The `-> 0x...` results of the cuMemAlloc_v2 lines, in order.
fn allocs(log: &Path) -> Vec<u64> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("cuMemAlloc_v2"))
        .map(|l| u64::from_str_radix(l.rsplit("0x").next().unwrap(), 16).unwrap())
        .collect()
}

fn log_path(tag: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cuda-api-runs")
        .join(format!("{tag}.log"))
}

#[test]
fn a_user_kernel_launch_carries_its_configuration_and_parameter_bytes() {
    let r = run("plain", &["--grid", "4", "--block", "128"], &[]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(r.out.contains("user_kernel: 512 words"), "{}", r.out);
    let l = r.launch();
    assert_eq!(l["fn"], "user_kernel");
    assert_eq!(l["grid"], "4,1,1");
    assert_eq!(l["block"], "128,1,1");
    assert_eq!(l["smem"], "0");
    assert_eq!(l["attrs"], "[]");
    // Parameters: out (u64 @0), n (u32 @8), status (u64 @16) = 24 bytes; out is the first
    // allocation (512 words), status the second.
    let a = allocs(&log_path("plain"));
    assert_eq!(a.len(), 2, "{a:?}");
    assert_eq!(l["param_bytes"], "24");
    assert_eq!(
        l["params"],
        hex_le(&[(a[0], 8), (512, 4), (0, 4), (a[1], 8)])
    );
    // No attribute call below 48 KiB of dynamic shared memory.
    assert!(r.calls("cuFuncSetAttribute").is_empty());
    // The result is read back from `out` and the status word.
    let reads: Vec<_> = r
        .calls("cuMemcpyDtoH_v2")
        .iter()
        .map(|c| c["src"].clone())
        .collect();
    assert_eq!(reads, [format!("{:#x}", a[1]), format!("{:#x}", a[0])]);
}

#[test]
fn cluster_dynamic_shared_memory_and_pdl_reach_the_driver() {
    let r = run(
        "cluster",
        &[
            "--grid",
            "8",
            "--block",
            "64",
            "--cluster",
            "2",
            "--smem",
            "100000",
            "--pdl",
        ],
        &[],
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    let l = r.launch();
    assert_eq!(l["grid"], "8,1,1");
    assert_eq!(l["block"], "64,1,1");
    assert_eq!(l["smem"], "100000");
    assert_eq!(l["attrs"], "[cluster=2,1,1;pdl=1]");
    // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8, set before the launch.
    let s = r.calls("cuFuncSetAttribute");
    assert_eq!(s.len(), 1);
    assert_eq!(
        (
            s[0]["fn"].as_str(),
            s[0]["attr"].as_str(),
            s[0]["value"].as_str()
        ),
        ("user_kernel", "8", "100000")
    );
    let r = run("smem48k", &["--smem", "49152"], &[]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(
        r.calls("cuFuncSetAttribute").is_empty(),
        "48 KiB needs no attribute"
    );
    let r = run("pdl-only", &["--pdl"], &[]);
    assert_eq!(r.launch()["attrs"], "[pdl=1]");
}

#[test]
fn a_parameter_struct_that_differs_from_the_ptx_is_refused_naming_the_field() {
    let r = run("swapped", &["--kernel", "swapped"], &[]);
    assert_eq!(r.code, Some(1));
    assert_eq!(r.err.lines().count(), 1, "{}", r.err);
    assert!(
        r.err.contains("parameters of kernel swapped")
            && r.err.contains(
                "field `out` (offset 0, 8 bytes) differs from .param #0 (offset 0, 4 bytes)"
            ),
        "{}",
        r.err
    );
    assert!(
        r.calls("cuLaunchKernelEx").is_empty(),
        "launched despite the mismatch"
    );
    let r = run("short", &["--kernel", "short"], &[]);
    assert_eq!(r.code, Some(1));
    assert!(
        r.err
            .contains("field `status` has no .param: the kernel takes 2 parameter(s)"),
        "{}",
        r.err
    );
    assert!(r.calls("cuLaunchKernelEx").is_empty());
}

#[test]
fn a_device_side_timeout_in_the_status_word_is_an_error() {
    // The stub's kernel stores 4 into the word the parameter at offset 16 (status) points to.
    let r = run("timeout", &[], &[("CUDA_STUB_SET_WORD", "16,4")]);
    assert_eq!(r.code, Some(1), "{}", r.out);
    assert_eq!(
        r.err.trim(),
        "launch_user_kernel: kernel user_kernel: a device-side wait timed out (status word 0x4)"
    );
}

#[test]
fn jit_errors_old_drivers_and_launch_failures_are_one_line() {
    let r = run("jit", &[], &[("CUDA_STUB_REJECT_PTX", "1")]);
    assert_eq!(r.code, Some(1));
    assert!(
        r.err
            .contains("the driver refused the PTX (JIT): CUDA_ERROR_INVALID_PTX")
            && r.err.contains("stub JIT error"),
        "{}",
        r.err
    );
    assert_eq!(r.err.lines().count(), 1);
    let r = run("old", &[], &[("CUDA_STUB_DRIVER_VERSION", "12040")]);
    assert_eq!(r.code, Some(1));
    assert!(
        r.err.contains("driver CUDA 12.4 is older than CUDA 12.8"),
        "{}",
        r.err
    );
    assert!(r.calls("cuModuleLoadDataEx").is_empty());
    let r = run("nodev", &[], &[("CUDA_STUB_DEVICES", "0")]);
    assert_eq!(r.code, Some(1));
    assert!(r.err.contains("no CUDA device"), "{}", r.err);
    let r = run("trap", &[], &[("CUDA_STUB_LAUNCH_ERROR", "715")]);
    assert_eq!(r.code, Some(1));
    assert!(r.err.contains("kernel user_kernel failed on the GPU: launch of user_kernel: CUDA_ERROR_ILLEGAL_INSTRUCTION"), "{}", r.err);
}

#[test]
fn a_driver_library_without_an_entry_point_is_an_error_value() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cuda-api-runs");
    std::fs::create_dir_all(&dir).unwrap();
    let ptx = dir.join("no-cuinit.ptx");
    std::fs::write(&ptx, USER_PTX).unwrap();
    let o = Command::new(example())
        .arg(&ptx)
        .env("LD_LIBRARY_PATH", common::stub("no-cuinit"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(
        err.trim(),
        "launch_user_kernel: unusable CUDA driver: the libcuda.so found lacks `cuInit`: not an \
         NVIDIA CUDA 12+ driver library (check LD_LIBRARY_PATH)"
    );
}

#[test]
fn no_driver_is_an_error_value() {
    let empty = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cuda-api-empty");
    std::fs::create_dir_all(&empty).unwrap();
    let system_driver = [
        "/usr/lib/x86_64-linux-gnu/libcuda.so",
        "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
        "/usr/lib64/libcuda.so",
        "/usr/lib64/libcuda.so.1",
    ]
    .iter()
    .any(|p| Path::new(p).exists());
    let ptx = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cuda-api-runs/nodriver.ptx");
    std::fs::create_dir_all(ptx.parent().unwrap()).unwrap();
    std::fs::write(&ptx, USER_PTX).unwrap();
    let o = Command::new(example())
        .arg(&ptx)
        .env("LD_LIBRARY_PATH", &empty)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
    if system_driver {
        assert!(!err.contains("no NVIDIA driver"), "{err}");
    } else {
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert_eq!(
            err.trim(),
            "launch_user_kernel: no NVIDIA driver: libcuda.so not found (this needs a GPU)"
        );
        // In-process too: an error value, no panic.
        assert!(matches!(
            ptx_sync_host::cuda::Device::open(0),
            Err(ptx_sync_host::cuda::CudaError::NoDriver)
        ));
    }
}

#[test]
fn the_tensor_map_encode_call_carries_the_validated_map() {
    let r = run("tmap", &["--tmap", "--grid", "4", "--block", "128"], &[]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    let e = r.calls("cuTensorMapEncodeTiled");
    assert_eq!(e.len(), 1);
    let a = allocs(&log_path("tmap"));
    // The third allocation is the mapped tensor: 8 rows of 64 u32 (512 words / 64).
    assert_eq!(e[0]["addr"], format!("{:#x}", a[2]));
    assert_eq!(e[0]["dtype"], "2"); // CU_TENSOR_MAP_DATA_TYPE_UINT32
    assert_eq!(e[0]["rank"], "2");
    assert_eq!(e[0]["dims"], "64,8");
    assert_eq!(e[0]["strides"], "256");
    assert_eq!(e[0]["box"], "16,8");
    assert_eq!(e[0]["elem_strides"], "1,1");
    assert_eq!(
        (e[0]["interleave"].as_str(), e[0]["swizzle"].as_str()),
        ("0", "0")
    );
    assert_eq!(e[0]["map_aligned64"], "1");
}

// ---- tensor-map rules, one test each (CUDA driver API, cuTensorMapEncodeTiled) -------------

fn map() -> TiledMap {
    TiledMap::dense_2d(Elem::U32, 0x10000, 64, 128, 8, 16)
}

#[test]
fn tensor_map_rank_is_1_to_5_and_3_to_5_interleaved() {
    assert_eq!(map().validate(), Ok(()));
    let mut m = map();
    m.dims = vec![4; 6];
    m.strides = vec![16; 5];
    m.box_dims = vec![4; 6];
    assert_eq!(m.validate(), Err(TensorMapError::Rank { rank: 6, min: 1 }));
    let mut m = map();
    m.dims.clear();
    assert_eq!(m.validate(), Err(TensorMapError::Rank { rank: 0, min: 1 }));
    let mut m = map();
    m.interleave = Interleave::B16;
    assert_eq!(m.validate(), Err(TensorMapError::Rank { rank: 2, min: 3 }));
}

#[test]
fn tensor_map_array_lengths_fit_the_rank() {
    let mut m = map();
    m.box_dims.push(1);
    assert_eq!(
        m.validate(),
        Err(TensorMapError::Lengths {
            what: "box_dims",
            got: 3,
            want: 2
        })
    );
    let mut m = map();
    m.strides.clear();
    assert_eq!(
        m.validate(),
        Err(TensorMapError::Lengths {
            what: "strides",
            got: 0,
            want: 1
        })
    );
    let mut m = map();
    m.elem_strides = vec![1];
    assert_eq!(
        m.validate(),
        Err(TensorMapError::Lengths {
            what: "elem_strides",
            got: 1,
            want: 2
        })
    );
}

#[test]
fn tensor_map_global_address_is_16_aligned() {
    let mut m = map();
    m.addr = 0x10008;
    assert_eq!(
        m.validate(),
        Err(TensorMapError::AddressAlignment {
            addr: 0x10008,
            align: 16
        })
    );
    assert_eq!(
        m.validate().unwrap_err().to_string(),
        "tensor map: global address 0x10008 is not 16-byte aligned"
    );
    m.addr = 0x10010;
    assert_eq!(m.validate(), Ok(()));
}

#[test]
fn tensor_map_dims_are_1_to_2_pow_32() {
    let mut m = map();
    m.dims[1] = 0;
    assert_eq!(m.validate(), Err(TensorMapError::Dim { dim: 1, size: 0 }));
    let mut m = TiledMap::dense_2d(Elem::U8, 0, 1, (1 << 32) + 1, 1, 16);
    m.strides = vec![1 << 36];
    assert_eq!(
        m.validate(),
        Err(TensorMapError::Dim {
            dim: 0,
            size: (1 << 32) + 1
        })
    );
}

#[test]
fn tensor_map_strides_are_multiples_of_16_below_2_pow_40_covering_the_inner_dims() {
    let mut m = map();
    m.strides[0] = 520;
    assert!(
        matches!(m.validate(), Err(TensorMapError::Stride { dim: 1, stride: 520, ref why }) if why == "not a multiple of 16")
    );
    m.strides[0] = 1 << 40;
    assert!(
        matches!(m.validate(), Err(TensorMapError::Stride { dim: 1, ref why, .. }) if why == "must be < 2^40")
    );
    m.strides[0] = 256; // 128 u32 = 512 bytes per row
    let e = m.validate().unwrap_err().to_string();
    assert_eq!(e, "tensor map: stride of dimension 1 is 256 bytes: smaller than the 512 bytes of the dimensions inside it");
}

#[test]
fn tensor_map_box_dims_are_1_to_256_and_fit_the_tensor() {
    let mut m = map();
    m.box_dims[1] = 0;
    assert!(matches!(
        m.validate(),
        Err(TensorMapError::Box {
            dim: 1,
            size: 0,
            ..
        })
    ));
    let mut m = TiledMap::dense_2d(Elem::U8, 0, 1024, 1024, 257, 16);
    assert!(
        matches!(m.validate(), Err(TensorMapError::Box { dim: 1, size: 257, ref why }) if why == "must be 1 to 256")
    );
    m.box_dims[1] = 256;
    assert_eq!(m.validate(), Ok(()));
    let m = TiledMap::dense_2d(Elem::U32, 0, 4, 128, 8, 16);
    assert!(
        matches!(m.validate(), Err(TensorMapError::Box { dim: 1, size: 8, ref why }) if why == "larger than the tensor's 4")
    );
}

#[test]
fn tensor_map_inner_box_is_a_multiple_of_16_bytes() {
    let m = TiledMap::dense_2d(Elem::U32, 0, 64, 128, 8, 6);
    assert_eq!(
        m.validate(),
        Err(TensorMapError::InnerBoxBytes { bytes: 24 })
    );
    let mut m = m;
    m.box_dims[0] = 4;
    assert_eq!(m.validate(), Ok(()));
}

#[test]
fn tensor_map_inner_box_fits_the_swizzle_span() {
    let mut m = TiledMap::dense_2d(Elem::U32, 0, 64, 128, 8, 16); // 64-byte inner box
    m.swizzle = Swizzle::B32;
    assert_eq!(
        m.validate(),
        Err(TensorMapError::SwizzleSpan {
            bytes: 64,
            span: 32
        })
    );
    m.swizzle = Swizzle::B64;
    assert_eq!(m.validate(), Ok(()));
    m.swizzle = Swizzle::B128;
    assert_eq!(m.validate(), Ok(()));
}

#[test]
fn tensor_map_element_strides_are_1_to_8() {
    let mut m = map();
    m.elem_strides = vec![1, 9];
    assert_eq!(
        m.validate(),
        Err(TensorMapError::ElemStride { dim: 1, stride: 9 })
    );
    m.elem_strides = vec![0, 1];
    assert_eq!(
        m.validate(),
        Err(TensorMapError::ElemStride { dim: 0, stride: 0 })
    );
    m.elem_strides = vec![8, 8];
    assert_eq!(m.validate(), Ok(()));
}

// ---- what the launcher refuses before the driver sees it (examples/launch_checks.rs) --------

/// `launch_checks ARGS` against the full stub: exit code, stdout, stderr, the call log.
fn checks(tag: &str, args: &[&str]) -> Run {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cuda-api-runs");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join(format!("checks-{tag}.log"));
    let mut c = Command::new(example_named("launch_checks"));
    c.args(args);
    let (status, r) = run_logged(c, "full", &log);
    assert!(
        r.code.is_some() && !r.err.contains("panicked"),
        "{tag}: killed or panicked ({status:?}):\n{}",
        r.err
    );
    r
}

/// The sm_90a cubin `cargo xtask ptx` built (ptxas output: a real ELF of this toolchain).
fn real_cubin() -> PathBuf {
    let dir = std::env::var("PTX_SYNC_PTX_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/ptx"));
    let p = dir.join("kernels.sm_90a.cubin");
    assert!(
        p.is_file(),
        "{}: run `cargo xtask ptx` (cargo xtask test does)",
        p.display()
    );
    p
}

/// `cuModuleLoadDataEx` gets only a pointer: a truncated image must never reach it (the driver
/// would read as far as the image's headers say, past the slice). The whole cubin loads; its
/// first 4 bytes, its ELF header alone, its first half, and all of it but its last byte (the
/// program headers end a ptxas cubin) are refused with one line, and the stub never sees a load.
#[test]
fn a_truncated_cubin_never_reaches_the_driver() {
    let cubin = real_cubin();
    let c = cubin.to_str().unwrap();
    let len = std::fs::metadata(&cubin).unwrap().len();
    let r = checks("load-whole", &["load", c]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    let loads = r.calls("cuModuleLoadDataEx");
    assert_eq!(loads.len(), 1);
    assert_eq!(loads[0]["image"], "cubin");
    assert_eq!(
        loads[0]["bytes"],
        len.to_string(),
        "the stub reads what the headers declare"
    );
    let (short, half) = ((len - 1).to_string(), (len / 2).to_string());
    for (tag, n, why) in [
        ("load-4", "4", "4 bytes, the ELF header takes 64"),
        ("load-64", "64", "program headers at"),
        ("load-half", half.as_str(), "pass the end of the"),
        ("load-short", short.as_str(), "program headers at"),
    ] {
        let r = checks(tag, &["load", c, "--truncate", n]);
        assert_eq!(r.code, Some(1), "{tag}: {}{}", r.out, r.err);
        assert_eq!(r.err.lines().count(), 1, "{}", r.err);
        assert!(
            r.err.contains("truncated or corrupt cubin") && r.err.contains(why),
            "{tag}: {}",
            r.err
        );
        assert!(
            r.calls("cuModuleLoadDataEx").is_empty(),
            "{tag}: the driver saw a truncated image"
        );
    }
}

/// The same for a fatbin (header magic 0xBA55ED50, header size, size of the entries; one
/// entry: kind 2 = ELF, its header size, the payload size — the layout `fatbinary --create`
/// writes): whole it loads, cut short it is refused before the driver.
#[test]
fn a_truncated_fatbin_never_reaches_the_driver() {
    let elf = std::fs::read(real_cubin()).unwrap();
    let mut fb = Vec::new();
    fb.extend(0xBA55_ED50u32.to_le_bytes());
    fb.extend(1u16.to_le_bytes());
    fb.extend(16u16.to_le_bytes());
    fb.extend((64 + elf.len() as u64).to_le_bytes());
    let mut entry = vec![0u8; 64];
    entry[0..2].copy_from_slice(&2u16.to_le_bytes());
    entry[2..4].copy_from_slice(&0x0101u16.to_le_bytes());
    entry[4..8].copy_from_slice(&64u32.to_le_bytes());
    entry[8..16].copy_from_slice(&(elf.len() as u64).to_le_bytes());
    fb.extend(&entry);
    fb.extend(&elf);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cuda-api-runs");
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("kernels.fatbin");
    std::fs::write(&f, &fb).unwrap();
    let f = f.to_str().unwrap();
    let r = checks("fatbin-whole", &["load", f]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert_eq!(r.calls("cuModuleLoadDataEx").len(), 1);
    let cut = (fb.len() / 2).to_string();
    let r = checks("fatbin-half", &["load", f, "--truncate", &cut]);
    assert_eq!(r.code, Some(1), "{}", r.out);
    assert!(r.err.contains("truncated or corrupt fatbin"), "{}", r.err);
    assert!(r.calls("cuModuleLoadDataEx").is_empty());
}

/// `Module` and `DevBuf` keep the context: with the `Device` dropped first, the buffer is still
/// written, then freed and the module unloaded — all before the primary context is released.
#[test]
fn modules_and_buffers_outlive_their_device_safely() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cuda-api-runs");
    std::fs::create_dir_all(&dir).unwrap();
    let ptx = dir.join("outlive.ptx");
    std::fs::write(&ptx, USER_PTX).unwrap();
    let r = checks("outlive", &["outlive", ptx.to_str().unwrap()]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    let at = |name: &str| {
        r.log
            .iter()
            .rposition(|c| c.name == name)
            .unwrap_or_else(|| panic!("no {name} in the log"))
    };
    let release = at("cuDevicePrimaryCtxRelease_v2");
    assert_eq!(r.calls("cuDevicePrimaryCtxRelease_v2").len(), 1);
    let fill = r
        .log
        .iter()
        .rposition(|c| c.name == "cuMemsetD32_v2" && c.get("value") == "0x7")
        .expect("the fill after the device's drop");
    for (what, k) in [
        ("the fill", fill),
        ("cuModuleUnload", at("cuModuleUnload")),
        ("cuMemFree_v2", at("cuMemFree_v2")),
    ] {
        assert!(
            k < release,
            "{what} (call {k}) after the context was released (call {release})"
        );
    }
}

/// A kernel `(sums: *mut u64, flags: *mut u32, n: u32)` as rustc declares pointers (`.ptr .align
/// 1`), the same with the ISA's `.ptr .global .align N` of the memory pointed to (§5.1.6.3), and
/// two kernels that use an `.extern .shared` array (dynamic shared memory, §5.1.5) — one in its
/// body, one through a `.func` it calls. Written here from the PTX ISA grammar.
const PAIR_PTX: &str = ".version 8.6\n.target sm_90\n.address_size 64\n\n\
.extern .shared .align 1024 .b8 __ptx_sync_dyn_smem[];\n\n\
.visible .entry pair(\n\t.param .u64 .ptr .align 1 pair_param_0,\n\t.param .u64 .ptr .align 1 pair_param_1,\n\t.param .u32 pair_param_2\n)\n{\n\tret;\n}\n\n\
.visible .entry pair_global(\n\t.param .u64 .ptr .global .align 4 pair_global_param_0,\n\t.param .u64 .ptr.global.align 4 pair_global_param_1,\n\t.param .u32 pair_global_param_2\n)\n{\n\tret;\n}\n\n\
.visible .entry ring(\n\t.param .u64 .ptr .align 1 ring_param_0,\n\t.param .u64 .ptr .align 1 ring_param_1,\n\t.param .u32 ring_param_2\n)\n{\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd1, __ptx_sync_dyn_smem;\n\tret;\n}\n\n\
.func use_ring()\n{\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd1, __ptx_sync_dyn_smem;\n\tret;\n}\n\n\
.visible .entry ring_call(\n\t.param .u64 .ptr .align 1 ring_call_param_0,\n\t.param .u64 .ptr .align 1 ring_call_param_1,\n\t.param .u32 ring_call_param_2\n)\n{\n\tcall.uni use_ring, ();\n\tret;\n}\n";

fn pair(tag: &str, kernel: &str, case: &str, extra: &[&str]) -> Run {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cuda-api-runs");
    std::fs::create_dir_all(&dir).unwrap();
    let ptx = dir.join("pair.ptx");
    std::fs::write(&ptx, PAIR_PTX).unwrap();
    let mut args = vec!["launch", ptx.to_str().unwrap(), kernel, case];
    args.extend(extra);
    checks(tag, &args)
}

/// Refused with one line naming the field and the `.param`, and never launched.
fn refused(r: &Run, field: &str, why: &str) {
    assert_eq!(r.code, Some(1), "{}{}", r.out, r.err);
    assert_eq!(r.err.lines().count(), 1, "{}", r.err);
    assert!(
        r.err.contains(&format!("field `{field}`")) && r.err.contains(why),
        "want field `{field}` and `{why}` in: {}",
        r.err
    );
    assert!(r.calls("cuLaunchKernelEx").is_empty(), "launched anyway");
}

#[test]
fn pointer_parameters_must_point_into_live_memory_of_their_element_type() {
    // As declared: launched, the parameter bytes the buffers' addresses.
    let r = pair("pair-ok", "pair", "ok", &[]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert_eq!(r.launch()["param_bytes"], "20");
    // `sums` (u64) and `flags` (u32) exchanged: the u64 field points into the u32 buffer.
    let r = pair("pair-swapped", "pair", "swapped", &[]);
    refused(&r, "sums", "points into a buffer of u32 (4-byte elements)");
    assert!(r.err.contains(".param #0"), "{}", r.err);
    // A count where a pointer goes.
    let r = pair("pair-value", "pair", "value", &[]);
    refused(&r, "flags", "holds 0x100, which is in no live allocation");
    assert!(r.err.contains(".param #1"), "{}", r.err);
    // Memory freed before the launch.
    let r = pair("pair-freed", "pair", "freed", &[]);
    refused(&r, "flags", "in no live allocation of this device");
    // 4 bytes into a buffer of u64.
    let r = pair("pair-misaligned", "pair", "misaligned", &[]);
    refused(&r, "sums", "not aligned to 8 bytes");
}

#[test]
fn a_value_field_where_the_ptx_declares_a_pointer_is_refused() {
    let r = pair("pair-value-field", "pair", "value-field", &[]);
    refused(
        &r,
        "flags",
        "is a value (u64) where .param #1 is a pointer (.ptr)",
    );
    // `.ptr .global .align 4` on a parameter whose field points to u64 (8-aligned elements).
    let r = pair("pair-global", "pair_global", "ok", &[]);
    refused(
        &r,
        "sums",
        "points to 8-byte-aligned elements; .param #0 points to memory aligned to 4 (.ptr .align 4)",
    );
}

#[test]
fn a_kernel_using_dynamic_shared_memory_needs_dyn_smem() {
    for k in ["ring", "ring_call"] {
        let r = pair(&format!("{k}-none"), k, "ok", &[]);
        assert_eq!(r.code, Some(1), "{k}: {}", r.out);
        assert!(
            r.err.contains(&format!("parameters of kernel {k}"))
                && r.err.contains("launch: dyn_smem is 0, but the kernel uses dynamic shared memory (`.extern .shared` __ptx_sync_dyn_smem)"),
            "{k}: {}",
            r.err
        );
        assert!(r.calls("cuLaunchKernelEx").is_empty());
        let r = pair(&format!("{k}-4k"), k, "ok", &["--smem", "4096"]);
        assert_eq!(r.code, Some(0), "{k}: {}", r.err);
        assert_eq!(r.launch()["smem"], "4096");
    }
    // A kernel that does not use it launches without.
    let r = pair("pair-no-smem", "pair", "ok", &[]);
    assert_eq!(r.launch()["smem"], "0");
}
