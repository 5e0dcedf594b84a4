//! The weaker forms of an instruction: its semantics and scope as a [`Form`], and every legal form
//! below it that the ISA allows at the module's PTX version ([`Isa`]).

/// What the target allows: the module's PTX ISA version (`.version`) and SM (`.target`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Isa {
    /// `(major, minor)` of `.version`.
    pub ptx: (u32, u32),
    /// The SM number of `.target sm_NN` (`sm_90a` → 90).
    pub sm: u32,
}

impl Isa {
    /// What a litmus test is judged by (the format has no `.version`): PTX ISA 9.1 on `sm_90`.
    pub const LITMUS: Isa = Isa {
        ptx: (9, 1),
        sm: 90,
    };

    /// The `.version` and `.target` of a module's text (each missing one: PTX 9.1, `sm_90`).
    pub fn of_module(text: &str) -> Isa {
        let mut isa = Isa::LITMUS;
        for l in text.lines() {
            let t = l.split("//").next().unwrap_or("").trim();
            if let Some(v) = t.strip_prefix(".version") {
                let mut p = v.trim().split('.');
                if let (Some(a), Some(b)) = (p.next(), p.next()) {
                    if let (Ok(a), Ok(b)) = (a.trim().parse(), b.trim().parse()) {
                        isa.ptx = (a, b);
                    }
                }
            } else if let Some(v) = t.strip_prefix(".target") {
                if let Some(sm) = v
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .find_map(|w| w.strip_prefix("sm_"))
                {
                    let digits: String = sm.chars().take_while(char::is_ascii_digit).collect();
                    if let Ok(n) = digits.parse() {
                        isa.sm = n;
                    }
                }
            }
        }
        isa
    }

    /// Whether a form introduced in PTX `ptx` for `sm_sm` is available.
    pub fn allows(&self, ptx: (u32, u32), sm: u32) -> bool {
        self.ptx >= ptx && self.sm >= sm
    }
}

/// Acquire half, release half, SC (bits of [`Form::sem`]).
pub(super) const ACQ: u8 = 1;

pub(super) const REL: u8 = 2;

pub(super) const SC: u8 = 4;

pub(super) const SCOPES: [&str; 4] = ["cta", "cluster", "gpu", "sys"];

/// One weaker form of an instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// The rewritten instruction (guard and operands as written); `None`: the instruction removed.
    pub text: Option<String>,
    /// What changed: `sc → acq_rel`, `gpu → cluster`, `removed`.
    pub change: String,
    /// The ordering it keeps: acquire (1), release (2), SC (4) bits.
    pub(super) sem: u8,
    /// Its scope (0 `.cta` … 3 `.sys`; the original's where the change is not a scope).
    pub(super) scope: u8,
}

impl Form {
    /// The mnemonic of the new form (`fence.acq_rel.gpu`), `None` when removed.
    pub fn mnemonic(&self) -> Option<&str> {
        self.text.as_deref().map(|t| split_inst(t).1)
    }

    /// Whether this form keeps no more ordering than `other` (a subset of its halves at a scope
    /// no wider, or removed).
    pub(super) fn weaker_or_equal(&self, other: &Form) -> bool {
        self.text.is_none()
            || other.text.is_some() && self.sem & other.sem == self.sem && self.scope <= other.scope
    }
}

/// `(guard prefix with its spacing, mnemonic, the rest)` of an instruction's text.
pub(super) fn split_inst(text: &str) -> (&str, &str, &str) {
    let lead = text.len() - text.trim_start().len();
    let mut start = lead;
    if text[lead..].starts_with('@') {
        let g_end = text[lead..]
            .find(char::is_whitespace)
            .map_or(text.len(), |e| lead + e);
        start = g_end + (text[g_end..].len() - text[g_end..].trim_start().len());
    }
    let end = text[start..]
        .find(char::is_whitespace)
        .map_or(text.len(), |e| start + e);
    let end = text[start..end].find(';').map_or(end, |e| start + e);
    (&text[..start], &text[start..end], &text[end..])
}

pub(super) fn scope_index(s: &str) -> Option<u8> {
    SCOPES.iter().position(|x| *x == s).map(|i| i as u8)
}

/// The next narrower scope the target allows.
pub(super) fn narrower(scope: u8, isa: Isa) -> Option<u8> {
    let mut s = scope.checked_sub(1)?;
    if SCOPES[s as usize] == "cluster" && !isa.allows((7, 8), 90) {
        s = s.checked_sub(1)?;
    }
    Some(s)
}

pub(super) fn sem_bits(s: &str) -> Option<u8> {
    Some(match s {
        "sc" => SC | ACQ | REL,
        "acq_rel" => ACQ | REL,
        "acquire" => ACQ,
        "release" => REL,
        "relaxed" => 0,
        _ => return None,
    })
}

/// The cheaper forms of one instruction that the PTX ISA offers for the target `isa` (see the
/// [module](super) table), strongest first: the same instruction with a weaker `.sem`, removed,
/// one scope narrower. Empty when the instruction is not a synchronization instruction or has
/// no weaker form (`fence.acquire.cta`: only removed).
///
/// ```
/// use ptx_sync_model::advise::{weaker_forms, Isa};
/// let f: Vec<Option<String>> = weaker_forms("fence.sc.gpu", Isa::LITMUS)
///     .into_iter()
///     .map(|f| f.text)
///     .collect();
/// assert_eq!(
///     f,
///     [Some("fence.acq_rel.gpu"), Some("fence.release.gpu"), Some("fence.acquire.gpu"), None,
///      Some("fence.sc.cluster")]
///         .map(|x| x.map(String::from))
/// );
/// ```
pub fn weaker_forms(text: &str, isa: Isa) -> Vec<Form> {
    let (guard, mn, rest) = split_inst(text);
    let toks: Vec<&str> = mn.split('.').collect();
    let build = |t: &[String]| format!("{guard}{}{rest}", t.join("."));
    let owned = || toks.iter().map(|s| s.to_string()).collect::<Vec<String>>();
    let mut out = Vec::new();
    let removed = |sem: u8, scope: u8| Form {
        text: None,
        change: "removed".into(),
        sem,
        scope,
    };
    let head = toks[0];
    let at = |i: usize| toks.get(i).copied().unwrap_or("");
    match head {
        "fence" | "membar" => {
            let proxy = at(1) == "proxy";
            if proxy {
                if at(2).starts_with("async") {
                    out.push(removed(0, 0));
                }
                return out;
            }
            if toks
                .iter()
                .any(|t| *t == "mbarrier_init" || t.starts_with("sync_restrict"))
            {
                out.push(removed(0, 0));
                return out;
            }
            let (sem, scope) = if head == "membar" {
                let s = match at(1) {
                    "cta" => 0,
                    "gl" => 2,
                    "sys" => 3,
                    _ => return out,
                };
                ("sc", s)
            } else {
                let Some(scope) = toks.last().and_then(|s| scope_index(s)) else {
                    return out;
                };
                let sem = if toks.len() == 3 { toks[1] } else { "acq_rel" };
                if toks.len() > 3 || sem_bits(sem).is_none() || sem == "relaxed" {
                    return out;
                }
                (sem, scope)
            };
            let bits = sem_bits(sem).unwrap_or(0);
            let sname = SCOPES[scope as usize];
            // `membar` is `fence.sc` (§9.7.13.4); its weaker forms are `fence`s (`sm_70`, PTX 6.0).
            let fence_ok = head == "fence" || isa.allows((6, 0), 70);
            for (to, need) in [
                ("acq_rel", ((6, 0), 70)),
                ("release", ((8, 6), 90)),
                ("acquire", ((8, 6), 90)),
            ] {
                let tb = sem_bits(to).unwrap_or(0);
                if tb & bits == tb && tb != bits && fence_ok && isa.allows(need.0, need.1) {
                    out.push(Form {
                        text: Some(format!("{guard}fence.{to}.{sname}{rest}")),
                        change: format!("{sem} → {to}"),
                        sem: tb,
                        scope,
                    });
                }
            }
            out.push(removed(0, 0));
            if let Some(n) = narrower(scope, isa) {
                let nname = SCOPES[n as usize];
                let t = if head == "membar" {
                    match nname {
                        "cluster" => format!("{guard}fence.sc.cluster{rest}"),
                        "gpu" => format!("{guard}membar.gl{rest}"),
                        _ => format!("{guard}membar.cta{rest}"),
                    }
                } else {
                    let mut t = owned();
                    *t.last_mut().unwrap() = nname.to_string();
                    build(&t)
                };
                out.push(Form {
                    text: Some(t),
                    change: format!("{sname} → {nname}"),
                    sem: bits,
                    scope: n,
                });
            }
        }
        "ld" | "st" => {
            let Some(i) = toks
                .iter()
                .position(|t| matches!(*t, "relaxed" | "acquire" | "release"))
            else {
                return out;
            };
            if toks.contains(&"mmio") || toks.contains(&"async") || toks.contains(&"bulk") {
                return out;
            }
            let Some(scope) = scope_index(at(i + 1)) else {
                return out;
            };
            let sem = toks[i];
            let bits = sem_bits(sem).unwrap_or(0);
            if bits != 0 {
                let mut t = owned();
                t[i] = "relaxed".into();
                out.push(Form {
                    text: Some(build(&t)),
                    change: format!("{sem} → relaxed"),
                    sem: 0,
                    scope,
                });
            }
            if let Some(n) = narrower(scope, isa) {
                let mut t = owned();
                t[i + 1] = SCOPES[n as usize].into();
                out.push(Form {
                    text: Some(build(&t)),
                    change: format!("{} → {}", SCOPES[scope as usize], SCOPES[n as usize]),
                    sem: bits,
                    scope: n,
                });
            }
        }
        "atom" | "red" => {
            if at(1) == "async" {
                return out;
            }
            let (sem_i, sem) = match sem_bits(at(1)) {
                Some(_) => (Some(1), at(1)),
                None => (None, "relaxed"),
            };
            let scope_pos = sem_i.map_or(1, |i| i + 1);
            let (scope, explicit) = match scope_index(at(scope_pos)) {
                Some(s) => (s, true),
                None => (2, false),
            };
            let bits = sem_bits(sem).unwrap_or(0);
            if let Some(i) = sem_i {
                let tos: &[&str] = match sem {
                    "acq_rel" => &["acquire", "release", "relaxed"],
                    "acquire" | "release" => &["relaxed"],
                    _ => &[],
                };
                for to in tos {
                    let mut t = owned();
                    t[i] = to.to_string();
                    out.push(Form {
                        text: Some(build(&t)),
                        change: format!("{sem} → {to}"),
                        sem: sem_bits(to).unwrap_or(0),
                        scope,
                    });
                }
            }
            if let Some(n) = narrower(scope, isa) {
                let mut t = owned();
                let nname = SCOPES[n as usize].to_string();
                if explicit {
                    t[scope_pos] = nname.clone();
                } else {
                    t.insert(scope_pos, nname.clone());
                }
                out.push(Form {
                    text: Some(build(&t)),
                    change: format!("{} → {nname}", SCOPES[scope as usize]),
                    sem: bits,
                    scope: n,
                });
            }
        }
        "mbarrier" => {
            let default_sem = match at(1) {
                "arrive" | "arrive_drop" => "release",
                "test_wait" | "try_wait" => "acquire",
                _ => return out,
            };
            if toks.contains(&"noComplete") {
                return out;
            }
            // `.sem.scope` follow the operation and its `.expect_tx` / `.parity`.
            let mut pos = 2;
            if matches!(at(pos), "expect_tx" | "parity") {
                pos += 1;
            }
            let explicit = sem_bits(at(pos)).is_some();
            let sem = if explicit { at(pos) } else { default_sem };
            let scope = if explicit {
                match scope_index(at(pos + 1)) {
                    Some(s) => s,
                    None => return out,
                }
            } else {
                0
            };
            let bits = sem_bits(sem).unwrap_or(0);
            if bits != 0 && isa.allows((8, 6), 90) {
                let mut t = owned();
                if explicit {
                    t[pos] = "relaxed".into();
                } else {
                    t.insert(pos, "cta".into());
                    t.insert(pos, "relaxed".into());
                }
                out.push(Form {
                    text: Some(build(&t)),
                    change: format!("{sem} → relaxed"),
                    sem: 0,
                    scope,
                });
            }
            if explicit && scope == 1 {
                let mut t = owned();
                t[pos + 1] = "cta".into();
                out.push(Form {
                    text: Some(build(&t)),
                    change: "cluster → cta".into(),
                    sem: bits,
                    scope: 0,
                });
            }
        }
        "barrier" if at(1) == "cluster" && at(2) == "arrive" => {
            // `.release` is the default; `.relaxed` since PTX 8.0.
            if at(3) == "relaxed" || !isa.allows((8, 0), 90) {
                return out;
            }
            let mut t = owned();
            if at(3) == "release" {
                t[3] = "relaxed".into();
            } else {
                t.insert(3, "relaxed".into());
            }
            out.push(Form {
                text: Some(build(&t)),
                change: "release → relaxed".into(),
                sem: 0,
                scope: 1,
            });
        }
        _ => {}
    }
    out
}
