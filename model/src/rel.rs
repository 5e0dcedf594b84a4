//! Relations over at most 64 events, as one bit row per event.

/// A binary relation on events `0..n` (`n <= 64`): `r.0[a] & (1 << b)` means `a r b`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rel(pub Vec<u64>);

impl Rel {
    /// The empty relation on `n` events.
    pub fn new(n: usize) -> Self {
        Rel(vec![0; n])
    }
    /// Number of events.
    pub fn n(&self) -> usize {
        self.0.len()
    }
    /// Adds `a → b`.
    pub fn add(&mut self, a: usize, b: usize) {
        self.0[a] |= 1 << b;
    }
    /// Whether `a → b`.
    pub fn has(&self, a: usize, b: usize) -> bool {
        self.0[a] >> b & 1 == 1
    }
    /// `self ∪ o`.
    pub fn union(&self, o: &Rel) -> Rel {
        Rel(self.0.iter().zip(&o.0).map(|(a, b)| a | b).collect())
    }
    /// Transitive closure (Warshall on bit rows).
    pub fn closure(&self) -> Rel {
        let mut r = self.0.clone();
        let n = r.len();
        for k in 0..n {
            let rk = r[k];
            let bit = 1u64 << k;
            for row in r.iter_mut() {
                if *row & bit != 0 {
                    *row |= rk;
                }
            }
        }
        Rel(r)
    }
    /// Whether some `a → a` (for a closed relation: whether there is a cycle).
    pub fn reflexive_somewhere(&self) -> bool {
        self.0.iter().enumerate().any(|(a, row)| row >> a & 1 == 1)
    }
    /// Whether the relation has no cycle.
    pub fn acyclic(&self) -> bool {
        !self.closure().reflexive_somewhere()
    }
    /// The union of the rows of the events in `set`.
    pub fn post(&self, set: u64) -> u64 {
        let mut acc = 0;
        let mut s = set;
        while s != 0 {
            let i = s.trailing_zeros() as usize;
            acc |= self.0[i];
            s &= s - 1;
        }
        acc
    }
    /// The pairs, in order.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for (a, row) in self.0.iter().enumerate() {
            let mut s = *row;
            while s != 0 {
                let b = s.trailing_zeros() as usize;
                v.push((a, b));
                s &= s - 1;
            }
        }
        v
    }
}

/// Iterates over the set bits of a mask.
pub fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(i)
        }
    })
}
