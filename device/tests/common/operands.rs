//! A catalog row's operand template read as the string tests read it (`strings.rs`,
//! `strings_async.rs`, `strings_arch.rs`): `{name}` a placeholder, `{{`/`}}` a literal brace (a
//! vector's register list, a tensor's coordinates).

/// `ops` with each placeholder `{name}` replaced by `bind(name)` and each doubled brace by one.
pub fn fill(ops: &str, bind: impl Fn(&str) -> &'static str) -> String {
    let mut out = String::new();
    let mut rest = ops;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let brace = &rest[i..i + 1];
        let tail = &rest[i + 1..];
        if let Some(after) = tail.strip_prefix(brace) {
            out.push_str(brace);
            rest = after;
        } else if brace == "{" {
            let (name, after) = tail.split_once('}').unwrap_or((tail, ""));
            out.push_str(bind(name));
            rest = after;
        } else {
            out.push_str(brace);
            rest = tail;
        }
    }
    out + rest
}
