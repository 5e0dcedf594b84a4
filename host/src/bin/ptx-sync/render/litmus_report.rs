//! A litmus file's run as text (herd-like, next to the model's allowed states) and as JSON.

use crate::analysis::litmus_obs::Obs;
use crate::exec::litmus_file::{FileReport, Prepared};
use crate::exec::runner::RunCfg;
use ptx_sync_model::ast::Test;

fn state_text(t: &Test, s: &[i64]) -> String {
    t.observed
        .iter()
        .zip(s)
        .map(|(term, v)| format!("{}={v};", t.term_name(term)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The herd-like report; returns the text and whether a forbidden state showed.
pub fn render(p: &Prepared, r: &FileReport, device: &str, cfg: &RunCfg) -> (String, bool) {
    let t = &p.test;
    let mut s = String::new();
    let rounds: u64 = r.hist.values().sum();
    s.push_str(&format!("Test {} ({})\n", t.name, t.file));
    s.push_str(&format!(
        "Hardware: {device}; {} launches x {} instances = {rounds} rounds; grid {} x {} threads{}; stress {}\n",
        r.launches,
        r.instances,
        r.grid,
        r.block,
        p.kernel.layout.cluster.map(|c| format!(", clusters of {c}")).unwrap_or_default(),
        if cfg.stress { "on" } else { "off" },
    ));
    let states: Vec<(&Vec<i64>, u64)> = r
        .hist
        .iter()
        .filter_map(|(o, n)| {
            if let Obs::State(v) = o {
                Some((v, *n))
            } else {
                None
            }
        })
        .collect();
    s.push_str(&format!("States {}\n", states.len()));
    // A bounded model lists only the states of the executions that finish within its loop
    // bound: a state it did not list is not known to be forbidden.
    let bounded = p.cut > 0;
    let (mut forbidden, mut unlisted) = (0u64, 0u64);
    for (v, n) in &states {
        let ok = p.allowed.contains_key(*v);
        let word = if ok {
            "allowed"
        } else if bounded {
            unlisted += n;
            "unlisted"
        } else {
            forbidden += n;
            "FORBIDDEN"
        };
        s.push_str(&format!("{n:>10} {word:<9} {}\n", state_text(t, v)));
    }
    for v in p
        .allowed
        .keys()
        .filter(|v| !states.iter().any(|(w, _)| w == v))
    {
        s.push_str(&format!(
            "{:>10} {:<9} {}  (allowed, not seen)\n",
            0,
            "allowed",
            state_text(t, v)
        ));
    }
    let tmo = r.hist.get(&Obs::Timeout).copied().unwrap_or(0);
    let inc = r.hist.get(&Obs::Incomplete).copied().unwrap_or(0);
    s.push_str(&format!(
        "Timeouts {tmo}, incomplete {inc}, start-barrier timeouts {}, stress stopped by the deadline {}\n",
        r.start_timeouts, r.stress_stops
    ));
    s.push_str(&format!(
        "Model: {} allowed state(s); condition: {}; Expected: {}\n",
        p.allowed.len(),
        t.condition_text.trim(),
        t.comment_field("Expected").unwrap_or_else(|| "-".into()),
    ));
    if p.races > 0 {
        s.push_str("Note: the model finds a data race (PTX ISA 8.7.1); its states are those of the allowed executions\n");
    }
    if bounded {
        s.push_str(&format!(
            "Note: the model's verdict is bounded: it cut {} path(s) at its loop unroll bound {}; a loop that runs longer on the GPU may end in a state it did not list (`ptx-sync check {} --unroll N` with a larger N)\n",
            p.cut, p.unroll, t.file
        ));
    }
    if unlisted > 0 {
        s.push_str(&format!(
            "Result: not decided: the GPU showed {unlisted} round(s) in state(s) the bounded model did not list (not a violation: the model did not explore those paths) ({:.1} s)\n",
            r.seconds
        ));
    } else if forbidden > 0 {
        s.push_str(&format!(
            "Result: VIOLATION: the GPU showed {forbidden} round(s) in state(s) the PTX model forbids (a model or hardware violation)\n"
        ));
    } else {
        s.push_str(&format!(
            "Result: ok: every state seen is allowed by the model ({:.1} s)\n",
            r.seconds
        ));
    }
    (s, forbidden > 0)
}

/// The JSON of a run.
pub fn json(p: &Prepared, r: &FileReport, device: &str) -> serde_json::Value {
    let t = &p.test;
    let states: Vec<serde_json::Value> = r
        .hist
        .iter()
        .map(|(o, n)| match o {
            Obs::State(v) => serde_json::json!({
                "state": state_text(t, v), "count": n, "allowed": p.allowed.contains_key(v),
                "forbidden": p.cut == 0 && !p.allowed.contains_key(v)
            }),
            Obs::Timeout => serde_json::json!({ "state": "timeout", "count": n }),
            Obs::Incomplete => serde_json::json!({ "state": "incomplete", "count": n }),
        })
        .collect();
    serde_json::json!({
        "test": t.name, "file": t.file, "device": device, "launches": r.launches,
        "instances_per_launch": r.instances, "grid": r.grid, "block": r.block,
        "cluster": p.kernel.layout.cluster, "states": states,
        "model_allowed": p.allowed.keys().map(|v| state_text(t, v)).collect::<Vec<_>>(),
        "model_bounded": p.cut > 0, "model_paths_cut": p.cut, "model_unroll": p.unroll,
        "start_barrier_timeouts": r.start_timeouts, "stress_timeouts": r.stress_stops,
        "seconds": r.seconds,
    })
}
