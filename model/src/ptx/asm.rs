//! Assembling a litmus thread: its cells (instruction texts) → [`Line`]s, with the litmus
//! dialect's names (FORMAT parts 1–2).
//!
//! Names: a register is spelled `rN`, `%rN` (the same register as `rN`, as in format part 1),
//! `%rdN`, `%rsN`, `%fN`, `%fdN`, `%hN`, `pN`/`%pN` (predicates, 1 bit), or is named in the init
//! block as a register of the thread (`P0:name=…`); every other identifier names a location of
//! the [`Layout`] (declared in the init block, or a new global 8-byte variable with value 0 on
//! first use). Registers hold 64 bits.

use super::interp::RegInfo;
use super::ir::{Line, Reg};
use super::parse::{parse_line, Env, PErr, Param, VarRef};
use crate::engine::op::{At, Layout};
use std::collections::HashMap;
use std::sync::Arc;

/// Whether `s` is spelled like a litmus register (see the module docs).
pub fn is_reg_name(s: &str) -> bool {
    let t = s.strip_prefix('%').unwrap_or(s);
    let digits_after = |p: &str| {
        t.strip_prefix(p)
            .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
    };
    ["r", "rd", "rs", "f", "fd", "h", "p"]
        .iter()
        .any(|p| digits_after(p))
}

/// Whether `s` is spelled like a predicate register (`pN`, `%pN`).
pub fn is_pred_name(s: &str) -> bool {
    let t = s.strip_prefix('%').unwrap_or(s);
    t.strip_prefix('p')
        .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
}

/// The canonical name of a litmus register (`%r3` → `r3`: part 1 treats them as one).
pub fn canon_reg(s: &str) -> String {
    match s.strip_prefix("%r") {
        Some(d) if !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()) => format!("r{d}"),
        _ => s.to_string(),
    }
}

/// A litmus thread's assembler: registers, labels and the shared layout.
pub struct Asm<'a> {
    /// The test's address space (first-use locations are added to it).
    pub layout: &'a mut Layout,
    /// The thread's registers, by number.
    pub regs: Vec<RegInfo>,
    map: HashMap<String, Reg>,
    labels: HashMap<String, u32>,
    /// Names the init block declares as registers of this thread.
    declared: Vec<String>,
    /// Locations whose text used a name that was not yet a variable (for messages).
    pub created: Vec<String>,
    /// Other names of variables (`s @ surface aliases x`: `s` is `x` seen through another
    /// proxy, the same address).
    pub names: HashMap<String, usize>,
}

impl<'a> Asm<'a> {
    /// An assembler whose first registers are `regs` (in this order: register numbers agree
    /// with another numbering of the same thread), `declared` being init-block register names.
    pub fn new(layout: &'a mut Layout, regs: &[String], declared: &[String]) -> Asm<'a> {
        let mut a = Asm {
            layout,
            regs: Vec::new(),
            map: HashMap::new(),
            labels: HashMap::new(),
            declared: declared.iter().map(|s| canon_reg(s)).collect(),
            created: Vec::new(),
            names: HashMap::new(),
        };
        for r in regs {
            a.add_reg(&canon_reg(r));
        }
        a
    }

    fn add_reg(&mut self, name: &str) -> Reg {
        if let Some(&r) = self.map.get(name) {
            return r;
        }
        let r = self.regs.len() as Reg;
        self.regs.push(RegInfo {
            name: name.to_string(),
            bits: if is_pred_name(name) { 1 } else { 64 },
        });
        self.map.insert(name.to_string(), r);
        r
    }

    /// The register called `name`, creating it if it is spelled as one.
    pub fn register(&mut self, name: &str) -> Option<Reg> {
        let c = canon_reg(name.trim());
        if let Some(&r) = self.map.get(&c) {
            return Some(r);
        }
        if is_reg_name(&c) || self.declared.contains(&c) {
            return Some(self.add_reg(&c));
        }
        None
    }

    /// Assembles a thread's cells `(line, text)`: labels (`L:` cells) first, then every cell
    /// (a label is a no-op line, so instruction indices are cell indices). An error carries the
    /// cell's line.
    pub fn assemble(&mut self, cells: &[(usize, String)]) -> Result<Vec<Line>, (usize, PErr)> {
        self.labels.clear();
        for (i, (ln, c)) in cells.iter().enumerate() {
            if let Some(l) = c.trim().strip_suffix(':') {
                let l = l.trim();
                if self.labels.insert(l.to_string(), i as u32).is_some() {
                    return Err((
                        *ln,
                        PErr {
                            unsupported: false,
                            msg: format!("label `{l}` defined twice"),
                        },
                    ));
                }
            }
        }
        let mut out = Vec::with_capacity(cells.len());
        for (ln, c) in cells {
            let at = At {
                line: *ln,
                text: Arc::from(c.trim()),
                src: None,
            };
            out.push(parse_line(c, at, self).map_err(|e| (*ln, e))?);
        }
        Ok(out)
    }
}

impl Env for Asm<'_> {
    fn litmus(&self) -> bool {
        true
    }

    fn reg(&mut self, name: &str) -> Option<Reg> {
        self.register(name)
    }

    fn is_pred(&self, r: Reg) -> bool {
        self.regs.get(r as usize).is_some_and(|x| x.bits == 1)
    }

    fn var(&mut self, name: &str, _address: bool) -> Option<VarRef> {
        if !super::parse::is_ident(name) || name.starts_with('%') {
            return None;
        }
        let v = match self
            .names
            .get(name)
            .copied()
            .or_else(|| self.layout.var(name))
        {
            Some(v) => v,
            None => {
                // FORMAT part 2: locations never declared are global 8-byte variables, 0.
                self.created.push(name.to_string());
                self.layout.add(name, false, 8, vec![])
            }
        };
        let x = &self.layout.vars[v];
        Some(VarRef {
            var: v as u32,
            shared: x.shared,
            addr: x.base,
        })
    }

    fn param(&mut self, _name: &str) -> Option<Param> {
        None
    }

    fn label(&self, name: &str) -> Option<u32> {
        self.labels.get(name).copied()
    }
}
