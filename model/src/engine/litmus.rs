//! Runs a litmus test (format parts 1 and 2) on the engine and reports in the checker's `Found`
//! form: its threads are the front end's interpreters ([`crate::ptx::Thread`]).

use super::explore::{
    merge_first, Earliest, Explorer, First, Leaf, Limits, LocTerm, Observe, Summary, World,
};
use super::graph::{Kind, Src, Value};
use super::op::Program;
use crate::ast::{Prop, Term, Test};
use crate::found::{each_choice, Found, WEvent, Witness};
use crate::parse::{Error, ErrorKind};

/// The proposition under the test's widths (FORMAT part 2: comparisons are modulo 2^w).
pub fn eval(test: &Test, p: &Prop, val: &dyn Fn(&Term) -> i64) -> bool {
    match p {
        Prop::True => true,
        Prop::False => false,
        Prop::Cmp(c, a, b) => c.eval_bits(val(a), val(b), test.cmp_bits(a, b)),
        Prop::Not(q) => !eval(test, q, val),
        Prop::And(a, b) => eval(test, a, val) && eval(test, b, val),
        Prop::Or(a, b) => eval(test, a, val) || eval(test, b, val),
    }
}

fn show(v: &Value) -> String {
    match v {
        Value::Bits(b) => (*b as i64).to_string(),
        Value::Mbar(s) => format!(
            "mbarrier phase {} pending {} tx {}",
            s.phase, s.pending, s.tx
        ),
    }
}

/// The witness graph of one execution: every event but the internal ones, with reads-from,
/// coherence (transitively reduced), synchronizes-with and races.
pub fn witness_of(leaf: &Leaf<crate::ptx::Thread>) -> Witness {
    let g = leaf.graph;
    let keep: Vec<usize> = (0..g.ev.len())
        .filter(|&e| !matches!(g.ev[e].kind, Kind::Join { .. } | Kind::Clock))
        .collect();
    let idx = |e: usize| keep.iter().position(|&k| k == e);
    let events = keep
        .iter()
        .map(|&e| {
            let ev = &g.ev[e];
            let m = ev.mem();
            WEvent {
                thread: ev.thread,
                cta: ev.place.cta,
                line: ev.at.line,
                text: ev.at.text.to_string(),
                rval: m.filter(|m| m.read).and_then(|m| m.rval.as_ref()).map(show),
                wval: m
                    .filter(|m| m.write)
                    .and_then(|m| m.wval.as_ref())
                    .map(show),
            }
        })
        .collect();
    let mut rf = Vec::new();
    for &e in &keep {
        if let Some(pieces) = g.ev[e].mem().and_then(|m| m.rf.as_ref()) {
            for p in pieces {
                let src = match p.src {
                    Src::Init => None,
                    Src::Ev(w) => idx(w),
                };
                let r = idx(e).unwrap();
                if !rf.contains(&(src, r)) {
                    rf.push((src, r));
                }
            }
        }
    }
    let co_all: Vec<(usize, usize)> = leaf
        .co
        .iter()
        .filter_map(|&(a, b)| Some((idx(a)?, idx(b)?)))
        .collect();
    let co = co_all
        .iter()
        .copied()
        .filter(|&(a, b)| {
            !co_all
                .iter()
                .any(|&(x, c)| x == a && c != b && co_all.contains(&(c, b)))
        })
        .collect();
    let sync = leaf
        .sync
        .iter()
        .filter_map(|&(a, b, k)| Some((idx(a)?, idx(b)?, k)))
        .collect();
    let races = leaf
        .races
        .iter()
        .filter_map(|&(a, b, _)| Some((idx(a)?, idx(b)?)))
        .collect();
    Witness {
        events,
        rf,
        co,
        sync,
        races,
    }
}

/// The location term of a condition term, if it is one.
fn loc_term(test: &Test, t: &Term) -> Option<LocTerm> {
    let bytes = |t: &Term| (test.term_bits(t).unwrap_or(32).div_ceil(8)).clamp(1, 8) as u8;
    match t {
        Term::Loc(p) => Some(LocTerm {
            var: test.loc_var[*p] as u32,
            cta: u32::MAX,
            off: 0,
            size: bytes(t),
        }),
        Term::Mem(m) => Some(LocTerm {
            var: m.var as u32,
            cta: m.cta.map_or(u32::MAX, |c| c.cta),
            off: m.off,
            size: bytes(t),
        }),
        _ => None,
    }
}

fn unsupported(test: &Test, msg: String) -> Error {
    Error {
        kind: ErrorKind::Unsupported,
        file: test.file.clone(),
        line: 0,
        msg,
    }
}

/// ` (generic and async proxies)` when the two accesses of a race are made through different
/// proxies, else nothing (for a race's description).
pub(crate) fn proxies_of(g: &super::graph::Graph, a: usize, b: usize) -> String {
    let (pa, pb) = (g.ev[a].mem().unwrap().proxy, g.ev[b].mem().unwrap().proxy);
    if pa != pb {
        format!(" ({pa} and {pb} proxies)")
    } else {
        String::new()
    }
}

/// What one exploring thread of [`run`] keeps; the threads' are merged in depth-first order
/// ([`Leaf::pos`]).
struct Acc<'t> {
    test: &'t Test,
    terms: &'t [LocTerm],
    found: Found,
    /// The final states (hashed while exploring; ordered once at the end).
    states: std::collections::HashMap<Vec<i64>, bool, rustc_hash::FxBuildHasher>,
    /// `states` in order, made by [`Observe::finish`] on the exploring thread.
    sorted: Vec<(Vec<i64>, bool)>,
    races: First<String>,
    flags: First<(String, String)>,
    witness_pos: Earliest<Witness>,
    witness_any: Earliest<Witness>,
}

impl Observe<crate::ptx::Thread> for Acc<'_> {
    fn finish(&mut self) {
        // Ordered here, in parallel with the other threads' parts (an unstable sort: the keys
        // are distinct), not after the merge (a million states took a serial second).
        self.sorted = std::mem::take(&mut self.states).into_iter().collect();
        self.sorted.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    }

    fn leaf(&mut self, leaf: &Leaf<crate::ptx::Thread>) {
        let (test, terms) = (self.test, self.terms);
        let mut k = 0u32;
        for &(a, b, mixed) in &leaf.races {
            let (x, y) = (&leaf.graph.ev[a], &leaf.graph.ev[b]);
            let proxies = proxies_of(leaf.graph, a, b);
            let d = format!(
                "P{} `{}` (line {}) and P{} `{}` (line {}){proxies}",
                x.thread, x.at.text, x.at.line, y.thread, y.at.text, y.at.line
            );
            if mixed {
                self.flags
                    .note(leaf.pos, k, ("mixed-size-race".into(), d.clone()));
            }
            self.races.note(leaf.pos, k, d);
            k += 1;
        }
        for f in leaf.flags {
            self.flags.note(leaf.pos, k, f.clone());
            k += 1;
        }
        // An execution in which a thread the condition observes did not finish has no final
        // state.
        let blocked = test
            .observed
            .iter()
            .any(|t| matches!(t, Term::Reg(th, _) if leaf.threads[*th].is_none()));
        if blocked {
            return;
        }
        for alt in &leaf.finals {
            let sets: Vec<Vec<u64>> = alt.iter().map(|s| s.iter().copied().collect()).collect();
            each_choice(&sets, |pick| {
                let val = |t: &Term| -> i64 {
                    match t {
                        Term::Reg(th, r) => leaf.threads[*th].unwrap().reg(*r) as i64,
                        Term::Imm(v) => *v,
                        _ => {
                            let lt = loc_term(test, t).unwrap();
                            let k = terms.iter().position(|x| *x == lt).unwrap();
                            sets[k][pick[k]] as i64
                        }
                    }
                };
                let sat = eval(test, &test.prop, &val);
                let state: Vec<i64> = test.observed.iter().map(val).collect();
                self.states.insert(state, sat);
                if sat {
                    self.witness_pos.offer(leaf.pos, || witness_of(leaf));
                }
                self.witness_any.offer(leaf.pos, || witness_of(leaf));
                if sat {
                    self.found.positive += 1;
                } else {
                    self.found.negative += 1;
                }
            });
        }
    }
}

/// Checks a test on the engine.
pub fn run(test: &Test) -> Result<Found, Error> {
    run_with(test, Limits::default())
}

/// [`run`] under `limits` (steps, events, threads).
pub fn run_with(test: &Test, limits: Limits) -> Result<Found, Error> {
    if let Some(e) = &test.engine {
        return Err(e.clone());
    }
    let mut threads = Vec::new();
    let mut places = Vec::new();
    for t in &test.threads {
        let p = t
            .prog
            .clone()
            .ok_or_else(|| unsupported(test, format!("thread P{} has no program", t.id)))?;
        places.push(p.geom().place);
        threads.push(p);
    }
    let world = World {
        layout: test.layout.clone(),
        places,
    };
    // The location terms the condition (and `locations`) observe, once each.
    let mut terms: Vec<LocTerm> = Vec::new();
    for t in &test.observed {
        if let Some(lt) = loc_term(test, t) {
            if !terms.contains(&lt) {
                terms.push(lt);
            }
        }
    }
    let parts = Explorer::run_jobs(&world, threads, terms.clone(), limits, || Acc {
        test,
        terms: &terms,
        found: Found::default(),
        states: Default::default(),
        sorted: Vec::new(),
        races: First::default(),
        flags: First::default(),
        witness_pos: Earliest::default(),
        witness_any: Earliest::default(),
    });
    let mut summary = Summary::default();
    let mut found = Found::default();
    let (mut races, mut flags) = (Vec::new(), Vec::new());
    let (mut wpos, mut wany) = (Earliest::default(), Earliest::default());
    let mut states: Vec<(Vec<i64>, bool)> = Vec::new();
    for (i, (sm, obs)) in parts.into_iter().enumerate() {
        if i > 0 {
            found.helped += sm.executions;
        }
        summary.merge(sm);
        let acc = obs;
        states.extend(acc.sorted);
        found.positive += acc.found.positive;
        found.negative += acc.found.negative;
        races.push(acc.races);
        flags.push(acc.flags);
        wpos.merge(acc.witness_pos);
        wany.merge(acc.witness_any);
    }
    // A state's verdict is a function of the state: the threads' copies agree. Each part is
    // ordered already (on its own thread): the map's stable sort merges the runs.
    found.states = states.into_iter().collect();
    found.races = merge_first(races).into_vec();
    found.witness_pos = wpos.into_inner();
    found.witness_any = wany.into_inner();
    let mut flags = merge_first(flags).into_vec();
    if let Some(u) = summary.unsupported {
        return Err(unsupported(test, u));
    }
    for f in summary.flags {
        if !flags.contains(&f) {
            flags.push(f);
        }
    }
    if let Some(u) = flags.iter().find(|f| f.0 == "unsupported") {
        return Err(unsupported(test, u.1.clone()));
    }
    found.hangs = summary.hangs.into_iter().collect();
    found.cut = summary.cut;
    found.candidates = summary.steps as usize;
    found.flags = flags;
    Ok(found)
}
