//! A kernel's `.param` list read from the PTX text, and a [`KernelParams`] struct checked field by
//! field against it ([`ParamMismatch`]).

use super::*;

/// One `.param` of a kernel in PTX: its index, byte offset in the parameter buffer (each
/// parameter at its alignment, PTX ISA §5.1.6.1), size and alignment, and its `.ptr` attribute
/// (§5.1.6.3) if it has one.
///
/// ```
/// use ptx_sync_host::cuda::{ptx_params, PtrAttr, PtxParam};
/// let ptx = ".visible .entry k(\n.param .u32 k_param_0,\n.param .u64 .ptr .global .align 8 k_param_1\n)\n{ ret; }";
/// let ptr = Some(PtrAttr { space: Some("global".into()), align: Some(8) });
/// assert_eq!(ptx_params(ptx, "k").unwrap()[1], PtxParam { index: 1, offset: 8, size: 8, align: 8, ptr });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxParam {
    /// Position in the list.
    pub index: usize,
    /// Byte offset in the parameter buffer.
    pub offset: usize,
    /// Size in bytes.
    pub size: usize,
    /// Alignment in bytes.
    pub align: usize,
    /// The `.ptr` attribute: the parameter is a pointer to memory (PTX ISA §5.1.6.3).
    pub ptr: Option<PtrAttr>,
}

/// A `.ptr` attribute: `.ptr [.space] [.align N]` (PTX ISA §5.1.6.3: "If no alignment is
/// specified, the memory pointed to is assumed to be aligned to a 4 byte boundary").
///
/// ```
/// let a = ptx_sync_host::cuda::PtrAttr { space: None, align: None };
/// assert_eq!(a.pointee_align(), 4);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtrAttr {
    /// `global`, `const`, `local` or `shared`; `None`: a generic address.
    pub space: Option<String>,
    /// The `.align N` of the memory pointed to.
    pub align: Option<usize>,
}

impl PtrAttr {
    /// The alignment the memory pointed to has: `N`, or 4 without `.align`.
    ///
    /// ```
    /// let a = ptx_sync_host::cuda::PtrAttr { space: None, align: Some(16) };
    /// assert_eq!(a.pointee_align(), 16);
    /// ```
    pub fn pointee_align(&self) -> usize {
        self.align.unwrap_or(4)
    }
}

/// PTX text with `//` and `/* */` comments removed.
pub(super) fn strip_ptx_comments(ptx: &str) -> String {
    let mut out = String::with_capacity(ptx.len());
    let mut rest = ptx;
    while let Some(i) = rest.find('/') {
        out.push_str(&rest[..i]);
        let r = &rest[i..];
        if r.starts_with("//") {
            rest = r.find('\n').map_or("", |k| &r[k..]);
        } else if r.starts_with("/*") {
            rest = r.find("*/").map_or("", |k| &r[k + 2..]);
        } else {
            out.push('/');
            rest = &r[1..];
        }
    }
    out.push_str(rest);
    out
}

/// Whether `w` occurs in `text` as a whole PTX identifier.
pub(super) fn has_word(text: &str, w: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    text.match_indices(w).any(|(i, _)| {
        !text[..i].chars().next_back().is_some_and(ident)
            && !text[i + w.len()..].chars().next().is_some_and(ident)
    })
}

/// The functions of a module: name → (whether it is an `.entry`, its body).
pub(super) fn ptx_bodies(ptx: &str) -> BTreeMap<String, (bool, String)> {
    let text = strip_ptx_comments(ptx);
    let mut out = BTreeMap::new();
    let mut pos = 0;
    while let Some(k) = [".entry", ".func"]
        .iter()
        .filter_map(|kw| {
            text[pos..]
                .find(kw)
                .map(|i| (pos + i, kw.len(), *kw == ".entry"))
        })
        .min()
    {
        let (at, kwlen, entry) = k;
        pos = at + kwlen;
        let mut rest = text[pos..].trim_start();
        if rest.starts_with('(') {
            // A `.func`'s return parameters.
            rest = rest.find(')').map_or("", |i| rest[i + 1..].trim_start());
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
            .collect();
        // The body: the `{` after the header's statement, up to its matching `}`; a `;` first
        // means a declaration without a body.
        let from = text.len() - rest.len();
        let Some(open) = text[from..].find(['{', ';']).map(|i| from + i) else {
            break;
        };
        if text.as_bytes()[open] == b';' || name.is_empty() {
            pos = open + 1;
            continue;
        }
        let mut depth = 0usize;
        let mut end = text.len();
        for (i, c) in text[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.insert(name, (entry, text[open..end].to_string()));
        pos = end;
    }
    out
}

/// The `.extern .shared` arrays of `ptx` (dynamic shared memory: PTX ISA §5.1.5, "the size of
/// an `.extern` shared array is given at launch") that kernel `name` uses, in its own body or
/// in a function it calls (transitively).
///
/// ```
/// let ptx = ".extern .shared .align 1024 .b8 __ptx_sync_dyn_smem[];\n\
///            .visible .entry k() { mov.u64 %rd1, __ptx_sync_dyn_smem; ret; }\n\
///            .visible .entry j() { ret; }\n";
/// assert_eq!(ptx_sync_host::cuda::dynamic_shared_arrays(ptx, "k"), ["__ptx_sync_dyn_smem"]);
/// assert!(ptx_sync_host::cuda::dynamic_shared_arrays(ptx, "j").is_empty());
/// ```
pub fn dynamic_shared_arrays(ptx: &str, name: &str) -> Vec<String> {
    let text = strip_ptx_comments(ptx);
    let mut externs = Vec::new();
    for stmt in text.split(';') {
        let toks: Vec<&str> = stmt.split_whitespace().collect();
        if toks.contains(&".extern") && toks.contains(&".shared") {
            if let Some(last) = toks.last() {
                let id: String = last
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
                    .collect();
                if !id.is_empty() {
                    externs.push(id);
                }
            }
        }
    }
    if externs.is_empty() {
        return externs;
    }
    let bodies = ptx_bodies(ptx);
    let mut seen = vec![name.to_string()];
    let mut k = 0;
    while k < seen.len() {
        if let Some((_, body)) = bodies.get(&seen[k]) {
            for f in bodies.keys() {
                if !seen.contains(f) && has_word(body, f) {
                    seen.push(f.clone());
                }
            }
        }
        k += 1;
    }
    externs
        .into_iter()
        .filter(|x| {
            seen.iter()
                .any(|f| bodies.get(f).is_some_and(|(_, b)| has_word(b, x)))
        })
        .collect()
}

/// The `.param` list of kernel `name` in `ptx`, in order, or `None` if the kernel is not there.
/// Scalars (`.param .u64 .ptr .align 1 k_param_0`: the `.align` of a `.ptr` is the pointee's)
/// are their type's size and alignment; arrays (`.param .align 64 .b8 k_param_0[128]`) their
/// length and `.align`.
///
/// ```
/// let ptx = ".visible .entry t(\n.param .align 64 .b8 t_param_0[128],\n.param .u32 t_param_1\n)\n";
/// let p = ptx_sync_host::cuda::ptx_params(ptx, "t").unwrap();
/// assert_eq!((p[0].size, p[0].align, p[1].offset), (128, 64, 128));
/// ```
pub fn ptx_params(ptx: &str, name: &str) -> Option<Vec<PtxParam>> {
    let head = format!(".entry {name}(");
    let start = ptx.find(&head)? + head.len();
    let end = start + ptx[start..].find(')')?;
    let mut out = Vec::new();
    let mut off = 0usize;
    for p in ptx[start..end].split(',') {
        let p = p.trim();
        if p.is_empty() {
            continue;
        }
        // `.ptr.global.align 16` is `.ptr .global .align 16` (§5.1.6.3).
        let spaced = p.replace('.', " .");
        let toks: Vec<&str> = spaced.split_whitespace().collect();
        let after = |kw: &str| {
            toks.iter()
                .position(|t| *t == kw)
                .and_then(|k| toks.get(k + 1))
                .and_then(|a| a.parse::<usize>().ok())
        };
        let ptr_at = toks.iter().position(|t| *t == ".ptr");
        let (size, align) = if let Some(lb) = p.find('[') {
            let size: usize = p[lb + 1..p.find(']')?].parse().ok()?;
            (size, after(".align").unwrap_or(1))
        } else {
            let ty = toks.iter().find(|t| {
                t.len() > 2
                    && t.starts_with(['.'])
                    && matches!(t.as_bytes()[1], b'u' | b's' | b'b' | b'f')
                    && t[2..].bytes().all(|c| c.is_ascii_digit())
            })?;
            let bits: usize = ty[2..].parse().ok()?;
            (bits / 8, bits / 8)
        };
        let ptr = ptr_at.map(|k| {
            let tail = &toks[k + 1..];
            PtrAttr {
                space: tail.first().and_then(|t| {
                    ["global", "const", "local", "shared"]
                        .into_iter()
                        .find(|s| t.strip_prefix('.') == Some(*s))
                        .map(String::from)
                }),
                align: tail
                    .iter()
                    .position(|t| *t == ".align")
                    .and_then(|i| tail.get(i + 1))
                    .and_then(|a| a.parse().ok()),
            }
        });
        let align: usize = align.max(1);
        off = off.div_ceil(align) * align;
        out.push(PtxParam {
            index: out.len(),
            offset: off,
            size,
            align,
            ptr,
        });
        off += size;
    }
    Some(out)
}

/// A parameter struct that differs from the kernel's `.param` list, or a launch whose values the
/// PTX refuses, naming the field and the parameter.
///
/// ```
/// use ptx_sync_host::cuda::{check_params, kernel_params, ptx_params};
/// kernel_params! { pub struct P { pub n: u32, pub _pad: u32, pub out: *mut u32 } }
/// let ptx = ".entry k(\n.param .u64 k_param_0,\n.param .u32 k_param_1\n)";
/// let e = check_params::<P>("k", &ptx_params(ptx, "k").unwrap()).unwrap_err();
/// assert!(e.to_string().contains("field `n`"), "{e}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamMismatch {
    /// The kernel.
    pub kernel: String,
    /// The parameter struct's type name.
    pub params: &'static str,
    /// What differs, one sentence.
    pub detail: String,
}

impl fmt::Display for ParamMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "parameters of kernel {}: {} {}",
            self.kernel, self.params, self.detail
        )
    }
}

impl std::error::Error for ParamMismatch {}

/// The fields of `P` that are parameters (`_…` fields are explicit padding).
pub(super) fn param_fields<P: KernelParams>() -> Vec<&'static Field> {
    P::FIELDS
        .iter()
        .filter(|f| !f.name.starts_with('_'))
        .collect()
}

/// Compares `P`'s fields one by one with `list` (offset and size of the `i`-th field against
/// parameter `i`); fields named `_…` are explicit padding and skipped. A parameter the PTX
/// declares `.ptr` (PTX ISA §5.1.6.3) must be a pointer field (`*const T`/`*mut T`), and where
/// it declares `.align N` with `N > 1` (the alignment of the memory it points to), `T`'s
/// alignment must be `N` — unless `T` is a byte type (`align_of` 1: untyped memory; the launch
/// then checks the address against `N`). A pointer field whose parameter has no `.ptr` is
/// accepted: nvcc's PTX declares pointers as plain `.u64`. Returns the number of bytes to pass
/// (the end of the last parameter).
///
/// ```
/// use ptx_sync_host::cuda::{check_params, kernel_params, ptx_params};
/// kernel_params! { pub struct P { pub out: *mut u32, pub n: u32, pub _pad: u32 } }
/// let ptx = ".entry k(\n.param .u64 .ptr .align 1 k_param_0,\n.param .u32 k_param_1\n)";
/// assert_eq!(check_params::<P>("k", &ptx_params(ptx, "k").unwrap()), Ok(12));
/// ```
pub fn check_params<P: KernelParams>(
    kernel: &str,
    list: &[PtxParam],
) -> Result<usize, ParamMismatch> {
    let err = |detail: String| ParamMismatch {
        kernel: kernel.into(),
        params: std::any::type_name::<P>(),
        detail,
    };
    // Fields named `_...` are explicit padding (kernel_params! forbids implicit padding): they
    // are bytes of the buffer, not parameters.
    let fields = param_fields::<P>();
    for (i, f) in fields.iter().enumerate() {
        match list.get(i) {
            Some(p) if p.offset == f.offset && p.size == f.size => {
                if let Some(ptr) = &p.ptr {
                    let Some(pointee) = f.pointee else {
                        return Err(err(format!(
                            "field `{}` is a value ({}) where .param #{i} is a pointer (.ptr)",
                            f.name, f.ty
                        )));
                    };
                    let n = ptr.pointee_align();
                    if ptr.align.is_some() && n > 1 && pointee.align > 1 && pointee.align != n {
                        return Err(err(format!(
                            "field `{}` ({}) points to {}-byte-aligned elements; .param #{i} points to memory aligned to {n} (.ptr .align {n})",
                            f.name, f.ty, pointee.align
                        )));
                    }
                }
            }
            Some(p) => {
                return Err(err(format!(
                "field `{}` (offset {}, {} bytes) differs from .param #{i} (offset {}, {} bytes)",
                f.name, f.offset, f.size, p.offset, p.size
            )))
            }
            None => {
                return Err(err(format!(
                    "field `{}` has no .param: the kernel takes {} parameter(s)",
                    f.name,
                    list.len()
                )))
            }
        }
    }
    if let Some(p) = list.get(fields.len()) {
        return Err(err(format!(
            "has {} parameter field(s); the kernel's .param #{} (offset {}, {} bytes) has no field",
            fields.len(),
            p.index,
            p.offset,
            p.size
        )));
    }
    Ok(list.last().map_or(0, |p| p.offset + p.size))
}

/// The launch-time half of the check, on the values of `p` (after [`check_params`]): every
/// pointer field (a `*const T`/`*mut T` field, or a parameter the PTX declares `.ptr`) holds
/// null or an address inside a live allocation of `ctx`'s device, aligned to `T` and to the
/// `.ptr .align` (4 without one, PTX ISA §5.1.6.3), with room for one `T`; an allocation made
/// for elements of another size ([`Device::upload`], [`Device::alloc_for`]) is refused — two
/// pointers of different element types swapped. Errors name the field and the parameter.
pub(super) fn check_values<P: KernelParams>(
    kernel: &str,
    list: &[PtxParam],
    p: &P,
    ctx: &Ctx,
) -> Result<(), ParamMismatch> {
    let err = |detail: String| ParamMismatch {
        kernel: kernel.into(),
        params: std::any::type_name::<P>(),
        detail,
    };
    let bytes = p.as_bytes();
    for (i, f) in param_fields::<P>().into_iter().enumerate() {
        let attr = list.get(i).and_then(|p| p.ptr.as_ref());
        let Some(pointee) = f.pointee else {
            continue;
        };
        let Some(v) = bytes
            .get(f.offset..f.offset + 8)
            .and_then(|b| b.try_into().ok())
            .map(u64::from_le_bytes)
        else {
            continue;
        };
        if v == 0 {
            continue; // null: the kernel decides what it means
        }
        let Some((start, a)) = ctx.find(v) else {
            return Err(err(format!(
                "field `{}` ({}, .param #{i}) holds {v:#x}, which is in no live allocation of this device: a value where a pointer is expected, or freed memory (memory from elsewhere: launch_unchecked)",
                f.name, f.ty
            )));
        };
        let align = pointee.align.max(attr.map_or(1, PtrAttr::pointee_align));
        if v % align as u64 != 0 {
            return Err(err(format!(
                "field `{}` ({}, .param #{i}) holds {v:#x}, not aligned to {align} bytes",
                f.name, f.ty
            )));
        }
        let left = start + a.bytes as u64 - v;
        if left < pointee.size as u64 {
            return Err(err(format!(
                "field `{}` ({}, .param #{i}) points {left} byte(s) before the end of a {}-byte allocation: no room for one {}-byte element",
                f.name, f.ty, a.bytes, pointee.size
            )));
        }
        if let Some(e) = a.elem {
            if e.size != pointee.size && e.size > 1 && pointee.size > 1 {
                return Err(err(format!(
                    "field `{}` ({}, {}-byte elements, .param #{i}) points into a buffer of {} ({}-byte elements) at {start:#x}: pointers swapped?",
                    f.name, f.ty, pointee.size, e.name, e.size
                )));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    kernel_params! {
        struct Two { a: *mut u32, n: u32, _pad: u32 }
        struct Swapped { n: u32, _p: u32, a: *mut u32 }
        struct Short { a: *mut u32 }
        struct Wide { a: *mut u32, n: u64 }
    }

    const PTX: &str = ".visible .entry k(\n\t.param .u64 .ptr .align 1 k_param_0,\n\t.param .u32 k_param_1\n)\n{\n}\n.visible .entry t(\n\t.param .align 64 .b8 t_param_0[128],\n\t.param .u32 t_param_1\n)\n";

    #[test]
    fn param_lists_and_checks() {
        let k = ptx_params(PTX, "k").unwrap();
        assert_eq!(
            k.iter().map(|p| (p.offset, p.size)).collect::<Vec<_>>(),
            [(0, 8), (8, 4)]
        );
        let t = ptx_params(PTX, "t").unwrap();
        assert_eq!(
            t.iter()
                .map(|p| (p.offset, p.size, p.align))
                .collect::<Vec<_>>(),
            [(0, 128, 64), (128, 4, 4)]
        );
        assert_eq!(ptx_params(PTX, "nope"), None);
        assert_eq!(check_params::<Two>("k", &k), Ok(12));
        let e = check_params::<Swapped>("k", &k).unwrap_err().to_string();
        assert!(
            e.contains("field `n` (offset 0, 4 bytes) differs from .param #0 (offset 0, 8 bytes)"),
            "{e}"
        );
        let e = check_params::<Short>("k", &k).unwrap_err().to_string();
        assert!(
            e.contains(".param #1 (offset 8, 4 bytes) has no field"),
            "{e}"
        );
        let e = check_params::<Wide>("k", &k).unwrap_err().to_string();
        assert!(e.contains("field `n` (offset 8, 8 bytes)"), "{e}");
        let e = check_params::<Two>("t", &t).unwrap_err().to_string();
        assert!(e.contains("field `a`"), "{e}");
    }

    #[test]
    fn errors_are_single_lines() {
        for e in [
            CudaError::NoDriver,
            CudaError::NoDevice("x".into()),
            CudaError::OldDriver("x".into()),
            CudaError::Hung { secs: 60 },
            CudaError::Timeout {
                kernel: "k".into(),
                status: 2,
            },
            CudaError::Jit {
                what: "the PTX".into(),
                log: "a | b".into(),
            },
        ] {
            let s = e.to_string();
            assert!(!s.contains('\n') && !s.is_empty(), "{s}");
        }
        assert!(CudaError::Timeout {
            kernel: "k".into(),
            status: 2
        }
        .to_string()
        .contains("0x2"));
    }
}
