//! From the rows to Rust and Markdown: the `tok!` table, each family file's traits, markers and
//! `asm!` leaves, its catalog rows, the catalog kernel's call list, and the docs tables.

use super::parse::{Form, Isa, Item, RowsFile, SlotValue, TraitDecl};
use std::collections::BTreeMap;
use std::fmt::Write;

mod tables;
// `doc_table` serves xtask and `device/tests/isa.rs`, which include this generator too; the
// build script does not call it.
#[allow(unused_imports)]
pub use tables::{calls, doc_table, family_enum};

/// The first line of every generated file.
pub fn header(from: &str) -> String {
    format!(
        "// generated from {from} by device/build.rs (device/isa/gen): do not edit — edit the rows\n"
    )
}

/// One slot combination: slot name → value.
type Combo<'a> = Vec<(&'a str, &'a SlotValue)>;

/// Every combination of a form's slots, the first slot outermost.
fn combos(f: &Form) -> Vec<Combo<'_>> {
    let mut out: Vec<Combo> = vec![Vec::new()];
    for s in &f.slots {
        out = out
            .into_iter()
            .flat_map(|c| {
                s.values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push((s.name.as_str(), v));
                    c
                })
            })
            .collect();
    }
    out
}

/// The forms of `file` with their combinations, in the order of the catalog and of the kernel:
/// the file's order, except that the forms of a group are expanded together — each combination
/// of the group's slots, every form of the group — at the place of its first form.
fn expansion(file: &RowsFile) -> Vec<(&Form, Combo<'_>)> {
    let mut out = Vec::new();
    let mut done: Vec<&str> = Vec::new();
    for item in &file.items {
        let Item::Form(f) = item else { continue };
        match &f.group {
            None => out.extend(combos(f).into_iter().map(|c| (&**f, c))),
            Some(g) if done.contains(&g.as_str()) => {}
            Some(g) => {
                done.push(g);
                out.extend(group_expansion(file, g));
            }
        }
    }
    out
}

/// The forms of group `g`, combination-major.
fn group_expansion<'a>(file: &'a RowsFile, g: &str) -> Vec<(&'a Form, Combo<'a>)> {
    let n = file
        .items
        .iter()
        .find_map(|i| match i {
            Item::Group(name, slots) if name == g => Some(slots.len()),
            _ => None,
        })
        .unwrap_or(0);
    let members: Vec<&Form> = file
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Form(f) if f.group.as_deref() == Some(g) => Some(&**f),
            _ => None,
        })
        .collect();
    let key = |c: &Combo| {
        c[..n]
            .iter()
            .map(|(_, v)| v.name.clone())
            .collect::<Vec<_>>()
    };
    let mut prefixes: Vec<Vec<String>> = Vec::new();
    for c in combos(members[0]) {
        if !prefixes.contains(&key(&c)) {
            prefixes.push(key(&c));
        }
    }
    let mut out = Vec::new();
    for p in prefixes {
        for m in &members {
            out.extend(
                combos(m)
                    .into_iter()
                    .filter(|c| key(c) == p)
                    .map(|c| (*m, c)),
            );
        }
    }
    out
}

/// How a `$name` is expanded.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// PTX text: a slot is its value's token, `$Marker` a token.
    Ptx,
    /// Rust text: a slot is its value's name, `$slot.prop` a property, `$slot.tok` its token;
    /// anything else (`$p`, `$out`, `$crate`) stays.
    Rust,
}

pub struct Ctx<'a> {
    pub isa: &'a Isa,
    pub path: &'a str,
}

impl Ctx<'_> {
    fn token(&self, key: &str, line: usize) -> Result<&str, String> {
        self.isa.token(key, self.path, line)
    }

    /// Expands the `$…` of `t` for one combination.
    fn expand(&self, t: &str, c: &Combo, mode: Mode, line: usize) -> Result<String, String> {
        let mut out = String::new();
        let mut rest = t;
        while let Some((before, name, after)) = super::next_var(rest) {
            out.push_str(before);
            let mut tail = after;
            let slot = c.iter().find(|(s, _)| *s == name).map(|(_, v)| *v);
            if name.is_empty() && tail.starts_with('{') && mode == Mode::Ptx {
                // `${Key $slot.prop}`: a token whose key is several words.
                let close = tail
                    .find('}')
                    .ok_or_else(|| format!("{}:{line}: `${{` without `}}`", self.path))?;
                let key = self.expand(&tail[1..close], c, Mode::Rust, line)?;
                let key = key.split_whitespace().collect::<Vec<_>>().join(" ");
                out.push_str(self.token(&key, line)?);
                rest = &tail[close + 1..];
                continue;
            }
            // `$slot.prop`: the property that follows, if any.
            let prop = tail
                .strip_prefix('.')
                .map(|p| p.split_at(super::ident_len(p)));
            match (slot, mode) {
                (Some(v), Mode::Ptx) => match prop {
                    // `$slot` is its value's token, `$slot.prop` the token the property names,
                    // or the property itself when it names none (`1d`, an operand list).
                    Some((p, r)) if v.props.contains_key(p) => {
                        let val = &v.props[p];
                        match self.isa.tokens.iter().find(|t| t.key == *val) {
                            Some(t) => out.push_str(&t.text),
                            None => out.push_str(val),
                        }
                        tail = r;
                    }
                    _ => out.push_str(self.token(&v.name, line)?),
                },
                (Some(v), Mode::Rust) => match prop {
                    Some(("tok", r)) => {
                        out.push_str(self.token(&v.name, line)?);
                        tail = r;
                    }
                    Some((p, r)) if !p.is_empty() => {
                        out.push_str(v.props.get(p).map(String::as_str).unwrap_or(""));
                        tail = r;
                    }
                    _ => out.push_str(&v.name),
                },
                (None, Mode::Ptx) if name.starts_with(char::is_uppercase) => {
                    out.push_str(self.token(name, line)?)
                }
                (None, Mode::Ptx) => {
                    return Err(format!(
                        "{}:{line}: `${name}` is not a slot of this form",
                        self.path
                    ))
                }
                (None, Mode::Rust) => {
                    out.push('$');
                    out.push_str(name);
                }
            }
            rest = tail;
        }
        out.push_str(rest);
        Ok(out)
    }
}

/// `(id: u32, n: u32) -> u32` with an optional `<const N: u32>` before it.
struct Sig {
    generics: String,
    params: Vec<(String, String)>,
    ret: Option<String>,
}

fn sig(path: &str, line: usize, s: &str) -> Result<Sig, String> {
    let bad = || format!("{path}:{line}: expected `fn (a: T, …) -> R`, found `{s}`");
    let s = s.trim();
    let (generics, s) = if let Some(r) = s.strip_prefix('<') {
        let close = r.find('>').ok_or_else(bad)?;
        (format!("<{}>", &r[..close]), r[close + 1..].trim())
    } else {
        (String::new(), s)
    };
    let s = s.strip_prefix('(').ok_or_else(bad)?;
    let close = s.find(')').ok_or_else(bad)?;
    // Split at the commas outside `<…>` (a parameter of type `Mods<M, H>`).
    let mut params = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    let inner = &s[..close];
    for (i, ch) in inner
        .char_indices()
        .chain(std::iter::once((inner.len(), ',')))
    {
        match ch {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                let p = inner[start..i].trim();
                start = i + 1;
                if p.is_empty() {
                    continue;
                }
                // `self` (a method of the implementing type): no type.
                if p == "self" {
                    params.push(("self".to_string(), String::new()));
                    continue;
                }
                let (a, b) = p.split_once(':').ok_or_else(bad)?;
                params.push((a.trim().to_string(), b.trim().to_string()));
            }
            _ => {}
        }
    }
    let rest = s[close + 1..].trim();
    let ret = match rest.strip_prefix("->") {
        Some(r) => Some(r.trim().to_string()),
        None if rest.is_empty() => None,
        None => return Err(bad()),
    };
    Ok(Sig {
        generics,
        params,
        ret,
    })
}

/// The declaration of a leaf's output register `var` and the leaf's result for type `r` (a
/// `bool` is the 32-bit `selp` result of the block, `!= 0`).
fn result(var: &str, r: &str) -> (String, String) {
    if r == "bool" {
        (
            format!("let {var}: u32;\n        "),
            format!("\n        {var} != 0"),
        )
    } else {
        (
            format!("let {var}: {r};\n        "),
            format!("\n        {var}"),
        )
    }
}

/// The register class of an operand type.
fn reg(path: &str, line: usize, t: &str) -> Result<&'static str, String> {
    Ok(match t {
        "u16" | "i16" => "reg16",
        "u32" | "i32" | "f32" | "bool" => "reg32",
        "u64" | "i64" | "f64" => "reg64",
        _ => {
            return Err(format!(
                "{path}:{line}: no register class for `{t}`: give `asm` explicitly"
            ))
        }
    })
}

/// The `{name}` placeholders of an asm template, in order (`{{` is a literal brace).
fn placeholders(t: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = t.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'{' {
            if b.get(i + 1) == Some(&b'{') {
                i += 2;
                continue;
            }
            if let Some(j) = t[i + 1..].find('}') {
                let name = &t[i + 1..i + 1 + j];
                if !out.iter().any(|n| n == name) {
                    out.push(name.to_string());
                }
                i += j + 2;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// One expanded form: what a leaf and a catalog row need.
struct Leaf {
    /// `BarSync` or `ClusterArriveInstr<Aligned> for Release`.
    target: String,
    mnemonic: String,
    template: String,
    operands: String,
    pre: String,
    post: String,
    /// The form's `asm` and `host`, expanded for this combination.
    asm: Option<String>,
    host: Option<String>,
}

impl Ctx<'_> {
    fn leaf(&self, f: &Form, c: &Combo) -> Result<Leaf, String> {
        let mnemonic = self.expand(&f.ptx, c, Mode::Ptx, f.line)?;
        let operands = if f.ops.is_empty() {
            String::new()
        } else {
            format!(" {}", self.expand(&f.ops, c, Mode::Ptx, f.line)?)
        };
        let (pre, post) = if f.block.is_empty() || f.block == "none" {
            (String::new(), String::new())
        } else {
            let b = self
                .isa
                .blocks
                .iter()
                .find(|b| b.name == f.block)
                .ok_or_else(|| {
                    format!(
                        "{}:{}: no block `{}` in device/isa/blocks.rows",
                        self.path, f.line, f.block
                    )
                })?;
            (
                self.expand(&b.pre, c, Mode::Ptx, f.line)?,
                self.expand(&b.post, c, Mode::Ptx, f.line)?,
            )
        };
        let opt = |t: &Option<String>| -> Result<Option<String>, String> {
            t.as_ref()
                .map(|t| self.expand(t, c, Mode::Rust, f.line))
                .transpose()
        };
        Ok(Leaf {
            asm: opt(&f.asm)?,
            host: opt(&f.host)?,
            target: self.expand(&f.target, c, Mode::Rust, f.line)?,
            template: match &f.text {
                Some(t) => format!("{pre}{}{post}", t.replace('@', &mnemonic)),
                None => format!("{pre}{mnemonic}{operands};{post}"),
            },
            mnemonic,
            operands,
            pre,
            post,
        })
    }

    /// The leaf function: `unsafe fn f(params) -> R { asm!(…) }` (`public` for a marker's).
    fn leaf_fn(&self, f: &Form, l: &Leaf, public: bool) -> Result<String, String> {
        let s = sig(self.path, f.line, &f.sig)?;
        let mut ops = Vec::new();
        let mut out_decl = String::new();
        let mut out_ret = String::new();
        match &l.asm {
            Some(a) => {
                let a = a.clone();
                if let Some(r) = &s.ret {
                    // The outputs are the operands `name = out(class) var`: declared, returned
                    // (several: a tuple result, in their order).
                    let vars: Vec<String> = a
                        .split("out(")
                        .skip(1)
                        .filter_map(|t| t.split_once(')'))
                        .map(|(_, t)| {
                            t.trim_start()
                                .split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                                .next()
                                .unwrap_or("")
                                .to_string()
                        })
                        .filter(|v| !v.is_empty())
                        .collect();
                    match &vars[..] {
                        [] => {
                            return Err(format!(
                                "{}:{}: a leaf with a result needs an `out(…) var` operand in its `asm`",
                                self.path, f.line
                            ))
                        }
                        [var] => (out_decl, out_ret) = result(var, r),
                        vs => {
                            let t = vs.join(", ");
                            out_decl = format!("let ({t}): {r};\n        ");
                            out_ret = format!("\n        ({t})");
                        }
                    }
                }
                ops.push(a)
            }
            None => {
                let names = placeholders(&l.template);
                let free: Vec<&String> = names
                    .iter()
                    .filter(|n| !s.params.iter().any(|(p, _)| p == *n))
                    .collect();
                if let Some(r) = &s.ret {
                    let [d] = free[..] else {
                        return Err(format!(
                            "{}:{}: a leaf with a result needs exactly one placeholder that is not a \
                             parameter (its output), found {free:?}: give `asm` explicitly",
                            self.path, f.line
                        ));
                    };
                    (out_decl, out_ret) = result(d, r);
                    ops.push(format!("{d} = out({}) {d}", reg(self.path, f.line, r)?));
                } else if let Some(n) = free.first() {
                    match s.generics.strip_prefix("<const ") {
                        Some(g) => {
                            let cname = g.split(':').next().unwrap_or("").trim();
                            ops.push(format!("{n} = const {cname}"));
                        }
                        None => {
                            return Err(format!(
                                "{}:{}: placeholder `{{{n}}}` is not a parameter",
                                self.path, f.line
                            ))
                        }
                    }
                }
                for (p, t) in &s.params {
                    ops.push(format!("{p} = in({}) {p}", reg(self.path, f.line, t)?));
                }
            }
        }
        ops.push(format!("options({})", f.options));
        let params: Vec<String> = s
            .params
            .iter()
            .map(|(p, t)| {
                if t.is_empty() {
                    p.clone()
                } else {
                    format!("{p}: {t}")
                }
            })
            .collect();
        let ret = s
            .ret
            .as_ref()
            .map(|r| format!(" -> {r}"))
            .unwrap_or_default();
        let vis = if public { "pub " } else { "" };
        // SAFETY (in the generated text): a leaf's contract is its caller's — the `# Safety` of
        // the public call that reaches it (edition 2024: an `unsafe fn` body is not an unsafe
        // block).
        let asm = format!(
            "// SAFETY: the caller keeps this leaf's contract (its public call's `# Safety`).\n        \
             unsafe {{ core::arch::asm!({:?}, {}) }};",
            l.template,
            ops.join(", ")
        );
        let mut attrs = String::new();
        if public {
            attrs.push_str("    #[doc(hidden)]\n");
        }
        let body = match &l.host {
            None => {
                if !public {
                    attrs.push_str("    #[cfg(target_arch = \"nvptx64\")]\n");
                }
                format!("        {out_decl}{asm}{out_ret}\n")
            }
            Some(h) => {
                // The host arm is an unsafe block too (some arms call nothing unsafe).
                attrs.push_str("    #[allow(unused_variables, unused_unsafe)]\n");
                let nv = if out_decl.is_empty() {
                    asm
                } else {
                    format!("{out_decl}{asm}{out_ret}")
                };
                format!(
                    "        #[cfg(target_arch = \"nvptx64\")]\n        {{\n            {}\n        }}\n        \
                     #[cfg(not(target_arch = \"nvptx64\"))]\n        \
                     // SAFETY: the caller keeps this leaf's contract (its public call's `# Safety`).\n        \
                     unsafe {{\n            {h}\n        }}\n",
                    nv.replace("\n        ", "\n            ")
                )
            }
        };
        attrs.push_str("    #[inline(always)]\n");
        if public {
            attrs.push_str("    #[allow(unused_unsafe, clippy::missing_safety_doc)]\n");
        }
        Ok(format!(
            "{attrs}    {vis}unsafe fn {}{}({}){ret} {{\n{body}    }}\n",
            f.func,
            s.generics,
            params.join(", "),
        ))
    }
}

/// A row's floors: the form's (or its family's), raised by its slot values' `sm=`/`ptx=`
/// properties (`Relaxed(sm=90 ptx=8.6)`: the `.relaxed` forms need sm_90 and PTX 8.6).
fn floor(f: &Form, fam: &super::parse::Family, c: &Combo) -> (u16, u16) {
    let (mut sm, mut ptx) = (f.sm.unwrap_or(fam.sm), f.ptx_isa.unwrap_or(fam.ptx_isa));
    for (_, v) in c {
        if let Some(n) = v.props.get("sm").and_then(|n| n.parse::<u16>().ok()) {
            sm = sm.max(n);
        }
        if let Some((a, b)) = v.props.get("ptx").and_then(|x| x.split_once('.')) {
            if let (Ok(a), Ok(b)) = (a.parse::<u16>(), b.parse::<u16>()) {
                ptx = ptx.max(a * 10 + b);
            }
        }
    }
    (sm, ptx)
}

/// `Form { count: true, align: Marker::Aligned, .. }` from a form's `shape` words.
fn shape(ctx: &Ctx, f: &Form, c: &Combo) -> Result<String, String> {
    if f.shape.is_empty() {
        return Ok("crate::catalog::Form::NONE".into());
    }
    let mut fields = Vec::new();
    for w in &f.shape {
        let w = ctx.expand(w, c, Mode::Rust, f.line)?;
        let (k, v) = w.split_once('=').unwrap_or((&w, ""));
        let val = match (k, v) {
            ("count" | "tx" | "hint" | "zfill" | "multicast" | "addr128" | "cache_hint", "") => {
                "true".to_string()
            }
            ("align" | "cache" | "src" | "prefetch", m) if !m.is_empty() => {
                format!("crate::catalog::Marker::{m}")
            }
            ("bytes" | "dim", n) if n.parse::<u8>().is_ok() => n.to_string(),
            ("completion", m) if !m.is_empty() => format!("crate::catalog::Completion::{m}"),
            _ => return Err(format!("{}:{}: unknown shape `{w}`", ctx.path, f.line)),
        };
        fields.push(format!("{k}: {val}"));
    }
    Ok(format!(
        "crate::catalog::Form {{ {}, ..crate::catalog::Form::NONE }}",
        fields.join(", ")
    ))
}

fn marker(m: &str) -> String {
    if m.is_empty() {
        "crate::catalog::Marker::None".into()
    } else {
        format!("crate::catalog::Marker::{m}")
    }
}

/// A marker type being generated: its mnemonic, docs, leaves, and whether every leaf is
/// nvptx64-only (then its `impl` is gated as a whole).
struct MarkerOut {
    name: String,
    mnemonic: String,
    docs: Vec<String>,
    leaves: Vec<String>,
    device_only: bool,
    /// The form's `cfg` (or its family's): the gate of the marker's leaves (the marker and its
    /// mnemonic exist everywhere).
    cfg: Option<String>,
}

/// The generated Rust of one family file: traits, markers and leaves, impls, catalog rows.
pub fn rust_file(isa: &Isa, file: &RowsFile) -> Result<String, String> {
    let ctx = Ctx {
        isa,
        path: &file.path,
    };
    let mut out = header(&file.path);
    // The marker types the rows name (semantics, scopes, spaces, …).
    out.push_str("\n#[allow(unused_imports)]\nuse crate::sem::*;\n\n");
    for t in &file.traits {
        out.push_str(&trait_decl(t));
    }
    // Markers (in order of first appearance) and trait impls (grouped by expanded target).
    let mut markers: Vec<MarkerOut> = Vec::new();
    let mut impls: Vec<(String, Vec<String>, Option<String>)> = Vec::new();
    let mut rows = Vec::new();
    for (f, c) in expansion(file) {
        let fam = super::family_of(isa, file, &f.family).ok_or_else(|| {
            format!(
                "{}:{}: no family `{}` in this file",
                file.path, f.line, f.family
            )
        })?;
        {
            let l = ctx.leaf(f, &c)?;
            let cfg = f.cfg.clone().or_else(|| fam.cfg.clone());
            match f.trait_impl() {
                None => {
                    let leaf = ctx.leaf_fn(f, &l, true)?;
                    match markers.iter_mut().find(|m| m.name == l.target) {
                        Some(m) => {
                            if m.mnemonic != l.mnemonic {
                                return Err(format!(
                                    "{}:{}: marker `{}` is `{}` in an earlier form, `{}` here",
                                    file.path, f.line, l.target, m.mnemonic, l.mnemonic
                                ));
                            }
                            m.leaves.push(leaf);
                            m.device_only &= f.host.is_none();
                        }
                        None => {
                            if f.docs.is_empty() {
                                return Err(format!(
                                    "{}:{}: the first form of marker `{}` needs its `doc`",
                                    file.path, f.line, l.target
                                ));
                            }
                            markers.push(MarkerOut {
                                name: l.target.clone(),
                                mnemonic: l.mnemonic.clone(),
                                docs: f
                                    .docs
                                    .iter()
                                    .map(|d| ctx.expand(d, &c, Mode::Rust, f.line))
                                    .collect::<Result<_, _>>()?,
                                leaves: vec![leaf],
                                device_only: f.host.is_none(),
                                cfg,
                            })
                        }
                    }
                }
                Some(_) => {
                    let mut body = vec![format!(
                        "    const {}: &'static str = {:?};\n",
                        f.konst, l.mnemonic
                    )];
                    for it in &f.items {
                        body.push(format!("    {}\n", ctx.expand(it, &c, Mode::Rust, f.line)?));
                    }
                    body.push(ctx.leaf_fn(f, &l, false)?);
                    match impls.iter_mut().find(|i| i.0 == l.target) {
                        Some(i) => {
                            // Forms of one mnemonic share its constant: once in the impl.
                            for b in body {
                                if !i.1.contains(&b) {
                                    i.1.push(b);
                                }
                            }
                        }
                        None => impls.push((l.target.clone(), body, cfg)),
                    }
                }
            }
            if !f.row {
                continue;
            }
            let x = |s: &str| ctx.expand(s, &c, Mode::Rust, f.line);
            let (sm, ptx_isa) = floor(f, fam, &c);
            let mut r = String::new();
            writeln!(r, "    crate::catalog::Variant {{").unwrap();
            writeln!(r, "        family: crate::catalog::Family::{},", fam.name).unwrap();
            writeln!(r, "        op: {:?},", x(&f.op)?).unwrap();
            writeln!(r, "        ty: {:?},", x(&f.ty)?).unwrap();
            writeln!(r, "        sem: {},", marker(&x(&f.sem)?)).unwrap();
            writeln!(r, "        scope: {},", marker(&x(&f.scope)?)).unwrap();
            writeln!(r, "        space: {},", marker(&x(&f.space)?)).unwrap();
            writeln!(r, "        form: {},", shape(&ctx, f, &c)?).unwrap();
            writeln!(r, "        ptx: {:?},", l.mnemonic).unwrap();
            writeln!(r, "        operands: Some({:?}),", l.operands).unwrap();
            writeln!(r, "        asm_pre: {:?},", l.pre).unwrap();
            writeln!(r, "        asm_post: {:?},", l.post).unwrap();
            writeln!(r, "        rust: {:?},", x(&f.rust)?.trim()).unwrap();
            writeln!(r, "        sm: {sm},").unwrap();
            writeln!(r, "        ptx_isa: {ptx_isa},").unwrap();
            writeln!(
                r,
                "        arch: crate::catalog::Arch::{},",
                f.arch.as_deref().unwrap_or(&fam.arch)
            )
            .unwrap();
            writeln!(
                r,
                "        isa: {:?},",
                f.isa.as_deref().unwrap_or(&fam.isa)
            )
            .unwrap();
            writeln!(
                r,
                "        seed: {:?},",
                f.seed.as_deref().unwrap_or(&fam.seed)
            )
            .unwrap();
            writeln!(r, "    }},").unwrap();
            rows.push(r);
        }
    }
    for MarkerOut {
        name,
        mnemonic,
        docs,
        leaves,
        device_only,
        cfg,
    } in &markers
    {
        let gate = cfg
            .as_ref()
            .map(|c| format!("#[cfg({c})]\n"))
            .unwrap_or_default();
        for d in docs {
            writeln!(out, "/// {d}").unwrap();
        }
        writeln!(out, "#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]").unwrap();
        writeln!(out, "pub struct {name};").unwrap();
        writeln!(out, "impl crate::instr::Instr for {name} {{").unwrap();
        writeln!(out, "    const PTX: &'static str = {mnemonic:?};").unwrap();
        writeln!(out, "    const NAME: &'static str = {name:?};").unwrap();
        writeln!(out, "}}").unwrap();
        if *device_only {
            writeln!(out, "#[cfg(target_arch = \"nvptx64\")]").unwrap();
        }
        out.push_str(&gate);
        writeln!(out, "impl {name} {{").unwrap();
        for l in leaves {
            // A device-only leaf in an impl that also has host leaves keeps its own gate.
            if !*device_only && !l.contains("#[cfg(not(target_arch") {
                out.push_str("    #[cfg(target_arch = \"nvptx64\")]\n");
            }
            out.push_str(l);
        }
        writeln!(out, "}}\n").unwrap();
    }
    for (target, body, cfg) in &impls {
        if let Some(c) = cfg {
            writeln!(out, "#[cfg({c})]").unwrap();
        }
        writeln!(out, "unsafe impl {target} {{").unwrap();
        for b in body {
            out.push_str(b);
        }
        writeln!(out, "}}\n").unwrap();
    }
    writeln!(
        out,
        "/// The catalog rows of `{}`, in its order.",
        file.path
    )
    .unwrap();
    writeln!(out, "#[cfg(not(target_arch = \"nvptx64\"))]").unwrap();
    writeln!(
        out,
        "pub(crate) const CATALOG: &[crate::catalog::Variant] = &["
    )
    .unwrap();
    for r in rows {
        out.push_str(&r);
    }
    writeln!(out, "];").unwrap();
    Ok(out)
}

pub fn trait_decl(t: &TraitDecl) -> String {
    let mut out = String::new();
    for d in &t.docs {
        writeln!(out, "/// {d}").unwrap();
    }
    out.push_str("///\n/// # Safety\n/// Implemented only by this crate's table.\n");
    let diag: Vec<String> = [
        ("message", &t.message),
        ("label", &t.label),
        ("note", &t.note),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.as_ref().map(|v| format!("    {k} = {v:?}")))
    .collect();
    if !diag.is_empty() {
        writeln!(
            out,
            "#[diagnostic::on_unimplemented(\n{}\n)]",
            diag.join(",\n")
        )
        .unwrap();
    }
    writeln!(out, "pub unsafe trait {} {{", t.decl).unwrap();
    for (c, doc) in &t.consts {
        if !doc.is_empty() {
            writeln!(out, "    /// {doc}").unwrap();
        }
        writeln!(out, "    const {c}: &'static str;").unwrap();
    }
    for i in &t.items {
        writeln!(out, "    {i}").unwrap();
    }
    for l in &t.leaves {
        writeln!(
            out,
            "    #[doc(hidden)]\n    #[cfg(target_arch = \"nvptx64\")]\n    {l};"
        )
        .unwrap();
    }
    for l in &t.ops {
        writeln!(out, "    #[doc(hidden)]\n    {l};").unwrap();
    }
    out.push_str("}\n\n");
    out
}
