//! An instruction's cost row from `docs/fence-costs.md` (PTX → SASS beyond the baseline, sm_90).

use super::*;

/// The cost table of `docs/fence-costs.md` (PTX → SASS beyond the baseline, sm_90).
pub(super) const COSTS_MD: &str = include_str!("../../../../docs/fence-costs.md");

/// The cost rows of `docs/fence-costs.md`: PTX → SASS (read once).
pub(super) fn cost_rows() -> &'static BTreeMap<String, String> {
    static ROWS: std::sync::OnceLock<BTreeMap<String, String>> = std::sync::OnceLock::new();
    ROWS.get_or_init(read_cost_rows)
}

pub(super) fn read_cost_rows() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for l in COSTS_MD.lines() {
        let cells: Vec<&str> = l.split('|').map(str::trim).collect();
        if cells.len() >= 4 && cells[1].starts_with('`') && cells[1].ends_with('`') {
            let k = cells[1].trim_matches('`');
            if k.starts_with("ld.")
                || k.starts_with("st.")
                || k.starts_with("atom.")
                || k.starts_with("red.")
                || k.starts_with("fence.")
            {
                out.insert(k.to_string(), cells[2].to_string());
            }
        }
    }
    out
}

/// The cost row of an instruction: (the row's PTX, its SASS).
pub fn cost_row(op: &str) -> Option<(String, String)> {
    let m = meaning(op)?;
    let head = op.split('.').next()?;
    let key = match head {
        "ld" | "st" | "atom" | "red" => {
            // The table has u32 accesses and `add` atomics only.
            if !SCOPES.contains(&m.scope.as_str())
                || (head == "atom" || head == "red") && !op.split('.').any(|t| t == "add")
            {
                return None;
            }
            let tail = if head == "ld" || head == "st" {
                "u32"
            } else {
                "add.u32"
            };
            format!("{head}.{}.{}.{tail}", m.sem, m.scope)
        }
        "fence" if m.kind == "fence" => format!("fence.{}.{}", m.sem, m.scope),
        "membar" => format!("fence.sc.{}", m.scope),
        _ => return None,
    };
    cost_rows().get(&key).map(|s| (key, s.clone()))
}
