//! What checking one test found: final states, counts, flags and a witness execution.

use crate::ast::{Prop, Term};
use std::collections::BTreeMap;

pub use crate::engine::axioms::SyncKind;

/// A final state: the observed values in `Test::observed` order.
pub type State = Vec<i64>;

/// One event of a witness execution, as the witness graph shows it.
#[derive(Clone, Debug)]
pub struct WEvent {
    /// Thread (`P0` → 0; async operations are numbered after the test's threads).
    pub thread: usize,
    /// CTA of the thread.
    pub cta: u32,
    /// Source line.
    pub line: usize,
    /// Instruction text.
    pub text: String,
    /// Value read, if a read.
    pub rval: Option<String>,
    /// Value written, if a write.
    pub wval: Option<String>,
}

/// One allowed execution, kept for the witness graph.
#[derive(Clone, Debug, Default)]
pub struct Witness {
    /// The events.
    pub events: Vec<WEvent>,
    /// Reads-from: (write or `None` = initial value, read).
    pub rf: Vec<(Option<usize>, usize)>,
    /// Coherence order (transitively reduced).
    pub co: Vec<(usize, usize)>,
    /// Synchronizes-with edges.
    pub sync: Vec<(usize, usize, SyncKind)>,
    /// Data races in this execution.
    pub races: Vec<(usize, usize)>,
}

/// What checking one test found.
#[derive(Clone, Debug, Default)]
pub struct Found {
    /// Distinct final states with whether they satisfy the proposition.
    pub states: BTreeMap<State, bool>,
    /// Allowed executions (with their final-value choices) satisfying the proposition.
    pub positive: usize,
    /// Allowed executions not satisfying it.
    pub negative: usize,
    /// Data races (described once each).
    pub races: Vec<String>,
    /// Hangs (described once each).
    pub hangs: Vec<String>,
    /// Executions cut at the unroll bound.
    pub cut: usize,
    /// Exploration steps.
    pub candidates: usize,
    /// Flags other than races and hangs (mbarrier errors, bad addresses, …): (flag, description).
    pub flags: Vec<(String, String)>,
    /// First allowed execution satisfying the proposition.
    pub witness_pos: Option<Witness>,
    /// First allowed execution.
    pub witness_any: Option<Witness>,
    /// Executions that threads other than the caller's checked (the rest of the result does not
    /// depend on it: `model/SEMANTICS.md` S9).
    pub helped: u64,
}

/// Evaluates the condition's proposition (plain 64-bit comparisons).
pub fn eval(p: &Prop, val: &dyn Fn(&Term) -> i64) -> bool {
    match p {
        Prop::True => true,
        Prop::False => false,
        Prop::Cmp(c, a, b) => c.eval(val(a), val(b)),
        Prop::Not(q) => !eval(q, val),
        Prop::And(a, b) => eval(a, val) && eval(b, val),
        Prop::Or(a, b) => eval(a, val) || eval(b, val),
    }
}

/// Calls `f` with every choice of one value from each of `sets` (`pick[k]` indexes `sets[k]`;
/// the first set's index varies fastest): each final state of an execution whose locations
/// may hold several values. Once, with an empty `pick`, when there are no sets.
pub(crate) fn each_choice(sets: &[Vec<u64>], mut f: impl FnMut(&[usize])) {
    let mut pick = vec![0usize; sets.len()];
    loop {
        f(&pick);
        // The next choice, as an odometer: done when every digit has wrapped.
        let mut wrapped = true;
        for (p, set) in pick.iter_mut().zip(sets) {
            *p += 1;
            if *p < set.len() {
                wrapped = false;
                break;
            }
            *p = 0;
        }
        if wrapped {
            return;
        }
    }
}

#[cfg(test)]
mod choice_tests {
    use super::each_choice;

    #[test]
    fn every_choice_once_first_set_fastest() {
        let mut seen = Vec::new();
        each_choice(&[vec![7, 8], vec![1, 2, 3]], |p| seen.push(p.to_vec()));
        let want: Vec<Vec<usize>> = vec![
            vec![0, 0],
            vec![1, 0],
            vec![0, 1],
            vec![1, 1],
            vec![0, 2],
            vec![1, 2],
        ];
        assert_eq!(seen, want);
        let mut n = 0;
        each_choice(&[], |p| {
            assert!(p.is_empty());
            n += 1
        });
        assert_eq!(n, 1, "no sets: one (empty) choice");
    }
}
