//! The access tables (`access NAME` items of `ld.rows`, `st.rows`, `atom.rows`, `red.rows`,
//! `fence.rows`): the ISA's dimension products — (type, op) pairs × semantics × scopes × spaces —
//! written as data and expanded here into
//!
//! * `access.rs` — `access_rows!`, the plain list of every row, one arm per table
//!   (`access_rows!(ld leaf)` calls `leaf!` once per row), walked by the catalog kernels
//!   (`host/kernels`);
//! * `access_MODULE.rs` — each row's instruction trait impl (`unsafe impl LdInstr<…> for T {
//!   const PTX … }`, with the table's `item`s), included by the family's module;
//! * `access_leaves.rs` — each row's `asm!` leaf (`unsafe impl LdLeaf<…> for T`), included by
//!   `backend/nvptx/access.rs`;
//! * `access_catalog.rs` — each table's catalog rows, walked by `device/src/catalog.rs`.

use super::parse::{Isa, SlotValue};
use std::fmt::Write;

/// `access NAME`: one table.
#[derive(Debug, Clone, Default)]
pub struct Access {
    pub name: String,
    /// `impl Trait<$sem, …> for $type`: the trait impl of a row (without `unsafe impl`).
    pub imp: String,
    /// The mnemonic template (`ld$sem$scope$space.$ty`).
    pub ptx: String,
    /// The row's tokens in `access_rows!` (`$type "$ty" $reg; $sem; …`).
    pub row: String,
    pub sems: Vec<SlotValue>,
    pub scopes: Vec<SlotValue>,
    pub spaces: Vec<SlotValue>,
    /// The (type, op) pairs, in order; `types NAME` is resolved by [`pairs`].
    pub pairs: Vec<(SlotValue, Option<SlotValue>)>,
    /// `types NAME`: the pairs of another table, without the ops of `except`.
    pub types: Option<String>,
    pub except: Vec<String>,
    /// `parts A B`: the arm walks other tables, in order.
    pub parts: Vec<String>,
    /// Extra items of every impl (`$ptx`: the row's mnemonic).
    pub items: Vec<String>,
    /// `ops [SHAPE] TEXT`: the operand template of the rows of a register shape (`v2`, `v4`,
    /// `v8`, `b128`: from the `reg` property; none: the scalars).
    pub ops: Vec<(String, String)>,
    /// `block SHAPE NAME`: the block of `blocks.rows` the rows of a shape are wrapped in.
    pub blocks: Vec<(String, String)>,
    /// The catalog row: its `op` (`opname`), its Rust path (`rust`, `$method`), and the table's
    /// floor (`floor`, raising its family's).
    pub opname: String,
    pub rust: String,
    /// `method TEMPLATE [Op=NAME …]`: the `$method` of a row, the op's own name where given.
    pub method: Option<(String, Vec<(String, String)>)>,
    pub floor: Option<(u16, u16)>,
    /// `leaf Trait<…> for $type :: FN`: each row's `asm!` leaf (`ld`, `st`, `atom`, `cas`, `red`).
    pub leaf: Option<(String, String)>,
    pub path: String,
    pub line: usize,
}

/// The register shapes an `ops`/`block` key names (a row's, from its `reg` property).
const SHAPES: [&str; 4] = ["v2", "v4", "v8", "b128"];

/// The register shape of a `reg` property: `v2reg32` → `v2`, `reg128` → `b128`, a scalar's none.
fn shape(reg: &str) -> &str {
    match reg {
        "reg128" => "b128",
        r if r.len() > 2 && r.starts_with('v') => &r[..2],
        _ => "",
    }
}

/// Parses the keys of `access NAME`.
pub fn parse(
    path: &str,
    n: usize,
    name: &str,
    keys: &[(usize, &str, &str)],
    values: impl Fn(&str, usize, &str) -> Result<Vec<SlotValue>, String>,
) -> Result<Access, String> {
    let mut a = Access {
        name: name.to_string(),
        path: path.to_string(),
        line: n,
        ..Access::default()
    };
    for &(k, key, v) in keys {
        match key {
            "impl" => a.imp = v.to_string(),
            "ptx" => a.ptx = v.to_string(),
            "row" => a.row = v.to_string(),
            "sem" => a.sems = values(path, k, v)?,
            "scope" => a.scopes = values(path, k, v)?,
            "space" => a.spaces = values(path, k, v)?,
            "type" | "op" => {
                let mut vs = values(path, k, v)?.into_iter();
                let head = vs.next().expect("a value");
                let rest: Vec<SlotValue> = vs.collect();
                if rest.is_empty() && key == "op" {
                    return Err(format!("{path}:{k}: `op OP TYPE…` needs its types"));
                }
                if rest.is_empty() {
                    a.pairs.push((head.clone(), None));
                }
                for x in rest {
                    a.pairs.push(if key == "type" {
                        (head.clone(), Some(x))
                    } else {
                        (x, Some(head.clone()))
                    });
                }
            }
            "types" => a.types = Some(v.to_string()),
            "except" => a.except = v.split_whitespace().map(str::to_string).collect(),
            "parts" => a.parts = v.split_whitespace().map(str::to_string).collect(),
            "item" => a.items.push(v.to_string()),
            "opname" => a.opname = v.to_string(),
            "leaf" => {
                let (t, f) = v.rsplit_once("::").ok_or_else(|| {
                    format!("{path}:{k}: expected `leaf TRAIT<…> for TYPE :: FN`")
                })?;
                a.leaf = Some((t.trim().to_string(), f.trim().to_string()));
            }
            "rust" => a.rust = v.to_string(),
            "floor" => a.floor = Some(super::parse::floor(path, k, v)?),
            "method" => {
                let mut w = v.split_whitespace();
                let t = w.next().unwrap_or("").to_string();
                let mut over = Vec::new();
                for x in w {
                    let (o, m) = x.split_once('=').ok_or_else(|| {
                        format!("{path}:{k}: expected `method TEMPLATE Op=NAME …`")
                    })?;
                    over.push((o.to_string(), m.to_string()));
                }
                a.method = Some((t, over));
            }
            "ops" => a.ops.push(match v.split_once(' ') {
                Some((sh, t)) if SHAPES.contains(&sh) => (sh.to_string(), t.trim().to_string()),
                _ => (String::new(), v.to_string()),
            }),
            "block" => match v.split_once(' ') {
                Some((sh, b)) if SHAPES.contains(&sh) => {
                    a.blocks.push((sh.to_string(), b.trim().to_string()))
                }
                _ => {
                    return Err(format!(
                        "{path}:{k}: expected `block SHAPE NAME` ({SHAPES:?})"
                    ))
                }
            },
            _ => return Err(format!("{path}:{k}: unknown access key `{key}`")),
        }
    }
    if a.parts.is_empty() {
        for (what, v) in [("impl", &a.imp), ("ptx", &a.ptx), ("row", &a.row)] {
            if v.is_empty() {
                return Err(format!("{path}:{n}: access `{name}` needs `{what}`"));
            }
        }
        if a.sems.is_empty() || a.scopes.is_empty() {
            return Err(format!(
                "{path}:{n}: access `{name}` needs `sem` and `scope`"
            ));
        }
        if a.pairs.is_empty() == a.types.is_none() && !a.spaces.is_empty() {
            return Err(format!(
                "{path}:{n}: access `{name}` needs either `type`/`op` lines or `types TABLE`"
            ));
        }
    }
    Ok(a)
}

/// Every table of the rows files, in file order.
fn tables(isa: &Isa) -> Vec<&Access> {
    isa.files.iter().flat_map(|f| f.access.iter()).collect()
}

/// The (type, op) pairs of table `a` (its own, or those of its `types` table less `except`).
fn pairs<'a>(
    isa: &'a Isa,
    a: &'a Access,
) -> Result<Vec<&'a (SlotValue, Option<SlotValue>)>, String> {
    let Some(t) = &a.types else {
        return Ok(a.pairs.iter().collect());
    };
    let from = tables(isa)
        .into_iter()
        .find(|x| x.name == *t)
        .ok_or_else(|| format!("{}:{}: no access table `{t}`", a.path, a.line))?;
    Ok(pairs(isa, from)?
        .into_iter()
        .filter(|(_, op)| !op.as_ref().is_some_and(|o| a.except.contains(&o.name)))
        .collect())
}

/// One row: its dimension values (`scope` `None`: a row generic in the scope).
struct Row<'a> {
    ty: Option<&'a SlotValue>,
    op: Option<&'a SlotValue>,
    sem: &'a SlotValue,
    scope: Option<&'a SlotValue>,
    space: Option<&'a SlotValue>,
}

/// The rows of table `a`: (type, op) outermost, then semantic, scope, space. A semantic with
/// `scope=none` (`Weak`, `Volatile`) takes no scope: one row per space, generic in the scope.
fn rows<'a>(isa: &'a Isa, a: &'a Access) -> Result<Vec<Row<'a>>, String> {
    let ps = pairs(isa, a)?;
    let typed: Vec<Option<&(SlotValue, Option<SlotValue>)>> = if ps.is_empty() {
        vec![None]
    } else {
        ps.into_iter().map(Some).collect()
    };
    let spaces: Vec<Option<&SlotValue>> = if a.spaces.is_empty() {
        vec![None]
    } else {
        a.spaces.iter().map(Some).collect()
    };
    let mut out = Vec::new();
    for p in typed {
        for sem in &a.sems {
            let scopes: Vec<Option<&SlotValue>> =
                if sem.props.get("scope").map(String::as_str) == Some("none") {
                    vec![None]
                } else {
                    a.scopes.iter().map(Some).collect()
                };
            for scope in &scopes {
                for space in &spaces {
                    out.push(Row {
                        ty: p.map(|p| &p.0),
                        op: p.and_then(|p| p.1.as_ref()),
                        sem,
                        scope: *scope,
                        space: *space,
                    });
                }
            }
        }
    }
    Ok(out)
}

fn token<'a>(isa: &'a Isa, a: &Access, key: &str) -> Result<&'a str, String> {
    isa.token(key, &a.path, a.line)
}

/// Expands a template for one row: `$type`, `$op`, `$sem`, `$scope`, `$space` (PTX: their tokens,
/// an op its `op` property or its name in lower case, a scope-less row's scope none; Rust: their
/// names, the scope-less row's scope `Sco`), `$dim.tok` (the token), `$scope.g` (`Sco: Scope`
/// for a scope-less row), `$space.asm` (how the `asm!` reaches the address: as it is, or
/// converted in place with `cvta.to<space>.u64`), `$ptx` (the row's mnemonic), and any other
/// `$prop` — a property of the row's op or type.
fn expand(
    isa: &Isa,
    a: &Access,
    r: &Row,
    t: &str,
    ptx_mode: bool,
    mn: &str,
) -> Result<String, String> {
    let bad = |what: &str| {
        format!(
            "{}:{}: `{what}` has no value in access `{}`",
            a.path, a.line, a.name
        )
    };
    let op_tok = |o: &SlotValue| {
        o.props
            .get("op")
            .cloned()
            .unwrap_or_else(|| o.name.to_lowercase())
    };
    let tok_of = |dim: &str| -> Result<String, String> {
        Ok(match dim {
            "op" => op_tok(r.op.ok_or_else(|| bad("$op"))?),
            "sem" => token(isa, a, &r.sem.name)?.to_string(),
            "scope" => match r.scope {
                Some(s) => token(isa, a, &s.name)?.to_string(),
                None => String::new(),
            },
            "space" => token(isa, a, &r.space.ok_or_else(|| bad("$space"))?.name)?.to_string(),
            _ => return Err(bad(&format!("${dim}.tok"))),
        })
    };
    let mut out = String::new();
    let mut rest = t;
    while let Some((before, name, after)) = super::next_var(rest) {
        out.push_str(before);
        let mut tail = after;
        let prop = tail.strip_prefix('.').and_then(|p| {
            let m = super::ident_len(p);
            (m > 0).then(|| p.split_at(m))
        });
        let dim = matches!(name, "type" | "op" | "sem" | "scope" | "space");
        let v = match (name, prop) {
            ("scope", Some(("path", r2))) => {
                tail = r2;
                r.scope
                    .map(|s| s.name.clone())
                    .unwrap_or_else(|| "_".into())
            }
            ("op", Some(("lower", r2))) => {
                tail = r2;
                r.op.ok_or_else(|| bad("$op"))?.name.to_lowercase()
            }
            ("method", _) if !ptx_mode => {
                let (t, over) = a.method.as_ref().ok_or_else(|| bad("$method"))?;
                match over
                    .iter()
                    .find(|(o, _)| r.op.is_some_and(|x| x.name == *o))
                {
                    Some((_, m)) => m.clone(),
                    None => expand(isa, a, r, t, false, mn)?,
                }
            }
            ("scope", Some(("g", r2))) => {
                tail = r2;
                if r.scope.is_none() {
                    "Sco: Scope".to_string()
                } else {
                    String::new()
                }
            }
            ("space", Some(("asm", r2))) => {
                tail = r2;
                let tok = tok_of("space")?;
                let addr = if tok.is_empty() {
                    "[\"\"] (in)".to_string()
                } else {
                    format!(
                        "[{:?}] (inout => _)",
                        format!("cvta.to{tok}.u64 {{p}}, {{p}};\n\t")
                    )
                };
                let reg = r.op.and_then(|o| o.props.get("reg"));
                let sh = shape(
                    reg.or_else(|| r.ty.and_then(|t| t.props.get("reg")))
                        .map_or("", |s| s),
                );
                let ops = a
                    .ops
                    .iter()
                    .find(|(s, _)| s == sh)
                    .map(|(_, t)| format!(" {t}"))
                    .ok_or_else(|| bad(&format!("`ops` of shape `{sh}`")))?;
                let (pre, post) = match a.blocks.iter().find(|(s, _)| s == sh) {
                    None => (String::new(), String::new()),
                    Some((_, b)) => {
                        let b = isa.blocks.iter().find(|x| x.name == *b).ok_or_else(|| {
                            format!(
                                "{}:{}: no block `{b}` in device/isa/blocks.rows",
                                a.path, a.line
                            )
                        })?;
                        (b.pre.clone(), b.post.clone())
                    }
                };
                format!("{addr} {mn:?} {pre:?} {ops:?} {post:?}")
            }
            (d, Some(("tok", r2))) if dim => {
                tail = r2;
                tok_of(d)?
            }
            (d, _) if dim && ptx_mode => tok_of(d)?,
            ("type", _) => r.ty.ok_or_else(|| bad("$type"))?.name.clone(),
            ("op", _) => r.op.ok_or_else(|| bad("$op"))?.name.clone(),
            ("sem", _) => r.sem.name.clone(),
            ("scope", _) => r
                .scope
                .map(|s| s.name.clone())
                .unwrap_or_else(|| "Sco".into()),
            ("space", _) => r.space.ok_or_else(|| bad("$space"))?.name.clone(),
            ("ptx", _) if !ptx_mode => mn.to_string(),
            (p, _) => {
                r.op.and_then(|o| o.props.get(p))
                    .or_else(|| r.ty.and_then(|t| t.props.get(p)))
                    .cloned()
                    .ok_or_else(|| bad(&format!("${p}")))?
            }
        };
        out.push_str(&v);
        rest = tail;
    }
    out.push_str(rest);
    Ok(out)
}

/// `access.rs`: the `access_rows!` macro, one arm per table.
pub fn rows_macro(isa: &Isa) -> Result<String, String> {
    let mut out = super::emit::header("device/isa/{ld,st,atom,red,fence}.rows (`access` tables)");
    out.push_str(
        "\n/// The row list of the access tables (`device/isa/*.rows`, `access NAME`), for the code\n\
         /// that instantiates them: `ptx_sync::access_rows!(NAME leaf)` calls `leaf!` once per row of\n\
         /// table `NAME` with the tokens of its `row` template — `ld`/`st`: `T \"ty\" reg; Sem; [generic\n\
         /// params] Scope; Space` (`[Sco: Scope] Sco` for the scope-less Weak/Volatile rows);\n\
         /// `atom`/`red` (`_scalar`, `_vec`, or both): `T reg Op \"op\" \"ty\"; Sem; [] Scope; Space`;\n\
         /// `cas`: `T reg \"ty\"; Sem; [] Scope; Space`; `fence`: `Sem, Scope`.\n\
         #[doc(hidden)]\n#[macro_export]\nmacro_rules! access_rows {\n",
    );
    for a in tables(isa) {
        writeln!(out, "    ({} $leaf:ident) => {{", a.name).unwrap();
        // `parts`: the rows of the other tables, in order (inline: a generated macro cannot call
        // itself by `$crate::` in its own crate).
        let parts: Vec<&Access> = if a.parts.is_empty() {
            vec![a]
        } else {
            a.parts
                .iter()
                .map(|p| {
                    tables(isa)
                        .into_iter()
                        .find(|x| x.name == *p && x.parts.is_empty())
                        .ok_or_else(|| format!("{}:{}: no access table `{p}`", a.path, a.line))
                })
                .collect::<Result<_, _>>()?
        };
        for t in parts {
            for r in rows(isa, t)? {
                let mn = expand(isa, t, &r, &t.ptx, true, "")?;
                let row = expand(isa, t, &r, &t.row, false, &mn)?;
                writeln!(out, "        $leaf! {{ {row} }}").unwrap();
            }
        }
        out.push_str("    };\n");
    }
    out.push_str("}\n");
    Ok(out)
}

/// `access_MODULE.rs` per module of the access families: each row's trait impl with its `PTX`.
pub fn impls(isa: &Isa) -> Result<Vec<(String, String)>, String> {
    let mut out: Vec<(String, String)> = Vec::new();
    for f in &isa.files {
        if f.access.is_empty() {
            continue;
        }
        let module = f.module_name()?;
        let name = format!("access_{}.rs", module.replace("::", "_"));
        let i = match out.iter().position(|(n, _)| *n == name) {
            Some(i) => i,
            None => {
                out.push((
                    name,
                    super::emit::header("device/isa/*.rows (`access` tables)"),
                ));
                out.len() - 1
            }
        };
        let text = &mut out[i].1;
        // The file's instruction traits (`trait` items): their impls are the rows.
        for t in &f.traits {
            text.push('\n');
            text.push_str(&super::emit::trait_decl(t));
        }
        for a in f.access.iter().filter(|a| a.parts.is_empty()) {
            writeln!(text, "\n// `access {}` ({}:{})", a.name, a.path, a.line).unwrap();
            for r in rows(isa, a)? {
                let mn = expand(isa, a, &r, &a.ptx, true, "")?;
                let imp = expand(isa, a, &r, &a.imp, false, &mn)?;
                let g = if r.scope.is_none() {
                    "<Sco: Scope>"
                } else {
                    ""
                };
                write!(
                    text,
                    "unsafe impl{g} {imp} {{\n    const PTX: &'static str = {mn:?};\n"
                )
                .unwrap();
                for it in &a.items {
                    writeln!(text, "    {}", expand(isa, a, &r, it, false, &mn)?).unwrap();
                }
                text.push_str("}\n");
            }
        }
    }
    Ok(out)
}

/// A row's floors: its family's, raised by the table's `floor` and by the `sm=`/`ptx=`
/// properties of its values (`Cluster(sm=90 ptx=7.8)`); `ptx@Sys=8.4` applies only to a row
/// that has the value `Sys`.
fn row_floor(fam: (u16, u16), a: &Access, r: &Row) -> (u16, u16) {
    let (mut sm, mut ptx) = fam;
    if let Some((s, p)) = a.floor {
        (sm, ptx) = (sm.max(s), ptx.max(p));
    }
    let values: Vec<&SlotValue> = [r.ty, r.op, Some(r.sem), r.scope, r.space]
        .into_iter()
        .flatten()
        .collect();
    for v in &values {
        for (k, val) in &v.props {
            let (base, cond) = match k.split_once('@') {
                Some((b, c)) => (b, Some(c)),
                None => (k.as_str(), None),
            };
            if cond.is_some_and(|c| !values.iter().any(|x| x.name == c)) {
                continue;
            }
            match base {
                "sm" => sm = sm.max(val.parse().unwrap_or(0)),
                "ptx" => {
                    if let Some((x, y)) = val.split_once('.') {
                        if let (Ok(x), Ok(y)) = (x.parse::<u16>(), y.parse::<u16>()) {
                            ptx = ptx.max(x * 10 + y);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    (sm, ptx)
}

/// `access_catalog.rs`: per table (with `rust`), `NAME` (upper case): its catalog rows.
pub fn catalog(isa: &Isa) -> Result<String, String> {
    let mut out = super::emit::header("device/isa/*.rows (`access` tables)");
    for f in &isa.files {
        for a in f.access.iter().filter(|a| a.parts.is_empty()) {
            if a.rust.is_empty() {
                return Err(format!(
                    "{}:{}: access `{}` needs `rust`",
                    a.path, a.line, a.name
                ));
            }
            let fam = f.families.first().ok_or_else(|| {
                format!(
                    "{}:{}: an access table needs its file's `family`",
                    a.path, a.line
                )
            })?;
            writeln!(
                out,
                "\n/// The catalog rows of `access {}` ({}:{}).\npub(crate) const {}: &[crate::catalog::Variant] = &[",
                a.name,
                a.path,
                a.line,
                a.name.to_uppercase()
            )
            .unwrap();
            for r in rows(isa, a)? {
                let mn = expand(isa, a, &r, &a.ptx, true, "")?;
                let x = |t: &str| expand(isa, a, &r, t, false, &mn);
                let marker = |m: Option<&SlotValue>| match m {
                    Some(v) => format!("crate::catalog::Marker::{}", v.name),
                    None => "crate::catalog::Marker::None".to_string(),
                };
                let (ops, pre, post) = if a.ops.is_empty() {
                    let e = "\"\"".to_string();
                    (e.clone(), e.clone(), e)
                } else {
                    // `$space.asm`'s texts: `[…] (…) "mnemonic" "pre" "ops" "post"`.
                    let t = x("$space.asm")?;
                    let lits = literals(&t);
                    match &lits[..] {
                        [_, _, pre, ops, post] => (ops.clone(), pre.clone(), post.clone()),
                        _ => return Err(format!("{}:{}: bad `$space.asm` `{t}`", a.path, a.line)),
                    }
                };
                let (sm, ptx_isa) = row_floor((fam.sm, fam.ptx_isa), a, &r);
                writeln!(
                    out,
                    "    crate::catalog::Variant {{ family: crate::catalog::Family::{}, op: {:?}, ty: {:?}, \
                     sem: {}, scope: {}, space: {}, form: crate::catalog::Form::NONE, ptx: {mn:?}, \
                     operands: Some({ops}), asm_pre: {pre}, asm_post: {post}, rust: {:?}, sm: {sm}, \
                     ptx_isa: {ptx_isa}, arch: crate::catalog::Arch::{}, isa: {:?}, seed: {:?} }},",
                    fam.name,
                    x(&a.opname)?,
                    r.ty.map(|t| t.name.as_str()).unwrap_or(""),
                    marker(Some(r.sem)),
                    marker(r.scope),
                    marker(r.space),
                    x(&a.rust)?,
                    fam.arch,
                    fam.isa,
                    fam.seed,
                )
                .unwrap();
            }
            out.push_str("];\n");
        }
    }
    Ok(out)
}

/// The string literals of a generated token list, as written (quoted, escaped).
fn literals(t: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b: Vec<char> = t.chars().collect();
    let mut i = 0;
    while i < b.len() {
        if b[i] == '"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != '"' {
                j += if b[j] == '\\' { 2 } else { 1 };
            }
            out.push(b[i..=j.min(b.len() - 1)].iter().collect());
            i = j + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// `access_leaves.rs`: each row's `asm!` leaf (nvptx64, included by `backend/nvptx/access.rs`):
/// its template is the row's `$space.asm` texts; its operands bind the registers of the leaf
/// `FN` (`ld`, `st`, `atom`, `cas`, `red`) for the row's register shape (scalar, `v2`/`v4`/`v8`:
/// one register per element, `b128`: two 64-bit halves).
pub fn leaves(isa: &Isa) -> Result<String, String> {
    let mut out = super::emit::header("device/isa/*.rows (`access` tables)");
    for f in &isa.files {
        for a in f.access.iter().filter(|a| a.parts.is_empty()) {
            let Some((imp, func)) = &a.leaf else { continue };
            writeln!(out, "\n// `access {}` ({}:{})", a.name, a.path, a.line).unwrap();
            for r in rows(isa, a)? {
                let mn = expand(isa, a, &r, &a.ptx, true, "")?;
                let imp = expand(isa, a, &r, imp, false, &mn)?;
                let lits = literals(&expand(isa, a, &r, "$space.asm", false, &mn)?);
                let [cv, _, pre, ops, post] = &lits[..] else {
                    return Err(format!("{}:{}: bad `$space.asm`", a.path, a.line));
                };
                // The template, as `concat!` of the texts would paste it.
                let un = |l: &str| l[1..l.len() - 1].replace("\\n", "\n").replace("\\t", "\t");
                let tmpl = format!(
                    "{:?}",
                    format!("{}{}{mn}{};{}", un(cv), un(pre), un(ops), un(post))
                );
                let p = if cv == "\"\"" {
                    "p = in(reg64) p"
                } else {
                    "p = inout(reg64) p => _"
                };
                let regp =
                    r.op.and_then(|o| o.props.get("reg"))
                        .or_else(|| r.ty.and_then(|t| t.props.get("reg")))
                        .ok_or_else(|| format!("{}:{}: a leaf row needs `reg`", a.path, a.line))?;
                let sh = shape(regp);
                let n: usize = sh
                    .strip_prefix('v')
                    .and_then(|x| x.parse().ok())
                    .unwrap_or(0);
                let reg = if n > 0 { &regp[2..] } else { regp.as_str() };
                let t = r.ty.map(|t| t.name.as_str()).unwrap_or("");
                let opts = if sh.is_empty() && r.sem.props.contains_key("pure") {
                    "pure, readonly, nostack, preserves_flags"
                } else {
                    "nostack, preserves_flags"
                };
                let idx = |pfx: &str, dir: &str, src: &str| -> Vec<String> {
                    (0..n)
                        .map(|i| match src {
                            "" => format!("{pfx}{i} = {dir}({reg}) {pfx}{i}"),
                            s => format!("{pfx}{i} = {dir}({reg}) {s}.0[{i}].to_raw()"),
                        })
                        .collect()
                };
                let decl = |names: &[String]| {
                    format!(
                        "let ({}): ({});",
                        names.join(", "),
                        vec![format!("VRaw<{t}>"); names.len()].join(", ")
                    )
                };
                let vars = |pfx: &str| (0..n).map(|i| format!("{pfx}{i}")).collect::<Vec<_>>();
                let half = |v: &str, pfx: &str| {
                    format!(
                        "{pfx}lo = in(reg64) {v} as u64, {pfx}hi = in(reg64) ({v} >> 64) as u64"
                    )
                };
                let (sig, body) = match (func.as_str(), sh) {
                    ("ld", "b128") => ("(p: *const Self) -> Self", format!("let (lo, hi): (u64, u64);\n        asm!({tmpl}, lo = out(reg64) lo, hi = out(reg64) hi, {p}, options({opts}));\n        (lo as u128) | ((hi as u128) << 64)")),
                    ("ld", "") => ("(p: *const Self) -> Self", format!("let v: <{t} as Scalar>::Raw;\n        asm!({tmpl}, v = out({reg}) v, {p}, options({opts}));\n        <{t} as Scalar>::from_raw(v)")),
                    ("ld", _) => ("(p: *const Self) -> Self", format!("{}\n        asm!({tmpl}, {}, {p}, options({opts}));\n        Vector([{}].map(Scalar::from_raw))", decl(&vars("v")), idx("v", "out", "").join(", "), vars("v").join(", "))),
                    ("st", "b128") => ("(p: *mut Self, v: Self)", format!("asm!({tmpl}, {}, {p}, options({opts}));", half("v", ""))),
                    ("st", "") => ("(p: *mut Self, v: Self)", format!("asm!({tmpl}, v = in({reg}) v.to_raw(), {p}, options({opts}));")),
                    ("st", _) => ("(p: *mut Self, v: Self)", format!("asm!({tmpl}, {}, {p}, options({opts}));", idx("v", "in", "v").join(", "))),
                    ("atom", "b128") => ("(p: *mut Self, b: Self) -> Self", format!("let (lo, hi): (u64, u64);\n        asm!({tmpl}, lo = out(reg64) lo, hi = out(reg64) hi, {p}, {}, options({opts}));\n        (lo as u128) | ((hi as u128) << 64)", half("b", "b"))),
                    ("atom", "") => ("(p: *mut Self, b: Self) -> Self", format!("let d: <{t} as Scalar>::Raw;\n        asm!({tmpl}, d = out({reg}) d, {p}, b = in({reg}) b.to_raw(), options({opts}));\n        <{t} as Scalar>::from_raw(d)")),
                    ("atom", _) => ("(p: *mut Self, b: Self) -> Self", format!("{}\n        asm!({tmpl}, {}, {}, {p}, options({opts}));\n        Vector([{}].map(Scalar::from_raw))", decl(&vars("d")), idx("d", "out", "").join(", "), idx("b", "in", "b").join(", "), vars("d").join(", "))),
                    ("cas", "b128") => ("(p: *mut Self, cmp: Self, new: Self) -> Self", format!("let (lo, hi): (u64, u64);\n        asm!({tmpl}, lo = out(reg64) lo, hi = out(reg64) hi, {p}, {}, {}, options({opts}));\n        (lo as u128) | ((hi as u128) << 64)", half("cmp", "b"), half("new", "c"))),
                    ("cas", "") => ("(p: *mut Self, cmp: Self, new: Self) -> Self", format!("let d: <{t} as Scalar>::Raw;\n        asm!({tmpl}, d = out({reg}) d, {p}, b = in({reg}) cmp.to_raw(), c = in({reg}) new.to_raw(), options({opts}));\n        <{t} as Scalar>::from_raw(d)")),
                    ("red", "") => ("(p: *mut Self, b: Self)", format!("asm!({tmpl}, {p}, b = in({reg}) b.to_raw(), options({opts}));")),
                    ("red", s) if s != "b128" => ("(p: *mut Self, b: Self)", format!("asm!({tmpl}, {}, {p}, options({opts}));", idx("b", "in", "b").join(", "))),
                    (fun, s) => {
                        return Err(format!(
                            "{}:{}: no `{fun}` leaf for the register shape `{s}`",
                            a.path, a.line
                        ))
                    }
                };
                let g = if r.scope.is_none() {
                    "<Sco: Scope>"
                } else {
                    ""
                };
                writeln!(
                    out,
                    "unsafe impl{g} {imp} {{\n    #[inline(always)]\n    unsafe fn {func}{sig} {{\n        // SAFETY: the caller keeps the leaf's contract (its public call's `# Safety`).\n        unsafe {{\n        {body}\n        }}\n    }}\n}}"
                )
                .unwrap();
            }
        }
    }
    Ok(out)
}
