//! Asynchronous copies: `cp.async`, `cp.async.bulk` (plain, reduce, tensor), `st.async`, `red.async` (PTX ISA §9.7.9.25, §9.7.9.12-13).

use super::*;

impl P<'_> {
    pub(super) fn cp(&mut self, rest: &[&str]) -> R<Inst> {
        match rest {
            ["async", "commit_group"] => {
                self.nops(&[0])?;
                Ok(Inst::Commit { bulk: false })
            }
            ["async", "wait_all"] => {
                self.nops(&[0])?;
                Ok(Inst::WaitGroup {
                    bulk: false,
                    n: 0,
                    read: false,
                    all: true,
                })
            }
            ["async", "wait_group"] => {
                let n = self.count_literal()?;
                Ok(Inst::WaitGroup {
                    bulk: false,
                    n,
                    read: false,
                    all: false,
                })
            }
            ["async", "bulk", "commit_group"] => {
                self.nops(&[0])?;
                Ok(Inst::Commit { bulk: true })
            }
            ["async", "bulk", "wait_group"] | ["async", "bulk", "wait_group", "read"] => {
                let n = self.count_literal()?;
                Ok(Inst::WaitGroup {
                    bulk: true,
                    n,
                    read: rest.len() == 4,
                    all: false,
                })
            }
            ["async", "mbarrier", "arrive", q @ ..] => {
                let mut noinc = false;
                let mut space = Space::Generic;
                for w in q {
                    match *w {
                        "noinc" => noinc = true,
                        "shared" | "shared::cta" => space = Space::SharedCta,
                        "b64" => {}
                        _ => return err(format!("`{}`: unexpected `.{w}`", self.text)),
                    }
                }
                if q.last() != Some(&"b64") {
                    return err(format!("`{}`: expected .b64", self.text));
                }
                self.nops(&[1])?;
                let a = self.ops[0].clone();
                let addr = self.addr_in(&a, space)?;
                Ok(Inst::CpAsyncMbarArrive { space, addr, noinc })
            }
            ["async", "bulk", "prefetch", ..] => Ok(Inst::Nop),
            ["async", "bulk", "tensor", q @ ..] => self.tensor(q),
            ["async", "bulk", q @ ..] => self.bulk(q, false),
            ["reduce", "async", "bulk", "tensor", q @ ..] => self.tensor_reduce(q),
            ["reduce", "async", "bulk", q @ ..] => self.bulk(q, true),
            ["async", "ca" | "cg", ..] => self.cp_async(&rest[1..]),
            _ => unsup(format!("`cp.{}`", rest.join("."))),
        }
    }

    pub(super) fn count_literal(&self) -> R<u64> {
        self.nops(&[1])?;
        match parse_int(&self.ops[0]) {
            Some(v) if (0..=63).contains(&v) => Ok(v as u64),
            _ => err(format!(
                "`{}`: expected an integer constant 0–63",
                self.text
            )),
        }
    }

    pub(super) fn cp_async(&mut self, q: &[&str]) -> R<Inst> {
        let cg = q[0] == "cg";
        let qq = quals(&q[1..])?;
        if qq.spaces != [Sp::SharedCta, Sp::Global] {
            return err(format!(
                "`{}`: expected cp.async.{}.shared{{::cta}}.global",
                self.text, q[0]
            ));
        }
        if let Some(w) = qq.words.first() {
            return unsup(format!("qualifier `.{w}` of `{}`", self.text));
        }
        let extra = usize::from(qq.cache_hint);
        self.nops(&[3 + extra, 4 + extra])?;
        let ops = self.ops.clone();
        let size = match parse_int(&ops[2]) {
            Some(s @ (4 | 8 | 16)) => s as u8,
            _ => return err(format!("`{}`: cp-size is 4, 8 or 16", self.text)),
        };
        if cg && size != 16 {
            return err(format!("`{}`: cp.async.cg copies 16 bytes", self.text));
        }
        let dst = self.addr_in(&ops[0], Space::SharedCta)?;
        let src = self.addr_in(&ops[1], Space::Global)?;
        let src_size = if ops.len() == 4 + extra {
            let o = self.src(&ops[3], Ty::U32)?;
            if let Opnd::Reg(r) = o {
                if self.env.is_pred(r) {
                    return unsup(format!("cp.async with ignore-src `{}`", self.text));
                }
            }
            if let Opnd::Imm(v) = o {
                if v > size as u64 {
                    return err(format!("`{}`: src-size exceeds cp-size", self.text));
                }
            }
            Some(o)
        } else {
            None
        };
        Ok(Inst::CpAsync {
            dst,
            src,
            size,
            src_size,
        })
    }

    pub(super) fn bulk(&mut self, q: &[&str], reduce: bool) -> R<Inst> {
        let qq = quals(q)?;
        let (dst, src) = match qq.spaces.as_slice() {
            [d, s] => (*d, *s),
            _ => return err(format!("`{}`: expected .dst.src state spaces", self.text)),
        };
        let (dst, src) = match (dst, src) {
            (Sp::SharedCta, Sp::Global) => (Space::SharedCta, Space::Global),
            (Sp::SharedCluster, Sp::Global) => (Space::SharedCluster, Space::Global),
            (Sp::SharedCluster, Sp::SharedCta) => (Space::SharedCluster, Space::SharedCta),
            (Sp::Global, Sp::SharedCta) => (Space::Global, Space::SharedCta),
            _ => return err(format!("`{}`: no such bulk copy direction", self.text)),
        };
        let dir = BulkDir { dst, src };
        let mut mbar = false;
        let mut group = false;
        let mut multicast = false;
        let mut rop = None;
        for w in &qq.words {
            match *w {
                "mbarrier::complete_tx::bytes" => mbar = true,
                "bulk_group" => group = true,
                "multicast::cluster" => multicast = true,
                "noftz" => {}
                "cp_mask" => return unsup(format!("`.cp_mask` in `{}`", self.text)),
                w if reduce && self.rmw_op(w, false).is_some() => {
                    rop = self.rmw_op(w, false);
                }
                _ => return unsup(format!("qualifier `.{w}` of `{}`", self.text)),
            }
        }
        if mbar == group {
            return err(format!(
                "`{}`: expected one completion mechanism (.mbarrier::complete_tx::bytes or .bulk_group)",
                self.text
            ));
        }
        if group != (dir.dst == Space::Global) {
            return err(format!(
                "`{}`: a copy to .global completes by .bulk_group, others by .mbarrier::complete_tx::bytes",
                self.text
            ));
        }
        if multicast && (dir.dst != Space::SharedCluster || dir.src != Space::Global) {
            return err(format!(
                "`{}`: .multicast::cluster is global → shared::cluster only",
                self.text
            ));
        }
        let reduce = if reduce {
            let op = rop.ok_or_else(|| PErr {
                unsupported: false,
                msg: format!("`{}`: expected a reduction operation", self.text),
            })?;
            let ty = self.one_type(&qq, None)?;
            if ty.float() && op != RmwOp::Add && !matches!(op, RmwOp::Min | RmwOp::Max) {
                return err(format!("`{}`: no such float reduction", self.text));
            }
            if matches!(op, RmwOp::Inc | RmwOp::Dec) && ty != Ty::U32 {
                return err(format!("`{}`: .inc/.dec are .u32 only", self.text));
            }
            Some((op, ty))
        } else {
            if !qq.types.is_empty() {
                return err(format!("`{}`: a bulk copy has no type", self.text));
            }
            None
        };
        let n = 3 + usize::from(mbar) + usize::from(multicast) + usize::from(qq.cache_hint);
        self.nops(&[n])?;
        let ops = self.ops.clone();
        let dsta = self.addr_in(&ops[0], dir.dst)?;
        let srca = self.addr_in(&ops[1], dir.src)?;
        let size = self.src(&ops[2], Ty::U32)?;
        if let Opnd::Imm(s) = size {
            if !s.is_multiple_of(16) {
                return err(format!(
                    "`{}`: the size {s} is not a multiple of 16 (PTX ISA cp.async.bulk)",
                    self.text
                ));
            }
        }
        let bs = if dir.dst == Space::SharedCluster {
            Space::SharedCluster
        } else {
            Space::SharedCta
        };
        let bar = mbar.then(|| self.addr_in(&ops[3], bs)).transpose()?;
        let mask = multicast.then(|| self.src(&ops[4], Ty::B16)).transpose()?;
        Ok(Inst::Bulk {
            dir,
            dst: dsta,
            src: srca,
            size,
            bar,
            mask,
            reduce,
        })
    }

    pub(super) fn tensor_reduce(&mut self, q: &[&str]) -> R<Inst> {
        // cp.reduce.async.bulk.tensor.dim.global.shared::cta.redOp{.load_mode}.bulk_group
        let mut op = None;
        let rest: Vec<&str> = q
            .iter()
            .copied()
            .filter(|w| match self.rmw_op(w, false) {
                Some(o) => {
                    op = Some(o);
                    false
                }
                None => true,
            })
            .collect();
        let op = op.ok_or_else(|| PErr {
            unsupported: false,
            msg: format!("`{}`: expected a reduction operation", self.text),
        })?;
        let mut inst = self.tensor(&rest)?;
        match &mut inst {
            Inst::Tensor {
                load: false,
                reduce,
                ..
            } => *reduce = Some((op, Ty::U32)),
            _ => {
                return err(format!(
                    "`{}`: a tensor reduction goes from .shared::cta to .global",
                    self.text
                ))
            }
        }
        Ok(inst)
    }

    pub(super) fn tensor(&mut self, q: &[&str]) -> R<Inst> {
        let qq = quals(q)?;
        let mut dims = 0usize;
        let mut mbar = false;
        let mut group = false;
        let mut multicast = false;
        for w in &qq.words {
            match *w {
                "1d" => dims = 1,
                "2d" => dims = 2,
                "3d" | "4d" | "5d" => {
                    return unsup(format!("{w} tensor copies (1d and 2d are modelled)"))
                }
                "tile" => {}
                "mbarrier::complete_tx::bytes" => mbar = true,
                "bulk_group" => group = true,
                "multicast::cluster" => multicast = true,
                "cta_group::1" => {}
                _ => return unsup(format!("qualifier `.{w}` of `{}`", self.text)),
            }
        }
        if dims == 0 {
            return err(format!("`{}`: expected .1d or .2d", self.text));
        }
        let load = match qq.spaces.as_slice() {
            [Sp::SharedCluster | Sp::SharedCta, Sp::Global] => true,
            [Sp::Global, Sp::SharedCta] => false,
            _ => return err(format!("`{}`: no such tensor copy direction", self.text)),
        };
        if load != mbar || load == group {
            return err(format!(
                "`{}`: loads complete by .mbarrier::complete_tx::bytes, stores by .bulk_group",
                self.text
            ));
        }
        let n = if load { 3 } else { 2 } + usize::from(multicast) + usize::from(qq.cache_hint);
        self.nops(&[n])?;
        let ops = self.ops.clone();
        let (tm_s, smem_s) = if load {
            (&ops[1], &ops[0])
        } else {
            (&ops[0], &ops[1])
        };
        let inner = tm_s
            .trim()
            .strip_prefix('[')
            .and_then(|x| x.strip_suffix(']'))
            .ok_or_else(|| PErr {
                unsupported: false,
                msg: format!("expected `[tensorMap, {{c0, …}}]`, found `{tm_s}`"),
            })?;
        let tparts = split_ops(inner)?;
        if tparts.len() != 2 {
            return err(format!("expected `[tensorMap, {{c0, …}}]`, found `{tm_s}`"));
        }
        let tmap = self.src(&tparts[0], Ty::U64)?;
        let cs = self.list(&tparts[1])?;
        if cs.len() != dims {
            return err(format!(
                "`{}`: a {dims}d copy takes {dims} coordinate(s)",
                self.text
            ));
        }
        let mut coords = Vec::new();
        for c in &cs {
            coords.push(self.src(c, Ty::S32)?);
        }
        let smem_space = if load {
            if qq.spaces[0] == Sp::SharedCta {
                Space::SharedCta
            } else {
                Space::SharedCluster
            }
        } else {
            Space::SharedCta
        };
        let smem = self.addr_in(smem_s, smem_space)?;
        let bar = load
            .then(|| self.addr_in(&ops[2], smem_space))
            .transpose()?;
        let mask = multicast.then(|| self.src(&ops[3], Ty::B16)).transpose()?;
        Ok(Inst::Tensor {
            load,
            smem,
            smem_space,
            tmap,
            coords,
            bar,
            mask,
            reduce: None,
        })
    }

    pub(super) fn st_async(&mut self, q: &[&str]) -> R<Inst> {
        let qq = quals(q)?;
        if qq.sems.iter().any(|s| *s != "weak") || !qq.scopes.is_empty() {
            return unsup(format!(
                "`{}` (st.async with a scope or .mmio/.release)",
                self.text
            ));
        }
        if !matches!(qq.spaces.as_slice(), [] | [Sp::SharedCluster]) {
            return err(format!("`{}`: st.async writes .shared::cluster", self.text));
        }
        if qq.words != ["mbarrier::complete_tx::bytes"] {
            return err(format!(
                "`{}`: expected .mbarrier::complete_tx::bytes",
                self.text
            ));
        }
        let ty = self.one_type(&qq, None)?;
        if ty.bits < 32 {
            return err(format!("`{}`: st.async types are 32 or 64 bits", self.text));
        }
        self.nops(&[3])?;
        let ops = self.ops.clone();
        let vs = self.list(&ops[1])?;
        if vs.len() != qq.vec.unwrap_or(1) as usize {
            return err(format!("`{}`: wrong number of values", self.text));
        }
        let mut v = Vec::new();
        for x in &vs {
            v.push(self.src(x, ty)?);
        }
        let addr = self.addr_in(&ops[0], Space::SharedCluster)?;
        let bar = self.addr_in(&ops[2], Space::SharedCluster)?;
        Ok(Inst::StAsync {
            order: Order::WEAK,
            ty,
            addr,
            v,
            bar,
            rmw: None,
        })
    }

    pub(super) fn red_async(&mut self, q: &[&str]) -> R<Inst> {
        let qq = quals(q)?;
        if qq.sems != ["relaxed"] || qq.scopes != [Scope::Cluster] {
            return unsup(format!(
                "`{}` (red.async other than .relaxed.cluster)",
                self.text
            ));
        }
        if !matches!(qq.spaces.as_slice(), [] | [Sp::SharedCluster]) {
            return err(format!(
                "`{}`: red.async updates .shared::cluster",
                self.text
            ));
        }
        let mut op = None;
        let mut mb = false;
        for w in &qq.words {
            if *w == "mbarrier::complete_tx::bytes" {
                mb = true;
            } else if let Some(o) = self.rmw_op(w, false) {
                op = Some(o);
            } else {
                return unsup(format!("qualifier `.{w}` of `{}`", self.text));
            }
        }
        let op = op.ok_or_else(|| PErr {
            unsupported: false,
            msg: format!("`{}`: expected an operation", self.text),
        })?;
        if !mb {
            return err(format!(
                "`{}`: expected .mbarrier::complete_tx::bytes",
                self.text
            ));
        }
        let ty = self.one_type(&qq, None)?;
        self.check_rmw_ty(op, ty)?;
        self.nops(&[3])?;
        let ops = self.ops.clone();
        let v = vec![self.src(&ops[1], ty)?];
        let addr = self.addr_in(&ops[0], Space::SharedCluster)?;
        let bar = self.addr_in(&ops[2], Space::SharedCluster)?;
        Ok(Inst::StAsync {
            order: Order {
                sem: Sem::Relaxed,
                scope: Some(Scope::Cluster),
            },
            ty,
            addr,
            v,
            bar,
            rmw: Some(op),
        })
    }
}
