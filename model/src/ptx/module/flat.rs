//! One entry flattened: calls inlined, registers renamed per scope, names resolved for the
//! instruction parser ([`FEnv`]).

use super::*;

/// What a name in a scope is.
#[derive(Clone, Debug)]
pub(super) enum PSlot {
    /// A kernel parameter's bytes.
    Value(Vec<u8>),
    /// A call parameter held in a register.
    Reg(Reg),
}

pub(super) struct Scope {
    pub(super) parent: Option<usize>,
    pub(super) regs: HashMap<String, Reg>,
    pub(super) params: HashMap<String, PSlot>,
    /// `.local` variables: their address (in the local window).
    pub(super) locals: HashMap<String, u64>,
}

pub(super) enum FItem {
    Label(u32, String),
    Inst {
        line: usize,
        text: String,
        scope: usize,
        instance: u32,
        loc: Option<(u32, u32)>,
        /// Already decided (a call of a body-less function).
        forced: Option<crate::ptx::ir::Inst>,
    },
}

/// The flattener: bodies with calls inlined, names scoped.
pub(super) struct Flat<'m> {
    pub(super) m: &'m Module,
    pub(super) items: Vec<FItem>,
    pub(super) scopes: Vec<Scope>,
    pub(super) regs: Vec<RegInfo>,
    /// The current inline instance (labels are per instance).
    pub(super) instance: u32,
    pub(super) next_instance: u32,
    pub(super) loc: Option<(u32, u32)>,
    /// Bytes of `.local` frames so far.
    pub(super) local_size: u64,
}

impl Flat<'_> {
    pub(super) fn new_reg(&mut self, name: &str, bits: u8) -> Reg {
        let r = self.regs.len() as Reg;
        self.regs.push(RegInfo {
            name: name.to_string(),
            bits,
        });
        r
    }

    pub(super) fn lookup_reg(&self, mut s: usize, name: &str) -> Option<Reg> {
        loop {
            if let Some(r) = self.scopes[s].regs.get(name) {
                return Some(*r);
            }
            s = self.scopes[s].parent?;
        }
    }

    pub(super) fn lookup_local(&self, mut s: usize, name: &str) -> Option<u64> {
        loop {
            if let Some(a) = self.scopes[s].locals.get(name) {
                return Some(*a);
            }
            s = self.scopes[s].parent?;
        }
    }

    pub(super) fn lookup_param(&self, mut s: usize, name: &str) -> Option<PSlot> {
        loop {
            if let Some(p) = self.scopes[s].params.get(name) {
                return Some(p.clone());
            }
            s = self.scopes[s].parent?;
        }
    }

    /// Emits function `f`'s body in scope `scope` (its parameters already bound there).
    /// `ret_to`: for an inlined call, the label (in instance `instance`) `ret` jumps to.
    pub(super) fn body(
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
    pub(super) fn call(
        &mut self,
        ln: usize,
        text: &str,
        scope: usize,
        depth: usize,
    ) -> Result<(), Error> {
        let file = self.m.file.clone();
        if text.starts_with('@') {
            return Err(unsup(&file, ln, format!("a guarded call `{text}`")));
        }
        let rest = text
            .split_once(char::is_whitespace)
            .map(|x| x.1.trim())
            .unwrap_or("");
        let parts = crate::ptx::parse::split_operands(rest).map_err(|e| perr(&file, ln, e.msg))?;
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
                crate::ptx::ir::Inst::Trap
            } else {
                crate::ptx::ir::Inst::Unsupported(format!(
                    "a call of the external function `{fname}`"
                ))
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
pub(super) struct FEnv<'a, 'm> {
    pub(super) fl: &'a mut Flat<'m>,
    pub(super) layout: &'a mut Layout,
    pub(super) scope: usize,
    pub(super) instance: u32,
    pub(super) labels: &'a HashMap<(u32, String), u32>,
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
        VarRef::of_layout(self.layout, name)
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
