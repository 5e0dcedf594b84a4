//! The PTX inside NVIDIA's containers, for `ptx-sync check FILE.{fatbin,o,cubin}` (issue #22
//! §1: "also a `.cubin`'s embedded PTX where present"): read here, in Rust, with no CUDA tool.
//!
//! * **fatbin** (`nvcc -fatbin`): one or more containers, each a 16-byte header (magic
//!   `0xBA55ED50`, `version:u16` = 1, `header_size:u16` = 16, `size:u64` of the entries that
//!   follow) and its entries, each an entry header (`kind:u16` 1 PTX / 2 ELF, `version:u16`,
//!   `header_size:u32`, `padded_size:u64` of the payload after the header, `compressed_size:u32`
//!   at 16, `arch:u32` at 28 — 90 for `compute_90`/`sm_90` —, `flags:u64` at 40, the payload's
//!   `uncompressed_size:u64` at 56) then its payload. The layout is NVIDIA's, not published: it
//!   was learned from public reverse-engineering notes and checked field by field against the
//!   files nvcc 13.0 writes (`docs/kernel-check.md`, "Containers").
//! * **host ELF** (`nvcc -c`, an executable or a shared library): the fatbins of its
//!   `.nv_fatbin` section (and `__nv_relfatbin` for `-rdc` objects), read with the `object`
//!   crate.
//! * **cubin** (`nvcc -cubin`, ELF with `e_machine` `EM_CUDA` 190): SASS for one `sm_NN`
//!   (`e_flags`), and as a rule no PTX ([`no_ptx`] says so, naming the arch of its SASS);
//!
//!   nvcc puts PTX in one only with `-lineinfo` or `-G`: the `.nv_debug_ptx_txt` section
//!   ([`Origin::DebugSection`]).
//!
//! A compressed payload (flag `0x2000`, an LZ4 block; flag `0x8000`, a zstd frame; see
//! [`Compression`]) is decompressed; a PTX entry that still cannot be read keeps the reason in
//! [`Ptx::text`], and `check` then asks the venv's `cuobjdump -ptx` ([`ptx_by_cuobjdump`],
//! [`fill_unread`]). Every offset and size the headers declare is checked against the bytes: a
//! truncated or corrupt container is an error value, never a panic.

use std::path::Path;

/// The fatbin container magic, `0xBA55ED50` (little-endian `50 ed 55 ba`).
pub const FATBIN_MAGIC: u32 = 0xBA55_ED50;
/// `e_machine` of a cubin: `EM_CUDA`.
const EM_CUDA: u16 = 190;
/// Entry kinds.
const KIND_PTX: u16 = 1;
const KIND_ELF: u16 = 2;
/// Entry flag: the payload is an LZ4 block.
const FLAG_LZ4: u64 = 0x2000;
/// Entry flag: the payload is a zstd frame.
const FLAG_ZSTD: u64 = 0x8000;
/// The most bytes one payload may claim to decompress to (a corrupt size must not allocate
/// gigabytes): 256 MiB, far above any PTX module.
const MAX_PAYLOAD: u64 = 256 << 20;

/// How an entry's payload is stored (its entry's `flags`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Plain bytes.
    None,
    /// An LZ4 block (`flags & 0x2000`; nvcc `--compress-mode=speed`), read with `lz4_flex`.
    Lz4,
    /// A zstd frame (`flags & 0x8000`; nvcc 13's default, `size` and `balance`), read with
    /// `ruzstd`.
    Zstd,
    /// A compressed size is set but neither flag: a scheme this reader does not know.
    Unknown,
}

/// Where a module of PTX was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A fatbin's PTX entry (`-gencode arch=compute_90,code=compute_90`, or the `compute_90` of
    /// `-arch=sm_90`): the PTX a driver would JIT.
    PtxEntry,
    /// The `.nv_debug_ptx_txt` section of a cubin (a `.cubin` file or a fatbin's ELF entry)
    /// built with `-lineinfo` or `-G`: the PTX that ptxas assembled into its SASS, one PTX line
    /// per NUL-terminated string, comments and `.loc` lines blanked, so its line numbers are
    /// those of the `.ptx` nvcc writes.
    DebugSection,
}

/// One module of PTX in a container.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ptx {
    /// The architecture number: 90 for `compute_90` (a PTX entry) or `sm_90` (the cubin whose
    /// debug section it is).
    pub arch: u32,
    /// Where it was found.
    pub origin: Origin,
    /// The index of its fatbin container in the file (0 for a cubin or a one-container file).
    pub container: usize,
    /// How the entry was stored.
    pub compression: Compression,
    /// The PTX text, or why it could not be read (one line).
    pub text: Result<String, String>,
}

impl Ptx {
    /// How messages name it: `compute_90`, or `sm_90 .nv_debug_ptx_txt`.
    ///
    /// ```
    /// use ptx_sync_host::analysis::container::{Compression, Origin, Ptx};
    /// let p = Ptx { arch: 90, origin: Origin::PtxEntry, container: 0,
    ///               compression: Compression::None, text: Ok(String::new()) };
    /// assert_eq!(p.name(), "compute_90");
    /// ```
    pub fn name(&self) -> String {
        match self.origin {
            Origin::PtxEntry => format!("compute_{}", self.arch),
            Origin::DebugSection => format!("sm_{} .nv_debug_ptx_txt", self.arch),
        }
    }
}

/// What a file holds.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Contents {
    /// `"fatbin"`, `"host ELF"` or `"cubin"` (for messages).
    pub from: &'static str,
    /// Its PTX modules, in file order.
    pub ptx: Vec<Ptx>,
    /// The SM numbers of its SASS (ELF entries, or the cubin's own), in file order.
    pub sass: Vec<u32>,
}

/// Whether `bytes` start like a container [`read`] takes: an ELF file or a fatbin.
///
/// ```
/// use ptx_sync_host::analysis::container::is_container;
/// assert!(is_container(b"\x7fELF\x02\x01\x01"));
/// assert!(is_container(&[0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0]));
/// assert!(!is_container(b".version 9.0\n"));
/// ```
pub fn is_container(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x7fELF") || le32(bytes, 0) == Some(FATBIN_MAGIC)
}

fn le16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(
        b.get(at..at.checked_add(2)?)?.try_into().ok()?,
    ))
}
fn le32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}
fn le64(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(
        b.get(at..at.checked_add(8)?)?.try_into().ok()?,
    ))
}

/// Reads a fatbin, a host ELF with `.nv_fatbin`, or a cubin. `Err`: one line saying what is
/// wrong (not a container, truncated, corrupt, a host ELF without GPU code).
///
/// ```
/// use ptx_sync_host::analysis::container::{read, Origin};
/// // A hand-made fatbin: one uncompressed PTX entry for compute_90.
/// let ptx = b".version 9.0\n.target sm_90\n\0\0\0";
/// let mut e = vec![0u8; 64];
/// e[0..2].copy_from_slice(&1u16.to_le_bytes()); // kind: PTX
/// e[4..8].copy_from_slice(&64u32.to_le_bytes()); // entry header size
/// e[8..16].copy_from_slice(&(ptx.len() as u64).to_le_bytes());
/// e[28..32].copy_from_slice(&90u32.to_le_bytes());
/// let mut f = vec![0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0];
/// f.extend_from_slice(&((64 + ptx.len()) as u64).to_le_bytes());
/// f.extend_from_slice(&e);
/// f.extend_from_slice(ptx);
/// let c = read(&f).unwrap();
/// assert_eq!((c.from, c.ptx[0].arch, c.ptx[0].origin), ("fatbin", 90, Origin::PtxEntry));
/// assert_eq!(c.ptx[0].text.as_deref(), Ok(".version 9.0\n.target sm_90\n"));
/// assert!(read(&f[..40]).unwrap_err().contains("truncated"));
/// ```
pub fn read(bytes: &[u8]) -> Result<Contents, String> {
    if le32(bytes, 0) == Some(FATBIN_MAGIC) {
        let mut c = Contents {
            from: "fatbin",
            ..Contents::default()
        };
        fatbins(bytes, true, &mut c)?;
        return Ok(c);
    }
    if bytes.starts_with(b"!<arch>\n") {
        return Err(
            "an ar archive (a static library): extract its objects (`ar x`) and check the one with the kernel"
                .into(),
        );
    }
    if !bytes.starts_with(b"\x7fELF") {
        return Err("not a fatbin (no 0xBA55ED50 magic) nor an ELF file".into());
    }
    let file = object::File::parse(bytes).map_err(|e| format!("truncated or corrupt ELF: {e}"))?;
    if elf_machine(bytes) == Some(EM_CUDA) {
        let mut c = Contents {
            from: "cubin",
            ..Contents::default()
        };
        cubin(&file, bytes, 0, &mut c)?;
        return Ok(c);
    }
    let mut c = Contents {
        from: "host ELF",
        ..Contents::default()
    };
    let mut any = false;
    for s in object::Object::sections(&file) {
        let name = object::ObjectSection::name(&s).unwrap_or("");
        if name != ".nv_fatbin" && name != "__nv_relfatbin" {
            continue;
        }
        any = true;
        let data = object::ObjectSection::data(&s)
            .map_err(|e| format!("truncated or corrupt ELF: section {name}: {e}"))?;
        fatbins(data, false, &mut c).map_err(|e| format!("section {name}: {e}"))?;
    }
    if !any {
        return Err(
            "a host ELF without a .nv_fatbin section: no GPU code in it (was it built by nvcc?)"
                .into(),
        );
    }
    Ok(c)
}

/// `e_machine` of an ELF file (either byte order, read after `object` accepted the header).
fn elf_machine(b: &[u8]) -> Option<u16> {
    let raw: [u8; 2] = b.get(18..20)?.try_into().ok()?;
    Some(if b.get(5) == Some(&2) {
        u16::from_be_bytes(raw)
    } else {
        u16::from_le_bytes(raw)
    })
}

/// A cubin's SASS arch (`e_flags`) into `c.sass`, and the PTX of its `.nv_debug_ptx_txt` section
/// (where `-lineinfo` or `-G` put one) into `c.ptx`.
fn cubin(file: &object::File, bytes: &[u8], n: usize, c: &mut Contents) -> Result<(), String> {
    let object::FileFlags::Elf { e_flags, .. } = object::Object::flags(file) else {
        return Err("corrupt cubin: no ELF flags".into());
    };
    let arch = cubin_arch(bytes, e_flags);
    c.sass.push(arch);
    if let Some(s) = object::Object::section_by_name(file, ".nv_debug_ptx_txt") {
        let text = object::ObjectSection::data(&s)
            .map_err(|e| format!("truncated or corrupt cubin: section .nv_debug_ptx_txt: {e}"))
            .and_then(|d| {
                std::str::from_utf8(d)
                    .map(|t| t.replace('\0', "\n"))
                    .map_err(|_| "its .nv_debug_ptx_txt section is not UTF-8 text".to_string())
            });
        c.ptx.push(Ptx {
            arch,
            origin: Origin::DebugSection,
            container: n,
            compression: Compression::None,
            text,
        });
    }
    Ok(())
}

/// The SM number of a cubin's SASS from `e_flags`: bits 8–15 in the ELF ABI version 8 that
/// nvcc 13 writes (`e_flags` `0x6005a04` for sm_90), bits 0–7 (`EF_CUDA_SM`) in the older one.
fn cubin_arch(b: &[u8], e_flags: u32) -> u32 {
    let abi_version = b.get(8).copied().unwrap_or(0);
    if abi_version >= 8 {
        (e_flags >> 8) & 0xff
    } else {
        e_flags & 0xff
    }
}

/// The fatbin containers in `data`, one after another (a linker concatenates them, padding each
/// to 8 bytes with zeros), into `c`. `whole`: `data` is a `.fatbin` file (it starts with one).
fn fatbins(data: &[u8], whole: bool, c: &mut Contents) -> Result<(), String> {
    let mut at = 0usize;
    let mut n = 0usize;
    while at < data.len() {
        if le32(data, at) != Some(FATBIN_MAGIC) {
            if data[at] == 0 && (!whole || n > 0) {
                at += 1;
                continue;
            }
            return Err(format!(
                "corrupt fatbin: no 0xBA55ED50 magic at byte {at} (container {n})"
            ));
        }
        at = container(data, at, n, c)?;
        n += 1;
    }
    if n == 0 {
        return Err("no fatbin container in it".into());
    }
    Ok(())
}

/// Reads the container at `at` (container number `n`) into `c`; returns its end.
fn container(data: &[u8], at: usize, n: usize, c: &mut Contents) -> Result<usize, String> {
    let trunc =
        |what: String| format!("truncated or corrupt fatbin (container {n} at byte {at}): {what}");
    let (Some(hsize), Some(size)) = (le16(data, at + 6), le64(data, at + 8)) else {
        return Err(trunc(format!(
            "{} bytes left, its header takes 16",
            data.len() - at
        )));
    };
    if hsize < 16 {
        return Err(trunc(format!("header size {hsize} is below 16")));
    }
    let body = at + hsize as usize;
    let end = u64::try_from(body)
        .ok()
        .and_then(|b| b.checked_add(size))
        .filter(|&e| e <= data.len() as u64)
        .ok_or_else(|| {
            trunc(format!(
                "its header declares {size} bytes of entries, {} are left",
                data.len().saturating_sub(body)
            ))
        })? as usize;
    let mut e = body;
    let mut k = 0;
    while e < end {
        let bad = |what: String| trunc(format!("entry {k} at byte {e}: {what}"));
        let h = data.get(e..end).unwrap_or_default();
        let (Some(kind), Some(ehsize), Some(padded)) = (le16(h, 0), le32(h, 4), le64(h, 8)) else {
            return Err(bad("its header passes the container's end".into()));
        };
        if ehsize < 64 || ehsize as usize > h.len() {
            return Err(bad(format!(
                "header size {ehsize} (at least 64, at most the {} bytes left)",
                h.len()
            )));
        }
        let fields = (le32(h, 16), le32(h, 28), le64(h, 40), le64(h, 56));
        let (Some(csize), Some(arch), Some(flags), Some(full)) = fields else {
            return Err(bad("its header passes the container's end".into()));
        };
        let stop = (ehsize as u64)
            .checked_add(padded)
            .filter(|&s| s <= h.len() as u64)
            .ok_or_else(|| {
                bad(format!(
                    "{padded} bytes of payload after a {ehsize}-byte header, {} are left",
                    h.len() as u64 - ehsize as u64
                ))
            })? as usize;
        let raw = &h[ehsize as usize..stop];
        let compression = if flags & FLAG_ZSTD != 0 {
            Compression::Zstd
        } else if flags & FLAG_LZ4 != 0 {
            Compression::Lz4
        } else if csize != 0 {
            // nvcc leaves the compressed size 0 in an uncompressed entry.
            Compression::Unknown
        } else {
            Compression::None
        };
        let bytes = || unpack(raw, compression, csize, full, flags);
        match kind {
            KIND_PTX => c.ptx.push(Ptx {
                arch,
                origin: Origin::PtxEntry,
                container: n,
                compression,
                text: bytes().and_then(|b| {
                    let end = b.iter().position(|&x| x == 0).unwrap_or(b.len());
                    String::from_utf8(b[..end].to_vec())
                        .map_err(|_| "its PTX is not UTF-8 text".to_string())
                }),
            }),
            KIND_ELF => {
                // The SASS's arch always; its debug PTX where the cubin reads back.
                let before = c.ptx.len();
                let cubin_ok = bytes().ok().is_some_and(|b| {
                    object::File::parse(&*b).is_ok_and(|f| {
                        let mut one = Contents::default();
                        let ok = cubin(&f, &b, n, &mut one).is_ok();
                        c.ptx.extend(one.ptx);
                        ok
                    })
                });
                if !cubin_ok {
                    c.ptx.truncate(before);
                }
                c.sass.push(arch);
            }
            _ => {}
        }
        e += stop;
        k += 1;
    }
    Ok(end)
}

/// An entry's payload: `raw` (the padded payload) decompressed as `compression` says.
fn unpack(
    raw: &[u8],
    compression: Compression,
    csize: u32,
    full: u64,
    flags: u64,
) -> Result<Vec<u8>, String> {
    if compression == Compression::None {
        return Ok(raw.to_vec());
    }
    let Some(packed) = raw.get(..csize as usize) else {
        return Err(format!(
            "compressed size {csize} passes the {}-byte payload",
            raw.len()
        ));
    };
    if full > MAX_PAYLOAD {
        return Err(format!(
            "it claims {full} bytes uncompressed (more than {MAX_PAYLOAD})"
        ));
    }
    let r = match compression {
        Compression::Unknown => Err(format!(
            "compressed ({csize} bytes) with a scheme this reader does not know"
        )),
        // An LZ4 block expands at most 255-fold: a larger claim is a corrupt size, refused
        // before its buffer is allocated.
        Compression::Lz4 if full > 255 * csize as u64 + 16 => Err(format!(
            "LZ4: {csize} bytes cannot hold {full} (flags {flags:#x})"
        )),
        Compression::Lz4 => {
            lz4_flex::block::decompress(packed, full as usize).map_err(|e| format!("LZ4: {e}"))
        }
        Compression::Zstd => zstd(packed, full),
        Compression::None => Ok(raw.to_vec()),
    };
    match r {
        Ok(b) if b.len() as u64 == full => Ok(b),
        Ok(b) => Err(format!(
            "{compression:?} gave {} bytes, its header says {full} (flags {flags:#x})",
            b.len()
        )),
        Err(e) => Err(format!("{e} (flags {flags:#x})")),
    }
}

/// One zstd frame, at most `limit` + 1 bytes out (one more shows a lying size).
fn zstd(packed: &[u8], limit: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut d =
        ruzstd::decoding::StreamingDecoder::new(packed).map_err(|e| format!("zstd: {e}"))?;
    let mut out = Vec::new();
    (&mut d)
        .take(limit.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| format!("zstd: {e}"))?;
    Ok(out)
}

/// The PTX modules `cuobjdump -ptx FILE` prints, as `(arch, text)` (`arch` 90 for
/// `arch = sm_90`): the fallback for a PTX entry this module cannot decompress. `Err`: one line
/// (no cuobjdump, or it failed).
pub fn ptx_by_cuobjdump(cuobjdump: &Path, file: &Path) -> Result<Vec<(u32, String)>, String> {
    let o = std::process::Command::new(cuobjdump)
        .arg("-ptx")
        .arg(file)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", cuobjdump.display()))?;
    if !o.status.success() {
        let err = String::from_utf8_lossy(&o.stderr);
        return Err(format!(
            "{} -ptx failed: {}",
            cuobjdump.display(),
            err.lines().next().unwrap_or("")
        ));
    }
    Ok(parse_cuobjdump_ptx(&String::from_utf8_lossy(&o.stdout)))
}

/// The PTX blocks of `cuobjdump -ptx` output: each starts at a line `Fatbin ptx code:`, has
/// `key = value` lines (`arch = sm_90`, ...) and then the PTX text up to the next block.
///
/// ```
/// use ptx_sync_host::analysis::container::parse_cuobjdump_ptx;
/// let out = "\nFatbin ptx code:\n================\narch = sm_90\ncode version = [9,0]\n\
///            host = linux\ncompile_size = 64bit\ncompressed\n\n.version 9.0\n.target sm_90\n";
/// assert_eq!(parse_cuobjdump_ptx(out), [(90, ".version 9.0\n.target sm_90\n".to_string())]);
/// ```
pub fn parse_cuobjdump_ptx(out: &str) -> Vec<(u32, String)> {
    let mut mods = Vec::new();
    for block in out.split("Fatbin ptx code:").skip(1) {
        let mut arch = 0;
        let mut text = String::new();
        let mut in_text = false;
        for line in block.lines() {
            if !in_text {
                let t = line.trim();
                if let Some(a) = t.strip_prefix("arch = sm_") {
                    arch = a
                        .trim_end_matches(|c: char| c.is_ascii_alphabetic())
                        .parse()
                        .unwrap_or(0);
                }
                let header = t.is_empty()
                    || t.starts_with('=')
                    || t.contains(" = ")
                    || t == "compressed"
                    || t.starts_with("identifier");
                if header {
                    continue;
                }
                in_text = true;
            }
            text.push_str(line);
            text.push('\n');
        }
        if let Some(i) = text.find("Fatbin elf code:") {
            text.truncate(i);
        }
        mods.push((arch, text));
    }
    mods
}

/// The PTX architecture `check` takes among `archs`: `arch` (`--arch`) if given, else the
/// highest ≤ 90 (the model is of Hopper's sm_90), else the lowest above it. `Err`: one line
/// naming the choices.
///
/// ```
/// use ptx_sync_host::analysis::container::pick_arch;
/// assert_eq!(pick_arch(&[80, 90, 100], None), Ok(90));
/// assert_eq!(pick_arch(&[100, 120], None), Ok(100));
/// assert_eq!(pick_arch(&[80, 90], Some(80)), Ok(80));
/// assert!(pick_arch(&[80, 90], Some(86)).unwrap_err().contains("80, 90"));
/// ```
pub fn pick_arch(archs: &[u32], arch: Option<u32>) -> Result<u32, String> {
    let mut all = archs.to_vec();
    all.sort_unstable();
    all.dedup();
    let list = || {
        all.iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    match arch {
        Some(a) if all.contains(&a) => Ok(a),
        Some(a) => Err(format!(
            "--arch {a}: it has no PTX for {a} (its PTX archs: {})",
            list()
        )),
        None => all
            .iter()
            .rev()
            .find(|&&a| a <= 90)
            .or_else(|| all.first())
            .copied()
            .ok_or_else(|| "no PTX in it".to_string()),
    }
}

/// The one line `check` prints for a container without PTX (exit 2): what it holds instead and
/// how to get PTX.
///
/// ```
/// use ptx_sync_host::analysis::container::{no_ptx, Contents};
/// let c = Contents { from: "cubin", ptx: vec![], sass: vec![90] };
/// let m = no_ptx(&c);
/// assert!(m.contains("sm_90") && m.contains("nvcc -ptx") && m.contains("code=compute_90"));
/// ```
pub fn no_ptx(c: &Contents) -> String {
    let mut sass: Vec<String> = c.sass.iter().map(|a| format!("sm_{a}")).collect();
    sass.dedup();
    let what = if sass.is_empty() {
        "no SASS either".to_string()
    } else {
        format!("only SASS (machine code) for {}", sass.join(", "))
    };
    format!(
        "no PTX in this {}: {what}; the model checks PTX: give the .ptx (`nvcc -ptx`), or embed the PTX (`nvcc -gencode arch=compute_90,code=compute_90`, or `-lineinfo`, which keeps it in the cubin's .nv_debug_ptx_txt)",
        c.from
    )
}

/// The PTX module `check` takes from `c`: among the PTX entries (or, in a container without
/// any, the cubins' `.nv_debug_ptx_txt` sections), those of the arch [`pick_arch`] chooses;
/// of several modules of that arch (one per translation unit), the one that defines
/// `.entry {entry}` when `--entry` is given, else the only one (modules with the same text
/// count once). `Err`: one line ([`no_ptx`] when there is no PTX at all).
///
/// ```
/// use ptx_sync_host::analysis::container::{select, Compression, Contents, Origin, Ptx};
/// let p = |arch, t: &str| Ptx { arch, origin: Origin::PtxEntry, container: 0,
///                               compression: Compression::None, text: Ok(t.into()) };
/// let c = Contents { from: "fatbin", sass: vec![90],
///                    ptx: vec![p(80, ".entry a("), p(90, ".entry a("), p(90, ".entry b(")] };
/// assert!(select(&c, None, None).unwrap_err().contains("--entry (a, b)"));
/// assert_eq!(select(&c, None, Some("b")).unwrap().text.as_deref(), Ok(".entry b("));
/// assert_eq!(select(&c, Some(80), Some("a")).unwrap().arch, 80);
/// assert!(select(&c, None, Some("c")).unwrap_err().contains(".entry c"));
/// ```
pub fn select<'a>(
    c: &'a Contents,
    arch: Option<u32>,
    entry: Option<&str>,
) -> Result<&'a Ptx, String> {
    let entries: Vec<&Ptx> = c
        .ptx
        .iter()
        .filter(|p| p.origin == Origin::PtxEntry)
        .collect();
    let pool: Vec<&Ptx> = if entries.is_empty() {
        c.ptx.iter().collect()
    } else {
        entries
    };
    if pool.is_empty() {
        return Err(no_ptx(c));
    }
    let archs: Vec<u32> = pool.iter().map(|p| p.arch).collect();
    let a = pick_arch(&archs, arch)?;
    let mut mods: Vec<&Ptx> = pool.into_iter().filter(|p| p.arch == a).collect();
    let name = mods[0].name();
    if let Some(e) = entry {
        if mods.len() > 1 {
            mods.retain(|p| p.text.as_ref().map_or(true, |t| defines_entry(t, e)));
            if mods.is_empty() {
                return Err(format!("no {name} module in it defines .entry {e}"));
            }
        }
    }
    let first = mods[0];
    let same = mods.iter().all(|p| p.text == first.text);
    if !same {
        let mut names: Vec<&str> = mods
            .iter()
            .filter_map(|p| p.text.as_deref().ok())
            .flat_map(entry_names)
            .collect();
        names.sort_unstable();
        names.dedup();
        return Err(format!(
            "{} {name} modules in it (one per translation unit); choose the kernel with --entry ({})",
            mods.len(),
            names.join(", ")
        ));
    }
    Ok(first)
}

/// The names of the kernels PTX `text` defines (`.entry NAME`).
fn entry_names(text: &str) -> Vec<&str> {
    text.match_indices(".entry")
        .filter_map(|(i, _)| {
            let rest = text[i + ".entry".len()..].trim_start();
            let n = rest
                .find(|c: char| c == '(' || c.is_whitespace())
                .unwrap_or(rest.len());
            (n > 0).then(|| &rest[..n])
        })
        .collect()
}

/// Fills the PTX entries that could not be read from `cuobjdump -ptx`'s modules `dumped`
/// (`(arch, text)`, [`parse_cuobjdump_ptx`]): the k-th unread entry of an arch takes the k-th
/// dumped module of that arch. Returns how many were filled.
pub fn fill_unread(c: &mut Contents, dumped: &[(u32, String)]) -> usize {
    let mut filled = 0;
    let mut seen: Vec<(u32, usize)> = Vec::new();
    for p in c.ptx.iter_mut().filter(|p| p.origin == Origin::PtxEntry) {
        let k = match seen.iter_mut().find(|(a, _)| *a == p.arch) {
            Some((_, k)) => {
                *k += 1;
                *k - 1
            }
            None => {
                seen.push((p.arch, 1));
                0
            }
        };
        if p.text.is_ok() {
            continue;
        }
        if let Some((_, t)) = dumped.iter().filter(|(a, _)| *a == p.arch).nth(k) {
            p.text = Ok(t.clone());
            filled += 1;
        }
    }
    filled
}

/// Whether PTX `text` defines the kernel `.entry name`.
///
/// ```
/// use ptx_sync_host::analysis::container::defines_entry;
/// assert!(defines_entry(".visible .entry mp(\n", "mp"));
/// assert!(!defines_entry(".visible .entry mp2(\n", "mp"));
/// ```
pub fn defines_entry(text: &str, name: &str) -> bool {
    text.match_indices(".entry").any(|(i, _)| {
        let rest = text[i + ".entry".len()..].trim_start();
        rest.strip_prefix(name)
            .is_some_and(|r| r.starts_with(|c: char| c == '(' || c.is_whitespace()) || r.is_empty())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fatbin of `entries` (kind, arch, flags, stored payload, uncompressed size).
    fn fatbin(entries: &[(u16, u32, u64, &[u8], u64)]) -> Vec<u8> {
        let mut body = Vec::new();
        for &(kind, arch, flags, p, full) in entries {
            let padded = p.len().div_ceil(8) * 8;
            let mut h = vec![0u8; 64];
            h[0..2].copy_from_slice(&kind.to_le_bytes());
            h[2..4].copy_from_slice(&0x0101u16.to_le_bytes());
            h[4..8].copy_from_slice(&64u32.to_le_bytes());
            h[8..16].copy_from_slice(&(padded as u64).to_le_bytes());
            if flags & (FLAG_LZ4 | FLAG_ZSTD) != 0 {
                h[16..20].copy_from_slice(&(p.len() as u32).to_le_bytes());
            }
            h[28..32].copy_from_slice(&arch.to_le_bytes());
            h[40..48].copy_from_slice(&flags.to_le_bytes());
            h[56..64].copy_from_slice(&full.to_le_bytes());
            body.extend_from_slice(&h);
            body.extend_from_slice(p);
            body.resize(body.len() + padded - p.len(), 0);
        }
        let mut f = vec![0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0];
        f.extend_from_slice(&(body.len() as u64).to_le_bytes());
        f.extend_from_slice(&body);
        f
    }

    const PTX: &[u8] = b".version 9.0\n.target sm_90\n.address_size 64\n";

    fn text() -> String {
        String::from_utf8(PTX.to_vec()).unwrap()
    }

    #[test]
    fn plain_and_lz4_ptx_entries_read_back_and_elf_entries_give_their_arch() {
        let lz4 = lz4_flex::block::compress(PTX);
        let f = fatbin(&[
            (2, 90, 0x11, b"\x7fELF....", 8),
            (1, 80, 0x11, PTX, 0),
            (1, 90, 0x11 | FLAG_LZ4, &lz4, PTX.len() as u64),
        ]);
        let c = read(&f).unwrap();
        assert_eq!(c.from, "fatbin");
        assert_eq!(c.sass, [90]);
        let names: Vec<String> = c.ptx.iter().map(Ptx::name).collect();
        assert_eq!(names, ["compute_80", "compute_90"]);
        assert_eq!(c.ptx[0].text, Ok(text()));
        assert_eq!(c.ptx[1].compression, Compression::Lz4);
        assert_eq!(c.ptx[1].text, Ok(text()));
    }

    /// A compressed payload whose declared sizes lie is unread with the reason, not a panic and
    /// not wrong text.
    #[test]
    fn lying_compressed_sizes_leave_the_ptx_unread() {
        let lz4 = lz4_flex::block::compress(PTX);
        for full in [0, 3, PTX.len() as u64 + 1, u64::MAX] {
            let c = read(&fatbin(&[(1, 90, FLAG_LZ4, &lz4, full)])).unwrap();
            assert!(c.ptx[0].text.is_err(), "{full}: {:?}", c.ptx[0].text);
        }
        let c = read(&fatbin(&[(1, 90, FLAG_ZSTD, b"not zstd", 8)])).unwrap();
        assert!(
            c.ptx[0].text.as_ref().is_err_and(|m| m.contains("zstd")),
            "{:?}",
            c.ptx[0].text
        );
    }

    /// Every prefix of a fatbin is refused with one line, and every single-byte corruption of
    /// its headers is read or refused: never a panic.
    #[test]
    fn truncated_or_corrupt_fatbins_are_errors_not_panics() {
        let lz4 = lz4_flex::block::compress(PTX);
        let f = fatbin(&[
            (1, 80, 0, PTX, 0),
            (1, 90, FLAG_LZ4, &lz4, PTX.len() as u64),
        ]);
        for n in 0..f.len() {
            match read(&f[..n]) {
                Ok(_) => panic!("a {n}-byte prefix of {} read as whole", f.len()),
                Err(m) => assert!(!m.contains('\n') && !m.is_empty(), "{m}"),
            }
        }
        for i in 0..16 + 64 + 8 {
            for v in [0u8, 0x7f, 0xff] {
                let mut g = f.clone();
                g[i] = v;
                let _ = read(&g);
            }
        }
    }

    #[test]
    fn selection_by_arch_entry_and_translation_unit() {
        let p = |arch, origin, t: &str| Ptx {
            arch,
            origin,
            container: 0,
            compression: Compression::None,
            text: Ok(t.into()),
        };
        let e = Origin::PtxEntry;
        let c = Contents {
            from: "host ELF",
            ptx: vec![
                p(90, Origin::DebugSection, ".entry z("),
                p(90, e, ".entry a("),
                p(90, e, ".entry b("),
                p(90, e, ".entry b("),
            ],
            sass: vec![90],
        };
        // Two different compute_90 modules: --entry decides.
        let m = select(&c, None, None).unwrap_err();
        assert!(
            m.contains("3 compute_90 modules") && m.contains("(a, b)"),
            "{m}"
        );
        assert_eq!(
            select(&c, None, Some("a")).unwrap().text.as_deref(),
            Ok(".entry a(")
        );
        // b is in two identical modules (one kernel linked twice): one module.
        assert_eq!(
            select(&c, None, Some("b")).unwrap().text.as_deref(),
            Ok(".entry b(")
        );
        // The debug section counts only where there is no PTX entry.
        let d = Contents {
            from: "cubin",
            ptx: vec![p(90, Origin::DebugSection, ".entry z(")],
            sass: vec![90],
        };
        assert_eq!(select(&d, None, None).unwrap().origin, Origin::DebugSection);
        let none = Contents {
            from: "cubin",
            ptx: vec![],
            sass: vec![90],
        };
        assert!(select(&none, None, None)
            .unwrap_err()
            .starts_with("no PTX in this cubin"));
        assert_eq!(pick_arch(&[90, 80, 90], None), Ok(90));
        assert!(pick_arch(&[], None).is_err());
        assert!(defines_entry(".entry k (\n", "k"));
        assert!(!defines_entry(".func k(\n", "k"));
    }

    #[test]
    fn unread_entries_are_filled_from_cuobjdump_by_arch_and_order() {
        let unread = |arch| Ptx {
            arch,
            origin: Origin::PtxEntry,
            container: 0,
            compression: Compression::Zstd,
            text: Err("x".into()),
        };
        let mut c = Contents {
            from: "fatbin",
            ptx: vec![unread(80), unread(90), unread(90)],
            sass: vec![],
        };
        let dumped = [
            (90, "A".to_string()),
            (80, "B".to_string()),
            (90, "C".to_string()),
        ];
        assert_eq!(fill_unread(&mut c, &dumped), 3);
        let t: Vec<&str> = c.ptx.iter().map(|p| p.text.as_deref().unwrap()).collect();
        assert_eq!(t, ["B", "A", "C"]);
    }

    #[test]
    fn an_ar_archive_is_named() {
        let m = read(b"!<arch>\nmp.o/ ...").unwrap_err();
        assert!(m.contains("ar archive") && m.contains("ar x"), "{m}");
    }

    #[test]
    fn cuobjdump_output_with_elf_blocks_after_the_ptx() {
        let out = "\nFatbin elf code:\n================\narch = sm_90\n\nFatbin ptx code:\n================\narch = sm_80\ncode version = [9,0]\nhost = linux\ncompile_size = 64bit\n\n//\n// Generated\n.version 9.0\n";
        assert_eq!(
            parse_cuobjdump_ptx(out),
            [(80, "//\n// Generated\n.version 9.0\n".to_string())]
        );
    }
}
