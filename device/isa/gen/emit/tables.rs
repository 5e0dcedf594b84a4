//! What the generator writes besides the leaves: the catalog's `Family` enum, the catalog
//! kernel's call list (every Rust path compiles) and the module docs tables.

use super::*;

/// The `Family` enum of the catalog: one variant per `family` of the rows files (in file
/// order) and of `hand.rows`, with its PTX name.
pub fn family_enum(isa: &Isa) -> String {
    let mut out = header("device/isa/*.rows");
    let mut fams: Vec<(&str, &str, String)> = Vec::new();
    for file in &isa.files {
        for f in &file.families {
            let doc = format!(
                "`{}`: PTX ISA §{}, seed §{}, its forms in `{}`.",
                f.ptx, f.isa, f.seed, file.path
            );
            fams.push((&f.name, &f.ptx, doc));
        }
    }
    for f in &isa.hand {
        let doc = format!(
            "`{}`: its forms written by hand in `{}`.",
            f.ptx,
            f.hand.as_deref().unwrap_or("")
        );
        fams.push((&f.name, &f.ptx, doc));
    }
    out.push_str(
        "\n/// The PTX instruction family of a catalog row ([`Variant::family`]): one variant per\n\
         /// `family` of `device/isa/*.rows`. Displays as its PTX name ([`Family::ptx`]).\n\
         ///\n/// # Examples\n///\n/// ```\n/// use ptx_sync::catalog::Family;\n\
         /// assert_eq!(Family::BarrierCluster.to_string(), \"barrier.cluster\");\n\
         /// assert_eq!(Family::ALL.iter().filter(|f| f.ptx() == \"ld\").count(), 1);\n/// ```\n\
         #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]\npub enum Family {\n",
    );
    for (name, _, doc) in &fams {
        writeln!(out, "    /// {doc}\n    {name},").unwrap();
    }
    out.push_str("}\n\nimpl Family {\n    /// Every family, in the order of the rows files (then `hand.rows`).\n");
    out.push_str("    pub const ALL: &'static [Family] = &[\n");
    for (name, _, _) in &fams {
        writeln!(out, "        Family::{name},").unwrap();
    }
    out.push_str(
        "    ];\n\n    /// The PTX name of the family (`\"barrier.cluster\"`), what [`Variant::family`] \
         displays.\n    pub const fn ptx(self) -> &'static str {\n        match self {\n",
    );
    for (name, ptx, _) in &fams {
        writeln!(out, "            Family::{name} => {ptx:?},").unwrap();
    }
    out.push_str("        }\n    }\n}\n");
    out
}

/// The catalog kernels' call lists: `catalog_calls_NAME!(p, out)` per family file.
pub fn calls(isa: &Isa) -> Result<String, String> {
    let mut out = header("device/isa/*.rows");
    for file in &isa.files {
        let ctx = Ctx {
            isa,
            path: &file.path,
        };
        let module = file.module_name()?;
        // (macro name, statements) per section.
        let mut sections: Vec<(String, Vec<String>, Vec<String>)> =
            vec![(file.name.clone(), Vec::new(), Vec::new())];
        let mut reached = String::new();
        let mut done: Vec<&str> = Vec::new();
        for item in &file.items {
            let forms: Vec<(&Form, Combo)> = match item {
                Item::Section(name, params) => {
                    sections.push((name.clone(), params.clone(), Vec::new()));
                    continue;
                }
                Item::Also(s) => {
                    sections.last_mut().unwrap().2.push(s.clone());
                    reached.push_str(s);
                    continue;
                }
                Item::Group(..) => continue,
                Item::Form(f) => match &f.group {
                    None => combos(f).into_iter().map(|c| (&**f, c)).collect(),
                    Some(g) if done.contains(&g.as_str()) => continue,
                    Some(g) => {
                        done.push(g);
                        group_expansion(file, g)
                    }
                },
            };
            for (f, c) in forms {
                for s in &f.calls {
                    if s != "-" {
                        let s = ctx.expand(s, &c, Mode::Rust, f.line)?;
                        reached.push_str(&s);
                        sections.last_mut().unwrap().2.push(s);
                    }
                }
            }
        }
        // Every form's Rust path is reached by some statement (its method or function name).
        for item in &file.items {
            let Item::Form(f) = item else { continue };
            if !f.row {
                continue;
            }
            for c in combos(f) {
                let rust = ctx.expand(&f.rust, &c, Mode::Rust, f.line)?;
                let name = link_target(&rust);
                let last = name.rsplit("::").next().unwrap_or(&name);
                if !reached.contains(&format!("{last}("))
                    && !reached.contains(&format!("{last}::<"))
                {
                    return Err(format!(
                        "{}:{}: no `call` of this file reaches `{rust}` (its Rust path must compile: \
                         add it to the form's `call`)",
                        file.path, f.line
                    ));
                }
            }
        }
        for (name, params, stmts) in sections {
            if stmts.is_empty() {
                continue;
            }
            let extra: String = params.iter().map(|p| format!(", ${p}:ident")).collect();
            writeln!(
                out,
                "\n/// The catalog kernel's statements of `{}` (list `{name}`): every form through its Rust\n\
                 /// path, in the file's order (expanded by `host/kernels`' catalog kernels; `$p`, `$out`: the\n\
                 /// kernel's pointer parameters, then the kernel's variables it names).\n#[doc(hidden)]\n#[macro_export]\nmacro_rules! catalog_calls_{name} {{\n    ($p:ident, $out:ident{extra}) => {{{{\n        #[allow(unused_imports)]\n        use $crate::{module}::*;\n        #[allow(unused_imports)]\n        use $crate::*;",
                file.path
            )
            .unwrap();
            for s in stmts {
                writeln!(out, "        {s}").unwrap();
            }
            out.push_str("    }};\n}\n");
        }
    }
    Ok(out)
}

/// A PTX template cut into literal text and `$…` references (`$slot`, `$slot.prop`,
/// `$Marker`, `${Key $slot.prop}`), in order: `(is a reference, text)`.
fn pieces(t: &str, is_prop: impl Fn(&str, &str) -> bool) -> Vec<(bool, String)> {
    let mut out = Vec::new();
    let mut rest = t;
    while let Some(i) = rest.find('$') {
        if i > 0 {
            out.push((false, rest[..i].to_string()));
        }
        let after = &rest[i + 1..];
        let len = if after.starts_with('{') {
            after.find('}').map(|j| j + 1).unwrap_or(after.len())
        } else {
            let n = after
                .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                .unwrap_or(after.len());
            let prop = after[n..].strip_prefix('.').map(|p| {
                p.find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                    .unwrap_or(p.len())
            });
            match prop {
                // `$slot.prop` only where the slot has that property (not the `.` of the mnemonic).
                Some(m) if m > 0 && is_prop(&after[..n], &after[n + 1..n + 1 + m]) => n + 1 + m,
                _ => n,
            }
        };
        out.push((true, format!("${}", &after[..len])));
        rest = &after[len..];
    }
    if !rest.is_empty() {
        out.push((false, rest.to_string()));
    }
    out
}

/// The rustdoc link target of a Rust path: no `unsafe `, no turbofish, no `()`.
fn link_target(rust: &str) -> String {
    let r = rust
        .trim()
        .trim_start_matches("unsafe ")
        .trim_end_matches("()");
    let mut out = String::new();
    let mut depth = 0;
    for ch in r.chars() {
        match ch {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ if depth > 0 => {}
            _ => out.push(ch),
        }
    }
    out.replace("::::", "::").trim_end_matches("::").to_string()
}

/// The docs table of one API module: `| call | PTX | PTX ISA / SM |`, one line per form and
/// Rust path (slot values that share a path are one line, their tokens in `{…,…}`).
pub fn doc_table(isa: &Isa, module: &str) -> Result<Vec<String>, String> {
    let mut lines = vec![
        "| call | PTX | PTX ISA / SM |".to_string(),
        "|---|---|---|".to_string(),
    ];
    for file in &isa.files {
        let ctx = Ctx {
            isa,
            path: &file.path,
        };
        for item in &file.items {
            let Item::Form(f) = item else { continue };
            let Some(fam) = super::super::family_of(isa, file, &f.family) else {
                continue;
            };
            if file.module_name()? != module || !f.row {
                continue;
            }
            // Group the combinations by their rendered Rust path (without type arguments).
            let mut groups: BTreeMap<usize, (String, String, Vec<Combo>)> = BTreeMap::new();
            let mut order: Vec<String> = Vec::new();
            for c in combos(f) {
                let rust = ctx
                    .expand(&f.rust, &c, Mode::Rust, f.line)?
                    .trim()
                    .to_string();
                let key = format!(
                    "{}{}",
                    if rust.starts_with("unsafe ") {
                        "unsafe "
                    } else {
                        ""
                    },
                    link_target(&rust)
                );
                // … and by floor: a line's floor is every combination's.
                let gkey = format!("{key}@{:?}", floor(f, fam, &c));
                let i = match order.iter().position(|k| *k == gkey) {
                    Some(i) => i,
                    None => {
                        order.push(gkey);
                        order.len() - 1
                    }
                };
                groups
                    .entry(i)
                    .or_insert_with(|| (key.clone(), rust.clone(), Vec::new()))
                    .2
                    .push(c);
            }
            // A group whose references do not vary as a full product (zipped slot values, as
            // `sync_restrict`'s) is shown one combination a line.
            let is_prop = |slot: &str, prop: &str| {
                f.slots.iter().any(|s| {
                    s.name == slot
                        && (prop == "tok" || s.values.iter().any(|v| v.props.contains_key(prop)))
                })
            };
            let refs: Vec<String> = pieces(&f.ptx, is_prop)
                .into_iter()
                .filter(|(r, _)| *r)
                .map(|(_, p)| p)
                .collect();
            let mut lines_of: Vec<(String, String, Vec<Combo>)> = Vec::new();
            for (_, (key, first_rust, cs)) in groups {
                let mut product = 1usize;
                for r in &refs {
                    let mut seen: Vec<String> = Vec::new();
                    for c in &cs {
                        let t = ctx.expand(r, c, Mode::Ptx, f.line)?;
                        if !seen.contains(&t) {
                            seen.push(t);
                        }
                    }
                    product *= seen.len();
                }
                if product == cs.len() {
                    lines_of.push((key, first_rust, cs));
                } else {
                    for c in cs {
                        let rust = ctx
                            .expand(&f.rust, &c, Mode::Rust, f.line)?
                            .trim()
                            .to_string();
                        lines_of.push((key.clone(), rust, vec![c]));
                    }
                }
            }
            for (key, first_rust, cs) in lines_of {
                let path = link_target(&first_rust);
                // A path through a module (`grid::griddepcontrol_wait`) is the crate's.
                let target = match path.split_once("::") {
                    Some((m, _)) if m.starts_with(char::is_lowercase) => format!("crate::{path}"),
                    _ => path.clone(),
                };
                let shown = if cs.len() == 1 {
                    first_rust.trim_start_matches("unsafe ").to_string()
                } else {
                    path.clone()
                };
                let unsafe_ = if key.starts_with("unsafe ") {
                    "`unsafe` "
                } else {
                    ""
                };
                let call = if shown == target {
                    format!("{unsafe_}[`{shown}`]")
                } else {
                    format!("{unsafe_}[`{shown}`]({target})")
                };
                // The PTX with each `$…` reference's tokens in this group.
                let mut ptx = String::new();
                for (is_ref, piece) in pieces(&f.ptx, is_prop) {
                    if !is_ref {
                        ptx.push_str(&piece);
                        continue;
                    }
                    let mut toks: Vec<String> = Vec::new();
                    for c in &cs {
                        let t = ctx.expand(&piece, c, Mode::Ptx, f.line)?;
                        if !toks.contains(&t) {
                            toks.push(t);
                        }
                    }
                    let opt = toks.iter().any(|t| t.is_empty());
                    toks.retain(|t| !t.is_empty());
                    // The ISA's notation: `.{a,b}` one of, `{.a}` optional, `{.a,.b}` optional one of.
                    ptx.push_str(&match (toks.len(), opt) {
                        (0, _) => String::new(),
                        (1, false) => toks[0].clone(),
                        (_, false) if toks.iter().all(|t| t.starts_with('.')) => {
                            let bare: Vec<&str> = toks.iter().map(|t| &t[1..]).collect();
                            format!(".{{{}}}", bare.join(","))
                        }
                        _ => format!("{{{}}}", toks.join(",")),
                    });
                }
                // A slot's operands (`$dim.cs`: the coordinates of each rank) read `…`.
                let ops: String = pieces(&f.ops, is_prop)
                    .into_iter()
                    .map(|(r, t)| if r { "…".to_string() } else { t })
                    .collect();
                let ops = ops.replace("{{", "\u{0}").replace("}}", "\u{1}");
                let ops = ops
                    .replace(['{', '}'], "")
                    .replace('\u{0}', "{")
                    .replace('\u{1}', "}");
                let ops = if ops.is_empty() {
                    String::new()
                } else {
                    format!(" {ops}")
                };
                let (sm, p) = floor(f, fam, &cs[0]);
                let arch = f.arch.as_deref().unwrap_or(&fam.arch);
                let arch = match arch {
                    "Base" => String::new(),
                    a => format!(" (**{}**)", a.to_lowercase().replace("sm", "sm_")),
                };
                // A `|` of the PTX (`elect.sync d|p`) is escaped: it would end the table cell.
                let ptx = format!("{ptx}{ops};").replace('|', "\\|");
                lines.push(format!(
                    "| {call} | `{ptx}` | {}.{} / sm_{sm}{arch} |",
                    p / 10,
                    p % 10
                ));
            }
        }
    }
    Ok(lines)
}
