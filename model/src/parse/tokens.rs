//! The one tokenizer of the propositions the model reads — a litmus test's final condition
//! ([`LITMUS_CONDITION`]) and a kernel check's assertion ([`KERNEL_ASSERTION`], `crate::kernel`):
//! the operators `==` `!=` `<=` `>=` `/\` `\/`, one-character punctuation and words; what differs
//! between the two is a [`Lexicon`].

/// What one kind of proposition spells as a token beyond the shared operators.
pub(crate) struct Lexicon {
    /// One-character tokens.
    pub(crate) punct: &'static str,
    /// Characters besides ASCII letters, digits and `_` that may start a word.
    pub(crate) word_start: &'static str,
    /// Characters besides ASCII letters, digits and `_` that may continue a word.
    pub(crate) word_more: &'static str,
    /// Format part 2 location terms: a word may end in `@N` and `+N…` (`x@1`, `x+4`, `x@1+4`),
    /// and `[…]` is one token.
    pub(crate) locations: bool,
}

/// A litmus test's final condition (`model/FORMAT.md`): `P0:r1`, `%r1`, `x@1+4`, `[x]`.
pub(crate) const LITMUS_CONDITION: Lexicon = Lexicon {
    punct: "()~=<>",
    word_start: "-%",
    word_more: ":%",
    locations: true,
};

/// A kernel check's assertion (`docs/kernel-check.md`): `p0[3] == 1`, brackets as tokens.
pub(crate) const KERNEL_ASSERTION: Lexicon = Lexicon {
    punct: "()<>~=[]",
    word_start: "-",
    word_more: "",
    locations: false,
};

/// `s` cut into tokens; `Err(c)`: the first character `c` the lexicon does not spell.
pub(crate) fn tokenize(s: &str, lx: &Lexicon) -> Result<Vec<String>, char> {
    let mut toks = Vec::new();
    let c: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
            continue;
        }
        let two: String = c[i..(i + 2).min(c.len())].iter().collect();
        if ["/\\", "\\/", "==", "!=", "<=", ">="].contains(&two.as_str()) {
            toks.push(two);
            i += 2;
            continue;
        }
        if lx.punct.contains(ch) {
            toks.push(ch.to_string());
            i += 1;
            continue;
        }
        if ch.is_ascii_alphanumeric() || ch == '_' || lx.word_start.contains(ch) {
            let st = i;
            i += 1;
            while i < c.len()
                && (c[i].is_ascii_alphanumeric() || c[i] == '_' || lx.word_more.contains(c[i]))
            {
                i += 1;
            }
            if lx.locations {
                let digit_at = |k: usize| k < c.len() && c[k].is_ascii_digit();
                if i < c.len() && c[i] == '@' && digit_at(i + 1) {
                    i += 1;
                    while digit_at(i) {
                        i += 1;
                    }
                }
                if i < c.len() && c[i] == '+' && digit_at(i + 1) && !c[st].is_ascii_digit() {
                    i += 1;
                    while i < c.len() && c[i].is_ascii_alphanumeric() {
                        i += 1;
                    }
                }
            }
            toks.push(c[st..i].iter().collect());
            continue;
        }
        if lx.locations && ch == '[' {
            let st = i;
            while i < c.len() && c[i] != ']' {
                i += 1;
            }
            i += 1;
            toks.push(c[st..i.min(c.len())].iter().collect());
            continue;
        }
        return Err(ch);
    }
    Ok(toks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_lexicon_spells_its_own_terms() {
        // Written from FORMAT.md's and kernel-check.md's grammars.
        assert_eq!(
            tokenize("P0:r1=1 /\\ [x]==2 \\/ x@1+4 != %r2", &LITMUS_CONDITION),
            Ok(
                ["P0:r1", "=", "1", "/\\", "[x]", "==", "2", "\\/", "x@1+4", "!=", "%r2"]
                    .map(String::from)
                    .to_vec()
            )
        );
        assert_eq!(
            tokenize("(p0[3] >= -1)", &KERNEL_ASSERTION),
            Ok(["(", "p0", "[", "3", "]", ">=", "-1", ")"]
                .map(String::from)
                .to_vec())
        );
        assert_eq!(tokenize("x@1", &KERNEL_ASSERTION), Err('@'));
        assert_eq!(tokenize("P0:r1", &KERNEL_ASSERTION), Err(':'));
        assert_eq!(tokenize("a;", &LITMUS_CONDITION), Err(';'));
    }
}
