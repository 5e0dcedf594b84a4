//! The reader of `device/isa/*.rows` (the schema: `device/isa/README.md`): plain text, one item
//! per unindented line, its keys on the indented lines below it. Every error names its
//! `file:line`.

use std::collections::BTreeMap;
use std::path::Path;

/// Everything the rows say.
#[derive(Debug, Default)]
pub struct Isa {
    /// `tok!` of `device/src/sem.rs`: marker (or `Key Sub`) → PTX token, in its order.
    pub tokens: Vec<Token>,
    /// `blocks.rows`: the `asm!` wrappers.
    pub blocks: Vec<Block>,
    /// One per family file (`barrier.rows`, …), sorted by name.
    pub files: Vec<RowsFile>,
    /// `hand.rows`: the families whose forms are still written by hand (each names its file);
    /// they are variants of the `Family` enum and nothing else.
    pub hand: Vec<Family>,
}

impl Isa {
    /// The PTX text of token `key` (`tok!` of `device/src/sem.rs`), or the error a row at
    /// `path:line` that names it gets.
    pub fn token(&self, key: &str, path: &str, line: usize) -> Result<&str, String> {
        self.tokens
            .iter()
            .find(|t| t.key == key)
            .map(|t| t.text.as_str())
            .ok_or_else(|| format!("{path}:{line}: no token `{key}` in device/src/sem.rs"))
    }
}

/// `token KEY "text"`.
#[derive(Debug, Clone)]
pub struct Token {
    /// `"Acquire"`, `"SyncRestrict Shared"`.
    pub key: String,
    pub text: String,
    /// The `#` lines above it.
    pub comment: Vec<String>,
}

/// `block NAME` with `pre`/`post`.
#[derive(Debug, Clone, Default)]
pub struct Block {
    pub name: String,
    pub pre: String,
    pub post: String,
    pub comment: Vec<String>,
}

/// One `NAME.rows` file of instruction forms.
#[derive(Debug, Default)]
pub struct RowsFile {
    /// `"barrier"`.
    pub name: String,
    /// `"device/isa/barrier.rows"`.
    pub path: String,
    /// `module PATH`: the API module of a file whose forms belong to families of another file
    /// (`copy_blackwell.rows`: `copy::blackwell`, forms of `copy.rows`' families); otherwise
    /// its families' module.
    pub module: Option<String>,
    pub families: Vec<Family>,
    pub traits: Vec<TraitDecl>,
    /// Forms and `also` statements, in file order (the order of the catalog kernel).
    pub items: Vec<Item>,
    /// `access NAME`: the access tables (`ld.rows`, `atom.rows`, …), in file order.
    pub access: Vec<super::access::Access>,
}

/// A form or an extra statement of the catalog kernel.
#[derive(Debug)]
pub enum Item {
    Form(Box<Form>),
    /// `also STATEMENT`: a statement of the catalog kernel at this point (a setup `let`, or
    /// another Rust path to an instruction already listed).
    Also(String),
    /// `section NAME (a, b)`: the following calls form the list `catalog_calls_NAME!`, which takes
    /// the kernel's variables `a`, `b` (`$a`, `$b` in the calls) after `$p`, `$out` (the first
    /// list of a file is named after the file and takes none).
    Section(String, Vec<String>),
    /// `group NAME` with its slots: the forms that name it share the slots and are expanded
    /// together, one combination after the other (the catalog kernel's order).
    Group(String, Vec<Slot>),
}

/// `family Name`: a PTX instruction family and its defaults.
#[derive(Debug, Clone, Default)]
pub struct Family {
    /// The `Family` enum variant (`BarrierCluster`).
    pub name: String,
    /// The PTX family (`"barrier.cluster"`).
    pub ptx: String,
    /// The API module whose docs table lists its forms (`"barrier"`).
    pub module: String,
    pub isa: String,
    pub seed: String,
    pub sm: u16,
    pub ptx_isa: u16,
    pub arch: String,
    /// `forms PATH`: the family's forms are written by hand in `PATH` (a family of `hand.rows`).
    pub hand: Option<String>,
    /// `cfg PREDICATE`: the default `cfg` of its forms (see [`Form::cfg`]).
    pub cfg: Option<String>,
    pub line: usize,
}

/// `trait Decl`: an instruction trait, implemented by the forms that name it.
#[derive(Debug, Clone, Default)]
pub struct TraitDecl {
    /// `"ClusterArriveInstr<A: Alignment>: Sem"`.
    pub decl: String,
    /// `"ClusterArriveInstr"`.
    pub name: String,
    pub docs: Vec<String>,
    pub message: Option<String>,
    pub label: Option<String>,
    pub note: Option<String>,
    /// `(NAME, doc)`: the `&'static str` constants (the mnemonics).
    pub consts: Vec<(String, String)>,
    /// Raw trait items (`item` lines, joined).
    pub items: Vec<String>,
    /// The nvptx64-only leaf methods (`unsafe fn exec()`).
    pub leaves: Vec<String>,
    /// The leaf methods of every target (their forms give the `host` arm).
    pub ops: Vec<String>,
    pub line: usize,
}

/// One slot value: `Aligned(m=_aligned u=unsafe)`.
#[derive(Debug, Clone, Default)]
pub struct SlotValue {
    pub name: String,
    pub props: BTreeMap<String, String>,
}

/// `slot NAME V1 V2 …`: the legal set of one slot.
#[derive(Debug, Clone, Default)]
pub struct Slot {
    pub name: String,
    pub values: Vec<SlotValue>,
}

/// `form TARGET :: FN`: one instruction form — one `asm!` leaf, and per slot combination one
/// catalog row.
#[derive(Debug, Clone, Default)]
pub struct Form {
    /// `"BarSync"` (a marker type) or `"ClusterArriveInstr<$align> for $sem"` (a trait impl).
    pub target: String,
    /// The leaf function (`exec`).
    pub func: String,
    pub family: String,
    /// The mnemonic template (`barrier.cluster.arrive$sem$align`).
    pub ptx: String,
    pub slots: Vec<Slot>,
    /// `(id: u32, n: u32) -> u32`, optionally `<const N: u32>()`.
    pub sig: String,
    /// The operand template (without the leading space).
    pub ops: String,
    pub block: String,
    /// Explicit `asm!` operands (default: derived from `sig`).
    pub asm: Option<String>,
    pub options: String,
    /// The trait constant that holds the mnemonic (trait forms).
    pub konst: String,
    /// Extra impl items (trait forms).
    pub items: Vec<String>,
    /// The marker's docs (marker forms).
    pub docs: Vec<String>,
    pub op: String,
    pub ty: String,
    pub sem: String,
    pub scope: String,
    pub space: String,
    /// `Form` fields: `count`, `align=Aligned`, …
    pub shape: Vec<String>,
    pub sm: Option<u16>,
    pub ptx_isa: Option<u16>,
    pub arch: Option<String>,
    pub isa: Option<String>,
    pub seed: Option<String>,
    pub rust: String,
    /// The catalog kernel's statements for this form (`-`: reached in another form's call).
    pub calls: Vec<String>,
    /// The group whose slots the form shares (`group NAME`).
    pub group: Option<String>,
    /// What the leaf does on the host and under loom (a Rust expression over its parameters):
    /// the leaf then exists on every target, its `asm!` the nvptx64 arm.
    pub host: Option<String>,
    /// The whole instruction text (`text mov.u32 {r}, @;`, `@` the mnemonic) when it is not
    /// `MNEMONIC OPERANDS;` (a special register read).
    pub text: Option<String>,
    /// `false` (`catalog none`): the form is no catalog row (no `Variant`, docs-table line or
    /// call; a special register's `mov`), only its marker and leaf.
    pub row: bool,
    /// `cfg PREDICATE`: the form's trait impl, or its marker's leaves, exist only where the
    /// predicate holds — an arch-specific form on nvptx64 only in a build for its target
    /// (`any(doc, not(target_arch = "nvptx64"), target_feature = "sm_100a")`). Default: its
    /// family's.
    pub cfg: Option<String>,
    pub line: usize,
}

impl Form {
    /// A trait impl (`Trait<…> for Self`) rather than a marker type.
    pub fn trait_impl(&self) -> Option<(&str, &str)> {
        self.target
            .split_once(" for ")
            .map(|(t, s)| (t.trim(), s.trim()))
    }
}

/// Splits `text` into items: (line, head, [(line, key, value)]), with the comments above each.
#[allow(clippy::type_complexity)]
fn items<'a>(
    path: &'a str,
    text: &'a str,
) -> Result<Vec<(usize, &'a str, Vec<(usize, &'a str, &'a str)>, Vec<String>)>, String> {
    let mut out: Vec<(usize, &str, Vec<(usize, &str, &str)>, Vec<String>)> = Vec::new();
    let mut comment = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let t = raw.trim();
        if t.is_empty() {
            comment.clear();
            continue;
        }
        if let Some(c) = t.strip_prefix('#') {
            if !raw.starts_with(char::is_whitespace) {
                comment.push(c.strip_prefix(' ').unwrap_or(c).to_string());
            }
            continue;
        }
        if raw.starts_with(char::is_whitespace) {
            let Some(last) = out.last_mut() else {
                return Err(format!("{path}:{n}: an indented key before any item"));
            };
            let (k, v) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
            last.2.push((n, k, v.trim()));
        } else {
            out.push((n, t, Vec::new(), std::mem::take(&mut comment)));
        }
    }
    Ok(out)
}

/// A `"…"` string with `\n`, `\t`, `\"`, `\\` escapes.
fn quoted(path: &str, line: usize, s: &str) -> Result<String, String> {
    let s = s.trim();
    let inner = s
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .ok_or_else(|| format!("{path}:{line}: expected a \"quoted\" string, found `{s}`"))?;
    let mut out = String::new();
    let mut it = inner.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('"') => out.push('"'),
            Some('\\') => out.push('\\'),
            other => return Err(format!("{path}:{line}: unknown escape `\\{other:?}`")),
        }
    }
    Ok(out)
}

/// `sm_90 ptx 8.0` → (90, 80).
pub fn floor(path: &str, line: usize, v: &str) -> Result<(u16, u16), String> {
    let bad = || format!("{path}:{line}: expected `floor sm_NN ptx X.Y`, found `{v}`");
    let w: Vec<&str> = v.split_whitespace().collect();
    let [sm, "ptx", ver] = w[..] else {
        return Err(bad());
    };
    let sm: u16 = sm
        .strip_prefix("sm_")
        .and_then(|n| n.parse().ok())
        .ok_or_else(bad)?;
    let (a, b) = ver.split_once('.').ok_or_else(bad)?;
    let (a, b): (u16, u16) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if b > 9 {
        return Err(bad());
    }
    Ok((sm, a * 10 + b))
}

/// `Aligned(m=_aligned u=unsafe) Unaligned` → the values.
fn slot_values(path: &str, line: usize, s: &str) -> Result<Vec<SlotValue>, String> {
    let mut out = Vec::new();
    let mut rest = s.trim();
    while !rest.is_empty() {
        let end = rest
            .find(|c: char| c == '(' || c.is_whitespace())
            .unwrap_or(rest.len());
        let name = &rest[..end];
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!("{path}:{line}: bad slot value `{rest}`"));
        }
        let mut v = SlotValue {
            name: name.to_string(),
            props: BTreeMap::new(),
        };
        rest = rest[end..].trim_start();
        if let Some(r) = rest.strip_prefix('(') {
            // `key=value` pairs up to `)`; a value may be `"quoted"` (spaces, parentheses).
            let mut r = r.trim_start();
            loop {
                if let Some(after) = r.strip_prefix(')') {
                    r = after;
                    break;
                }
                let eq = r
                    .find('=')
                    .ok_or_else(|| format!("{path}:{line}: expected key=value in `{name}(…)`"))?;
                let k = r[..eq].trim();
                let after = &r[eq + 1..];
                let (val, tail) = if let Some(q) = after.strip_prefix('"') {
                    let end = q
                        .find('"')
                        .ok_or_else(|| format!("{path}:{line}: unclosed `\"` in `{name}(…)`"))?;
                    (&q[..end], &q[end + 1..])
                } else {
                    let end = after
                        .find(|c: char| c.is_whitespace() || c == ')')
                        .ok_or_else(|| format!("{path}:{line}: `(` without `)` after `{name}`"))?;
                    (&after[..end], &after[end..])
                };
                if k.is_empty() {
                    return Err(format!(
                        "{path}:{line}: a property without its name in `{name}(…)`"
                    ));
                }
                v.props.insert(k.to_string(), val.to_string());
                r = tail.trim_start();
            }
            rest = r.trim_start();
        }
        out.push(v);
    }
    if out.is_empty() {
        return Err(format!("{path}:{line}: a slot needs at least one value"));
    }
    Ok(out)
}

/// The token table: the arms of `tok!` in `device/src/sem.rs` (`(Key) => {` then the literal),
/// the one place a token is spelled; the rows' `$Key` and slot values are expanded from it.
fn tokens(path: &str, text: &str, isa: &mut Isa) -> Result<(), String> {
    let start = text
        .find("macro_rules! tok {")
        .ok_or_else(|| format!("{path}: no `macro_rules! tok`"))?;
    let mut key: Option<(usize, String)> = None;
    let mut comment = Vec::new();
    for (i, line) in text[start..].lines().enumerate().skip(1) {
        let n = text[..start].lines().count() + i + 1;
        let t = line.trim();
        if t == "}" {
            break;
        }
        if let Some(c) = t.strip_prefix("//") {
            comment.push(c.trim().to_string());
        } else if let Some(k) = t.strip_prefix('(').and_then(|t| t.strip_suffix(") => {")) {
            key = Some((n, k.split_whitespace().collect::<Vec<_>>().join(" ")));
        } else if t.starts_with('"') {
            let (kn, k) = key
                .take()
                .ok_or_else(|| format!("{path}:{n}: a token literal without its `(Key) => {{`"))?;
            if isa.tokens.iter().any(|x| x.key == k) {
                return Err(format!("{path}:{kn}: token `{k}` given twice"));
            }
            isa.tokens.push(Token {
                key: k,
                text: quoted(path, n, t)?,
                comment: std::mem::take(&mut comment),
            });
        }
    }
    if isa.tokens.is_empty() {
        return Err(format!("{path}: `tok!` has no arms"));
    }
    Ok(())
}

fn blocks(path: &str, text: &str, isa: &mut Isa) -> Result<(), String> {
    for (n, head, keys, comment) in items(path, text)? {
        let name = head
            .strip_prefix("block ")
            .map(str::trim)
            .ok_or_else(|| format!("{path}:{n}: expected `block NAME`"))?;
        let mut b = Block {
            name: name.to_string(),
            comment,
            ..Block::default()
        };
        for (k, key, v) in keys {
            match key {
                "pre" => b.pre = quoted(path, k, v)?,
                "post" => b.post = quoted(path, k, v)?,
                _ => {
                    return Err(format!(
                        "{path}:{k}: a block has `pre` and `post`, not `{key}`"
                    ))
                }
            }
        }
        isa.blocks.push(b);
    }
    Ok(())
}

fn family(
    path: &str,
    n: usize,
    name: &str,
    keys: &[(usize, &str, &str)],
) -> Result<Family, String> {
    let mut f = Family {
        name: name.to_string(),
        arch: "Base".into(),
        line: n,
        ..Family::default()
    };
    let mut have_floor = false;
    for &(k, key, v) in keys {
        match key {
            "ptx" => f.ptx = v.to_string(),
            "module" => f.module = v.to_string(),
            "isa" => f.isa = v.to_string(),
            "seed" => f.seed = v.to_string(),
            "arch" => f.arch = v.to_string(),
            "forms" => f.hand = Some(v.to_string()),
            "cfg" => f.cfg = Some(v.to_string()),
            "floor" => {
                (f.sm, f.ptx_isa) = floor(path, k, v)?;
                have_floor = true;
            }
            _ => return Err(format!("{path}:{k}: unknown family key `{key}`")),
        }
    }
    if f.hand.is_some() {
        if f.ptx.is_empty() {
            return Err(format!("{path}:{n}: family `{name}` needs `ptx`"));
        }
        return Ok(f);
    }
    for (what, v) in [
        ("ptx", &f.ptx),
        ("module", &f.module),
        ("isa", &f.isa),
        ("seed", &f.seed),
    ] {
        if v.is_empty() {
            return Err(format!("{path}:{n}: family `{name}` needs `{what}`"));
        }
    }
    if !have_floor {
        return Err(format!(
            "{path}:{n}: family `{name}` needs `floor sm_NN ptx X.Y`"
        ));
    }
    Ok(f)
}

fn trait_decl(
    path: &str,
    n: usize,
    decl: &str,
    keys: &[(usize, &str, &str)],
) -> Result<TraitDecl, String> {
    let name: String = decl
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if name.is_empty() {
        return Err(format!("{path}:{n}: `trait` needs a name"));
    }
    let mut t = TraitDecl {
        decl: decl.to_string(),
        name,
        line: n,
        ..TraitDecl::default()
    };
    for &(k, key, v) in keys {
        match key {
            "doc" => t.docs.push(v.to_string()),
            "message" => t.message = Some(v.to_string()),
            "label" => t.label = Some(v.to_string()),
            "note" => t.note = Some(v.to_string()),
            "const" => {
                let (c, doc) = v.split_once(char::is_whitespace).unwrap_or((v, ""));
                t.consts.push((c.to_string(), doc.trim().to_string()));
            }
            "item" => t.items.push(v.to_string()),
            "leaf" => t.leaves.push(v.to_string()),
            "op" => t.ops.push(v.to_string()),
            _ => return Err(format!("{path}:{k}: unknown trait key `{key}`")),
        }
    }
    if t.consts.is_empty() {
        return Err(format!(
            "{path}:{n}: trait `{}` needs a `const` (its mnemonic)",
            t.name
        ));
    }
    Ok(t)
}

fn form(
    path: &str,
    n: usize,
    head: &str,
    keys: &[(usize, &str, &str)],
    fam: Option<&str>,
) -> Result<Form, String> {
    let (target, func) = head
        .rsplit_once("::")
        .ok_or_else(|| format!("{path}:{n}: expected `form TARGET :: FN`"))?;
    let mut f = Form {
        target: target.trim().to_string(),
        func: func.trim().to_string(),
        family: fam.unwrap_or("").to_string(),
        options: "nostack, preserves_flags".into(),
        konst: "PTX".into(),
        row: true,
        line: n,
        ..Form::default()
    };
    if f.target.is_empty() || f.func.is_empty() {
        return Err(format!("{path}:{n}: expected `form TARGET :: FN`"));
    }
    for &(k, key, v) in keys {
        let s = v.to_string();
        match key {
            "family" => f.family = s,
            "ptx" => f.ptx = s,
            "slot" => {
                let (name, vals) = v
                    .split_once(char::is_whitespace)
                    .ok_or_else(|| format!("{path}:{k}: expected `slot NAME V1 V2 …`"))?;
                if f.slots.iter().any(|s| s.name == name) {
                    return Err(format!("{path}:{k}: slot `{name}` given twice"));
                }
                f.slots.push(Slot {
                    name: name.to_string(),
                    values: slot_values(path, k, vals)?,
                });
            }
            "fn" => f.sig = s,
            "ops" => f.ops = s,
            "block" => f.block = s,
            "asm" => f.asm = Some(s),
            "options" => f.options = s,
            "const" => f.konst = s,
            "item" => f.items.push(s),
            "doc" => f.docs.push(s),
            "op" => f.op = s,
            "ty" => f.ty = s,
            "sem" => f.sem = s,
            "scope" => f.scope = s,
            "space" => f.space = s,
            "shape" => f.shape.extend(v.split_whitespace().map(str::to_string)),
            "floor" => {
                let (sm, p) = floor(path, k, v)?;
                f.sm = Some(sm);
                f.ptx_isa = Some(p);
            }
            "arch" => f.arch = Some(s),
            "isa" => f.isa = Some(s),
            "seed" => f.seed = Some(s),
            "rust" => f.rust = s,
            "call" => f.calls.push(s),
            "host" => f.host = Some(s),
            "group" => f.group = Some(s),
            "text" => f.text = Some(s),
            "cfg" => f.cfg = Some(s),
            "catalog" if v == "none" => f.row = false,
            "catalog" => {
                return Err(format!(
                    "{path}:{k}: `catalog` takes `none` (the form is no catalog row), found `{v}`"
                ))
            }
            _ => return Err(format!("{path}:{k}: unknown form key `{key}`")),
        }
    }
    for (what, v) in [
        ("family", &f.family),
        ("ptx", &f.ptx),
        ("fn", &f.sig),
        ("rust", if f.row { &f.rust } else { &f.family }),
    ] {
        if v.is_empty() {
            return Err(format!("{path}:{n}: form `{head}` needs `{what}`"));
        }
    }
    if f.calls.is_empty() && f.row {
        return Err(format!(
            "{path}:{n}: form `{head}` needs a `call` (its statement in the catalog kernel, or `-` \
             when another form's call reaches it)"
        ));
    }
    Ok(f)
}

fn rows_file(path: &str, name: &str, text: &str) -> Result<RowsFile, String> {
    let mut file = RowsFile {
        name: name.to_string(),
        path: path.to_string(),
        ..RowsFile::default()
    };
    let mut last_family: Option<String> = None;
    for (n, head, keys, _comment) in items(path, text)? {
        let (word, rest) = head.split_once(char::is_whitespace).unwrap_or((head, ""));
        let rest = rest.trim();
        match word {
            "family" => {
                let f = family(path, n, rest, &keys)?;
                last_family = Some(f.name.clone());
                file.families.push(f);
            }
            "module" if !rest.is_empty() && keys.is_empty() => file.module = Some(rest.to_string()),
            "trait" => file.traits.push(trait_decl(path, n, rest, &keys)?),
            "form" => {
                let f = form(path, n, rest, &keys, last_family.as_deref())?;
                file.items.push(Item::Form(Box::new(f)));
            }
            "access" => file.access.push(super::access::parse(path, n, rest, &keys, slot_values)?),
            "also" => {
                if !keys.is_empty() {
                    return Err(format!("{path}:{}: `also` is one line", keys[0].0));
                }
                file.items.push(Item::Also(rest.to_string()));
            }
            "group" => {
                let mut slots = Vec::new();
                for &(k, key, v) in &keys {
                    let (name, vals) = match (key, v.split_once(char::is_whitespace)) {
                        ("slot", Some(nv)) => nv,
                        _ => {
                            return Err(format!("{path}:{k}: a group has `slot NAME V1 V2 …` keys"))
                        }
                    };
                    slots.push(Slot {
                        name: name.to_string(),
                        values: slot_values(path, k, vals)?,
                    });
                }
                if rest.is_empty() || slots.is_empty() {
                    return Err(format!("{path}:{n}: expected `group NAME` and its slots"));
                }
                file.items.push(Item::Group(rest.to_string(), slots));
            }
            "section" => {
                let (name, params) = match rest.split_once('(') {
                    Some((nm, ps)) => {
                        let ps = ps.trim().strip_suffix(')').ok_or_else(|| {
                            format!("{path}:{n}: expected `section NAME (a, b, …)`")
                        })?;
                        let ps: Vec<String> = ps
                            .split(',')
                            .map(|x| x.trim().to_string())
                            .filter(|x| !x.is_empty())
                            .collect();
                        (nm.trim(), ps)
                    }
                    None => (rest, Vec::new()),
                };
                let ident = |x: &str| {
                    !x.is_empty() && x.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                };
                if !ident(name) || !params.iter().all(|x| ident(x)) {
                    return Err(format!("{path}:{n}: expected `section NAME (a, b, …)`"));
                }
                file.items.push(Item::Section(name.to_string(), params));
            }
            _ => {
                return Err(format!(
                    "{path}:{n}: unknown item `{word}` (family, module, trait, form, access, also, section)"
                ))
            }
        }
    }
    // A form of a group takes the group's slots (before its own).
    let groups: Vec<(String, Vec<Slot>)> = file
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Group(n, s) => Some((n.clone(), s.clone())),
            _ => None,
        })
        .collect();
    for item in &mut file.items {
        if let Item::Form(f) = item {
            if let Some(g) = &f.group {
                let (_, slots) = groups
                    .iter()
                    .find(|(n, _)| n == g)
                    .ok_or_else(|| format!("{path}:{}: no group `{g}` in this file", f.line))?;
                let mut all = slots.clone();
                all.append(&mut f.slots);
                f.slots = all;
            }
        }
    }
    Ok(file)
}

/// Reads every `*.rows` file of `dir` (`blocks.rows` by name) and the token table of
/// `dir/../src/sem.rs`.
pub fn read(dir: &Path) -> Result<Isa, String> {
    let mut isa = Isa::default();
    let sem = dir.join("../src/sem.rs");
    let text = std::fs::read_to_string(&sem).map_err(|e| format!("{}: {e}", sem.display()))?;
    tokens("device/src/sem.rs", &text, &mut isa)?;
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".rows"))
        .collect();
    names.sort();
    for n in names {
        let p = dir.join(&n);
        let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        let shown = format!("device/isa/{n}");
        match n.as_str() {
            "blocks.rows" => blocks(&shown, &text, &mut isa)?,
            "hand.rows" => {
                let f = rows_file(&shown, "hand", &text)?;
                if !f.items.is_empty() || !f.traits.is_empty() {
                    return Err(format!("{shown}: only `family` items (with `forms PATH`)"));
                }
                for fam in f.families {
                    if fam.hand.is_none() {
                        return Err(format!(
                            "{shown}:{}: family `{}` needs `forms PATH` (its hand-written forms)",
                            fam.line, fam.name
                        ));
                    }
                    isa.hand.push(fam);
                }
            }
            _ => {
                let stem = n.trim_end_matches(".rows");
                isa.files.push(rows_file(&shown, stem, &text)?);
            }
        }
    }
    Ok(isa)
}
