//! PTX instructions mapped to SASS by the order of synchronization opcodes (Myers' O((n+m)·D)
//! walk); approximate, and says so.

use super::*;

/// Whether SASS `opcode` can be the anchor of PTX `ins`: its family, and for accesses and atomics
/// the scope (`.SM` for `.cta`, `.GPU` for `.cluster`/`.gpu`, `.SYS` for `.sys` and `.volatile`)
/// and the atomic operation.
pub(super) fn fits(ins: &Ins, m: &Meaning, opcode: &str) -> bool {
    if !m.anchors.iter().any(|a| opcode.starts_with(a)) {
        return false;
    }
    let toks: Vec<&str> = opcode.split('.').collect();
    if matches!(m.kind, "load" | "store" | "atom" | "red") && toks.contains(&"STRONG") {
        let want = match (m.sem.as_str(), m.scope.as_str()) {
            ("volatile", _) | (_, "sys") => "SYS",
            (_, "cta") => "SM",
            _ => "GPU",
        };
        if !toks.contains(&want) {
            return false;
        }
    }
    if matches!(m.kind, "atom" | "red") {
        let ptx_ops = [
            "add", "or", "and", "xor", "min", "max", "inc", "dec", "cas", "exch",
        ];
        if let Some(op) = ins.op.split('.').find(|t| ptx_ops.contains(t)) {
            let want = op.to_ascii_uppercase();
            if !toks.iter().any(|t| *t == want || t.starts_with(&want)) {
                return false;
            }
        }
    }
    true
}

/// Maps PTX sync instructions to the SASS sync instructions by order: a longest common
/// subsequence of PTX instructions and SASS instructions of their family (the anchors), then each
/// anchor takes its unmatched companions: the `MEMBAR`/`ERRBAR`/`CGAERRBAR` right before a release
/// (or right after a fence's `MEMBAR`) and the `CCTL` right after an acquire. The rest is
/// unmatched. `moved[i]`: PTX instruction i was matched out of order (second pass).
///
/// Near-linear: [`fits`] is decided once per (PTX opcode, SASS opcode) pair of distinct
/// strings; the common subsequence is Myers' O((n+m)·D) walk ([`lcs`]; D, the instructions left
/// unmatched, is small when ptxas kept the order), with an in-order greedy match past a bound on
/// D; the second pass keeps one cursor per PTX opcode.
pub(super) fn map_by_order<'a>(
    ptx: &[(&Ins, Meaning)],
    sass_sync: &[&'a sass::Instr],
) -> (Vec<Vec<&'a sass::Instr>>, Vec<bool>, Vec<&'a sass::Instr>) {
    let (n, m) = (ptx.len(), sass_sync.len());
    // Classes: distinct PTX opcodes and distinct SASS opcodes, and the fit of each pair.
    let mut pclass: HashMap<&str, usize> = HashMap::new();
    let pc: Vec<usize> = ptx
        .iter()
        .map(|(i, _)| {
            let k = pclass.len();
            *pclass.entry(i.op.as_str()).or_insert(k)
        })
        .collect();
    let mut sclass: HashMap<&str, usize> = HashMap::new();
    let sc: Vec<usize> = sass_sync
        .iter()
        .map(|s| {
            let k = sclass.len();
            *sclass.entry(s.opcode.as_str()).or_insert(k)
        })
        .collect();
    let mut prep = vec![0usize; pclass.len()];
    for (i, &c) in pc.iter().enumerate() {
        prep[c] = i;
    }
    let mut srep = vec![0usize; sclass.len()];
    for (k, &c) in sc.iter().enumerate() {
        srep[c] = k;
    }
    let table: Vec<Vec<bool>> = prep
        .iter()
        .map(|&i| {
            srep.iter()
                .map(|&k| fits(ptx[i].0, &ptx[i].1, &sass_sync[k].opcode))
                .collect()
        })
        .collect();
    let fits = |i: usize, k: usize| table[pc[i]][sc[k]];
    let mut owner: Vec<Option<usize>> = vec![None; m];
    let mut anchor: Vec<Option<usize>> = vec![None; n];
    for (i, k) in lcs(n, m, &fits, 2048) {
        owner[k] = Some(i);
        anchor[i] = Some(k);
    }
    // Second pass: what the order left unmatched takes the first free SASS instruction of its
    // family anywhere (ptxas laid the blocks out in another order). Per class, the positions
    // before its cursor are taken or do not fit, and stay so.
    let mut moved = vec![false; n];
    let mut cursor = vec![0usize; table.len()];
    for i in 0..n {
        if anchor[i].is_some() {
            continue;
        }
        let c = pc[i];
        let mut k = cursor[c];
        while k < m && (owner[k].is_some() || !fits(i, k)) {
            k += 1;
        }
        cursor[c] = k;
        if k < m {
            owner[k] = Some(i);
            anchor[i] = Some(k);
            moved[i] = true;
        }
    }
    let release_part =
        |o: &str| o.starts_with("MEMBAR") || o.starts_with("ERRBAR") || o.starts_with("CGAERRBAR");
    for (i, (_, me)) in ptx.iter().enumerate() {
        let Some(k) = anchor[i] else { continue };
        let releases = matches!(me.sem.as_str(), "release" | "acq_rel" | "sc");
        let acquires = matches!(me.sem.as_str(), "acquire" | "acq_rel" | "sc");
        let is_fence = me.kind.contains("fence");
        if releases || is_fence {
            let mut j = k;
            while j > 0 && owner[j - 1].is_none() && release_part(&sass_sync[j - 1].opcode) {
                j -= 1;
                owner[j] = Some(i);
            }
        }
        let mut j = k + 1;
        while j < m && owner[j].is_none() {
            let o = &sass_sync[j].opcode;
            let after = (is_fence && (release_part(o) || o.starts_with("CCTL")))
                || (acquires && o.starts_with("CCTL"));
            if !after {
                break;
            }
            owner[j] = Some(i);
            j += 1;
        }
    }
    let mut out = vec![Vec::new(); n];
    let mut rest = Vec::new();
    for (k, o) in owner.iter().enumerate() {
        match o {
            Some(i) => out[*i].push(sass_sync[k]),
            None => rest.push(sass_sync[k]),
        }
    }
    (out, moved, rest)
}

/// A longest common subsequence of `0..n` and `0..m` under the relation `fits` (any relation:
/// a pair that fits can always start a longest one of what is left), as matched pairs in
/// order: Myers' greedy walk ("An O(ND) Difference Algorithm and Its Variations", 1986), in
/// O((n+m)·D) time and O(D²) memory for the trace (16 MiB at the bound of 2,048 used here). Past `max_d` unmatched elements it gives up
/// optimality for speed: each PTX element takes the next fitting SASS element within a window
/// of 64 after the previous match.
pub(super) fn lcs(
    n: usize,
    m: usize,
    fits: &dyn Fn(usize, usize) -> bool,
    max_d: usize,
) -> Vec<(usize, usize)> {
    // The furthest x of diagonals -d..=d after step d (x never exceeds n + 1).
    let row = |v: &[isize], off: isize, d: isize| -> Vec<u32> {
        v[(off - d) as usize..=(off + d) as usize]
            .iter()
            .map(|&x| x as u32)
            .collect()
    };
    let (ni, mi) = (n as isize, m as isize);
    let dmax = (n + m).min(max_d) as isize;
    let off = dmax + 1;
    let mut v = vec![0isize; 2 * off as usize + 2];
    // One row per step d (its 2d + 1 diagonals), as u32: (max_d + 1)² cells at most.
    let mut trace: Vec<Vec<u32>> = Vec::new();
    let mut done = None;
    'outer: for d in 0..=dmax {
        let mut k = -d;
        while k <= d {
            let mut x =
                if k == -d || (k != d && v[(off + k - 1) as usize] < v[(off + k + 1) as usize]) {
                    v[(off + k + 1) as usize]
                } else {
                    v[(off + k - 1) as usize] + 1
                };
            let mut y = x - k;
            while x < ni && y < mi && y >= 0 && fits(x as usize, y as usize) {
                x += 1;
                y += 1;
            }
            v[(off + k) as usize] = x;
            if x >= ni && y >= mi {
                trace.push(row(&v, off, d));
                done = Some(d);
                break 'outer;
            }
            k += 2;
        }
        trace.push(row(&v, off, d));
    }
    let Some(dend) = done else {
        // Too far apart: in-order greedy within a window.
        let mut out = Vec::new();
        let mut k0 = 0;
        for i in 0..n {
            if let Some(k) = (k0..m.min(k0 + 64)).find(|&k| fits(i, k)) {
                out.push((i, k));
                k0 = k + 1;
            }
        }
        return out;
    };
    let mut pairs = Vec::new();
    let (mut x, mut y) = (ni, mi);
    for d in (1..=dend).rev() {
        let k = x - y;
        let prev = &trace[(d - 1) as usize];
        let at = |kk: isize| prev[(kk + d - 1) as usize] as isize;
        let down = k == -d || (k != d && at(k - 1) < at(k + 1));
        let pk = if down { k + 1 } else { k - 1 };
        let px = at(pk);
        let py = px - pk;
        let (mx, my) = if down { (px, py + 1) } else { (px + 1, py) };
        while x > mx && y > my {
            x -= 1;
            y -= 1;
            pairs.push((x as usize, y as usize));
        }
        x = px;
        y = py;
    }
    while x > 0 && y > 0 {
        x -= 1;
        y -= 1;
        pairs.push((x as usize, y as usize));
    }
    pairs.reverse();
    pairs
}

/// The statement with its whitespace runs collapsed to one space.
pub(super) fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
