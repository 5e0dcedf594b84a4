//! The init block's declarations (format part 2): variables, arrays, shared and tensormap
//! declarations, register initialisations → the engine's [`Layout`].

use super::*;

/// Parses a format part 2 integer that must fit 64 bits (signed or unsigned): its bits.
pub(super) fn int64(s: &str) -> Option<u64> {
    let v = crate::ptx::parse::parse_int(s)?;
    (v >= i64::MIN as i128 && v <= u64::MAX as i128).then_some(v as i64 as u64)
}

/// One init-block entry into the layout (format parts 1 and 2).
pub(super) fn declare(
    cx: &Ctx,
    ln: usize,
    e: &str,
    nthreads: usize,
    layout: &mut Layout,
    names: &mut HashMap<String, usize>,
    reg_inits: &mut Vec<(usize, String, u64)>,
) -> Result<(), Error> {
    let taken = |layout: &Layout, names: &HashMap<String, usize>, n: &str| {
        layout.var(n).is_some() || names.contains_key(n)
    };
    let target = |layout: &mut Layout, names: &HashMap<String, usize>, n: &str| -> usize {
        match names.get(n).copied().or_else(|| layout.var(n)) {
            Some(v) => v,
            None => layout.add(n, false, 8, vec![]),
        }
    };
    if let Some((lhs, rhs)) = e.split_once('@') {
        let lhs = lhs.trim();
        let rhs = rhs.trim();
        if !is_ident(lhs) {
            return Err(cx.err(ln, format!("expected a name before `@`, found `{lhs}`")));
        }
        if taken(layout, names, lhs) {
            return Err(cx.err(ln, format!("`{lhs}` is declared twice")));
        }
        if let Some(spec) = rhs.strip_prefix("tensormap") {
            return tensormap(cx, ln, lhs, spec, layout, names);
        }
        let w: Vec<&str> = rhs.split_whitespace().collect();
        if w.len() != 3 || w[1] != "aliases" || !is_ident(w[2]) {
            return Err(cx.err(
                ln,
                format!(
                    "expected `NAME @ PROXY aliases NAME` or `NAME @ tensormap …`, found `{e}`"
                ),
            ));
        }
        let of = target(layout, names, w[2]);
        let of = layout.vars[of].alias_of.unwrap_or(of);
        match w[0] {
            "generic" => {
                layout.add_alias(lhs, of);
            }
            "surface" | "texture" | "constant" => {
                names.insert(lhs.to_string(), of);
            }
            other => {
                return Err(cx.err(
                    ln,
                    format!("expected generic, surface, texture or constant, found `{other}`"),
                ))
            }
        }
        return Ok(());
    }
    let (shared, body) = match e.strip_prefix("shared") {
        Some(r) if r.starts_with(char::is_whitespace) => (true, r.trim()),
        _ => (false, e.trim()),
    };
    let (lhs, rhs) = match body.split_once('=') {
        Some((l, r)) => (l.trim(), Some(r.trim())),
        None => (body, None),
    };
    if !shared {
        if let Some((th, reg)) = lhs.split_once(':') {
            let id = parse_thread_id(th)
                .filter(|&i| i < nthreads)
                .ok_or_else(|| {
                    cx.err(
                        ln,
                        format!(
                            "expected a thread `P0`…`P{}` before `:`, found `{th}`",
                            nthreads.saturating_sub(1)
                        ),
                    )
                })?;
            let reg = reg.trim();
            if !crate::ptx::parse::is_ident(reg) {
                return Err(cx.err(ln, format!("expected a register name, found `{reg}`")));
            }
            let v = rhs
                .and_then(int64)
                .ok_or_else(|| cx.err(ln, format!("expected a 64-bit integer value in `{e}`")))?;
            reg_inits.push((id, crate::ptx::asm::canon_reg(reg), v));
            return Ok(());
        }
    }
    let (name, size) = match lhs.split_once('[') {
        Some((n, sz)) => {
            let sz = sz
                .strip_suffix(']')
                .and_then(|x| x.trim().parse::<u32>().ok());
            match sz {
                Some(s) if s >= 1 => (n.trim(), Some(s)),
                _ => {
                    return Err(cx.err(
                        ln,
                        format!("expected an array `{}[N]` with N ≥ 1", n.trim()),
                    ))
                }
            }
        }
        None => (lhs, None),
    };
    if !is_ident(name) {
        return Err(cx.err(ln, format!("expected a location name, found `{name}`")));
    }
    if taken(layout, names, name) {
        return Err(cx.err(ln, format!("`{name}` is declared twice")));
    }
    let init: Vec<u8> = match (size, rhs) {
        (None, Some(v)) => int64(v)
            .ok_or_else(|| {
                if is_ident(v.trim_start_matches('&')) {
                    cx.unsupported(ln, format!("a location holding an address (`{e}`)"))
                } else {
                    cx.err(ln, format!("expected a 64-bit integer, found `{v}`"))
                }
            })?
            .to_le_bytes()
            .to_vec(),
        (None, None) => vec![],
        (Some(sz), Some(v)) => {
            let inner = v
                .strip_prefix('{')
                .and_then(|x| x.strip_suffix('}'))
                .ok_or_else(|| cx.err(ln, format!("expected `{{v0, v1, …}}`, found `{v}`")))?;
            let words: Vec<&str> = inner
                .split(',')
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .collect();
            if words.len() as u64 * 4 > (sz as u64).div_ceil(4) * 4 {
                return Err(cx.err(
                    ln,
                    format!(
                        "`{name}[{sz}]` holds {} 32-bit words, {} given",
                        sz.div_ceil(4),
                        words.len()
                    ),
                ));
            }
            let mut b = Vec::new();
            for w in words {
                let x = crate::ptx::parse::parse_int(w)
                    .filter(|x| *x >= i32::MIN as i128 && *x <= u32::MAX as i128)
                    .ok_or_else(|| {
                        cx.err(
                            ln,
                            format!("`{w}` is not a 32-bit integer (array words are 32 bits)"),
                        )
                    })?;
                b.extend_from_slice(&(x as i64 as u32).to_le_bytes());
            }
            b.truncate(sz as usize);
            b
        }
        (Some(_), None) => vec![],
    };
    layout.add(name, shared, size.unwrap_or(8), init);
    Ok(())
}

/// `t @ tensormap x, .b32, {W[, H]}, {BW[, BH]}`.
pub(super) fn tensormap(
    cx: &Ctx,
    ln: usize,
    name: &str,
    spec: &str,
    layout: &mut Layout,
    names: &HashMap<String, usize>,
) -> Result<(), Error> {
    let bad = || {
        cx.err(
            ln,
            format!(
                "expected `{name} @ tensormap x, .b32, {{W}}, {{B}}` or `… {{W, H}}, {{BW, BH}}`"
            ),
        )
    };
    let parts = crate::ptx::parse::split_operands(spec.trim()).map_err(|_| bad())?;
    if parts.len() != 4 {
        return Err(bad());
    }
    let data = names
        .get(&parts[0])
        .copied()
        .or_else(|| layout.var(&parts[0]))
        .ok_or_else(|| {
            cx.err(
                ln,
                format!("`{}` is not declared (declare the array first)", parts[0]),
            )
        })?;
    if layout.vars[data].shared {
        return Err(cx.err(
            ln,
            format!(
                "`{}` is shared: a tensor map describes global memory",
                parts[0]
            ),
        ));
    }
    if parts[1] != ".b32" {
        return Err(cx.unsupported(
            ln,
            format!("tensor element type `{}` (.b32 is modelled)", parts[1]),
        ));
    }
    let list = |s: &str| -> Result<Vec<u32>, Error> {
        let inner = s
            .strip_prefix('{')
            .and_then(|x| x.strip_suffix('}'))
            .ok_or_else(bad)?;
        inner
            .split(',')
            .map(|x| {
                x.trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|v| *v >= 1)
                    .ok_or_else(bad)
            })
            .collect()
    };
    let dims = list(&parts[2])?;
    let boxdim = list(&parts[3])?;
    if dims.len() != boxdim.len() || dims.is_empty() || dims.len() > 2 {
        return Err(bad());
    }
    let elems: u64 = dims.iter().map(|d| *d as u64).product();
    if elems * 4 > layout.vars[data].size as u64 {
        return Err(cx.err(
            ln,
            format!(
                "`{}` has {} bytes, the tensor needs {}",
                parts[0],
                layout.vars[data].size,
                elems * 4
            ),
        ));
    }
    let var = layout.add(name, false, 128, vec![]);
    layout.tmaps.push(TensorMap {
        var,
        data,
        elem: 4,
        dims,
        boxdim,
    });
    Ok(())
}

/// Whether an instruction's mnemonic names a type (`add.u32`) rather than being a litmus
/// untyped form (`add`).
pub(super) fn typed(text: &str) -> bool {
    let t = text.trim();
    let t = if t.starts_with('@') {
        t.split_once(char::is_whitespace).map_or("", |x| x.1.trim())
    } else {
        t
    };
    let m = t.split(char::is_whitespace).next().unwrap_or("");
    m.split('.').skip(1).any(|q| {
        matches!(
            q,
            "b8" | "b16"
                | "b32"
                | "b64"
                | "u8"
                | "u16"
                | "u32"
                | "u64"
                | "s8"
                | "s16"
                | "s32"
                | "s64"
                | "f32"
                | "f64"
                | "pred"
        )
    })
}
