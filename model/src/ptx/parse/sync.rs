//! Synchronization: `fence`/`membar` and proxy fences (§9.7.13.4), `bar`/`barrier` (§9.7.13.1), `mbarrier` (§9.7.13.15).

use super::*;

impl P<'_> {
    pub(super) fn fence(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
        if rest.first() == Some(&"proxy") {
            return self.proxy_fence(&rest[1..]);
        }
        self.nops(&[0])?;
        if op == "membar" {
            // PTX ISA §9.7.13.4: membar.{cta,gl,sys} = fence.sc.{cta,gpu,sys}.
            let scope = match rest {
                ["cta"] => Scope::Cta,
                ["gl"] => Scope::Gpu,
                ["sys"] => Scope::Sys,
                _ => {
                    return err(format!(
                        "`{}`: expected membar.cta, membar.gl or membar.sys",
                        self.text
                    ))
                }
            };
            return Ok(Inst::Fence(FenceSem::Sc, scope, None));
        }
        let mut sem = None;
        let mut scope = None;
        let mut restrict = None;
        for w in rest {
            let s = match *w {
                "sc" => Some(FenceSem::Sc),
                "acq_rel" => Some(FenceSem::AcqRel),
                "acquire" => Some(FenceSem::Acquire),
                "release" => Some(FenceSem::Release),
                "mbarrier_init" => {
                    restrict = Some(Restrict::MbarrierInit);
                    None
                }
                "sync_restrict::shared::cta" => {
                    restrict = Some(Restrict::SharedCta);
                    None
                }
                "sync_restrict::shared::cluster" => {
                    restrict = Some(Restrict::SharedCluster);
                    None
                }
                "cta" | "cluster" | "gpu" | "sys" => {
                    if scope.replace(scope_of(w).unwrap()).is_some() {
                        return err(format!("`{}`: two scopes", self.text));
                    }
                    None
                }
                "relaxed" | "weak" => {
                    return err(format!(
                    "`{}`: fence has no `.{w}` (PTX ISA fence: .sc, .acq_rel, .acquire, .release)",
                    self.text
                ))
                }
                _ => return unsup(format!("fence qualifier `.{w}` in `{}`", self.text)),
            };
            if let Some(s) = s {
                if sem.replace(s).is_some() {
                    return err(format!("`{}`: two semantics qualifiers", self.text));
                }
            }
        }
        let scope = scope.ok_or_else(|| PErr {
            unsupported: false,
            msg: format!(
                "`{}`: a fence needs a scope (.cta, .cluster, .gpu or .sys)",
                self.text
            ),
        })?;
        let sem = sem.unwrap_or(FenceSem::AcqRel);
        match restrict {
            Some(Restrict::MbarrierInit)
                if !(sem == FenceSem::Release && scope == Scope::Cluster) =>
            {
                return err(format!(
                    "`{}`: expected fence.mbarrier_init.release.cluster (PTX ISA fence)",
                    self.text
                ))
            }
            Some(Restrict::SharedCta) if !(sem == FenceSem::Release && scope == Scope::Cluster) => {
                return err(format!("`{}`: .sync_restrict::shared::cta needs .release and .cluster (PTX ISA fence)", self.text))
            }
            Some(Restrict::SharedCluster)
                if !(sem == FenceSem::Acquire && scope == Scope::Cluster) =>
            {
                return err(format!("`{}`: .sync_restrict::shared::cluster needs .acquire and .cluster (PTX ISA fence)", self.text))
            }
            _ => {}
        }
        Ok(Inst::Fence(sem, scope, restrict))
    }

    pub(super) fn proxy_fence(&mut self, rest: &[&str]) -> R<Inst> {
        let k = |p: ProxyFence| Ok(Inst::ProxyFence(p, None));
        match rest {
            ["alias"] => k(ProxyFence::Alias),
            ["surface"] => k(ProxyFence::Surface),
            ["texture"] => k(ProxyFence::Texture),
            ["constant"] => k(ProxyFence::Constant),
            ["async"] => k(ProxyFence::Async(None)),
            ["async", "global"] | ["async::global"] => k(ProxyFence::Async(Some(Space::Global))),
            ["async", "shared::cta"] | ["async", "shared"] | ["async::shared::cta"] => {
                k(ProxyFence::Async(Some(Space::SharedCta)))
            }
            ["async", "shared::cluster"] | ["async::shared::cluster"] => {
                k(ProxyFence::Async(Some(Space::SharedCluster)))
            }
            ["tensormap::generic", sem, sc] => {
                let scope = scope_of(sc).ok_or_else(|| PErr {
                    unsupported: false,
                    msg: format!("`{}`: expected a scope, found `.{sc}`", self.text),
                })?;
                match *sem {
                    "release" => {
                        self.nops(&[0])?;
                        k(ProxyFence::TensormapGeneric {
                            sem: FenceSem::Release,
                            scope,
                            addr: None,
                        })
                    }
                    "acquire" => {
                        self.nops(&[2])?;
                        if parse_int(&self.ops[1]) != Some(128) {
                            return err(format!(
                                "`{}`: the size operand must be 128 (PTX ISA fence)",
                                self.text
                            ));
                        }
                        let a = self.ops[0].clone();
                        let a = a
                            .trim()
                            .strip_prefix('[')
                            .and_then(|x| x.strip_suffix(']'))
                            .unwrap_or(&a)
                            .to_string();
                        let o = self.src(&a, Ty::U64)?;
                        Ok(Inst::ProxyFence(
                            ProxyFence::TensormapGeneric {
                                sem: FenceSem::Acquire,
                                scope,
                                addr: None,
                            },
                            Some(o),
                        ))
                    }
                    _ => err(format!("`{}`: expected .release or .acquire", self.text)),
                }
            }
            ["async::generic", "release", "sync_restrict::shared::cta", "cluster"] => {
                k(ProxyFence::AsyncGeneric {
                    sem: FenceSem::Release,
                    restrict: Restrict::SharedCta,
                })
            }
            ["async::generic", "acquire", "sync_restrict::shared::cluster", "cluster"] => {
                k(ProxyFence::AsyncGeneric {
                    sem: FenceSem::Acquire,
                    restrict: Restrict::SharedCluster,
                })
            }
            _ => unsup(format!("proxy fence `{}`", self.text)),
        }
    }

    pub(super) fn bar(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
        let mut qs: Vec<&str> = rest.to_vec();
        if qs.first() == Some(&"warp") {
            if qs != ["warp", "sync"] {
                return err(format!("`{}`: expected bar.warp.sync", self.text));
            }
            self.nops(&[1])?;
            let m = self.ops[0].clone();
            let mask = self.src(&m, Ty::B32)?;
            return Ok(Inst::Warp {
                op: WarpI::Sync,
                mask,
                d: None,
            });
        }
        if qs.first() == Some(&"cluster") {
            self.nops(&[0])?;
            qs.retain(|w| *w != "aligned");
            return match &qs[1..] {
                ["arrive"] | ["arrive", "release"] => Ok(Inst::ClusterArrive { relaxed: false }),
                ["arrive", "relaxed"] => Ok(Inst::ClusterArrive { relaxed: true }),
                ["wait"] | ["wait", "acquire"] => Ok(Inst::ClusterWait),
                _ => err(format!(
                    "`{}`: expected barrier.cluster.arrive{{.release,.relaxed}} or barrier.cluster.wait{{.acquire}}",
                    self.text
                )),
            };
        }
        if qs.first() == Some(&"cta") {
            qs.remove(0);
        }
        qs.retain(|w| *w != "aligned");
        let (kind, dty) = match qs.as_slice() {
            ["sync"] => (BarKind::Sync, Ty::U32),
            [] if op == "bar" => (BarKind::Sync, Ty::U32),
            ["arrive"] => (BarKind::Arrive, Ty::U32),
            ["red", "popc", "u32"] => (BarKind::RedPopc, Ty::U32),
            ["red", "and", "pred"] => (BarKind::RedAnd, Ty::PRED),
            ["red", "or", "pred"] => (BarKind::RedOr, Ty::PRED),
            ["red", "popc"] if self.litmus => (BarKind::RedPopc, Ty::U32),
            ["red", "and"] if self.litmus => (BarKind::RedAnd, Ty::PRED),
            ["red", "or"] if self.litmus => (BarKind::RedOr, Ty::PRED),
            _ => {
                return unsup(format!("barrier form `{}`", self.text));
            }
        };
        let ops = self.ops.clone();
        let (d, id, count, pred) = match kind {
            BarKind::Sync | BarKind::Arrive => {
                self.nops(&[1, 2, 3])?;
                if ops.len() == 3 {
                    return unsup(format!(
                        "the three-operand barrier dialect (instance, id, count) `{}`",
                        self.text
                    ));
                }
                if kind == BarKind::Arrive && ops.len() == 1 {
                    // PTX ISA bar: "a non-zero thread count is required for barrier.arrive".
                    return err(format!(
                        "`{}`: bar.arrive needs a thread count (PTX ISA bar: `bar.arrive a, b`)",
                        self.text
                    ));
                }
                let id = self.src(&ops[0], Ty::U32)?;
                let count = match ops.get(1) {
                    Some(c) => Some(self.src(c, Ty::U32)?),
                    None => None,
                };
                (None, id, count, None)
            }
            _ => {
                self.nops(&[3, 4])?;
                let d = self.dst(&ops[0])?;
                let id = self.src(&ops[1], Ty::U32)?;
                let count = if ops.len() == 4 {
                    Some(self.src(&ops[2], Ty::U32)?)
                } else {
                    None
                };
                let p = self.src(ops.last().unwrap(), Ty::PRED)?;
                (d, id, count, Some(p))
            }
        };
        if let Opnd::Imm(v) = id {
            // PTX ISA bar: "each CTA instance has sixteen barriers numbered 0..15".
            if v > 15 {
                return err(format!(
                    "`{}`: barrier id {} is out of range 0–15 (PTX ISA bar)",
                    self.text, v as u32 as i32
                ));
            }
        }
        if let Some(Opnd::Imm(c)) = count {
            let c = c as u32 as i32;
            if c <= 0 {
                return err(format!(
                    "`{}`: thread count {c} must be positive (PTX ISA bar: the number of participating threads)",
                    self.text
                ));
            }
            if !self.litmus && c % 32 != 0 {
                return err(format!(
                    "`{}`: thread count {c} is not a multiple of the warp size (PTX ISA bar)",
                    self.text
                ));
            }
        }
        Ok(Inst::Bar {
            kind,
            id,
            count,
            pred,
            d,
            dty,
        })
    }

    pub(super) fn mbar_space(&self, q: &Quals, cluster_ok: bool) -> R<Space> {
        match q.spaces.as_slice() {
            [] => Ok(Space::Generic),
            [Sp::SharedCta] => Ok(Space::SharedCta),
            [Sp::SharedCluster] if cluster_ok => Ok(Space::SharedCluster),
            _ => err(format!(
                "`{}`: expected .shared{{::cta}}{} or no state space",
                self.text,
                if cluster_ok { ", .shared::cluster" } else { "" }
            )),
        }
    }

    pub(super) fn mbar_sem(&self, q: &Quals, default: Sem, allowed: &[&str]) -> R<(Sem, Scope)> {
        let sem = match q.sems.as_slice() {
            [] => None,
            [s] if allowed.contains(s) => Some(match *s {
                "release" => Sem::Release,
                "acquire" => Sem::Acquire,
                _ => Sem::Relaxed,
            }),
            [s] => {
                return err(format!(
                    "`{}`: .{s} is not a semantics of this mbarrier operation (PTX ISA: {})",
                    self.text,
                    allowed.join(", ")
                ))
            }
            _ => return err(format!("`{}`: two semantics", self.text)),
        };
        let scope = match q.scopes.as_slice() {
            [] => None,
            [s @ (Scope::Cta | Scope::Cluster)] => Some(*s),
            [_] => {
                return err(format!(
                    "`{}`: mbarrier scopes are .cta and .cluster",
                    self.text
                ))
            }
            _ => return err(format!("`{}`: two scopes", self.text)),
        };
        match (sem, scope) {
            (None, None) => Ok((default, Scope::Cta)),
            (Some(s), Some(c)) => Ok((s, c)),
            _ => err(format!(
                "`{}`: .sem and .scope are given together (PTX ISA mbarrier)",
                self.text
            )),
        }
    }

    pub(super) fn mbarrier(&mut self, rest: &[&str]) -> R<Inst> {
        let Some((&what, rest)) = rest.split_first() else {
            return err("expected mbarrier.OPERATION");
        };
        let q = quals(rest)?;
        if q.types != [Ty::B64] {
            return err(format!("`{}`: mbarrier instructions are .b64", self.text));
        }
        let ops = self.ops.clone();
        let words: Vec<&str> = q.words.clone();
        match what {
            "init" | "inval" => {
                if !q.sems.is_empty() || !q.scopes.is_empty() || !words.is_empty() {
                    return err(format!("`{}`: unexpected qualifiers", self.text));
                }
                let space = self.mbar_space(&q, false)?;
                self.nops(if what == "init" { &[2] } else { &[1] })?;
                let addr = self.addr_in(&ops[0], space)?;
                let op = if what == "init" {
                    MbarI::Init(self.src(&ops[1], Ty::B32)?)
                } else {
                    MbarI::Inval
                };
                Ok(Inst::Mbar {
                    space,
                    addr,
                    op,
                    sem: Sem::Weak,
                    scope: Scope::Cta,
                    d: None,
                })
            }
            "arrive" | "arrive_drop" => {
                let mut expect = false;
                let mut no_complete = false;
                for w in &words {
                    match *w {
                        "expect_tx" => expect = true,
                        "noComplete" => no_complete = true,
                        _ => return unsup(format!("qualifier `.{w}` of `{}`", self.text)),
                    }
                }
                let space = self.mbar_space(&q, true)?;
                let (sem, scope) = self.mbar_sem(&q, Sem::Release, &["release", "relaxed"])?;
                if no_complete && (sem, scope) != (Sem::Release, Scope::Cta) {
                    return err(format!("`{}`: .noComplete is .release.cta only", self.text));
                }
                if no_complete && space == Space::SharedCluster {
                    return err(format!(
                        "`{}`: .noComplete has no .shared::cluster form",
                        self.text
                    ));
                }
                self.nops(if expect || no_complete { &[3] } else { &[2, 3] })?;
                let d = self.dst(&ops[0])?;
                if space == Space::SharedCluster && d.is_some() {
                    return err(format!(
                        "`{}`: a .shared::cluster arrive returns no state: its destination is `_` (PTX ISA mbarrier.arrive)",
                        self.text
                    ));
                }
                let addr = self.addr_in(&ops[1], space)?;
                let third = match ops.get(2) {
                    Some(o) => Some(self.src(o, Ty::U32)?),
                    None => None,
                };
                let (count, tx) = if expect { (None, third) } else { (third, None) };
                Ok(Inst::Mbar {
                    space,
                    addr,
                    op: MbarI::Arrive {
                        count,
                        tx,
                        no_complete,
                        drop: what == "arrive_drop",
                    },
                    sem,
                    scope,
                    d,
                })
            }
            "expect_tx" | "complete_tx" => {
                if !words.is_empty() {
                    return unsup(format!("qualifier `.{}` of `{}`", words[0], self.text));
                }
                let space = self.mbar_space(&q, true)?;
                let (sem, scope) = self.mbar_sem(&q, Sem::Relaxed, &["relaxed"])?;
                self.nops(&[2])?;
                let addr = self.addr_in(&ops[0], space)?;
                let n = self.src(&ops[1], Ty::U32)?;
                Ok(Inst::Mbar {
                    space,
                    addr,
                    op: if what == "expect_tx" {
                        MbarI::ExpectTx(n)
                    } else {
                        MbarI::CompleteTx(n)
                    },
                    sem,
                    scope,
                    d: None,
                })
            }
            "test_wait" | "try_wait" => {
                let mut parity = false;
                for w in &words {
                    match *w {
                        "parity" => parity = true,
                        _ => return unsup(format!("qualifier `.{w}` of `{}`", self.text)),
                    }
                }
                let space = self.mbar_space(&q, false)?;
                let (sem, scope) = self.mbar_sem(&q, Sem::Acquire, &["acquire", "relaxed"])?;
                self.nops(if what == "try_wait" { &[3, 4] } else { &[3] })?;
                let d = self.pred_reg(&ops[0])?;
                let addr = self.addr_in(&ops[1], space)?;
                let v = self.src(&ops[2], if parity { Ty::U32 } else { Ty::B64 })?;
                if parity {
                    if let Opnd::Imm(p) = v {
                        if p > 1 {
                            return err(format!("`{}`: a phase parity is 0 or 1", self.text));
                        }
                    }
                }
                Ok(Inst::Mbar {
                    space,
                    addr,
                    op: MbarI::Wait {
                        parity,
                        try_wait: what == "try_wait",
                        v,
                    },
                    sem,
                    scope,
                    d,
                })
            }
            "pending_count" => {
                self.nops(&[2])?;
                let d = self.reg(&ops[0])?;
                let state = self.src(&ops[1], Ty::B64)?;
                Ok(Inst::PendingCount { d, state })
            }
            _ => unsup(format!("`mbarrier.{what}`")),
        }
    }
}
