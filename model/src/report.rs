//! herd7-style text, JSON, and witness graphs (DOT and SVG).

use crate::ast::*;
use crate::found::{Found, SyncKind, Witness};
use std::fmt::Write as _;

/// herd's observation of the proposition over the allowed executions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Observation {
    /// Every allowed execution satisfies it.
    Always,
    /// Some do, some do not.
    Sometimes,
    /// None does (also when no execution completes).
    Never,
    /// Not decided: some execution was cut at the loop unroll bound (`--unroll N`), so a longer
    /// run of a loop could add states (and flags). The states listed are those of the
    /// executions that finish within the bound.
    Bounded,
}

impl std::fmt::Display for Observation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Observation::Always => "Always",
            Observation::Sometimes => "Sometimes",
            Observation::Never => "Never",
            Observation::Bounded => "Bounded",
        })
    }
}

impl std::str::FromStr for Observation {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "Always" => Ok(Observation::Always),
            "Sometimes" => Ok(Observation::Sometimes),
            "Never" => Ok(Observation::Never),
            "Bounded" => Ok(Observation::Bounded),
            o => Err(format!(
                "expected Always, Sometimes, Never or Bounded, found `{o}`"
            )),
        }
    }
}

/// The verdict on one test.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The parsed test.
    pub test: Test,
    /// What the enumeration found.
    pub found: Found,
    /// herd's observation ([`Observation::Bounded`] when a path was cut at the unroll bound).
    pub observation: Observation,
    /// Whether the condition is validated (`exists`: reachable; `~exists`: unreachable;
    /// `forall`: true in every execution); false when the verdict is bounded.
    pub ok: bool,
    /// Seconds spent.
    pub seconds: f64,
}

impl Outcome {
    /// Builds the verdict from the exploration. Any execution cut at the unroll bound makes it
    /// [`Observation::Bounded`] and not `ok`: a verdict a cut path could change is never given
    /// as decided.
    pub fn new(test: Test, found: Found, seconds: f64) -> Outcome {
        let (p, n) = (found.positive, found.negative);
        let observation = if found.cut > 0 {
            Observation::Bounded
        } else if p == 0 {
            Observation::Never
        } else if n == 0 {
            Observation::Always
        } else {
            Observation::Sometimes
        };
        let ok = found.cut == 0
            && match test.quantifier {
                Quantifier::Exists => p > 0,
                Quantifier::NotExists => p == 0,
                Quantifier::Forall => n == 0,
            };
        Outcome {
            test,
            found,
            observation,
            ok,
            seconds,
        }
    }

    /// herd's kind word: `Allowed` (exists), `Forbidden` (~exists), `Required` (forall).
    pub fn kind(&self) -> &'static str {
        match self.test.quantifier {
            Quantifier::Exists => "Allowed",
            Quantifier::NotExists => "Forbidden",
            Quantifier::Forall => "Required",
        }
    }

    /// Whether some execution was cut at the loop unroll bound: the verdict is not decided
    /// (`ptx-sync check` prints `Bounded` and exits 3).
    pub fn bounded(&self) -> bool {
        self.observation == Observation::Bounded
    }

    /// Whether some allowed execution has a data race (PTX ISA 8.7.1).
    pub fn racy(&self) -> bool {
        !self.found.races.is_empty()
    }

    /// The names of the flags this test raised (`data-race`, `hang`, `mbarrier-uninit`, …),
    /// sorted, each once.
    pub fn flag_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.found.flags.iter().map(|f| f.0.clone()).collect();
        if !self.found.races.is_empty() {
            v.push("data-race".into());
        }
        if !self.found.hangs.is_empty() {
            v.push("hang".into());
        }
        v.sort();
        v.dedup();
        v
    }

    /// The herd7-shaped text block.
    pub fn herd(&self) -> String {
        let mut all = String::new();
        self.herd_to(&mut |part| all.push_str(part));
        all
    }

    /// [`Self::herd`] in parts of about 64 KiB, each passed to `out` in order (a ring of 20
    /// threads lists a million states: written as they are formatted, not kept whole).
    pub fn herd_to(&self, out: &mut dyn FnMut(&str)) {
        const PART: usize = 1 << 16;
        let t = &self.test;
        let mut s = String::new();
        for r in &self.found.races {
            let _ = writeln!(s, "Flag data-race");
            let _ = writeln!(s, "(* data race (PTX ISA 8.7.1): {r} *)");
        }
        for h in &self.found.hangs {
            let _ = writeln!(s, "Flag hang");
            let _ = writeln!(s, "(* {}: {h} *)", t.file);
        }
        for (name, what) in &self.found.flags {
            let _ = writeln!(s, "Flag {name}");
            let _ = writeln!(s, "(* {what} *)");
        }
        let _ = writeln!(s, "Test {} {}", t.name, self.kind());
        let _ = writeln!(s, "States {}", self.found.states.len());
        // One line per state, `name=value;` separated by spaces (names spelled once: a ring of
        // 20 threads lists a million states).
        let names: Vec<String> = t.observed.iter().map(|x| t.term_name(x)).collect();
        for st in self.found.states.keys() {
            for (i, (name, v)) in names.iter().zip(st).enumerate() {
                if i > 0 {
                    s.push(' ');
                }
                s.push_str(name);
                s.push('=');
                push_int(&mut s, *v);
                s.push(';');
            }
            s.push('\n');
            if s.len() >= PART {
                out(&s);
                s.clear();
            }
        }
        let _ = writeln!(
            s,
            "{}",
            if self.bounded() {
                "Bounded"
            } else if self.ok {
                "Ok"
            } else {
                "No"
            }
        );
        let _ = writeln!(s, "Witnesses");
        let _ = writeln!(
            s,
            "Positive: {} Negative: {}",
            self.found.positive, self.found.negative
        );
        let _ = writeln!(s, "Condition {}", t.condition_text);
        let _ = writeln!(
            s,
            "Observation {} {} {} {}",
            t.name, self.observation, self.found.positive, self.found.negative
        );
        if self.bounded() {
            let _ = writeln!(
                s,
                "(* bounded: {} execution(s) cut at the loop unroll bound {}; the states above are those of the executions that finish within it, and a longer run could add others: the verdict is not decided (raise the bound with --unroll N) *)",
                self.found.cut,
                t.unroll
            );
        }
        let _ = writeln!(s, "Time {} {:.2}", t.name, self.seconds);
        out(&s);
    }

    /// The verdict as JSON.
    pub fn json(&self) -> serde_json::Value {
        let t = &self.test;
        let states: Vec<serde_json::Value> = self
            .found
            .states
            .iter()
            .map(|(st, sat)| {
                let mut m = serde_json::Map::new();
                for (term, v) in t.observed.iter().zip(st) {
                    m.insert(t.term_name(term), serde_json::json!(v));
                }
                serde_json::json!({"values": m, "satisfies": sat})
            })
            .collect();
        serde_json::json!({
            "file": t.file,
            "name": t.name,
            "kind": self.kind(),
            "condition": t.condition_text,
            "states": states,
            "ok": self.ok,
            "positive": self.found.positive,
            "negative": self.found.negative,
            "observation": self.observation.to_string(),
            "data_races": self.found.races,
            "hangs": self.found.hangs,
            "bounded": self.bounded(),
            "paths_cut": self.found.cut,
            "unroll": t.unroll,
            "candidates": self.found.candidates,
            "seconds": self.seconds,
        })
    }

    /// The witness execution: the first allowed execution that satisfies the proposition, or
    /// the first allowed execution when none does.
    pub fn witness(&self) -> Option<&Witness> {
        self.found
            .witness_pos
            .as_ref()
            .or(self.found.witness_any.as_ref())
    }

    /// The witness as a DOT graph: events in thread columns, po, rf, co, fr-free sync edges.
    pub fn dot(&self) -> Option<String> {
        let w = self.witness()?;
        Some(dot(&self.test, w))
    }

    /// The witness as SVG (laid out by `layout-rs` from the DOT graph).
    pub fn svg(&self) -> Option<String> {
        let d = self.dot()?;
        svg_of_dot(&d)
    }
}

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn label(e: &crate::found::WEvent) -> String {
    let mut l = format!("P{} (cta {}): {}", e.thread, e.cta, e.text);
    match (&e.rval, &e.wval) {
        (Some(r), None) => {
            let _ = write!(l, " = {r}");
        }
        (Some(r), Some(w)) => {
            let _ = write!(l, " ({r} -> {w})");
        }
        // A store's value is in its text.
        (None, _) => {}
    }
    l
}

/// Renders a witness as DOT.
pub fn dot(test: &Test, w: &Witness) -> String {
    dot_titled(&test.name, w)
}

/// Renders a witness as DOT under the title `name` (a litmus test's or a kernel entry's).
pub fn dot_titled(name: &str, w: &Witness) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "digraph witness {{");
    let _ = writeln!(s, "  label=\"{} (witness)\";", esc(name));
    let _ = writeln!(s, "  node [shape=box];");
    let _ = writeln!(s, "  init [label=\"initial values\"];");
    for (i, e) in w.events.iter().enumerate() {
        let _ = writeln!(s, "  e{} [label=\"{}\"];", i, esc(&label(e)));
    }
    for (i, e) in w.events.iter().enumerate() {
        if let Some(j) = (i + 1..w.events.len()).find(|&j| w.events[j].thread == e.thread) {
            let _ = writeln!(s, "  e{i} -> e{j} [label=\"po\"];");
        }
    }
    for (src, r) in &w.rf {
        match src {
            Some(x) => {
                let _ = writeln!(s, "  e{x} -> e{r} [label=\"rf\", color=red];");
            }
            None => {
                let _ = writeln!(s, "  init -> e{r} [label=\"rf\", color=red];");
            }
        }
    }
    for (a, b) in &w.co {
        let _ = writeln!(s, "  e{a} -> e{b} [label=\"co\", color=blue];");
    }
    for (a, b, k) in &w.sync {
        let l = match k {
            SyncKind::Pattern => "sw",
            SyncKind::FenceSc => "sc",
            SyncKind::Barrier => "bar",
        };
        let _ = writeln!(s, "  e{a} -> e{b} [label=\"{l}\", color=darkgreen];");
    }
    for (a, b) in &w.races {
        let _ = writeln!(
            s,
            "  e{a} -> e{b} [label=\"race\", color=orange, style=dashed];"
        );
    }
    let _ = writeln!(s, "}}");
    s
}

/// Lays out a DOT graph and renders it as SVG (`None` if the layout library rejects it).
pub fn svg_of_dot(d: &str) -> Option<String> {
    use layout::backends::svg::SVGWriter;
    use layout::gv;
    let d = d.to_string();
    // The layout library is external code: never let a panic in it reach the user.
    std::panic::catch_unwind(move || {
        let mut parser = gv::DotParser::new(&d);
        let g = parser.process().ok()?;
        let mut gb = gv::GraphBuilder::new();
        gb.visit_graph(&g);
        let mut vg = gb.get();
        let mut svg = SVGWriter::new();
        vg.do_it(false, false, false, &mut svg);
        Some(svg.finalize())
    })
    .ok()
    .flatten()
}

/// Appends the decimal digits of `v` (the states' values: a million lines for a ring of 20
/// threads, where `write!` spent more than the digits).
fn push_int(s: &mut String, v: i64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut u = v.unsigned_abs();
    loop {
        i -= 1;
        buf[i] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    if v < 0 {
        s.push('-');
    }
    s.push_str(std::str::from_utf8(&buf[i..]).unwrap_or("?"));
}

#[cfg(test)]
mod tests {
    #[test]
    fn states_print_their_values_in_decimal_with_a_sign() {
        // Expected texts spelled by hand, not by `format!`.
        for (v, text) in [
            (0i64, "0"),
            (7, "7"),
            (10, "10"),
            (-1, "-1"),
            (4294967295, "4294967295"),
            (i64::MAX, "9223372036854775807"),
            (i64::MIN, "-9223372036854775808"),
        ] {
            let mut s = String::from("x=");
            super::push_int(&mut s, v);
            assert_eq!(s, format!("x={text}"));
        }
    }
}
