//! The format-part-1 reading for the enumerating checker: locations and aliases, threads'
//! registers and `code` ([`Instr`]).

use super::*;

/// The format-part-1 reading (the enumerating checker's `code`, `names`, `phys`).
pub(super) fn legacy(cx: &Ctx, raw: &Raw) -> Result<Test, Error> {
    let entries_pos = &raw.entries;
    let mut threads = raw.threads.clone();
    let cells = &raw.cells;
    // Locations and aliases from the init block; registers kept for later.
    let mut b = Builder::default();
    let mut reg_inits: Vec<(usize, String, String, i64)> = Vec::new(); // (line, thread, reg, value)
    for (ln, e) in entries_pos {
        if let Some((lhs, rhs)) = e.split_once('@') {
            let lhs = lhs.trim();
            let w: Vec<&str> = rhs.split_whitespace().collect();
            if w.len() != 3 || w[1] != "aliases" {
                return Err(cx.err(
                    *ln,
                    format!("expected `NAME @ PROXY aliases NAME`, found `{e}`"),
                ));
            }
            let proxy = match w[0] {
                "generic" => Proxy::Generic,
                "surface" => Proxy::Surface,
                "texture" => Proxy::Texture,
                "constant" => Proxy::Constant,
                other => {
                    return Err(cx.err(
                        *ln,
                        format!("expected generic, surface, texture or constant, found `{other}`"),
                    ))
                }
            };
            if !is_ident(lhs) || !is_ident(w[2]) {
                return Err(cx.err(*ln, format!("expected location names in `{e}`")));
            }
            if b.names.contains_key(lhs) {
                return Err(cx.err(*ln, format!("`{lhs}` is declared twice")));
            }
            let target = b.loc(w[2]);
            let phys = target.phys;
            let vaddr = if proxy == Proxy::Generic {
                b.n_vaddr += 1;
                b.n_vaddr - 1
            } else {
                target.vaddr
            };
            b.names.insert(
                lhs.to_string(),
                Name {
                    name: lhs.to_string(),
                    vaddr,
                    phys,
                },
            );
            b.order.push(lhs.to_string());
            continue;
        }
        let Some((lhs, rhs)) = e.split_once('=') else {
            return Err(cx.err(
                *ln,
                format!("expected `x=0;`, `P0:r0=0;` or `y @ generic aliases x;`, found `{e}`"),
            ));
        };
        let lhs = lhs.trim();
        let rhs = rhs.trim();
        if let Some((th, reg)) = lhs.split_once(':') {
            let v = parse_int(rhs).ok_or_else(|| {
                if is_ident(rhs.trim_start_matches('&')) {
                    cx.unsupported(*ln, format!("a register holding an address (`{e}`)"))
                } else {
                    cx.err(*ln, format!("expected an integer, found `{rhs}`"))
                }
            })?;
            reg_inits.push((*ln, th.trim().to_string(), reg.trim().to_string(), v));
        } else {
            if !is_ident(lhs) {
                return Err(cx.err(*ln, format!("expected a location name, found `{lhs}`")));
            }
            let v = parse_int(rhs).ok_or_else(|| {
                if is_ident(rhs.trim_start_matches('&')) {
                    cx.unsupported(*ln, format!("a location holding an address (`{e}`)"))
                } else {
                    cx.err(*ln, format!("expected an integer, found `{rhs}`"))
                }
            })?;
            let n = b.loc(lhs);
            b.phys[n.phys].1 = v;
        }
    }

    // Register tables: declared registers first, then destinations.
    let mut reg_maps: Vec<HashMap<String, usize>> = vec![HashMap::new(); threads.len()];
    for (ln, th, reg, v) in &reg_inits {
        let id = parse_thread_id(th).ok_or_else(|| {
            cx.err(
                *ln,
                format!("expected a thread `P0` before `:`, found `{th}`"),
            )
        })?;
        if id >= threads.len() {
            return Err(cx.err(
                *ln,
                format!(
                    "register of P{id}, but the test has {} threads",
                    threads.len()
                ),
            ));
        }
        let r = norm_reg(reg)
            .ok_or_else(|| cx.err(*ln, format!("expected a register `r0`, found `{reg}`")))?;
        let idx = reg_index(&mut reg_maps[id], &mut threads[id], &r);
        threads[id].init[idx] = *v;
    }
    let mut written: Vec<Vec<bool>> = Vec::new();
    for (k, th_cells) in cells.iter().enumerate() {
        // Labels first (forward branches).
        let mut labels: HashMap<String, usize> = HashMap::new();
        for (n, (ln, c)) in th_cells.iter().enumerate() {
            if let Some(l) = c.strip_suffix(':') {
                let l = l.trim();
                if !is_ident(l) {
                    return Err(cx.err(*ln, format!("expected a label name, found `{l}`")));
                }
                if labels.insert(l.to_string(), n).is_some() {
                    return Err(cx.err(*ln, format!("label `{l}` defined twice in P{k}")));
                }
            }
        }
        let mut code = Vec::new();
        for (ln, c) in th_cells {
            let instr = parse_instr(
                cx,
                *ln,
                c,
                &mut b,
                &labels,
                &mut reg_maps[k],
                &mut threads[k],
            )?;
            code.push(Line {
                instr,
                line: *ln,
                text: c.clone(),
            });
        }
        threads[k].code = code;
        // Which registers are written by the thread (for the undeclared-register check).
        let mut w = vec![false; threads[k].regs.len()];
        for l in &threads[k].code {
            if let Some(d) = dst_of(&l.instr) {
                w[d] = true;
            }
        }
        written.push(w);
    }
    // A source register must be initialised in the init block or written by the thread.
    for (k, th) in threads.iter().enumerate() {
        let declared: Vec<bool> = (0..th.regs.len())
            .map(|r| {
                reg_inits.iter().any(|(_, t, reg, _)| {
                    parse_thread_id(t) == Some(k)
                        && norm_reg(reg).as_deref() == Some(th.regs[r].as_str())
                })
            })
            .collect();
        for l in &th.code {
            for r in srcs_of(&l.instr) {
                if !declared[r] && !written[k].get(r).copied().unwrap_or(false) {
                    return Err(cx.err(
                        l.line,
                        format!(
                            "register {} of P{} is read but never initialised (add `P{}:{}=0;` to the init block) nor written",
                            th.regs[r], k, k, th.regs[r]
                        ),
                    ));
                }
            }
        }
    }

    let mut resolve = |t: &str| {
        parse_term(
            cx,
            raw.cond_start + 1,
            t,
            &b,
            &threads,
            &reg_maps,
            &written,
            &reg_inits,
        )
    };
    let cond = condition(cx, raw, &mut resolve)?;
    let mut names: Vec<Name> = b.order.iter().map(|n| b.names[n].clone()).collect();
    names.sort_by_key(|n| (n.phys, n.vaddr));
    Ok(Test {
        names,
        n_vaddr: b.n_vaddr,
        phys: b.phys,
        ..cond.into_test(cx, raw, threads)
    })
}

#[derive(Default)]
pub(super) struct Builder {
    pub(super) names: HashMap<String, Name>,
    pub(super) order: Vec<String>,
    pub(super) n_vaddr: usize,
    pub(super) phys: Vec<(String, i64)>,
}

impl Builder {
    /// The name `n`, declared on first use as a new location initialised to 0.
    pub(super) fn loc(&mut self, n: &str) -> Name {
        if let Some(x) = self.names.get(n) {
            return x.clone();
        }
        let name = Name {
            name: n.to_string(),
            vaddr: self.n_vaddr,
            phys: self.phys.len(),
        };
        self.n_vaddr += 1;
        self.phys.push((n.to_string(), 0));
        self.names.insert(n.to_string(), name.clone());
        self.order.push(n.to_string());
        name
    }
}

pub(super) fn parse_thread_id(s: &str) -> Option<usize> {
    let s = s.trim();
    let d = s.strip_prefix('P').unwrap_or(s);
    if d.is_empty() || !d.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    d.parse().ok()
}

/// `r3`, `%r3` → `r3`.
pub(super) fn norm_reg(s: &str) -> Option<String> {
    let s = s.trim().trim_start_matches('%');
    let d = s.strip_prefix('r')?;
    if d.is_empty() || !d.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some(format!("r{d}"))
}

pub(super) fn reg_index(map: &mut HashMap<String, usize>, th: &mut Thread, r: &str) -> usize {
    if let Some(&i) = map.get(r) {
        return i;
    }
    let i = th.regs.len();
    th.regs.push(r.to_string());
    th.init.push(0);
    map.insert(r.to_string(), i);
    i
}

pub(super) fn dst_of(i: &Instr) -> Option<usize> {
    match i {
        Instr::Load { dst, .. } | Instr::Alu { dst, .. } => Some(*dst),
        Instr::Rmw { dst, .. } => *dst,
        Instr::Bar { dst, .. } => *dst,
        _ => None,
    }
}

pub(super) fn srcs_of(i: &Instr) -> Vec<usize> {
    let mut v = Vec::new();
    let mut add = |x: &Val| {
        if let Val::Reg(r) = x {
            v.push(*r)
        }
    };
    match i {
        Instr::Store { val, .. } => add(val),
        Instr::Rmw { a, b, .. } => {
            add(a);
            if let Some(b) = b {
                add(b)
            }
        }
        Instr::Bar {
            id, count, pred, ..
        } => {
            add(id);
            if let Some(c) = count {
                add(c)
            }
            if let Some((p, _)) = pred {
                add(p)
            }
        }
        Instr::Alu { op, a, b, .. } => {
            add(a);
            if *op != AluOp::Mov {
                add(b)
            }
        }
        Instr::Branch { a, b, .. } => {
            add(a);
            add(b)
        }
        _ => {}
    }
    v
}
