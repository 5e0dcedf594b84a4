//! A module's text read into statements: comments stripped, `.param`/`.reg`/variable declarations,
//! function bodies.

use super::*;

pub(super) fn perr(file: &str, line: usize, msg: impl Into<String>) -> Error {
    Error {
        kind: ErrorKind::Parse,
        file: file.to_string(),
        line,
        msg: msg.into(),
    }
}

pub(super) fn unsup(file: &str, line: usize, msg: impl Into<String>) -> Error {
    Error {
        kind: ErrorKind::Unsupported,
        file: file.to_string(),
        line,
        msg: msg.into(),
    }
}

/// Removes `//` and `/* */` comments (outside strings) from PTX text, keeping line breaks (so
/// line numbers stay): PTX ISA §4.2.
///
/// ```
/// use ptx_sync_model::ptx::module::strip_comments;
/// let text = "ld.u32 r, [x]; // load\n/* two\n lines */ .file 1 \"a//b.cu\"";
/// assert_eq!(strip_comments(text), "ld.u32 r, [x]; \n\n .file 1 \"a//b.cu\"");
/// ```
pub fn strip_comments(text: &str) -> String {
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
pub(super) fn statements(text: &str) -> Vec<(usize, String)> {
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
pub(super) fn param_decl(file: &str, line: usize, s: &str) -> Result<ParamDecl, Error> {
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
        .find_map(|q| q.strip_prefix('.').and_then(crate::ptx::parse::type_of))
        .ok_or_else(|| perr(file, line, format!("expected a type in `{s}`")))?;
    Ok(ParamDecl {
        name: name.to_string(),
        size: (ty.bits as u32 / 8).max(1) * count,
    })
}

/// Splits a parenthesised, comma-separated list.
pub(super) fn paren_list(s: &str) -> Vec<String> {
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
pub(super) fn reg_names(file: &str, line: usize, list: &str) -> Result<Vec<String>, Error> {
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
pub(super) fn var_decl(file: &str, line: usize, s: &str) -> Result<ModVar, Error> {
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
        .find_map(|q| q.strip_prefix('.').and_then(crate::ptx::parse::type_of))
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

/// A body statement.
pub(super) fn body_item(file: &str, ln: usize, s: &str) -> Result<Item, Error> {
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
                .and_then(crate::ptx::parse::type_of)
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

impl Module {
    /// Parses a module; every instruction of every entry and defined function is checked by the
    /// instruction parser (an instruction it does not model is fine here: it is reported when a
    /// thread reaches it).
    pub fn parse(text: &str, file: &str) -> Result<Module, Error> {
        let stripped = strip_comments(text);
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
    pub(super) fn header(&self, ln: usize, s: &str) -> Result<Func, Error> {
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
}
