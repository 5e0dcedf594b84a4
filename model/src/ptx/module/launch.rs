//! A kernel of the module launched ([`Launch`] → [`Kernel`]): the layout of its variables and the
//! code of every thread.

use super::*;

impl Module {
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
        // A kernel's registers are not observed at its end (`--assert` names memory).
        code.observe_end = false;
        code.entry_heads = true;
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

    pub(super) fn add_vars(&self, layout: &mut Layout, dyn_smem: u32) {
        for v in &self.vars {
            let size = v.size.unwrap_or(dyn_smem);
            layout.add(&v.name, v.shared, size, v.init.clone());
        }
    }

    /// Flattens entry `name` (calls inlined) and parses every instruction.
    pub(super) fn assemble(
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
                    inst: crate::ptx::ir::Inst::Unsupported(e.msg),
                    at,
                }),
                Err(e) => return Err(perr(&self.file, line, e.msg)),
            }
        }
        Ok((lines, fl.regs, fl.local_size as u32))
    }
}
