//! A `.ptx` module as rustc or nvcc emit it, and the threads of one launch of one of its entries
//! (issue #22 §1).
//!
//! [`Module::parse`] reads the module's structure (PTX ISA chapter 11 directives: `.version`,
//! `.target`, `.address_size`, `.visible .entry` / `.func` with their `.param` lists,
//! `.reg` declarations with `<N>` ranges, `.shared` / `.global` / `.const` variables with `.align`
//! and initialisers, `extern .shared` dynamic shared memory, `.file` / `.loc`, `.pragma`, brace
//! blocks with registers of their own, labels) and checks that every instruction of every entry
//! parses. [`Module::launch`] builds, for a grid, block and cluster shape and the entry's
//! parameter bindings, the [`Layout`] and one [`Thread`] per launched thread: the entry's code with
//! every `call` of a `.func` inlined, kernel parameters read by `ld.param` as the bound values.
//!
//! Example:
//!
//! ```
//! use ptx_sync_model::ptx::module::{Bind, Launch, Module};
//! let m = Module::parse(".version 8.6\n.target sm_90\n.address_size 64\n\
//!     .visible .entry k(.param .u64 k_param_0)\n{\n.reg .b64 %rd<3>;\n\
//!     ld.param.u64 %rd1, [k_param_0];\ncvta.to.global.u64 %rd2, %rd1;\n\
//!     st.global.u32 [%rd2], 1;\nret;\n}\n", "k.ptx").unwrap();
//! let mut l = Launch::new([1, 1, 1], [2, 1, 1]);
//! l.params.push((0, Bind::Buf(16)));
//! let k = m.launch("k", &l).unwrap();
//! assert_eq!(k.threads.len(), 2);
//! ```

use super::interp::{Code, Geom, RegInfo, Thread};
use super::ir::{Kind, Line, Reg, Ty};
use super::parse::{is_ident, parse_int, parse_line, Env, Param, VarRef};
use crate::engine::op::{At, Layout, Place};
use crate::parse::{Error, ErrorKind};
use std::collections::HashMap;
use std::sync::Arc;

/// A module-scope variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModVar {
    /// Its name.
    pub name: String,
    /// `.shared` (one copy per CTA) rather than `.global`/`.const`.
    pub shared: bool,
    /// Bytes; `None` for `.extern .shared … name[]` (dynamic shared memory: the launch's size).
    pub size: Option<u32>,
    /// Initial bytes.
    pub init: Vec<u8>,
}

/// A `.param` of a function's parameter or return list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamDecl {
    /// Its name.
    pub name: String,
    /// Bytes.
    pub size: u32,
}

/// A body statement.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Item {
    /// `.reg .type names;` (ranges expanded).
    Reg(Ty, Vec<String>),
    /// `.param .type name;` inside a body (a call argument).
    Param(u32, String),
    /// `name:`
    Label(String),
    /// `.loc file line col`
    Loc(u32, u32),
    /// `.local .align A .type name[N];` (bytes, alignment, name).
    Local(u32, u32, String),
    /// An instruction (a `call` too).
    Inst(usize, String),
    /// `{`
    Open,
    /// `}`
    Close,
}

/// A function of the module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Func {
    /// Its name.
    pub name: String,
    /// `.entry` (a kernel) rather than `.func`.
    pub entry: bool,
    /// Its parameters.
    pub params: Vec<ParamDecl>,
    /// Its return parameters.
    pub rets: Vec<ParamDecl>,
    /// `.noreturn`
    pub noreturn: bool,
    /// Line of its header.
    pub line: usize,
    body: Option<Vec<Item>>,
}

impl Func {
    /// Whether it has a body (a definition, not a declaration).
    pub fn defined(&self) -> bool {
        self.body.is_some()
    }
}

/// A parsed module.
#[derive(Clone, Debug)]
pub struct Module {
    /// The file name (for messages).
    pub file: String,
    /// Module-scope variables, in order.
    pub vars: Vec<ModVar>,
    /// Functions, in order.
    pub funcs: Vec<Func>,
    /// `.file` names by index.
    pub files: HashMap<u32, Arc<str>>,
}

/// What a kernel parameter is bound to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bind {
    /// A fresh zeroed global buffer of this many bytes (the parameter holds its address).
    Buf(u32),
    /// An integer value.
    Int(u64),
    /// A tensor map (`.b32` elements, tile mode, row-major) over a fresh zeroed global buffer
    /// of `dims[0] × dims[1]` elements, with box `boxdim`; the parameter holds the map's address
    /// (a 128-byte global object, as a `CUtensorMap` in global memory). `rank`: 1 or 2.
    Tmap {
        /// Dimensions (elements), innermost first.
        dims: [u32; 2],
        /// Box (elements).
        boxdim: [u32; 2],
        /// 1 or 2.
        rank: u8,
    },
}

/// A launch: grid, block and cluster shape, parameter bindings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// CTAs per grid (x, y, z).
    pub grid: [u32; 3],
    /// Threads per CTA (x, y, z).
    pub block: [u32; 3],
    /// CTAs per cluster (x, y, z); `[1, 1, 1]` without clusters.
    pub cluster: [u32; 3],
    /// `(parameter index, binding)`.
    pub params: Vec<(usize, Bind)>,
    /// Dynamic shared memory bytes.
    pub dyn_smem: u32,
    /// The unroll bound of the threads.
    pub unroll: u32,
}

impl Launch {
    /// A launch of `grid` CTAs of `block` threads, no cluster, no binding, unroll 4.
    pub fn new(grid: [u32; 3], block: [u32; 3]) -> Launch {
        Launch {
            grid,
            block,
            cluster: [1, 1, 1],
            params: Vec::new(),
            dyn_smem: 0,
            unroll: 4,
        }
    }
}

/// A rewrite of one statement of a module ([`Module::launch_edited`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The statement's line (1-based, where it starts).
    pub line: usize,
    /// The statement as the module writes it (trimmed, without `;`; the text of
    /// [`At::text`](crate::engine::op::At)).
    pub old: String,
    /// Its replacement, or `None` to drop it.
    pub new: Option<String>,
}

/// The threads of a launch.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// The address space: the module's variables, dynamic shared memory, the bound buffers.
    pub layout: Arc<Layout>,
    /// One thread per launched thread, CTA by CTA (x fastest), thread by thread (x fastest).
    pub threads: Vec<Thread>,
    /// Parameter `i`'s buffer variable, for `Bind::Buf` parameters (`(i, var)`) and the data of
    /// `Bind::Tmap` ones.
    pub buffers: Vec<(usize, usize)>,
}

/// Most threads one launch may have (the model explores every thread).
pub const MAX_THREADS: u64 = 1 << 16;
/// Deepest call nesting inlined.
pub const MAX_INLINE: usize = 16;

fn perr(file: &str, line: usize, msg: impl Into<String>) -> Error {
    Error {
        kind: ErrorKind::Parse,
        file: file.to_string(),
        line,
        msg: msg.into(),
    }
}

fn unsup(file: &str, line: usize, msg: impl Into<String>) -> Error {
    Error {
        kind: ErrorKind::Unsupported,
        file: file.to_string(),
        line,
        msg: msg.into(),
    }
}

/// Removes `//` and `/* */` comments (outside strings), keeping line breaks.
fn strip(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut in_str = false;
    while i < b.len() {
        let c = b[i];
        if in_str {
            out.push(c);
            if c == '"' {
                in_str = false;
            }
            i += 1;
        } else if c == '"' {
            in_str = true;
            out.push(c);
            i += 1;
        } else if c == '/' && b.get(i + 1) == Some(&'/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && b.get(i + 1) == Some(&'*') {
            i += 2;
            while i < b.len() && !(b[i] == '*' && b.get(i + 1) == Some(&'/')) {
                if b[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 2;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// A statement of the module text: `(line, text)`; `{` and `}` are statements of their own.
fn statements(text: &str) -> Vec<(usize, String)> {
    const LINE_DIRECTIVES: [&str; 6] = [
        ".version",
        ".target",
        ".address_size",
        ".file",
        ".loc",
        ".section",
    ];
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut cur_line = 0;
    let mut paren = 0i32;
    let mut brace = 0i32;
    let mut in_str = false;
    for (ln, l) in text.lines().enumerate() {
        let mut chars = l.chars().peekable();
        // A line directive (no `;`) takes its line.
        if cur.trim().is_empty() {
            let t = l.trim_start();
            if LINE_DIRECTIVES
                .iter()
                .any(|d| t.starts_with(d) && t[d.len()..].starts_with(char::is_whitespace))
            {
                out.push((ln + 1, t.trim().trim_end_matches(';').to_string()));
                continue;
            }
        }
        while let Some(c) = chars.next() {
            if cur.trim().is_empty() {
                cur_line = ln + 1;
                if c == '{' || c == '}' {
                    out.push((ln + 1, c.to_string()));
                    cur.clear();
                    continue;
                }
            }
            if in_str {
                cur.push(c);
                if c == '"' {
                    in_str = false;
                }
                continue;
            }
            match c {
                '"' => in_str = true,
                '(' => paren += 1,
                ')' => paren -= 1,
                '{' => {
                    // A function header ends at its body's brace.
                    let t = cur.trim_start();
                    let header =
                        paren == 0 && brace == 0 && (t.contains(".entry") || t.contains(".func"));
                    if header {
                        out.push((cur_line, cur.trim().to_string()));
                        cur.clear();
                        out.push((ln + 1, "{".into()));
                        continue;
                    }
                    brace += 1;
                }
                '}' => brace -= 1,
                ';' if paren == 0 && brace == 0 => {
                    out.push((cur_line, cur.trim().to_string()));
                    cur.clear();
                    continue;
                }
                ':' if paren == 0 && brace == 0 => {
                    // A label `name:` (not `::` of a qualifier).
                    let t = cur.trim();
                    if is_ident(t) && chars.peek() != Some(&':') && !t.contains('.') {
                        out.push((cur_line, format!("{t}:")));
                        cur.clear();
                        continue;
                    }
                }
                _ => {}
            }
            cur.push(c);
        }
        if !cur.trim().is_empty() {
            cur.push(' ');
        }
    }
    if !cur.trim().is_empty() {
        out.push((cur_line, cur.trim().to_string()));
    }
    out
}

/// Parses `.param .type name` / `.param .align N .b8 name[K]` (a declaration's inside).
fn param_decl(file: &str, line: usize, s: &str) -> Result<ParamDecl, Error> {
    let w: Vec<&str> = s.split_whitespace().collect();
    if w.first() != Some(&".param") || w.len() < 3 {
        return Err(perr(
            file,
            line,
            format!("expected `.param .type name`, found `{s}`"),
        ));
    }
    let name = w[w.len() - 1];
    let (name, count) = match name.split_once('[') {
        Some((n, k)) => (
            n,
            k.trim_end_matches(']')
                .parse::<u32>()
                .map_err(|_| perr(file, line, format!("expected an array size in `{s}`")))?,
        ),
        None => (name, 1),
    };
    let ty = w[1..w.len() - 1]
        .iter()
        .rev()
        .find_map(|q| q.strip_prefix('.').and_then(super::parse::type_of))
        .ok_or_else(|| perr(file, line, format!("expected a type in `{s}`")))?;
    Ok(ParamDecl {
        name: name.to_string(),
        size: (ty.bits as u32 / 8).max(1) * count,
    })
}

/// Splits a parenthesised, comma-separated list.
fn paren_list(s: &str) -> Vec<String> {
    let s = s.trim();
    let s = s
        .strip_prefix('(')
        .and_then(|x| x.strip_suffix(')'))
        .unwrap_or(s);
    s.split(',')
        .map(|x| x.trim().to_string())
        .filter(|x| !x.is_empty())
        .collect()
}

/// Expands `%r<30>` into `%r0` … `%r29`.
fn reg_names(file: &str, line: usize, list: &str) -> Result<Vec<String>, Error> {
    let mut out = Vec::new();
    for n in list.split(',') {
        let n = n.trim();
        if let Some((base, k)) = n.split_once('<') {
            let k: u32 = k
                .trim_end_matches('>')
                .parse()
                .map_err(|_| perr(file, line, format!("expected `name<N>`, found `{n}`")))?;
            if k > 1 << 16 {
                return Err(unsup(
                    file,
                    line,
                    format!("{k} registers in one declaration"),
                ));
            }
            out.extend((0..k).map(|i| format!("{base}{i}")));
        } else if is_ident(n) {
            out.push(n.to_string());
        } else {
            return Err(perr(
                file,
                line,
                format!("expected a register name, found `{n}`"),
            ));
        }
    }
    Ok(out)
}

/// `.align N`, type and `name[N]` of a variable declaration; its initialiser.
fn var_decl(file: &str, line: usize, s: &str) -> Result<ModVar, Error> {
    let (decl, init) = match s.split_once('=') {
        Some((d, i)) => (d.trim(), Some(i.trim())),
        None => (s.trim(), None),
    };
    let w: Vec<&str> = decl.split_whitespace().collect();
    let shared = w.contains(&".shared");
    let extern_ = w.contains(&".extern");
    let ty = w
        .iter()
        .rev()
        .skip(1)
        .find_map(|q| q.strip_prefix('.').and_then(super::parse::type_of))
        .ok_or_else(|| perr(file, line, format!("expected a type in `{s}`")))?;
    let last = *w.last().unwrap_or(&"");
    let (name, dims) = match last.split_once('[') {
        Some((n, rest)) => (n, Some(rest)),
        None => (last, None),
    };
    if !is_ident(name) {
        return Err(perr(
            file,
            line,
            format!("expected a variable name in `{s}`"),
        ));
    }
    let elem = (ty.bits as u32 / 8).max(1);
    let size = match dims {
        None => Some(elem),
        Some(d) => {
            let mut n = 1u64;
            let mut open = false;
            for part in d.trim_end_matches(']').split("][") {
                if part.is_empty() {
                    open = true;
                } else {
                    n *= part.parse::<u64>().map_err(|_| {
                        perr(file, line, format!("expected an array size in `{s}`"))
                    })?;
                }
            }
            if open {
                if !(extern_ && shared) {
                    return Err(unsup(
                        file,
                        line,
                        format!("an unsized array other than `.extern .shared` in `{s}`"),
                    ));
                }
                None
            } else {
                Some(
                    u32::try_from(n * elem as u64)
                        .map_err(|_| unsup(file, line, "a variable of 4 GiB or more"))?,
                )
            }
        }
    };
    let mut bytes = Vec::new();
    if let Some(i) = init {
        let inner = i.trim_start_matches('{').trim_end_matches('}');
        for v in inner.split(',').map(str::trim).filter(|v| !v.is_empty()) {
            let x = parse_int(v).ok_or_else(|| {
                unsup(
                    file,
                    line,
                    format!("initialiser `{v}` (integers are modelled)"),
                )
            })?;
            let b = (x as i64 as u64).to_le_bytes();
            bytes.extend_from_slice(&b[..elem.min(8) as usize]);
        }
    }
    Ok(ModVar {
        name: name.to_string(),
        shared,
        size,
        init: bytes,
    })
}

impl Module {
    /// Parses a module; every instruction of every entry and defined function is checked by the
    /// instruction parser (an instruction it does not model is fine here: it is reported when a
    /// thread reaches it).
    pub fn parse(text: &str, file: &str) -> Result<Module, Error> {
        let stripped = strip(text);
        let st = statements(&stripped);
        let mut m = Module {
            file: file.to_string(),
            vars: Vec::new(),
            funcs: Vec::new(),
            files: HashMap::new(),
        };
        let mut i = 0;
        while i < st.len() {
            let (ln, s) = (&st[i].0, st[i].1.as_str());
            let ln = *ln;
            i += 1;
            let first = s.split_whitespace().next().unwrap_or("");
            match first {
                ".version" | ".target" | ".address_size" => continue,
                ".section" => {
                    // A `.section NAME { … }` (nvcc -G: DWARF bytes as `.b8`/`.b32` lines; the
                    // ISA's debugging directives) holds no code: skipped with its body.
                    if st.get(i).map(|x| x.1.as_str()) == Some("{") {
                        let mut depth = 0;
                        while let Some((_, s2)) = st.get(i) {
                            i += 1;
                            depth += match s2.as_str() {
                                "{" => 1,
                                "}" => -1,
                                _ => 0,
                            };
                            if depth == 0 {
                                break;
                            }
                        }
                    }
                    continue;
                }
                ".file" => {
                    let w: Vec<&str> = s.splitn(3, char::is_whitespace).collect();
                    let idx = w.get(1).and_then(|x| x.parse::<u32>().ok());
                    let name = w.get(2).and_then(|x| x.trim().split('"').nth(1));
                    if let (Some(k), Some(n)) = (idx, name) {
                        m.files.insert(k, Arc::from(n));
                    }
                    continue;
                }
                ".pragma" | ".loc" => continue,
                _ => {}
            }
            if s.contains(".entry") || s.contains(".func") {
                let mut f = m.header(ln, s)?;
                // A definition's header is followed by its body's `{`; a declaration's is not.
                if st.get(i).map(|x| x.1.as_str()) == Some("{") {
                    i += 1;
                    let mut depth = 1;
                    let mut items = Vec::new();
                    while i < st.len() {
                        let (l2, s2) = (st[i].0, st[i].1.clone());
                        i += 1;
                        match s2.as_str() {
                            "{" => {
                                depth += 1;
                                items.push(Item::Open);
                            }
                            "}" => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                                items.push(Item::Close);
                            }
                            _ if matches!(
                                s2.split_whitespace().next(),
                                Some(".shared" | ".global" | ".const")
                            ) =>
                            {
                                // A state-space variable declared in a function body has static
                                // storage like a module-scope one (PTX ISA §5.1: `.shared` is
                                // per CTA, `.global` per context); only its name is scoped to
                                // the function. It is hoisted to the module under its own name
                                // (nvcc mangles them unique); a second variable of that name is
                                // refused.
                                let v = var_decl(file, l2, &s2)?;
                                if m.vars.iter().any(|x| x.name == v.name) {
                                    return Err(unsup(
                                        file,
                                        l2,
                                        format!(
                                            "`{}` declared in two scopes (function-scope variables share the module's names here)",
                                            v.name
                                        ),
                                    ));
                                }
                                m.vars.push(v);
                            }
                            _ => items.push(body_item(file, l2, &s2)?),
                        }
                    }
                    if depth != 0 {
                        return Err(perr(file, ln, format!("`{}`: unterminated body", f.name)));
                    }
                    f.body = Some(items);
                }
                m.funcs.push(f);
                continue;
            }
            if s == "{" || s == "}" {
                return Err(perr(file, ln, format!("unexpected `{s}` at module scope")));
            }
            let w: Vec<&str> = s.split_whitespace().collect();
            if w.iter()
                .any(|x| matches!(*x, ".shared" | ".global" | ".const"))
            {
                let v = var_decl(file, ln, s)?;
                if m.vars.iter().any(|x| x.name == v.name) {
                    return Err(perr(file, ln, format!("`{}` is declared twice", v.name)));
                }
                m.vars.push(v);
                continue;
            }
            if w.contains(&".local") {
                return Err(unsup(file, ln, "module-scope .local variables"));
            }
            return Err(perr(file, ln, format!("unexpected `{s}` at module scope")));
        }
        // Every entry must assemble (with zero parameters and no dynamic shared memory).
        for f in m.funcs.iter().filter(|f| f.entry && f.defined()) {
            let mut l = Launch::new([1, 1, 1], [1, 1, 1]);
            l.params = (0..f.params.len()).map(|k| (k, Bind::Int(0))).collect();
            m.assemble(&f.name, &l, &mut Layout::default(), &[], &[])?;
        }
        Ok(m)
    }

    /// Parses a function header `… .entry name(params) …` / `… .func (rets) name(params) …`.
    fn header(&self, ln: usize, s: &str) -> Result<Func, Error> {
        let file = &self.file;
        let entry = s.contains(".entry");
        let kw = if entry { ".entry" } else { ".func" };
        let after = &s[s.find(kw).unwrap_or(0) + kw.len()..];
        let mut rest = after.trim_start();
        let mut rets = Vec::new();
        if rest.starts_with('(') {
            let end = rest
                .find(')')
                .ok_or_else(|| perr(file, ln, "unbalanced `(`"))?;
            for p in paren_list(&rest[..=end]) {
                rets.push(param_decl(file, ln, &p)?);
            }
            rest = rest[end + 1..].trim_start();
        }
        let name_end = rest
            .find(|c: char| c.is_whitespace() || c == '(' || c == ';')
            .unwrap_or(rest.len());
        let name = rest[..name_end].to_string();
        if !is_ident(&name) {
            return Err(perr(
                file,
                ln,
                format!("expected a function name, found `{name}`"),
            ));
        }
        rest = rest[name_end..].trim_start();
        let mut params = Vec::new();
        if rest.starts_with('(') {
            let mut depth = 0;
            let mut end = 0;
            for (k, c) in rest.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            end = k;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            for p in paren_list(&rest[..=end]) {
                params.push(param_decl(file, ln, &p)?);
            }
            rest = rest[end + 1..].trim_start();
        }
        let noreturn = rest.contains(".noreturn");
        Ok(Func {
            name,
            entry,
            params,
            rets,
            noreturn,
            line: ln,
            body: None,
        })
    }

    /// The entry called `name`.
    pub fn entry(&self, name: &str) -> Option<&Func> {
        self.funcs.iter().find(|f| f.entry && f.name == name)
    }

    /// The names of the entries (kernels) defined in the module.
    pub fn entries(&self) -> Vec<&str> {
        self.funcs
            .iter()
            .filter(|f| f.entry && f.defined())
            .map(|f| f.name.as_str())
            .collect()
    }

    /// Builds the layout and the threads of a launch of entry `name`.
    pub fn launch(&self, name: &str, l: &Launch) -> Result<Kernel, Error> {
        self.launch_edited(name, l, &[])
    }

    /// [`Module::launch`] with some statements of the module rewritten: each [`Edit`] replaces
    /// the statement written `old` on line `line` (in every inlined copy) by its `new` text, or
    /// drops it. The module is not parsed again: the entry is flattened from the statements
    /// [`Module::parse`] kept, and every instruction goes through the instruction parser, which
    /// rejects an ill-formed rewrite as it would the written text (`ptx_sync_model::advise`
    /// re-checks a kernel this way, once per candidate weakening).
    pub fn launch_edited(&self, name: &str, l: &Launch, edits: &[Edit]) -> Result<Kernel, Error> {
        let file = &self.file;
        let f = self
            .entry(name)
            .filter(|f| f.defined())
            .ok_or_else(|| perr(file, 0, format!("no entry `{name}` in the module")))?;
        for d in [l.grid, l.block, l.cluster] {
            if d.contains(&0) {
                return Err(perr(
                    file,
                    0,
                    "grid, block and cluster sizes are at least 1",
                ));
            }
        }
        for k in 0..3 {
            if !l.grid[k].is_multiple_of(l.cluster[k]) {
                return Err(perr(
                    file,
                    0,
                    "the grid is not a whole number of clusters (PTX ISA §2.2.2)",
                ));
            }
        }
        let per_cta: u64 = l.block.iter().map(|x| *x as u64).product();
        let ctas: u64 = l.grid.iter().map(|x| *x as u64).product();
        let csize: u64 = l.cluster.iter().map(|x| *x as u64).product();
        if per_cta > 1024 {
            return Err(perr(file, 0, "more than 1024 threads per CTA"));
        }
        if csize > 16 {
            return Err(perr(file, 0, "more than 16 CTAs per cluster"));
        }
        if per_cta * ctas > MAX_THREADS {
            return Err(unsup(file, 0, format!("more than {MAX_THREADS} threads")));
        }
        let mut layout = Layout::default();
        self.add_vars(&mut layout, l.dyn_smem);
        let mut buffers = Vec::new();
        let mut bound: Vec<Option<u64>> = vec![None; f.params.len()];
        for &(i, b) in &l.params {
            if i >= f.params.len() {
                return Err(perr(
                    file,
                    0,
                    format!(
                        "`{name}` has {} parameters, no parameter {i}",
                        f.params.len()
                    ),
                ));
            }
            match b {
                Bind::Int(v) => bound[i] = Some(v),
                // Bound buffers come after the module's variables.
                Bind::Buf(n) => {
                    let v = layout.add(&format!("p{i}"), false, n.max(1), vec![]);
                    bound[i] = Some(layout.addr_of(v));
                    buffers.push((i, v));
                }
                Bind::Tmap { dims, boxdim, rank } => {
                    let r = rank as usize;
                    if !(1..=2).contains(&r)
                        || dims[..r].contains(&0)
                        || boxdim[..r].contains(&0)
                        || boxdim[..r].iter().any(|b| *b > 256)
                    {
                        return Err(perr(
                            file,
                            0,
                            "a tensor map has rank 1 or 2, sizes ≥ 1 and boxes of at most 256 (PTX ISA §5.5.1)",
                        ));
                    }
                    let elems: u64 = dims[..r].iter().map(|d| *d as u64).product();
                    let bytes = u32::try_from(elems * 4)
                        .map_err(|_| unsup(file, 0, "a tensor of 4 GiB or more"))?;
                    let data = layout.add(&format!("p{i}_data"), false, bytes, vec![]);
                    let var = layout.add(&format!("p{i}"), false, 128, vec![]);
                    layout.tmaps.push(crate::engine::op::TensorMap {
                        var,
                        data,
                        elem: 4,
                        dims: dims[..r].to_vec(),
                        boxdim: boxdim[..r].to_vec(),
                    });
                    bound[i] = Some(layout.addr_of(var));
                    buffers.push((i, data));
                }
            }
        }
        let mut values = Vec::with_capacity(bound.len());
        for (i, b) in bound.iter().enumerate() {
            match b {
                Some(v) => values.push(*v),
                None => {
                    return Err(perr(
                        file,
                        0,
                        format!(
                            "parameter {i} (`{}`) of `{name}` is not bound (--param {i}=buf:BYTES or --param {i}=INT)",
                            f.params[i].name
                        ),
                    ))
                }
            }
        }
        let (lines, regs, local_size) = self.assemble(name, l, &mut layout, &values, edits)?;
        let layout = Arc::new(layout);
        let mut code = Code::new(lines, regs, layout.clone());
        code.local_size = local_size;
        let code = Arc::new(code);
        let static_smem: u64 = self
            .vars
            .iter()
            .filter(|v| v.shared)
            .map(|v| v.size.unwrap_or(0) as u64)
            .sum();
        let mut threads = Vec::with_capacity((per_cta * ctas) as usize);
        let nclusters = [
            l.grid[0] / l.cluster[0],
            l.grid[1] / l.cluster[1],
            l.grid[2] / l.cluster[2],
        ];
        for cz in 0..l.grid[2] {
            for cy in 0..l.grid[1] {
                for cx in 0..l.grid[0] {
                    let ctaid = [cx, cy, cz];
                    let cta = cx + l.grid[0] * (cy + l.grid[1] * cz);
                    let clusterid = [cx / l.cluster[0], cy / l.cluster[1], cz / l.cluster[2]];
                    let cluster =
                        clusterid[0] + nclusters[0] * (clusterid[1] + nclusters[1] * clusterid[2]);
                    let cctaid = [cx % l.cluster[0], cy % l.cluster[1], cz % l.cluster[2]];
                    let rank = cctaid[0] + l.cluster[0] * (cctaid[1] + l.cluster[1] * cctaid[2]);
                    for tz in 0..l.block[2] {
                        for ty in 0..l.block[1] {
                            for tx in 0..l.block[0] {
                                let lin = tx + l.block[0] * (ty + l.block[1] * tz);
                                let place = Place {
                                    gpu: 0,
                                    cluster,
                                    cta,
                                    rank,
                                    warp: lin / 32,
                                    lane: lin % 32,
                                };
                                let geom = Geom {
                                    place,
                                    tid: [tx, ty, tz],
                                    ntid: l.block,
                                    ctaid,
                                    nctaid: l.grid,
                                    clusterid,
                                    nclusterid: nclusters,
                                    cluster_ctaid: cctaid,
                                    cluster_nctaid: l.cluster,
                                    nwarpid: (per_cta as u32).div_ceil(32),
                                    dyn_smem: l.dyn_smem,
                                    total_smem: (static_smem + l.dyn_smem as u64) as u32,
                                    explicit_cluster: l.cluster != [1, 1, 1],
                                };
                                threads.push(Thread::new(code.clone(), geom, &[], l.unroll));
                            }
                        }
                    }
                }
            }
        }
        Ok(Kernel {
            layout,
            threads,
            buffers,
        })
    }

    fn add_vars(&self, layout: &mut Layout, dyn_smem: u32) {
        for v in &self.vars {
            let size = v.size.unwrap_or(dyn_smem);
            layout.add(&v.name, v.shared, size, v.init.clone());
        }
    }

    /// Flattens entry `name` (calls inlined) and parses every instruction.
    fn assemble(
        &self,
        name: &str,
        l: &Launch,
        layout: &mut Layout,
        values: &[u64],
        edits: &[Edit],
    ) -> Result<(Vec<Line>, Vec<RegInfo>, u32), Error> {
        if layout.vars.is_empty() {
            self.add_vars(layout, l.dyn_smem);
        }
        let f = self
            .entry(name)
            .ok_or_else(|| perr(&self.file, 0, format!("no entry `{name}`")))?;
        let mut fl = Flat {
            m: self,
            items: Vec::new(),
            scopes: Vec::new(),
            regs: Vec::new(),
            instance: 0,
            next_instance: 1,
            loc: None,
            local_size: 0,
        };
        // Entry scope: parameters with their values.
        let mut params = HashMap::new();
        for (k, p) in f.params.iter().enumerate() {
            let v = values.get(k).copied().unwrap_or(0);
            let mut b = v.to_le_bytes().to_vec();
            b.resize(p.size.max(8) as usize, 0);
            b.truncate(p.size as usize);
            params.insert(p.name.clone(), PSlot::Value(b));
        }
        fl.scopes.push(Scope {
            parent: None,
            regs: HashMap::new(),
            params,
            locals: HashMap::new(),
        });
        fl.body(f, 0, 0, None)?;
        if !edits.is_empty() {
            let items = std::mem::take(&mut fl.items);
            for mut it in items {
                if let FItem::Inst {
                    line,
                    text,
                    forced: None,
                    ..
                } = &mut it
                {
                    if let Some(e) = edits.iter().find(|e| e.line == *line && e.old == *text) {
                        match &e.new {
                            Some(n) => *text = n.clone(),
                            None => continue,
                        }
                    }
                }
                fl.items.push(it);
            }
        }
        // Labels → the index of the next instruction.
        let mut idx = 0u32;
        let mut label_at: HashMap<(u32, String), u32> = HashMap::new();
        for it in &fl.items {
            match it {
                FItem::Label(inst, n) => {
                    label_at.insert((*inst, n.clone()), idx);
                }
                FItem::Inst { .. } => idx += 1,
            }
        }
        let mut lines = Vec::with_capacity(idx as usize);
        let items = std::mem::take(&mut fl.items);
        for it in items {
            let FItem::Inst {
                line,
                text,
                scope,
                instance,
                loc,
                forced,
            } = it
            else {
                continue;
            };
            let at = At {
                line,
                text: Arc::from(text.as_str()),
                src: loc.and_then(|(f, l)| self.files.get(&f).map(|n| (n.clone(), l))),
            };
            if let Some(inst) = forced {
                lines.push(Line {
                    guard: None,
                    inst,
                    at,
                });
                continue;
            }
            let mut env = FEnv {
                fl: &mut fl,
                layout,
                scope,
                instance,
                labels: &label_at,
            };
            match parse_line(&text, at.clone(), &mut env) {
                Ok(l) => lines.push(l),
                Err(e) if e.unsupported => lines.push(Line {
                    guard: None,
                    inst: super::ir::Inst::Unsupported(e.msg),
                    at,
                }),
                Err(e) => return Err(perr(&self.file, line, e.msg)),
            }
        }
        Ok((lines, fl.regs, fl.local_size as u32))
    }
}

/// A body statement.
fn body_item(file: &str, ln: usize, s: &str) -> Result<Item, Error> {
    let t = s.trim();
    if let Some(l) = t.strip_suffix(':') {
        if is_ident(l) {
            return Ok(Item::Label(l.to_string()));
        }
    }
    let first = t.split_whitespace().next().unwrap_or("");
    match first {
        ".reg" => {
            let rest = t[4..].trim();
            let (tyq, names) = rest.split_once(char::is_whitespace).ok_or_else(|| {
                perr(
                    file,
                    ln,
                    format!("expected `.reg .type names`, found `{t}`"),
                )
            })?;
            let mut tyq = tyq;
            let mut names = names.trim();
            if tyq.starts_with(".v") {
                return Err(unsup(file, ln, format!("vector registers `{t}`")));
            }
            if tyq == ".align" {
                let r = names
                    .split_once(char::is_whitespace)
                    .map(|x| x.1)
                    .unwrap_or("");
                let (a, b) = r.trim().split_once(char::is_whitespace).unwrap_or((r, ""));
                tyq = a;
                names = b.trim();
            }
            let ty = tyq
                .strip_prefix('.')
                .and_then(super::parse::type_of)
                .ok_or_else(|| perr(file, ln, format!("expected a register type in `{t}`")))?;
            Ok(Item::Reg(ty, reg_names(file, ln, names)?))
        }
        ".param" => {
            let p = param_decl(file, ln, t)?;
            Ok(Item::Param(p.size, p.name))
        }
        ".loc" => {
            let w: Vec<&str> = t.split_whitespace().collect();
            let f = w.get(1).and_then(|x| x.parse().ok()).unwrap_or(0);
            let l = w.get(2).and_then(|x| x.parse().ok()).unwrap_or(0);
            Ok(Item::Loc(f, l))
        }
        ".pragma" | ".maxntid" | ".reqntid" | ".minnctapersm" | ".maxnreg" => {
            Ok(Item::Inst(ln, String::new()))
        }
        ".local" => {
            let v = var_decl(file, ln, t)?;
            let align = t
                .split_whitespace()
                .skip_while(|w| *w != ".align")
                .nth(1)
                .and_then(|a| a.parse::<u32>().ok())
                .unwrap_or(8)
                .max(1);
            let size = v
                .size
                .ok_or_else(|| unsup(file, ln, format!("an unsized local array `{t}`")))?;
            Ok(Item::Local(size, align, v.name))
        }
        ".shared" | ".global" | ".const" => Err(unsup(
            file,
            ln,
            format!("a variable declared in a function body `{t}`"),
        )),
        _ => Ok(Item::Inst(ln, t.to_string())),
    }
}

/// What a name in a scope is.
#[derive(Clone, Debug)]
enum PSlot {
    /// A kernel parameter's bytes.
    Value(Vec<u8>),
    /// A call parameter held in a register.
    Reg(Reg),
}

struct Scope {
    parent: Option<usize>,
    regs: HashMap<String, Reg>,
    params: HashMap<String, PSlot>,
    /// `.local` variables: their address (in the local window).
    locals: HashMap<String, u64>,
}

enum FItem {
    Label(u32, String),
    Inst {
        line: usize,
        text: String,
        scope: usize,
        instance: u32,
        loc: Option<(u32, u32)>,
        /// Already decided (a call of a body-less function).
        forced: Option<super::ir::Inst>,
    },
}

/// The flattener: bodies with calls inlined, names scoped.
struct Flat<'m> {
    m: &'m Module,
    items: Vec<FItem>,
    scopes: Vec<Scope>,
    regs: Vec<RegInfo>,
    /// The current inline instance (labels are per instance).
    instance: u32,
    next_instance: u32,
    loc: Option<(u32, u32)>,
    /// Bytes of `.local` frames so far.
    local_size: u64,
}

impl Flat<'_> {
    fn new_reg(&mut self, name: &str, bits: u8) -> Reg {
        let r = self.regs.len() as Reg;
        self.regs.push(RegInfo {
            name: name.to_string(),
            bits,
        });
        r
    }

    fn lookup_reg(&self, mut s: usize, name: &str) -> Option<Reg> {
        loop {
            if let Some(r) = self.scopes[s].regs.get(name) {
                return Some(*r);
            }
            s = self.scopes[s].parent?;
        }
    }

    fn lookup_local(&self, mut s: usize, name: &str) -> Option<u64> {
        loop {
            if let Some(a) = self.scopes[s].locals.get(name) {
                return Some(*a);
            }
            s = self.scopes[s].parent?;
        }
    }

    fn lookup_param(&self, mut s: usize, name: &str) -> Option<PSlot> {
        loop {
            if let Some(p) = self.scopes[s].params.get(name) {
                return Some(p.clone());
            }
            s = self.scopes[s].parent?;
        }
    }

    /// Emits function `f`'s body in scope `scope` (its parameters already bound there).
    /// `ret_to`: for an inlined call, the label (in instance `instance`) `ret` jumps to.
    fn body(
        &mut self,
        f: &Func,
        scope: usize,
        depth: usize,
        ret_to: Option<(u32, String)>,
    ) -> Result<(), Error> {
        let file = &self.m.file;
        let items = f
            .body
            .as_ref()
            .ok_or_else(|| perr(file, f.line, "no body"))?;
        let instance = self.instance;
        let mut stack = vec![scope];
        for it in items {
            let cur = *stack.last().unwrap_or(&scope);
            match it {
                Item::Open => {
                    self.scopes.push(Scope {
                        parent: Some(cur),
                        regs: HashMap::new(),
                        params: HashMap::new(),
                        locals: HashMap::new(),
                    });
                    stack.push(self.scopes.len() - 1);
                }
                Item::Close => {
                    if stack.len() > 1 {
                        stack.pop();
                    }
                }
                Item::Reg(ty, names) => {
                    let bits = if ty.kind == Kind::Pred {
                        1
                    } else {
                        ty.bits.min(64)
                    };
                    for n in names {
                        let r = self.new_reg(n, bits);
                        self.scopes[cur].regs.insert(n.clone(), r);
                    }
                }
                Item::Param(size, n) => {
                    let r = self.new_reg(n, (*size * 8).min(64) as u8);
                    self.scopes[cur].params.insert(n.clone(), PSlot::Reg(r));
                }
                Item::Label(n) => self.items.push(FItem::Label(instance, n.clone())),
                Item::Loc(fi, l) => self.loc = Some((*fi, *l)),
                Item::Local(size, align, n) => {
                    // Each inlined frame gets its own bytes (the frame only grows).
                    let off = self.local_size.div_ceil(*align as u64) * *align as u64;
                    self.local_size = off + *size as u64;
                    if self.local_size > 1 << 20 {
                        return Err(unsup(file, f.line, "more than 1 MiB of local memory"));
                    }
                    self.scopes[cur]
                        .locals
                        .insert(n.clone(), crate::engine::op::GENERIC_LOCAL + off);
                }
                Item::Inst(ln, text) => {
                    if text.is_empty() {
                        continue;
                    }
                    let body = text.trim_start_matches(|c: char| c != ' ' && c != '\t');
                    let mnem = if text.starts_with('@') {
                        body.split_whitespace().next().unwrap_or("")
                    } else {
                        text.split_whitespace().next().unwrap_or("")
                    };
                    if mnem == "call" || mnem.starts_with("call.") {
                        self.call(*ln, text, cur, depth)?;
                        continue;
                    }
                    if let (Some((ri, rl)), "ret" | "ret.uni") = (&ret_to, mnem) {
                        let g = if text.starts_with('@') {
                            text.split_whitespace().next().unwrap_or("").to_string() + " "
                        } else {
                            String::new()
                        };
                        // `ret` of an inlined function: a branch to the return point.
                        self.items.push(FItem::Inst {
                            line: *ln,
                            text: format!("{g}bra.uni {rl}"),
                            scope: cur,
                            instance: *ri,
                            loc: self.loc,
                            forced: None,
                        });
                        continue;
                    }
                    self.items.push(FItem::Inst {
                        line: *ln,
                        text: text.clone(),
                        scope: cur,
                        instance,
                        loc: self.loc,
                        forced: None,
                    });
                }
            }
        }
        Ok(())
    }

    /// Inlines `call{.uni} (rets), f, (args)`.
    fn call(&mut self, ln: usize, text: &str, scope: usize, depth: usize) -> Result<(), Error> {
        let file = self.m.file.clone();
        if text.starts_with('@') {
            return Err(unsup(&file, ln, format!("a guarded call `{text}`")));
        }
        let rest = text
            .split_once(char::is_whitespace)
            .map(|x| x.1.trim())
            .unwrap_or("");
        let parts = super::parse::split_operands(rest).map_err(|e| perr(&file, ln, e.msg))?;
        let (rets, fname, args) = match parts.as_slice() {
            [r, f, a, ..] if r.starts_with('(') => (paren_list(r), f.clone(), paren_list(a)),
            [r, f] if r.starts_with('(') => (paren_list(r), f.clone(), vec![]),
            [f, a, ..] if a.starts_with('(') => (vec![], f.clone(), paren_list(a)),
            [f] => (vec![], f.clone(), vec![]),
            _ => {
                return Err(perr(
                    &file,
                    ln,
                    format!("expected `call (rets), f, (args)`, found `{text}`"),
                ))
            }
        };
        let Some(callee) = self.m.funcs.iter().find(|g| !g.entry && g.name == fname) else {
            return Err(unsup(
                &file,
                ln,
                format!("an indirect call or a call of an unknown function `{fname}`"),
            ));
        };
        if !callee.defined() {
            // A body-less `.noreturn` function is a Rust panic (panic = "abort"): the thread
            // stops as at `trap`. Any other external function is not modelled.
            let inst = if callee.noreturn {
                super::ir::Inst::Trap
            } else {
                super::ir::Inst::Unsupported(format!("a call of the external function `{fname}`"))
            };
            self.items.push(FItem::Inst {
                line: ln,
                text: text.to_string(),
                scope,
                instance: self.instance,
                loc: self.loc,
                forced: Some(inst),
            });
            return Ok(());
        }
        if depth >= MAX_INLINE {
            return Err(unsup(
                &file,
                ln,
                format!("calls nested deeper than {MAX_INLINE} (recursion?) at `{fname}`"),
            ));
        }
        if args.len() != callee.params.len() || rets.len() != callee.rets.len() {
            return Err(perr(
                &file,
                ln,
                format!(
                    "`{fname}` takes {} argument(s) and {} return value(s)",
                    callee.params.len(),
                    callee.rets.len()
                ),
            ));
        }
        // The callee's formal parameters are the caller's argument slots.
        let mut params = HashMap::new();
        for (formal, actual) in callee
            .params
            .iter()
            .zip(&args)
            .chain(callee.rets.iter().zip(&rets))
        {
            let slot = match self.lookup_param(scope, actual) {
                Some(PSlot::Reg(r)) => PSlot::Reg(r),
                Some(PSlot::Value(v)) => PSlot::Value(v),
                None => match self.lookup_reg(scope, actual) {
                    Some(r) => PSlot::Reg(r),
                    None => {
                        return Err(unsup(
                            &file,
                            ln,
                            format!(
                            "call argument `{actual}` (param variables and registers are modelled)"
                        ),
                        ))
                    }
                },
            };
            params.insert(formal.name.clone(), slot);
        }
        self.scopes.push(Scope {
            parent: None,
            regs: HashMap::new(),
            params,
            locals: HashMap::new(),
        });
        let s = self.scopes.len() - 1;
        let caller_instance = self.instance;
        self.instance = self.next_instance;
        self.next_instance += 1;
        let me = self.instance;
        let ret_label = "$__ret".to_string();
        self.body(callee, s, depth + 1, Some((me, ret_label.clone())))?;
        self.items.push(FItem::Label(me, ret_label));
        self.instance = caller_instance;
        Ok(())
    }
}

/// The parser's view of the flattener at one instruction.
struct FEnv<'a, 'm> {
    fl: &'a mut Flat<'m>,
    layout: &'a mut Layout,
    scope: usize,
    instance: u32,
    labels: &'a HashMap<(u32, String), u32>,
}

impl Env for FEnv<'_, '_> {
    fn litmus(&self) -> bool {
        false
    }
    fn reg(&mut self, name: &str) -> Option<Reg> {
        self.fl.lookup_reg(self.scope, name)
    }
    fn is_pred(&self, r: Reg) -> bool {
        self.fl.regs.get(r as usize).is_some_and(|x| x.bits == 1)
    }
    fn var(&mut self, name: &str, _address: bool) -> Option<VarRef> {
        if let Some(a) = self.fl.lookup_local(self.scope, name) {
            // A `.local` variable: an address of the thread's private frame.
            return Some(VarRef {
                var: u32::MAX,
                shared: false,
                addr: a,
            });
        }
        let v = self.layout.var(name)?;
        let x = &self.layout.vars[v];
        Some(VarRef {
            var: v as u32,
            shared: x.shared,
            addr: x.base,
        })
    }
    fn param(&mut self, name: &str) -> Option<Param> {
        match self.fl.lookup_param(self.scope, name)? {
            PSlot::Value(b) => Some(Param::Value(b)),
            PSlot::Reg(r) => Some(Param::Reg(r)),
        }
    }
    fn label(&self, name: &str) -> Option<u32> {
        self.labels.get(&(self.instance, name.to_string())).copied()
    }
}
