//! Rendering of outcome reports ([`crate::analysis::hist::Report`]): the text table, the
//! summary, the calibration lines, JSON and a hand-written SVG bar chart.

use crate::analysis::hist::Report;
use crate::registry::programs::Class;
use std::fmt::Write as _;

pub use crate::analysis::hist::group;

/// The report as a text table.
pub fn table(r: &Report) -> String {
    let mut s = String::new();
    let kind = if r.correct { "correct" } else { "broken" };
    let _ = writeln!(s, "{} ({}, {kind}) — {}", r.program, r.seed, r.what);
    let _ = writeln!(
        s,
        "  {} launches × {} instances = {} rounds on {} in {:.1} s",
        group(r.launches),
        group(r.instances_per_launch),
        group(r.rounds),
        r.device,
        r.seconds
    );
    if !r.techniques.is_empty() {
        let _ = writeln!(s, "  provoked with: {}", r.techniques.join("; "));
    }
    if !r.point.is_empty() {
        let _ = writeln!(s, "  parameter point: {}", r.point);
    }
    if r.start_barrier_timeouts > 0 || r.stress_timeouts > 0 {
        let _ = writeln!(
            s,
            "  start barriers timed out for {} tester(s) (they ran unsynchronized); {} stress thread(s) stopped by the deadline",
            group(r.start_barrier_timeouts),
            group(r.stress_timeouts)
        );
    }
    if r.unreported > 0 {
        let _ = writeln!(
            s,
            "  {} instance(s) never reported (a role did not finish): counted apart, not as outcomes",
            group(r.unreported)
        );
    }
    let w = r
        .rows
        .iter()
        .map(|x| x.outcome.chars().count())
        .max()
        .unwrap_or(7)
        .max(7);
    let n = r.total().max(1);
    let _ = writeln!(s, "  {:<w$}  {:>12}  {:>8}", "outcome", "count", "share");
    for row in &r.rows {
        let mark = match row.class {
            Class::Ok => "",
            Class::Forbidden if r.correct => "  <- FORBIDDEN",
            Class::Forbidden => "  <- the bug",
            Class::Timeout => "  <- timeout",
        };
        let _ = writeln!(
            s,
            "  {:<w$}  {:>12}  {:>7.3}%{mark}",
            row.outcome,
            group(row.count),
            100.0 * row.count as f64 / n as f64
        );
    }
    let _ = writeln!(s, "  => {}", r.verdict());
    s
}

/// Many reports as one summary table (one line each).
pub fn summary(reports: &[Report]) -> String {
    let mut s = String::new();
    let w = reports
        .iter()
        .map(|r| r.program.len())
        .max()
        .unwrap_or(7)
        .max(7);
    let pw = reports.iter().map(|r| r.point.len()).max().unwrap_or(0);
    let pcol = |p: &str| {
        if pw > 0 {
            format!("  {p:<pw$}")
        } else {
            String::new()
        }
    };
    let _ = writeln!(
        s,
        "{:<w$}{}  {:<14}  {:<7}  {:>12}  {:>12}  verdict",
        "program",
        pcol("point"),
        "seed",
        "variant",
        "rounds",
        "forbidden"
    );
    for r in reports {
        let _ = writeln!(
            s,
            "{:<w$}{}  {:<14}  {:<7}  {:>12}  {:>12}  {}",
            r.program,
            pcol(&r.point),
            r.seed,
            if r.correct { "correct" } else { "broken" },
            group(r.rounds),
            group(r.count(Class::Forbidden)),
            r.verdict()
        );
    }
    for line in calibration(reports) {
        let _ = writeln!(s, "{line}");
    }
    s
}

/// One line per run of the calibration program ([`CALIBRATION`](crate::exec::runner::CALIBRATION)
/// reports named `sb_plain`): whether the stress provoked weak outcomes at that point. A point
/// where it showed none is called ineffective: zero counts there do not show that a program is
/// safe.
pub fn calibration(reports: &[Report]) -> Vec<String> {
    reports
        .iter()
        .filter(|r| r.program == crate::exec::runner::CALIBRATION)
        .map(|r| {
            let at = if r.point.is_empty() {
                String::new()
            } else {
                format!(" at \"{}\"", r.point)
            };
            let f = r.count(Class::Forbidden);
            if f == 0 {
                format!(
                    "calibration{at}: sb_plain (SB without fences) showed no weak outcome in {} rounds: \
                     the stress is ineffective here, and zero forbidden counts at this point do not \
                     show that a program is safe",
                    group(r.rounds)
                )
            } else {
                format!(
                    "calibration{at}: sb_plain showed {} weak outcome(s) in {} rounds ({:.3}%): the stress is effective",
                    group(f),
                    group(r.rounds),
                    100.0 * f as f64 / r.rounds.max(1) as f64
                )
            }
        })
        .collect()
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The reports as one SVG: a block per program, a horizontal bar per outcome on a log scale
/// (so that 3 stale reads in 6 M rounds stay visible), colored by class.
pub fn svg(reports: &[Report]) -> String {
    let bar_h = 18.0;
    let label_w = 420.0;
    let bar_w = 360.0;
    let width = label_w + bar_w + 150.0;
    let mut y = 20.0;
    let mut body = String::new();
    for r in reports {
        let _ = writeln!(
            body,
            r#"<text x="10" y="{:.0}" font-weight="bold">{} ({}, {}) — {}</text>"#,
            y + 14.0,
            esc(&r.program),
            esc(&r.seed),
            if r.correct { "correct" } else { "broken" },
            esc(&r.verdict())
        );
        y += 18.0;
        let _ = writeln!(
            body,
            r##"<text x="20" y="{:.0}" fill="#555">{}</text>"##,
            y + 12.0,
            esc(&r.what)
        );
        y += 20.0;
        let max = r.rows.iter().map(|x| x.count).max().unwrap_or(1).max(1) as f64;
        for row in &r.rows {
            let frac = ((row.count as f64).ln_1p() / max.ln_1p()).clamp(0.0, 1.0);
            let color = match row.class {
                Class::Ok => "#4c9a5a",
                Class::Forbidden => "#c0392b",
                Class::Timeout => "#e6a23c",
            };
            let _ = writeln!(
                body,
                r#"<text x="20" y="{:.0}">{}</text><rect x="{label_w}" y="{:.0}" width="{:.1}" height="{:.0}" fill="{color}"><title>{}</title></rect><text x="{:.1}" y="{:.0}">{}</text>"#,
                y + 13.0,
                esc(&row.outcome),
                y + 2.0,
                (frac * bar_w).max(1.0),
                bar_h - 4.0,
                group(row.count),
                label_w + (frac * bar_w).max(1.0) + 6.0,
                y + 13.0,
                group(row.count)
            );
            y += bar_h;
        }
        y += 12.0;
    }
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{:.0}\" font-family=\"monospace\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n{body}\
         <text x=\"10\" y=\"{:.0}\" fill=\"#666\">bars: log scale; green ok, red forbidden/bug, orange timeout</text>\n</svg>\n",
        y + 20.0,
        y + 10.0
    )
}

/// The reports as pretty JSON.
pub fn json(reports: &[Report]) -> String {
    serde_json::to_string_pretty(reports).expect("reports serialize")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::hist::{Histogram, Row};
    use crate::registry::programs::Outcome;

    fn synthetic(correct: bool, counts: &[(&str, Class, u64)]) -> Report {
        let mut h = Histogram::new();
        for (l, c, n) in counts {
            h.add_n(
                Outcome {
                    label: l.to_string(),
                    class: *c,
                },
                *n,
            );
        }
        Report {
            program: "mp_rel_acq_cta".into(),
            kernel: "litmus_mp_rel_acq_cta".into(),
            seed: "§3.5 fn. 15".into(),
            what: "st.release.cta / ld.acquire.cta <across> CTAs".into(),
            correct,
            device: "synthetic".into(),
            launches: 2,
            instances_per_launch: h.total() / 2,
            rounds: h.total(),
            techniques: vec!["stress".into()],
            rows: h.rows(),
            seconds: 0.5,
            start_barrier_timeouts: 0,
            stress_timeouts: 0,
            unreported: 0,
            point: String::new(),
        }
    }

    #[test]
    fn histogram_counts_and_orders() {
        let mut h = Histogram::new();
        for _ in 0..3 {
            h.add(Outcome {
                label: "a".into(),
                class: Class::Ok,
            });
        }
        h.add(Outcome {
            label: "b".into(),
            class: Class::Forbidden,
        });
        h.add_n(
            Outcome {
                label: "a".into(),
                class: Class::Ok,
            },
            2,
        );
        assert_eq!(h.total(), 6);
        let rows = h.rows();
        assert_eq!(
            rows[0],
            Row {
                outcome: "a".into(),
                class: Class::Ok,
                count: 5
            }
        );
        assert_eq!(rows[1].count, 1);
    }

    #[test]
    fn verdicts() {
        let bug = synthetic(
            false,
            &[
                ("full=1, data=42", Class::Ok, 6_211_234),
                ("full=1, data=0 (stale)", Class::Forbidden, 188_766),
            ],
        );
        assert_eq!(
            bug.verdict(),
            "bug observed: 188,766 of 6,400,000 rounds (2.949%)"
        );
        let t = table(&bug);
        assert!(t.contains("6,211,234") && t.contains("<- the bug"), "{t}");
        let ok = synthetic(true, &[("x", Class::Ok, 10)]);
        assert_eq!(ok.verdict(), "OK: no forbidden outcome in 10 rounds");
        assert!(!ok.violated());
        let v = synthetic(true, &[("x", Class::Ok, 10), ("y", Class::Forbidden, 1)]);
        assert!(v.violated() && table(&v).contains("FORBIDDEN"));
        let nb = synthetic(false, &[("x", Class::Ok, 1000), ("t", Class::Timeout, 2)]);
        assert_eq!(
            nb.verdict(),
            "bug not observed in 1,002 rounds; 2 timeout(s)"
        );
        assert!(summary(&[bug, ok]).lines().count() == 3);
    }

    #[test]
    fn json_round_trips() {
        let r = synthetic(false, &[("a", Class::Ok, 3), ("b", Class::Forbidden, 1)]);
        let j = json(&[r]);
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v[0]["program"], "mp_rel_acq_cta");
        assert_eq!(v[0]["rows"][1]["class"], "forbidden");
        assert_eq!(v[0]["rows"][0]["count"], 3);
    }

    #[test]
    fn svg_is_well_formed_and_escaped() {
        let r = synthetic(
            false,
            &[("a<b", Class::Ok, 1_000_000), ("rare", Class::Forbidden, 3)],
        );
        let s = svg(&[r]);
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert!(s.contains("a&lt;b") && !s.contains("a<b"));
        assert!(s.contains("&lt;across&gt;"));
        assert_eq!(s.matches("<rect").count(), 3); // background + 2 bars
        assert!(s.contains("#c0392b"));
        // Every opened text element is closed.
        assert_eq!(s.matches("<text").count(), s.matches("</text>").count());
    }

    #[test]
    fn groups_digits() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(1000), "1,000");
        assert_eq!(group(6_400_000), "6,400,000");
    }
}
