//! Dense bit sets and relations over events `0..n` (any `n`).

/// A set of events as bits.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    /// The empty set able to hold `0..n`.
    pub fn new(n: usize) -> Self {
        BitSet {
            words: vec![0; n.div_ceil(64)],
        }
    }
    fn grow(&mut self, i: usize) {
        let w = i / 64 + 1;
        if self.words.len() < w {
            self.words.resize(w, 0);
        }
    }
    /// Adds `i`.
    pub fn insert(&mut self, i: usize) {
        self.grow(i);
        self.words[i / 64] |= 1 << (i % 64);
    }
    /// Removes `i`.
    pub fn remove(&mut self, i: usize) {
        if i / 64 < self.words.len() {
            self.words[i / 64] &= !(1 << (i % 64));
        }
    }
    /// Whether `i` is in the set.
    #[inline]
    pub fn has(&self, i: usize) -> bool {
        self.words
            .get(i / 64)
            .is_some_and(|w| w >> (i % 64) & 1 == 1)
    }
    /// `self ∪= o`; whether it grew.
    pub fn union_with(&mut self, o: &BitSet) -> bool {
        if self.words.len() < o.words.len() {
            self.words.resize(o.words.len(), 0);
        }
        let mut grew = false;
        for (a, b) in self.words.iter_mut().zip(&o.words) {
            let n = *a | b;
            grew |= n != *a;
            *a = n;
        }
        grew
    }
    /// `self ∩= o`.
    pub fn intersect_with(&mut self, o: &BitSet) {
        for (i, a) in self.words.iter_mut().enumerate() {
            *a &= o.words.get(i).copied().unwrap_or(0);
        }
    }
    /// `self \= o`.
    pub fn subtract(&mut self, o: &BitSet) {
        for (a, b) in self.words.iter_mut().zip(&o.words) {
            *a &= !b;
        }
    }
    /// Whether the sets share an element.
    pub fn intersects(&self, o: &BitSet) -> bool {
        self.words.iter().zip(&o.words).any(|(a, b)| a & b != 0)
    }
    /// Whether empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|w| *w == 0)
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
    /// The elements, increasing.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        row_iter(&self.words)
    }
}

/// How many words a relation keeps inline (no allocation): the per-location relations of the
/// coherence checks (a few writes and reads) are built and dropped many times per execution.
const INLINE: usize = 8;

/// A relation's words: inline when few, else on the heap.
#[derive(Clone)]
enum Words {
    Inline(usize, [u64; INLINE]),
    Heap(Vec<u64>),
}

impl Words {
    fn zeroed(len: usize) -> Self {
        if len <= INLINE {
            Words::Inline(len, [0; INLINE])
        } else {
            Words::Heap(vec![0; len])
        }
    }
}

impl Default for Words {
    fn default() -> Self {
        Words::Inline(0, [0; INLINE])
    }
}

impl std::ops::Deref for Words {
    type Target = [u64];
    #[inline]
    fn deref(&self) -> &[u64] {
        match self {
            Words::Inline(len, a) => &a[..*len],
            Words::Heap(v) => v,
        }
    }
}

impl std::ops::DerefMut for Words {
    #[inline]
    fn deref_mut(&mut self) -> &mut [u64] {
        match self {
            Words::Inline(len, a) => &mut a[..*len],
            Words::Heap(v) => v,
        }
    }
}

impl PartialEq for Words {
    fn eq(&self, o: &Self) -> bool {
        **self == **o
    }
}

impl Eq for Words {}

impl std::fmt::Debug for Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

/// A relation on events `0..n`: row `a` holds the `b` with `a → b`, rows stored flat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rel {
    n: usize,
    w: usize,
    data: Words,
}

/// The set bits of a row.
pub fn row_iter(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(wi, &w)| {
        let mut m = w;
        std::iter::from_fn(move || {
            if m == 0 {
                return None;
            }
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(wi * 64 + b)
        })
    })
}

impl Rel {
    /// The empty relation on `n` events.
    pub fn new(n: usize) -> Self {
        let w = n.div_ceil(64).max(1);
        Rel {
            n,
            w,
            data: Words::zeroed(n * w),
        }
    }
    /// Number of events.
    pub fn n(&self) -> usize {
        self.n
    }
    /// Adds `a → b`.
    #[inline]
    pub fn add(&mut self, a: usize, b: usize) {
        self.data[a * self.w + b / 64] |= 1 << (b % 64);
    }
    /// Whether `a → b`.
    #[inline]
    pub fn has(&self, a: usize, b: usize) -> bool {
        self.data[a * self.w + b / 64] >> (b % 64) & 1 == 1
    }
    /// The successors of `a`, as words.
    #[inline]
    pub fn row(&self, a: usize) -> &[u64] {
        &self.data[a * self.w..(a + 1) * self.w]
    }
    /// The successors of `a`, as words to change.
    #[inline]
    pub fn row_mut(&mut self, a: usize) -> &mut [u64] {
        let w = self.w;
        &mut self.data[a * w..(a + 1) * w]
    }
    /// The successors of `a`.
    pub fn succ(&self, a: usize) -> impl Iterator<Item = usize> + '_ {
        row_iter(self.row(a))
    }
    /// Whether `a` has no successor.
    pub fn row_empty(&self, a: usize) -> bool {
        self.row(a).iter().all(|w| *w == 0)
    }
    /// Removes every `a → _`.
    pub fn clear_row(&mut self, a: usize) {
        let w = self.w;
        self.data[a * w..(a + 1) * w].fill(0);
    }
    /// Row `a` ∪= row `b` of `other` (same size); whether it grew.
    pub fn union_row_from(&mut self, a: usize, other: &Rel, b: usize) -> bool {
        let w = self.w;
        let mut grew = false;
        for k in 0..w {
            let o = other.data[b * w + k];
            let x = &mut self.data[a * w + k];
            let n = *x | o;
            grew |= n != *x;
            *x = n;
        }
        grew
    }
    /// Adds `a → b` to a closed relation and keeps it closed: everything that reaches `a`
    /// (and `a`) now reaches `b` and what `b` reaches. (A cycle shows as `a → a`.)
    pub fn add_closed(&mut self, a: usize, b: usize) {
        let w = self.w;
        if w == 1 {
            let d: &mut [u64] = &mut self.data;
            let rb = d[b] | 1 << b;
            let ba = 1u64 << a;
            d[a] |= rb;
            for x in d.iter_mut() {
                if *x & ba != 0 {
                    *x |= rb;
                }
            }
            return;
        }
        // Rows that reach `a` get row `b` and `b`; row `b` itself is read before it may change
        // (when `b` reaches `a`, its row gets itself: the same bits).
        let (aw, ab) = (a / 64, 1u64 << (a % 64));
        let (bw, bb) = (b / 64, 1u64 << (b % 64));
        for x in 0..self.n {
            if x == a || self.data[x * w + aw] & ab != 0 {
                for k in 0..w {
                    let r = self.data[b * w + k] | if k == bw { bb } else { 0 };
                    self.data[x * w + k] |= r;
                }
            }
        }
    }
    /// This relation on `n ≥ self.n()` events (the new events unrelated).
    pub fn grown(&self, n: usize) -> Rel {
        assert!(n >= self.n);
        if n == self.n {
            return self.clone();
        }
        let mut r = Rel::new(n);
        for a in 0..self.n {
            r.data[a * r.w..a * r.w + self.w].copy_from_slice(self.row(a));
        }
        r
    }
    /// Row `a` ∪= row `b` (same relation).
    fn union_rows(&mut self, a: usize, b: usize) {
        let w = self.w;
        for k in 0..w {
            let o = self.data[b * w + k];
            self.data[a * w + k] |= o;
        }
    }
    /// Transitive closure in place: for an acyclic relation, rows accumulated in reverse
    /// topological order; with a cycle, Warshall on bit rows (so cycles show as `a → a`).
    pub fn close(&mut self) {
        let (n, w) = (self.n, self.w);
        if w == 1 {
            // One word per row: each row explores what it reaches, highest event first, so a
            // reached event above it has its row closed already (all it reaches, at once).
            // Events mostly point to later ones: a row costs about its direct successors.
            let d: &mut [u64] = &mut self.data;
            for a in (0..n).rev() {
                let mut r = d[a];
                let mut seen = 0u64;
                loop {
                    let m = r & !seen;
                    if m == 0 {
                        break;
                    }
                    let b = m.trailing_zeros() as usize;
                    let rb = d[b];
                    r |= rb;
                    seen |= 1 << b;
                    if b > a {
                        seen |= rb;
                    }
                }
                d[a] = r;
            }
            return;
        }
        let mut indeg = vec![0u32; n];
        for a in 0..n {
            for wi in 0..w {
                let mut m = self.data[a * w + wi];
                while m != 0 {
                    indeg[wi * 64 + m.trailing_zeros() as usize] += 1;
                    m &= m - 1;
                }
            }
        }
        let mut order: Vec<usize> = Vec::with_capacity(n);
        order.extend((0..n).filter(|&a| indeg[a] == 0));
        let mut i = 0;
        while i < order.len() {
            let a = order[i];
            i += 1;
            for wi in 0..w {
                let mut m = self.data[a * w + wi];
                while m != 0 {
                    let b = wi * 64 + m.trailing_zeros() as usize;
                    m &= m - 1;
                    indeg[b] -= 1;
                    if indeg[b] == 0 {
                        order.push(b);
                    }
                }
            }
        }
        if order.len() == n {
            // In reverse topological order every successor's row is already closed. a's
            // closure is the union of its direct successors' rows; taken in topological order,
            // a successor already reached through an earlier one adds nothing and is skipped
            // (program order is stored transitively: only the next event is unioned).
            let mut pos = vec![0usize; n];
            for (i, &a) in order.iter().enumerate() {
                pos[a] = i;
            }
            let mut succ: Vec<usize> = Vec::new();
            let mut covered = vec![0u64; w];
            for &a in order.iter().rev() {
                succ.clear();
                for wi in 0..w {
                    let mut m = self.data[a * w + wi];
                    while m != 0 {
                        succ.push(wi * 64 + m.trailing_zeros() as usize);
                        m &= m - 1;
                    }
                }
                if succ.len() < 2 {
                    if let Some(&b) = succ.first() {
                        self.union_rows(a, b);
                    }
                    continue;
                }
                succ.sort_unstable_by_key(|&b| pos[b]);
                covered.iter_mut().for_each(|c| *c = 0);
                for &b in &succ {
                    if covered[b / 64] >> (b % 64) & 1 == 1 {
                        continue;
                    }
                    covered[b / 64] |= 1 << (b % 64);
                    for (k, c) in covered.iter_mut().enumerate() {
                        *c |= self.data[b * w + k];
                    }
                }
                for (k, c) in covered.iter().enumerate() {
                    self.data[a * w + k] |= c;
                }
            }
            return;
        }
        self.warshall();
    }

    fn warshall(&mut self) {
        for k in 0..self.n {
            if self.row_empty(k) {
                continue;
            }
            for i in 0..self.n {
                if i != k && self.has(i, k) {
                    self.union_rows(i, k);
                }
            }
        }
    }
    /// Whether some `a → a` (after `close`: whether there is a cycle).
    pub fn reflexive_somewhere(&self) -> bool {
        if self.w == 1 {
            // Without a branch per row (asked of every relation a check builds).
            let d: &[u64] = &self.data;
            return d[..self.n]
                .iter()
                .enumerate()
                .fold(0, |acc, (a, &r)| acc | r >> a)
                & 1
                == 1;
        }
        (0..self.n).any(|a| self.has(a, a))
    }
    /// Whether the relation is acyclic (computed on a copy).
    pub fn acyclic(&self) -> bool {
        let mut c = self.clone();
        c.close();
        !c.reflexive_somewhere()
    }
    /// The pairs.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for a in 0..self.n {
            for b in self.succ(a) {
                v.push((a, b));
            }
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loop_is_found_on_every_row_of_a_one_word_relation_and_nothing_else_counts() {
        for n in [1, 2, 37, 64] {
            // Every off-diagonal pair: no loop.
            let mut full = Rel::new(n);
            for a in 0..n {
                for b in 0..n {
                    if a != b {
                        full.add(a, b);
                    }
                }
            }
            assert!(!full.reflexive_somewhere(), "{n} events");
            // One loop, on each row in turn.
            for a in 0..n {
                let mut r = full.clone();
                r.add(a, a);
                assert!(r.reflexive_somewhere(), "{n} events, loop at {a}");
            }
        }
    }

    #[test]
    fn sets_and_closure_beyond_64_events() {
        let mut s = BitSet::new(10);
        s.insert(3);
        s.insert(130);
        assert!(s.has(130) && s.has(3) && !s.has(64));
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![3, 130]);
        assert_eq!(s.len(), 2);
        let mut r = Rel::new(100);
        for i in 0..99 {
            r.add(i, i + 1);
        }
        assert!(r.acyclic());
        r.close();
        assert!(r.has(0, 99) && !r.has(99, 0));
        r.add(99, 0);
        r.close();
        assert!(r.reflexive_somewhere());
        // One word per row, edges in both directions and a cycle.
        let mut s = Rel::new(6);
        for (a, b) in [(0, 3), (3, 1), (1, 4), (5, 2)] {
            s.add(a, b);
        }
        s.close();
        assert!(s.has(0, 1) && s.has(0, 4) && s.has(3, 4) && !s.has(4, 0) && !s.has(0, 2));
        assert!(!s.reflexive_somewhere());
        s.add(4, 0);
        s.close();
        assert!(s.has(1, 1) && s.has(4, 3) && s.has(0, 0) && !s.has(5, 5));
        // Adding to a closed relation keeps it closed: 0→1, 2→3, then 1→2 gives 0→3.
        let mut c = Rel::new(70);
        c.add(0, 1);
        c.add(2, 3);
        c.add(68, 69);
        c.close();
        c.add_closed(1, 2);
        assert!(c.has(0, 3) && c.has(1, 3) && c.has(0, 2) && !c.has(3, 0));
        c.add_closed(3, 68);
        assert!(c.has(0, 69) && !c.reflexive_somewhere());
        c.add_closed(69, 0);
        assert!(c.has(0, 0) && c.reflexive_somewhere());
    }
}
