//! Outcome histograms: counting outcomes per class, and a run's verdict. Rendered (text table,
//! JSON, SVG) by [`crate::render::report`].

use crate::registry::programs::{Class, Outcome};
use serde::Serialize;
use std::collections::BTreeMap;

/// One outcome row.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Row {
    pub outcome: String,
    pub class: Class,
    pub count: u64,
}

/// The result of running one program.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub program: String,
    pub kernel: String,
    pub seed: String,
    pub what: String,
    /// Whether the PTX memory model forbids the `forbidden` outcomes for this variant.
    pub correct: bool,
    pub device: String,
    pub launches: u64,
    pub instances_per_launch: u64,
    pub rounds: u64,
    /// The techniques used to provoke weak behaviours.
    pub techniques: Vec<String>,
    pub rows: Vec<Row>,
    pub seconds: f64,
    /// Testers whose per-instance start barrier ran out of budget (they ran unsynchronized).
    pub start_barrier_timeouts: u64,
    /// Stress threads stopped by the deadline before the testers finished.
    pub stress_timeouts: u64,
    /// Instances at least one of whose roles never reported (its done count below the roles,
    /// `litmus.rs`): counted apart, never classified — their output words were never written.
    pub unreported: u64,
    /// The parameter point of a sweep (`""` outside a sweep).
    pub point: String,
}

/// Counts outcomes.
#[derive(Clone, Debug, Default)]
pub struct Histogram {
    map: BTreeMap<(Class, String), u64>,
}

impl Histogram {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn add(&mut self, o: Outcome) {
        self.add_n(o, 1)
    }
    pub fn add_n(&mut self, o: Outcome, n: u64) {
        *self.map.entry((o.class, o.label)).or_insert(0) += n;
    }
    pub fn total(&self) -> u64 {
        self.map.values().sum()
    }
    /// Rows, most frequent first (ties by class, then label).
    pub fn rows(&self) -> Vec<Row> {
        let mut v: Vec<Row> = self
            .map
            .iter()
            .map(|((c, l), n)| Row {
                outcome: l.clone(),
                class: *c,
                count: *n,
            })
            .collect();
        v.sort_by(|a, b| {
            b.count
                .cmp(&a.count)
                .then(a.class.cmp(&b.class))
                .then(a.outcome.cmp(&b.outcome))
        });
        v
    }
}

impl Report {
    pub fn total(&self) -> u64 {
        self.rows.iter().map(|r| r.count).sum()
    }
    pub fn count(&self, c: Class) -> u64 {
        self.rows
            .iter()
            .filter(|r| r.class == c)
            .map(|r| r.count)
            .sum()
    }
    /// The one-line verdict.
    pub fn verdict(&self) -> String {
        let f = self.count(Class::Forbidden);
        let t = self.count(Class::Timeout);
        let n = self.total();
        let mut tmo = if t > 0 {
            format!("; {} timeout(s)", group(t))
        } else {
            String::new()
        };
        if self.unreported > 0 {
            tmo += &format!("; {} instance(s) never reported", group(self.unreported));
        }
        match (self.correct, f) {
            (true, 0) => format!("OK: no forbidden outcome in {} rounds{tmo}", group(n)),
            (true, _) => format!(
                "VIOLATION: {} forbidden outcome(s) in {} rounds{tmo}",
                group(f),
                group(n)
            ),
            (false, 0) => format!("bug not observed in {} rounds{tmo}", group(n)),
            (false, _) => format!(
                "bug observed: {} of {} rounds ({:.3}%){tmo}",
                group(f),
                group(n),
                100.0 * f as f64 / n.max(1) as f64
            ),
        }
    }
    /// Whether a correct program showed a forbidden outcome.
    pub fn violated(&self) -> bool {
        self.correct && self.count(Class::Forbidden) > 0
    }
}

/// `1234567` → `"1,234,567"`.
pub fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
