//! Words cut into symbols (`QU` one symbol, `Q` another): the codes of
//! `tokens`, `word_table` and `trie`.

/// Symbols by first byte, longest first: the longest symbol that starts a
/// text is the first of its list that matches.
pub(crate) struct Symbols<'a>(Vec<Vec<(i64, &'a str)>>);

impl<'a> Symbols<'a> {
    pub(crate) fn new(symbols: &'a [String]) -> Self {
        let mut by_first: Vec<Vec<(i64, &str)>> = vec![Vec::new(); 256];
        for (i, s) in symbols.iter().enumerate() {
            if let Some(&b) = s.as_bytes().first() {
                by_first[b as usize].push((i as i64 + 1, s.as_str()));
            }
        }
        for list in &mut by_first {
            // Longest first; among equals the first listed wins.
            list.sort_by_key(|&(code, s)| (std::cmp::Reverse(s.len()), code));
        }
        Symbols(by_first)
    }

    /// Cuts `text` into codes of the symbols (1-based), longest match first.
    pub(crate) fn cut(&self, text: &str) -> Option<Vec<i64>> {
        let mut out = Vec::new();
        let mut rest = text;
        while let Some(&b) = rest.as_bytes().first() {
            let &(code, sym) = self.0[b as usize]
                .iter()
                .find(|(_, s)| rest.starts_with(s))?;
            out.push(code);
            rest = &rest[sym.len()..];
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_symbol_wins_and_codes_start_at_1() {
        let list: Vec<String> = ["Q", "QU", "A", "U"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let s = Symbols::new(&list);
        assert_eq!(s.cut("QUA"), Some(vec![2, 3]));
        assert_eq!(s.cut("QA"), Some(vec![1, 3]));
        assert_eq!(s.cut(""), Some(vec![]));
        assert_eq!(s.cut("QX"), None);
    }
}
