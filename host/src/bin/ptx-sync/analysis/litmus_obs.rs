//! What one instance of a litmus file's kernel showed ([`Obs`]): its record and final memory
//! classified over the test's observed terms.

use ptx_sync_host::litmus_ptx as lp;
use ptx_sync_model::ast::{Term, Test};

/// What an instance showed.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Obs {
    /// A final state over `test.observed`.
    State(Vec<i64>),
    /// Some thread ran out of its loop bound or time budget.
    Timeout,
    /// Some thread did not report (never ran or did not finish).
    Incomplete,
}

/// One instance's record (and its final memory) as an observation. Values are the 32-bit words
/// as unsigned numbers, literals modulo 2^32 ([`lp::norm32`], as the model's states in
/// [`Prepared::allowed`](crate::exec::litmus_file::Prepared::allowed)).
pub fn classify(
    t: &Test,
    lay: &lp::Layout,
    rec: &[u32],
    mem: impl Fn(usize) -> u32,
    all_done: u32,
) -> Obs {
    if rec[1] != 0 {
        return Obs::Timeout;
    }
    if rec[0] & all_done != all_done {
        return Obs::Incomplete;
    }
    Obs::State(
        t.observed
            .iter()
            .map(|term| match term {
                Term::Reg(th, r) => {
                    let k = lay
                        .reg_terms
                        .iter()
                        .position(|x| *x == (*th, *r))
                        .expect("observed register");
                    rec[lp::OUT_HEAD + k] as i64
                }
                Term::Loc(ph) => mem(*ph) as i64,
                Term::Imm(v) => lp::norm32(*v),
                // Format part 2 terms: `prepare` refuses such tests (`Test::legacy`).
                Term::Mem(_) => 0,
            })
            .collect(),
    )
}
