//! What [`Device::load_cubin`](crate::cuda::Device::load_cubin) checks before the driver sees an
//! image: `cuModuleLoadDataEx` takes only a pointer, so the driver reads as far as the image's
//! own headers say. Every size and offset those headers declare must lie inside the slice.
//!
//! * **ELF** (a cubin; System V gABI, ELF-64): the file header (64 bytes, `ELFCLASS64`,
//!   little-endian, `EV_CURRENT`, `e_machine` = `EM_CUDA` 190); the program-header table and the
//!   section-header table (`e_phoff + e_phnum × 56`, `e_shoff + e_shnum × 64`); each segment's
//!   file bytes (`p_offset + p_filesz`) and each section's bytes (`sh_offset + sh_size`, except
//!   `SHT_NOBITS`); `e_shstrndx` and every `sh_link` name a section; section names are
//!   NUL-terminated strings inside the section-name table; symbol tables have 24-byte entries
//!   whose names lie inside their string table and whose section index names a section;
//!   relocation tables have 16- or 24-byte entries whose symbol index is inside their symbol
//!   table.
//! * **fatbin** (`nvcc -fatbin`, `fatbinary --create`): the 16-byte header (magic `0xBA55ED50`,
//!   version, header size, size of the entries) and every entry (kind, version, header size,
//!   payload size) inside the declared size; an uncompressed ELF payload is checked as above
//!   within its entry. The layout is NVIDIA's, not published: it was read from the files the
//!   `fatbinary` 13.0 tool writes (header `50 ed 55 ba 01 00 10 00` then the size; each entry
//!   `kind:u16 version:u16 header_size:u32 payload_size:u64 …`, the payload after the entry's
//!   header). Compressed payloads are decompressed by the driver into its own buffer.
//! * **PTX** text: printable ASCII/UTF-8 up to its end or its first NUL; without a NUL inside
//!   the slice it is copied and terminated, so the driver's `strlen` stops inside our memory.
//!
//! Anything else — including the runtime's fatbin *wrapper* (`__fatBinC_Wrapper_t`, magic
//! `0x466243B1`, which holds a pointer the driver would follow) — is refused.

/// What an image is, once checked.
///
/// ```
/// use ptx_sync_host::cuda::image::{validate_image, ImageKind};
/// assert_eq!(validate_image(b".version 8.6\n"), Ok(ImageKind::Ptx { nul: false }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageKind {
    /// An ELF cubin.
    Cubin,
    /// A fat binary.
    Fatbin,
    /// PTX text; `nul`: whether a NUL terminates it inside the slice.
    Ptx {
        /// A NUL byte lies inside the slice.
        nul: bool,
    },
}

const FATBIN_MAGIC: u32 = 0xBA55_ED50;
const FATBINC_WRAPPER_MAGIC: u32 = 0x4662_43B1;
const EM_CUDA: u16 = 190;
const SHT_SYMTAB: u32 = 2;
const SHT_STRTAB: u32 = 3;
const SHT_RELA: u32 = 4;
const SHT_NOBITS: u32 = 8;
const SHT_REL: u32 = 9;
const SHT_DYNSYM: u32 = 11;
/// `SHN_LORESERVE`: section indices from here on are special (`SHN_ABS`, `SHN_COMMON`, ...).
const SHN_LORESERVE: u16 = 0xff00;

fn u16_at(b: &[u8], off: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(off..off + 2)?.try_into().ok()?))
}
fn u32_at(b: &[u8], off: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(off..off + 4)?.try_into().ok()?))
}
fn u64_at(b: &[u8], off: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(off..off + 8)?.try_into().ok()?))
}

/// `off + n * size` as a byte range end, if it fits in `len` without overflow.
fn table_end(off: u64, n: u64, size: u64, len: usize) -> Option<u64> {
    let end = off.checked_add(n.checked_mul(size)?)?;
    (end <= len as u64).then_some(end)
}

/// Checks `img` as a cubin, a fatbin or PTX text (see the module docs); the error says which
/// declared size or offset does not fit, in one line.
///
/// ```
/// use ptx_sync_host::cuda::image::{validate_image, ImageKind};
/// assert!(validate_image(b"\x7fELF").unwrap_err().contains("ELF header"));
/// assert_eq!(validate_image(b".version 8.6\0"), Ok(ImageKind::Ptx { nul: true }));
/// ```
pub fn validate_image(img: &[u8]) -> Result<ImageKind, String> {
    if img.starts_with(b"\x7fELF") {
        return elf(img).map(|()| ImageKind::Cubin);
    }
    match u32_at(img, 0) {
        Some(FATBIN_MAGIC) => return fatbin(img).map(|()| ImageKind::Fatbin),
        Some(FATBINC_WRAPPER_MAGIC) => {
            return Err(
                "a fatbin wrapper (__fatBinC_Wrapper_t) holds a pointer, not the image: pass the fatbin itself"
                    .into(),
            )
        }
        _ => {}
    }
    ptx_text(img)
}

fn ptx_text(img: &[u8]) -> Result<ImageKind, String> {
    let nul = img.iter().position(|&b| b == 0);
    let text = &img[..nul.unwrap_or(img.len())];
    let ok = std::str::from_utf8(text).is_ok_and(|s| {
        s.chars()
            .all(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t'))
    });
    if text.is_empty() || !ok {
        return Err(format!(
            "not a cubin (no ELF header), a fatbin (no 0xBA55ED50 magic) or PTX text ({} bytes starting {:02x?})",
            img.len(),
            &img[..img.len().min(4)]
        ));
    }
    Ok(ImageKind::Ptx { nul: nul.is_some() })
}

/// The fatbin's header and entries (module docs).
fn fatbin(img: &[u8]) -> Result<(), String> {
    let err = |what: String| Err(format!("truncated or corrupt fatbin: {what}"));
    let (Some(hsize), Some(fsize)) = (u16_at(img, 6), u64_at(img, 8)) else {
        return err(format!("{} bytes, the header takes 16", img.len()));
    };
    if hsize < 16 {
        return err(format!("header size {hsize} is below 16"));
    }
    let Some(end) = table_end(hsize as u64, 1, fsize, img.len()) else {
        return err(format!(
            "its header declares {fsize} bytes of entries after {hsize}, the image has {}",
            img.len()
        ));
    };
    let mut off = hsize as u64;
    let mut n = 0;
    while off < end {
        let o = off as usize;
        let (Some(eh), Some(payload)) = (u32_at(img, o + 4), u64_at(img, o + 8)) else {
            return err(format!("entry {n} at {off}: its header passes the end"));
        };
        if eh < 16 {
            return err(format!("entry {n} at {off}: header size {eh} is below 16"));
        }
        let start = off + eh as u64;
        let Some(stop) = table_end(start, 1, payload, end as usize) else {
            return err(format!(
                "entry {n} at {off}: {payload} bytes of payload after a {eh}-byte header pass the declared end {end}"
            ));
        };
        let body = &img[start as usize..stop as usize];
        if body.starts_with(b"\x7fELF") {
            elf(body).map_err(|e| format!("fatbin entry {n}: {e}"))?;
        }
        off = stop;
        n += 1;
    }
    if n == 0 {
        return err("no entry".into());
    }
    Ok(())
}

/// The ELF-64 checks of the module docs.
fn elf(img: &[u8]) -> Result<(), String> {
    let len = img.len();
    let err = |what: String| Err(format!("truncated or corrupt cubin: {what}"));
    if len < 64 {
        return err(format!("{len} bytes, the ELF header takes 64"));
    }
    if img[4] != 2 || img[5] != 1 || img[6] != 1 {
        return err(format!(
            "not ELF-64 little-endian version 1 (class {}, data {}, version {})",
            img[4], img[5], img[6]
        ));
    }
    let h16 = |o| u16_at(img, o).unwrap_or(0);
    let h64 = |o| u64_at(img, o).unwrap_or(0);
    let machine = h16(18);
    if machine != EM_CUDA {
        return err(format!("e_machine {machine}, not EM_CUDA ({EM_CUDA})"));
    }
    let ehsize = h16(52);
    if ehsize < 64 || ehsize as usize > len {
        return err(format!("e_ehsize {ehsize}"));
    }
    let (phoff, phentsize, phnum) = (h64(32), h16(54), h16(56));
    if phnum > 0 {
        if phentsize != 56 {
            return err(format!(
                "e_phentsize {phentsize}, ELF-64 program headers take 56"
            ));
        }
        if table_end(phoff, phnum as u64, 56, len).is_none() {
            return err(format!(
                "{phnum} program headers at {phoff} pass the end of the {len}-byte image"
            ));
        }
        for i in 0..phnum as u64 {
            let p = (phoff + i * 56) as usize;
            let (off, filesz) = (h64(p + 8), h64(p + 32));
            if table_end(off, 1, filesz, len).is_none() {
                return err(format!(
                    "segment {i}: {filesz} bytes at {off} pass the end of the {len}-byte image"
                ));
            }
        }
    }
    let (shoff, shentsize, shnum, shstrndx) = (h64(40), h16(58), h16(60), h16(62));
    if shnum == 0 {
        if shoff != 0 {
            return err("extended section numbering (e_shnum 0, e_shoff set)".into());
        }
        return Ok(());
    }
    if shentsize != 64 {
        return err(format!(
            "e_shentsize {shentsize}, ELF-64 section headers take 64"
        ));
    }
    if table_end(shoff, shnum as u64, 64, len).is_none() {
        return err(format!(
            "{shnum} section headers at {shoff} pass the end of the {len}-byte image"
        ));
    }
    struct Sec {
        ty: u32,
        name: u32,
        off: u64,
        size: u64,
        link: u32,
        info: u32,
        entsize: u64,
    }
    let secs: Vec<Sec> = (0..shnum as usize)
        .map(|i| {
            let s = shoff as usize + i * 64;
            Sec {
                name: u32_at(img, s).unwrap_or(0),
                ty: u32_at(img, s + 4).unwrap_or(0),
                off: h64(s + 24),
                size: h64(s + 32),
                link: u32_at(img, s + 40).unwrap_or(0),
                info: u32_at(img, s + 44).unwrap_or(0),
                entsize: h64(s + 56),
            }
        })
        .collect();
    for (i, s) in secs.iter().enumerate() {
        if s.ty != SHT_NOBITS && table_end(s.off, 1, s.size, len).is_none() {
            return err(format!(
                "section {i}: {} bytes at {} pass the end of the {len}-byte image",
                s.size, s.off
            ));
        }
        if s.link >= shnum as u32 {
            return err(format!("section {i}: sh_link {} names no section", s.link));
        }
    }
    let bytes = |s: &Sec| &img[s.off as usize..(s.off + s.size) as usize];
    // A NUL-terminated string at `at` inside string table `t`.
    let string_in = |t: &Sec, at: u32| -> bool {
        t.ty == SHT_STRTAB && (at as u64) < t.size && bytes(t)[at as usize..].contains(&0)
    };
    if shstrndx >= shnum {
        return err(format!("e_shstrndx {shstrndx} names no section"));
    }
    let names = &secs[shstrndx as usize];
    for (i, s) in secs.iter().enumerate().skip(1) {
        if !string_in(names, s.name) {
            return err(format!(
                "section {i}: its name at {} is not a string of the section-name table",
                s.name
            ));
        }
    }
    for (i, s) in secs.iter().enumerate() {
        match s.ty {
            SHT_SYMTAB | SHT_DYNSYM => {
                if s.entsize != 24 || s.size % 24 != 0 {
                    return err(format!(
                        "symbol table {i}: entries of {} bytes in {}, ELF-64 symbols take 24",
                        s.entsize, s.size
                    ));
                }
                let strtab = &secs[s.link as usize];
                for (k, sym) in bytes(s).chunks_exact(24).enumerate().skip(1) {
                    let name = u32_at(sym, 0).unwrap_or(0);
                    let shndx = u16_at(sym, 6).unwrap_or(0);
                    if name != 0 && !string_in(strtab, name) {
                        return err(format!(
                            "symbol {k} of section {i}: its name at {name} is not in its string table"
                        ));
                    }
                    if shndx < SHN_LORESERVE && shndx >= shnum {
                        return err(format!(
                            "symbol {k} of section {i}: section index {shndx} names no section"
                        ));
                    }
                }
            }
            SHT_REL | SHT_RELA => {
                let want = if s.ty == SHT_REL { 16 } else { 24 };
                if s.entsize != want || s.size % want != 0 {
                    return err(format!(
                        "relocation section {i}: entries of {} bytes in {}, want {want}",
                        s.entsize, s.size
                    ));
                }
                let symtab = &secs[s.link as usize];
                if !matches!(symtab.ty, SHT_SYMTAB | SHT_DYNSYM) || s.info >= shnum as u32 {
                    return err(format!(
                        "relocation section {i}: sh_link {} is no symbol table or sh_info {} no section",
                        s.link, s.info
                    ));
                }
                let nsyms = symtab.size / 24;
                for (k, r) in bytes(s).chunks_exact(want as usize).enumerate() {
                    let sym = u64_at(r, 8).unwrap_or(0) >> 32;
                    if sym >= nsyms {
                        return err(format!(
                            "relocation {k} of section {i}: symbol {sym} of {nsyms}"
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal ELF-64 EM_CUDA image built here from the gABI's field offsets: header, a
    /// section-name table and one symbol table with its string table.
    fn tiny_elf() -> Vec<u8> {
        let shstr = b"\0.shstrtab\0.strtab\0.symtab\0".to_vec();
        let strtab = b"\0k\0".to_vec();
        let mut sym = vec![0u8; 48];
        sym[24..28].copy_from_slice(&1u32.to_le_bytes()); // symbol 1 named "k"
        let mut img = vec![0u8; 64];
        img[..4].copy_from_slice(b"\x7fELF");
        img[4] = 2;
        img[5] = 1;
        img[6] = 1;
        img[18..20].copy_from_slice(&EM_CUDA.to_le_bytes());
        img[52..54].copy_from_slice(&64u16.to_le_bytes());
        let shstr_off = img.len() as u64;
        img.extend(&shstr);
        let str_off = img.len() as u64;
        img.extend(&strtab);
        let sym_off = img.len() as u64;
        img.extend(&sym);
        let shoff = img.len() as u64;
        let sh = |name: u32, ty: u32, off: u64, size: u64, link: u32, ent: u64| {
            let mut s = vec![0u8; 64];
            s[0..4].copy_from_slice(&name.to_le_bytes());
            s[4..8].copy_from_slice(&ty.to_le_bytes());
            s[24..32].copy_from_slice(&off.to_le_bytes());
            s[32..40].copy_from_slice(&size.to_le_bytes());
            s[40..44].copy_from_slice(&link.to_le_bytes());
            s[56..64].copy_from_slice(&ent.to_le_bytes());
            s
        };
        img.extend(sh(0, 0, 0, 0, 0, 0));
        img.extend(sh(1, SHT_STRTAB, shstr_off, shstr.len() as u64, 0, 0));
        img.extend(sh(11, SHT_STRTAB, str_off, strtab.len() as u64, 0, 0));
        img.extend(sh(19, SHT_SYMTAB, sym_off, 48, 2, 24));
        img[40..48].copy_from_slice(&shoff.to_le_bytes());
        img[58..60].copy_from_slice(&64u16.to_le_bytes());
        img[60..62].copy_from_slice(&4u16.to_le_bytes());
        img[62..64].copy_from_slice(&1u16.to_le_bytes());
        img
    }

    #[test]
    fn a_sound_elf_passes_and_each_declared_size_past_the_end_fails() {
        let img = tiny_elf();
        assert_eq!(validate_image(&img), Ok(ImageKind::Cubin));
        // Truncated anywhere: the section headers end the image.
        for cut in [4, 63, 64, img.len() - 1] {
            let e = validate_image(&img[..cut]).unwrap_err();
            assert!(e.contains("truncated or corrupt cubin"), "{cut}: {e}");
        }
        let shoff = u64_at(&img, 40).unwrap() as usize;
        // A section whose bytes pass the end.
        let mut bad = img.clone();
        bad[shoff + 3 * 64 + 32..shoff + 3 * 64 + 40].copy_from_slice(&4096u64.to_le_bytes());
        assert!(validate_image(&bad)
            .unwrap_err()
            .contains("section 3: 4096 bytes"));
        // A section name outside the name table.
        let mut bad = img.clone();
        bad[shoff + 2 * 64..shoff + 2 * 64 + 4].copy_from_slice(&999u32.to_le_bytes());
        assert!(validate_image(&bad)
            .unwrap_err()
            .contains("section 2: its name at 999"));
        // A symbol name outside its string table.
        let sym_off = u64_at(&img, shoff + 3 * 64 + 24).unwrap() as usize;
        let mut bad = img.clone();
        bad[sym_off + 24..sym_off + 28].copy_from_slice(&77u32.to_le_bytes());
        assert!(validate_image(&bad)
            .unwrap_err()
            .contains("symbol 1 of section 3"));
        // e_shstrndx past the table.
        let mut bad = img.clone();
        bad[62..64].copy_from_slice(&9u16.to_le_bytes());
        assert!(validate_image(&bad).unwrap_err().contains("e_shstrndx 9"));
        // Program headers past the end.
        let mut bad = img.clone();
        bad[54..56].copy_from_slice(&56u16.to_le_bytes());
        bad[56..58].copy_from_slice(&3u16.to_le_bytes());
        bad[32..40].copy_from_slice(&(img.len() as u64 - 100).to_le_bytes());
        assert!(validate_image(&bad)
            .unwrap_err()
            .contains("3 program headers"));
        // Not EM_CUDA, not ELF-64.
        let mut bad = img.clone();
        bad[18] = 62;
        assert!(validate_image(&bad).unwrap_err().contains("EM_CUDA"));
        let mut bad = img;
        bad[4] = 1;
        assert!(validate_image(&bad).unwrap_err().contains("ELF-64"));
    }

    #[test]
    fn fatbins_are_checked_against_their_declared_sizes() {
        let elf = tiny_elf();
        let mut fb = Vec::new();
        fb.extend(FATBIN_MAGIC.to_le_bytes());
        fb.extend(1u16.to_le_bytes());
        fb.extend(16u16.to_le_bytes());
        fb.extend((64 + elf.len() as u64).to_le_bytes());
        let mut entry = vec![0u8; 64];
        entry[0..2].copy_from_slice(&2u16.to_le_bytes());
        entry[4..8].copy_from_slice(&64u32.to_le_bytes());
        entry[8..16].copy_from_slice(&(elf.len() as u64).to_le_bytes());
        fb.extend(&entry);
        fb.extend(&elf);
        assert_eq!(validate_image(&fb), Ok(ImageKind::Fatbin));
        let e = validate_image(&fb[..fb.len() - 1]).unwrap_err();
        assert!(e.contains("bytes of entries after 16"), "{e}");
        let e = validate_image(&fb[..10]).unwrap_err();
        assert!(e.contains("the header takes 16"), "{e}");
        // The entry's payload passes the declared end.
        let mut bad = fb.clone();
        bad[24..32].copy_from_slice(&(elf.len() as u64 + 1).to_le_bytes());
        assert!(validate_image(&bad).unwrap_err().contains("entry 0 at 16"));
        // The inner ELF is checked within its entry.
        let mut bad = fb;
        let inner = 16 + 64;
        bad[inner + 62..inner + 64].copy_from_slice(&9u16.to_le_bytes());
        assert!(validate_image(&bad).unwrap_err().contains("fatbin entry 0"));
        let mut wrapper = FATBINC_WRAPPER_MAGIC.to_le_bytes().to_vec();
        wrapper.extend([0u8; 20]);
        assert!(validate_image(&wrapper).unwrap_err().contains("wrapper"));
    }

    #[test]
    fn ptx_text_is_text_with_or_without_a_nul() {
        assert_eq!(
            validate_image(b".version 8.6\n.target sm_90\n"),
            Ok(ImageKind::Ptx { nul: false })
        );
        assert_eq!(
            validate_image(b".version 8.6\0garbage\xff"),
            Ok(ImageKind::Ptx { nul: true })
        );
        for bad in [&b""[..], b"\0", b"\x01\x02\x03\x04", b"\xff\xfe"] {
            assert!(validate_image(bad).unwrap_err().contains("not a cubin"));
        }
    }
}
