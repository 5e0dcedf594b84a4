//! What a PTX synchronization instruction means: semantics, scope, state space, proxy and the seed
//! section ([`Meaning`]).

use super::*;

/// What a synchronization instruction means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meaning {
    /// `load`, `store`, `atom`, `red`, `fence`, `barrier`, `mbarrier`, `async copy`, …
    pub kind: &'static str,
    /// The memory semantic (`relaxed`, `acquire`, …), as `ptx-sync show` prints it.
    pub sem: String,
    /// The scope (`cta`, `cluster`, `gpu`, `sys`), as `ptx-sync show` prints it.
    pub scope: String,
    /// The state space it addresses, as `ptx-sync show` prints it.
    pub space: String,
    /// The proxy it acts in or orders (`generic`, `async`, …).
    pub proxy: String,
    /// The seed section, e.g. `§3.5`.
    pub seed: &'static str,
    /// The SASS family ptxas lowers it to (a prefix of the anchor opcode), when one is known.
    pub(super) anchors: &'static [&'static str],
}

pub(super) fn has(toks: &[&str], t: &str) -> bool {
    toks.contains(&t)
}

pub(super) fn first_of(toks: &[&str], set: &[&str]) -> Option<String> {
    toks.iter().find(|t| set.contains(t)).map(|t| t.to_string())
}

pub(super) const SEMS: &[&str] = &[
    "weak", "relaxed", "acquire", "release", "acq_rel", "sc", "volatile", "mmio",
];

pub(super) const SCOPES: &[&str] = &["cta", "cluster", "gpu", "sys"];

pub(super) fn space_of(toks: &[&str]) -> String {
    for t in toks {
        for s in [
            "shared::cluster",
            "shared::cta",
            "shared",
            "global",
            "local",
            "param",
            "const",
        ] {
            if *t == s {
                return s.to_string();
            }
        }
    }
    "generic".into()
}

/// The meaning of a PTX opcode, or `None` if it is no synchronization instruction (a weak
/// `ld`/`st` is none).
pub fn meaning(op: &str) -> Option<Meaning> {
    let toks: Vec<&str> = op.split('.').collect();
    let head = toks[0];
    let sem_of = |default: &str| first_of(&toks, SEMS).unwrap_or_else(|| default.to_string());
    let scope_of = |default: &str| first_of(&toks, SCOPES).unwrap_or_else(|| default.to_string());
    let m = |kind, sem: String, scope: String, seed, anchors| Meaning {
        kind,
        sem,
        scope,
        space: space_of(&toks),
        proxy: "generic".into(),
        seed,
        anchors,
    };
    Some(match head {
        "ld" | "st" => {
            let sem = first_of(&toks, SEMS)?;
            if sem == "weak" {
                return None;
            }
            let scope = if sem == "volatile" {
                "(volatile: ≈ relaxed.sys)".to_string()
            } else {
                scope_of("gpu")
            };
            let shared = has(&toks, "shared") || has(&toks, "shared::cta");
            let (kind, anchors): (&str, &'static [&'static str]) = match (head, shared) {
                ("ld", false) => ("load", &["LD"]),
                ("ld", true) => ("load", &["LDS", "LD"]),
                (_, false) => ("store", &["ST"]),
                (_, true) => ("store", &["STS", "ST"]),
            };
            m(kind, sem, scope, "§3.5", anchors)
        }
        "atom" => m(
            "atom",
            sem_of("relaxed"),
            scope_of("gpu"),
            "§4.1–4.3",
            &["ATOM", "RED"],
        ),
        "red" => m(
            "red",
            sem_of("relaxed"),
            scope_of("gpu"),
            "§4.5",
            &["RED", "ATOM"],
        ),
        "fence" if has(&toks, "proxy") => {
            let mut x = m(
                "proxy fence",
                "-".into(),
                scope_of("-"),
                if has(&toks, "async") { "§5.3" } else { "§6" },
                &["FENCE"],
            );
            x.proxy = toks
                .iter()
                .skip_while(|t| **t != "proxy")
                .skip(1)
                .cloned()
                .collect::<Vec<_>>()
                .join(".");
            x
        }
        "fence" if has(&toks, "mbarrier_init") => m(
            "fence (mbarrier init)",
            sem_of("release"),
            scope_of("cluster"),
            "§5.4",
            &["FENCE", "MEMBAR"],
        ),
        "fence" => {
            let sem = sem_of("sc");
            let seed = if sem == "sc" { "§2.5" } else { "§3.4" };
            let anchors: &'static [&'static str] = if sem == "acquire" {
                &["CCTL"]
            } else {
                &["MEMBAR"]
            };
            m("fence", sem, scope_of("-"), seed, anchors)
        }
        "membar" => {
            let scope = match toks.get(1).copied() {
                Some("cta") => "cta",
                Some("gl") => "gpu",
                Some("sys") => "sys",
                _ => "-",
            };
            if has(&toks, "proxy") {
                let mut x = m("proxy fence", "-".into(), "-".into(), "§6", &["FENCE"]);
                x.proxy = toks.last().unwrap_or(&"").to_string();
                return Some(x);
            }
            m(
                "fence (membar = fence.sc)",
                "sc".into(),
                scope.into(),
                "§2.5",
                &["MEMBAR"],
            )
        }
        "bar" | "barrier" => {
            let cluster = has(&toks, "cluster");
            let mut x = m(
                if cluster {
                    "cluster barrier"
                } else {
                    "CTA barrier"
                },
                sem_of(if cluster {
                    "(arrive: release, wait: acquire)"
                } else {
                    "-"
                }),
                if cluster { "cluster" } else { "cta" }.into(),
                if cluster { "§5.4" } else { "§5.1" },
                if cluster {
                    &["UCGABAR", "CGABAR"]
                } else {
                    &["BAR"]
                },
            );
            if ptx_cfg::aligned_barrier(op).is_some() {
                x.kind = if cluster {
                    "cluster barrier (.aligned)"
                } else {
                    "CTA barrier (.aligned)"
                };
            }
            x
        }
        "mbarrier" => {
            let remote = has(&toks, "shared::cluster");
            let sem_default = if op.contains("arrive") {
                "release"
            } else if op.contains("wait") {
                "acquire"
            } else {
                "-"
            };
            let anchors: &'static [&'static str] = if op.contains("wait") {
                &["SYNCS.PHASECHK"]
            } else if op.contains("arrive") || op.contains("expect_tx") {
                &["SYNCS.ARRIVE"]
            } else if op.contains("init") {
                &["SYNCS.EXCH"]
            } else {
                &["SYNCS"]
            };
            m(
                "mbarrier",
                sem_of(sem_default),
                scope_of(if sem_default == "-" { "-" } else { "cta" }),
                if remote || has(&toks, "cluster") {
                    "§5.4"
                } else {
                    "§5.2"
                },
                anchors,
            )
        }
        "cp" if toks.get(1) == Some(&"async") => {
            let bulk = has(&toks, "bulk");
            let mut x = m(
                if bulk {
                    "bulk async copy (TMA)"
                } else {
                    "async copy"
                },
                "-".into(),
                "-".into(),
                if has(&toks, "multicast::cluster") {
                    "§5.4"
                } else if bulk {
                    "§5.2"
                } else {
                    "§5.1"
                },
                if bulk {
                    if op.contains("wait_group") || op.contains("commit_group") {
                        &["DEPBAR", "UBLK", "UTMA", "ACQBULK"]
                    } else {
                        &["UBLK", "UTMA"]
                    }
                } else if op.contains("wait") {
                    &["DEPBAR", "LDGDEPBAR"]
                } else if op.contains("commit") {
                    &["LDGDEPBAR"]
                } else {
                    &["LDGSTS"]
                },
            );
            if bulk {
                x.proxy = "async".into();
            }
            x
        }
        "griddepcontrol" => m(
            "grid dependency control (PDL)",
            "-".into(),
            "-".into(),
            "-",
            &["ACQBULK", "PREEXIT"],
        ),
        _ => return None,
    })
}
