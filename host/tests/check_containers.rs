//! `ptx-sync check FILE` on NVIDIA's containers (issue #22 §1: "also a `.cubin`'s embedded PTX
//! where present"): fatbins (zstd, LZ4 and uncompressed PTX entries), a host object
//! (`nvcc -c`), a linked shared library, cubins with and without `-lineinfo`, built here by the venv's nvcc 13.0 from the
//! small CUDA C++ kernel [`MP_CU`]; a missing nvcc fails the tests.
//!
//! The kernel is message passing at launch grid 2, block 1 (`--param 0=buf:12`): the thread of
//! CTA 0 writes data (`p[1] = 42`, a weak `st.global`) then the flag (`p[0] = 1`); the thread of
//! CTA 1 spins on the flag until it reads 1, then copies data to `p[2]`. The assertion
//! `~exists (p0[2] != 42)` says "the copy is always 42". The verdicts, from the PTX ISA:
//!
//! * `mp_relaxed` (flag `st.relaxed.gpu` / `ld.relaxed.gpu`): the flag accesses are strong at
//!   `.gpu`, which holds both CTAs, so they are morally strong and do not race (§8.6, §8.7.1);
//!   but relaxed accesses form no release or acquire pattern (§8.8), so nothing orders the data
//!   store before the data load in causality order: they conflict — exactly one data race, the
//!   data store against the data load — and the load may read the initial 0: the assertion
//!   fails (`No`, observation `Sometimes`).
//! * `mp_release` (flag `st.release.gpu` / `ld.acquire.gpu`): the release store synchronizes with
//!   the acquire load that reads it (§8.9.4), so the data store precedes the data load: no race,
//!   and coherence (§8.10.6) forbids reading the overwritten 0: `Ok`, observation `Never`.
//!
//! Container facts checked on nvcc's own output (the raw bytes, not through the reader under
//! test): the fatbin magic `50 ed 55 ba`; a PTX entry has kind 1 and its flags say how it is
//! stored: `0x8000` with a zstd frame (magic `28 b5 2f fd`) for `--compress-mode` default,
//! `0x2000` (an LZ4 block) for `speed`, neither with plain text for `none`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The kernels: a message-passing pair, the flag relaxed and release/acquire.
const MP_CU: &str = r#"
extern "C" __global__ void mp_relaxed(int *p) {
    if (threadIdx.x + blockIdx.x == 0) {
        p[1] = 42;
        __nv_atomic_store_n(&p[0], 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    } else {
        while (__nv_atomic_load_n(&p[0], __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE) == 0) {}
        p[2] = p[1];
    }
}
extern "C" __global__ void mp_release(int *p) {
    if (threadIdx.x + blockIdx.x == 0) {
        p[1] = 42;
        __nv_atomic_store_n(&p[0], 1, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
    } else {
        while (__nv_atomic_load_n(&p[0], __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE) == 0) {}
        p[2] = p[1];
    }
}
"#;

/// `-gencode` for PTX only, compute_90.
const PTX90: &str = "-gencode=arch=compute_90,code=compute_90";

/// Every container the tests use, built once: `(file name, nvcc arguments)`.
const BUILDS: &[(&str, &[&str])] = &[
    ("mp.ptx", &["-arch=sm_90", "-ptx"]),
    ("zstd.fatbin", &[PTX90, "-fatbin"]),
    ("lz4.fatbin", &[PTX90, "-fatbin", "--compress-mode=speed"]),
    ("plain.fatbin", &[PTX90, "-fatbin", "--compress-mode=none"]),
    (
        "two.fatbin",
        &["-gencode=arch=compute_80,code=compute_80", PTX90, "-fatbin"],
    ),
    ("mp.o", &["-arch=sm_90", "-c"]),
    ("mp.cubin", &["-arch=sm_90", "-cubin"]),
    ("lineinfo.cubin", &["-arch=sm_90", "-cubin", "-lineinfo"]),
    (
        "sass.fatbin",
        &["-gencode=arch=compute_90,code=sm_90", "-fatbin"],
    ),
    // SASS only, but with -lineinfo and its ELF entry compressed (zstd): the debug PTX.
    (
        "sass_lineinfo.fatbin",
        &[
            "-gencode=arch=compute_90,code=sm_90",
            "-lineinfo",
            "-fatbin",
            "-Xfatbin",
            "-compress-all",
        ],
    ),
    // A linked shared library of two translation units (mp.cu and q.cu, each with its own
    // fatbin in the one `.nv_fatbin` section); no extension: `check` knows it by its ELF header.
    (
        "libtwo",
        &[
            "-arch=sm_90",
            "-Xcompiler",
            "-fPIC",
            "-shared",
            "-cudart=none",
            "q.cu",
        ],
    ),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The directory of [`BUILDS`], built on first use. Panics (never skips) without nvcc.
fn built() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let nvcc = ptx_sync_build::tools::find_tool("nvcc", &root()).unwrap_or_else(|| {
            panic!(
                "no nvcc: run `cargo xtask setup` (it installs the PTX tools), or set \
                 PTX_SYNC_TOOLS to the directory holding nvcc"
            )
        });
        let bin = nvcc.parent().expect("nvcc has a directory").to_path_buf();
        let dir =
            std::env::temp_dir().join(format!("ptx-sync-check-containers-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let cu = dir.join("mp.cu");
        std::fs::write(&cu, MP_CU).unwrap();
        // q.cu: the same kernels named q_relaxed and q_release.
        std::fs::write(dir.join("q.cu"), MP_CU.replace("mp_re", "q_re")).unwrap();
        let mut paths = vec![bin];
        paths.extend(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        ));
        for (out, args) in BUILDS {
            let o = Command::new(&nvcc)
                .current_dir(&dir)
                .env("PATH", std::env::join_paths(&paths).expect("PATH"))
                .args(*args)
                .arg(&cu)
                .arg("-o")
                .arg(dir.join(out))
                .output()
                .unwrap_or_else(|e| panic!("cannot run {}: {e}", nvcc.display()));
            assert!(
                o.status.success(),
                "nvcc {args:?} failed:\n{}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        dir
    })
}

fn file(name: &str) -> String {
    built().join(name).display().to_string()
}

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(built().join(name)).unwrap()
}

#[path = "support/cli.rs"]
mod cli;
use cli::{run, stderr, stdout};

/// `check PATH --entry ENTRY` at the launch of the module docs, plus `extra`.
fn check(path: &str, entry: &str, extra: &[&str]) -> Output {
    let args = [&["--entry", entry][..], extra].concat();
    cli::check_mp(path, "2", "1", &args)
}

/// The relaxed flag's verdict (module docs): one data race, between the data store and the
/// data load, and the assertion fails.
fn assert_relaxed_races(o: &Output, what: &str) {
    assert_eq!(o.status.code(), Some(0), "{what}: {}", stderr(o));
    let out = stdout(o);
    assert_eq!(
        out.lines().filter(|l| *l == "Flag data-race").count(),
        1,
        "{what}: {out}"
    );
    let race = out
        .lines()
        .find(|l| l.starts_with("(* data race"))
        .unwrap_or_default();
    assert!(
        race.contains("`st.global.u32") && race.contains("`ld.global.u32"),
        "{what}: {out}"
    );
    assert!(out.lines().any(|l| l == "No"), "{what}: {out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("Observation mp_relaxed Sometimes ")),
        "{what}: {out}"
    );
}

/// The release/acquire verdict (module docs): clean, the copy always 42.
fn assert_release_clean(o: &Output, what: &str) {
    assert_eq!(o.status.code(), Some(0), "{what}: {}", stderr(o));
    let out = stdout(o);
    assert!(!out.contains("Flag"), "{what}: {out}");
    assert!(out.lines().any(|l| l == "Ok"), "{what}: {out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("Observation mp_release Never 0 ")),
        "{what}: {out}"
    );
}

/// The first entry's flags and payload of a one-container fatbin, from the raw bytes.
fn first_entry(f: &[u8]) -> (u16, u64, &[u8]) {
    assert_eq!(f[..4], [0x50, 0xed, 0x55, 0xba], "fatbin magic");
    let e = &f[16..];
    let kind = u16::from_le_bytes([e[0], e[1]]);
    let hsize = u32::from_le_bytes(e[4..8].try_into().unwrap()) as usize;
    let flags = u64::from_le_bytes(e[40..48].try_into().unwrap());
    (kind, flags, &e[hsize..])
}

/// The fatbin forms, each storage of the PTX entry, give both verdicts.
#[test]
fn fatbins_with_zstd_lz4_and_plain_ptx_give_the_verdicts() {
    let zstd = bytes("zstd.fatbin");
    let (kind, flags, payload) = first_entry(&zstd);
    assert_eq!(kind, 1, "a PTX entry");
    assert_ne!(flags & 0x8000, 0, "{flags:#x}");
    assert_eq!(payload[..4], [0x28, 0xb5, 0x2f, 0xfd], "a zstd frame");
    let lz4 = bytes("lz4.fatbin");
    let (kind, flags, _) = first_entry(&lz4);
    assert_eq!((kind, flags & 0xa000), (1, 0x2000), "{flags:#x}");
    let plain = bytes("plain.fatbin");
    let (kind, flags, payload) = first_entry(&plain);
    assert_eq!((kind, flags & 0xa000), (1, 0), "{flags:#x}");
    assert!(String::from_utf8_lossy(payload).contains(".entry mp_release"));
    for f in ["zstd.fatbin", "lz4.fatbin", "plain.fatbin"] {
        assert_relaxed_races(&check(&file(f), "mp_relaxed", &[]), f);
        assert_release_clean(&check(&file(f), "mp_release", &[]), f);
    }
}

/// Whitespace-normalized output without the timing lines (`Time …`, `Time: …`).
fn normalized(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| !l.starts_with("Time"))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// The PTX inside a container is checked exactly as the `.ptx` nvcc writes: the same verdict
/// text, the same PTX line numbers (nvcc keeps them: it blanks comments in the embedded copy), also
/// with `--advise`.
#[test]
fn a_container_is_checked_exactly_as_its_ptx() {
    for e in ["mp_relaxed", "mp_release"] {
        let want = check(&file("mp.ptx"), e, &[]);
        for f in ["zstd.fatbin", "mp.o", "lineinfo.cubin"] {
            let got = check(&file(f), e, &[]);
            assert_eq!(got.status.code(), want.status.code(), "{f} {e}");
            let (g, w) = (stdout(&got), stdout(&want));
            if f == "lineinfo.cubin" {
                // -lineinfo PTX has `.loc` lines: the same instructions at other line numbers.
                let strip = |s: &str| {
                    normalized(s)
                        .into_iter()
                        .map(|l| l.split(" (line").next().unwrap_or("").to_string())
                        .collect::<Vec<_>>()
                };
                assert_eq!(strip(&g), strip(&w), "{f} {e}");
            } else {
                assert_eq!(normalized(&g), normalized(&w), "{f} {e}");
            }
        }
    }
    let adv = |f: &str| {
        let o = check(&file(f), "mp_release", &["--advise"]);
        assert_eq!(o.status.code(), Some(0), "{f}: {}", stderr(&o));
        normalized(
            &stdout(&o)
                .replace(&file(f), "FILE")
                .replace("FILE[compute_90]", "FILE"),
        )
    };
    assert_eq!(adv("zstd.fatbin"), adv("mp.ptx"));
}

/// `nvcc -c`: the object's `.nv_fatbin` holds SASS and PTX; the PTX is checked.
#[test]
fn a_host_object_from_nvcc_c() {
    assert_relaxed_races(&check(&file("mp.o"), "mp_relaxed", &[]), "mp.o");
    assert_release_clean(&check(&file("mp.o"), "mp_release", &[]), "mp.o");
}

/// A shared library linked from two translation units holds two compute_90 modules: `--entry`
/// picks the one that defines the kernel; without it, one line names the kernels to choose from.
#[test]
fn a_linked_library_of_two_units_picks_the_module_by_entry() {
    let lib = file("libtwo");
    assert_relaxed_races(&check(&lib, "mp_relaxed", &[]), "libtwo mp");
    let o = check(&lib, "q_release", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.contains("Flag"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("Observation q_release Never 0 ")),
        "{out}"
    );
    let o = run(&[
        "check", &lib, "--grid", "2", "--block", "1", "--param", "0=buf:12",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(
        e.contains("2 compute_90 modules")
            && e.contains("--entry (mp_relaxed, mp_release, q_relaxed, q_release)"),
        "{e}"
    );
}

/// A cubin holds SASS only: refused in one line that names its arch and how to get PTX; with
/// `-lineinfo` its `.nv_debug_ptx_txt` section holds the PTX, which is checked. A fatbin of SASS
/// only is refused the same way, and checked when its (compressed) cubin has that section.
#[test]
fn a_cubin_is_refused_unless_it_keeps_its_ptx() {
    for f in ["mp.cubin", "sass.fatbin"] {
        for extra in [&[][..], &["--arch", "90"]] {
            let o = check(&file(f), "mp_release", extra);
            assert_eq!(o.status.code(), Some(2), "{f}");
            let e = stderr(&o);
            assert_eq!(e.lines().count(), 1, "{f}: {e}");
            for want in [
                f,
                "no PTX",
                "sm_90",
                "nvcc -ptx",
                "code=compute_90",
                "-lineinfo",
            ] {
                assert!(e.contains(want), "{f}: {want}: {e}");
            }
            assert!(stdout(&o).is_empty());
        }
    }
    let li = file("lineinfo.cubin");
    assert_relaxed_races(&check(&li, "mp_relaxed", &[]), "lineinfo.cubin");
    assert_release_clean(&check(&li, "mp_release", &[]), "lineinfo.cubin");
    // The same PTX inside a fatbin's compressed ELF entry.
    let sl = bytes("sass_lineinfo.fatbin");
    let (kind, flags, payload) = first_entry(&sl);
    assert_eq!(kind, 2, "an ELF entry");
    assert_ne!(flags & 0x8000, 0, "{flags:#x}");
    assert_eq!(payload[..4], [0x28, 0xb5, 0x2f, 0xfd], "a zstd frame");
    let f = file("sass_lineinfo.fatbin");
    assert_relaxed_races(&check(&f, "mp_relaxed", &[]), "sass_lineinfo.fatbin");
    assert_release_clean(&check(&f, "mp_release", &[]), "sass_lineinfo.fatbin");
}

/// PTX for compute_80 and compute_90: the highest ≤ 90 by default (stderr names the other),
/// `--arch` picks; an arch it lacks is refused naming those it has.
#[test]
fn several_archs_default_to_the_highest_up_to_90_and_arch_picks() {
    let two = file("two.fatbin");
    let o = check(&two, "mp_release", &[]);
    assert_release_clean(&o, "default");
    let e = stderr(&o);
    assert!(
        e.contains("compute_90 PTX") && e.contains("compute_80"),
        "{e}"
    );
    for a in ["80", "compute_80", "sm_80"] {
        let o = check(&two, "mp_relaxed", &["--arch", a]);
        assert_relaxed_races(&o, a);
        assert!(stderr(&o).contains("compute_80 PTX"), "{}", stderr(&o));
    }
    let o = check(&two, "mp_release", &["--arch", "86"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("86") && e.contains("80, 90"), "{e}");
    // --arch is for containers only.
    let o = check(&file("mp.ptx"), "mp_release", &["--arch", "90"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--arch"), "{}", stderr(&o));
}

/// Truncated and corrupted containers: the reader returns an error for every prefix and never
/// panics on a flipped byte; the CLI says so in one line, exit 2.
#[test]
fn truncated_or_corrupt_containers_never_panic() {
    use ptx_sync_host::analysis::container::read;
    for f in ["zstd.fatbin", "lz4.fatbin", "mp.o", "lineinfo.cubin"] {
        let b = bytes(f);
        let whole = read(&b).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert!(!whole.ptx.is_empty(), "{f}");
        for n in 0..b.len() {
            if let Ok(c) = read(&b[..n]) {
                panic!("{f}: a {n}-byte prefix of {} read: {c:?}", b.len());
            }
        }
        let step = (b.len() / 512).max(1);
        for i in (0..b.len()).step_by(step) {
            for v in [0u8, 0x41, 0xff] {
                let mut g = b.clone();
                g[i] = v;
                let _ = read(&g);
            }
        }
    }
    let dir = built().join("cut");
    std::fs::create_dir_all(&dir).unwrap();
    let b = bytes("zstd.fatbin");
    for n in [3, 16, 40, 100, b.len() - 1] {
        let p = dir.join(format!("cut{n}.fatbin"));
        std::fs::write(&p, &b[..n]).unwrap();
        let o = check(p.to_str().unwrap(), "mp_release", &[]);
        assert_eq!(o.status.code(), Some(2), "{n}");
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{n}: {e}");
        assert!(e.contains("fatbin"), "{n}: {e}");
    }
}
