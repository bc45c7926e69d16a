//! Dictionaries: word lists read from a file, and the lists of one length
//! that word variables take their values from.
//!
//! Format: one word per line, LF or CRLF, blank lines ignored; `word;score`
//! gives it an integer score (the format of Spread the Wordlist, XWI and
//! Crossfire). Entries are normalised as those tools do: letters are read
//! case-insensitively (stored lowercase), spaces and punctuation inside an
//! entry are dropped (`A LOT;50` is `alot`). A digit, an entry with no
//! letter or a bad score is an error that points at its line.

use super::{Error, GoOn, STOPPED, pace};
use crate::model::WordList;
use crate::source::{Source, Span};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A loaded dictionary: its words, sorted and distinct, with optional scores.
#[derive(Debug)]
pub(crate) struct Dictionary {
    pub name: String,
    pub words: Vec<String>,
    pub scores: Vec<i64>,
    /// Words of each length, as word lists shared by every variable of that length.
    pub by_length: RefCell<BTreeMap<usize, Arc<WordList>>>,
    /// The positions in `words` of the words of each length, found in one
    /// pass at the first lookup (a grid asks for a dozen lengths; counting
    /// every word's letters for each was 14% of loading a 15×15 grid).
    pub positions: RefCell<Option<BTreeMap<usize, Vec<u32>>>>,
}

impl Dictionary {
    /// Leaves out `never` (normalised words, sorted as parsing sorts them):
    /// an exclusion list, the words a constructor never wants in a grid.
    pub(crate) fn exclude(&mut self, never: &[String]) {
        let keep: Vec<bool> = self
            .words
            .iter()
            .map(|w| never.binary_search(w).is_err())
            .collect();
        let mut k = keep.iter();
        self.words.retain(|_| *k.next().unwrap_or(&true));
        if !self.scores.is_empty() {
            let mut k = keep.iter();
            self.scores.retain(|_| *k.next().unwrap_or(&true));
        }
        self.by_length.borrow_mut().clear();
        self.positions.borrow_mut().take();
    }

    /// The words of `len` letters, as one shared list (built once per length).
    pub(crate) fn words_of_length(&self, len: usize) -> Arc<WordList> {
        if let Some(list) = self.by_length.borrow().get(&len) {
            return list.clone();
        }
        let mut positions = self.positions.borrow_mut();
        let at = positions
            .get_or_insert_with(|| {
                let mut at: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
                for (i, w) in self.words.iter().enumerate() {
                    at.entry(letter_count(w)).or_default().push(i as u32);
                }
                at
            })
            .get(&len)
            .map_or(&[][..], Vec::as_slice);
        let words: Vec<String> = at.iter().map(|&i| self.words[i as usize].clone()).collect();
        let scores: Vec<i64> = if self.scores.is_empty() {
            Vec::new()
        } else {
            at.iter().map(|&i| self.scores[i as usize]).collect()
        };
        let list = Arc::new(WordList {
            name: format!("{} (length {len})", self.name),
            words,
            scores,
        });
        self.by_length.borrow_mut().insert(len, list.clone());
        list
    }
}

/// Lists laid one over another, as constructors lay their own list over a
/// published one: a word takes its score from the last list that has it (so
/// a lower score there demotes it), and then the words scoring below
/// `min_score` are left out. The lists laid over the first must keep every
/// word (a low score there demotes one); the first needs below the minimum
/// only the words the others name, which they may raise (`parse_keeping`).
/// Words of a list without scores score 0, like a lone list's.
pub(crate) fn layered(lists: Vec<Dictionary>, min_score: Option<i64>) -> Dictionary {
    let name = lists
        .iter()
        .map(|d| d.name.as_str())
        .collect::<Vec<_>>()
        .join(" + ");
    let any_score = lists.iter().any(|d| !d.scores.is_empty());
    let mut merged: Vec<(String, i64)> = Vec::new();
    for list in lists {
        let scored = !list.scores.is_empty();
        let over = list
            .words
            .into_iter()
            .enumerate()
            .map(|(i, w)| (w, if scored { list.scores[i] } else { 0 }));
        merged = merge_over(merged, over.collect());
    }
    merged.retain(|(_, s)| min_score.is_none_or(|m| *s >= m));
    let (words, scores): (Vec<String>, Vec<i64>) = merged.into_iter().unzip();
    Dictionary {
        name,
        words,
        scores: if any_score { scores } else { Vec::new() },
        by_length: RefCell::new(BTreeMap::new()),
        positions: RefCell::new(None),
    }
}

/// The union of two lists sorted by word, `over`'s score winning a tie.
fn merge_over(under: Vec<(String, i64)>, over: Vec<(String, i64)>) -> Vec<(String, i64)> {
    let mut out = Vec::with_capacity(under.len() + over.len());
    let mut under = under.into_iter().peekable();
    for (word, score) in over {
        while let Some(u) = under.next_if(|(u, _)| *u < word) {
            out.push(u);
        }
        under.next_if(|(u, _)| *u == word);
        out.push((word, score));
    }
    out.extend(under);
    out
}

/// A letter as words store it: its lowercase form, which must be one letter
/// (`None` otherwise, as for `İ`, whose lowercase is `i` and a combining
/// dot). Dictionaries, given letters of grids and comparisons such as
/// `w[1] == "A"` all fold letters with this one function, so a word keeps its
/// length and its letters match wherever they are written.
pub(crate) fn fold_letter(c: char) -> Option<char> {
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(l), None) => Some(l),
        _ => None,
    }
}

/// Why a letter without a one-letter lowercase form is refused, to follow
/// "has": "has `İ`, whose lowercase form `i̇` is 2 letters, ...".
pub(crate) fn unfoldable(c: char) -> String {
    let lower: String = c.to_lowercase().collect();
    format!(
        "`{c}`, whose lowercase form `{lower}` is {} letters, so words with it cannot be matched letter by letter",
        lower.chars().count()
    )
}

/// A word's length in letters.
pub(crate) fn letter_count(w: &str) -> usize {
    if w.is_ascii() {
        w.len()
    } else {
        w.chars().count()
    }
}

/// Parses a dictionary file. `min_score` drops words scored below it (a word
/// without a score counts as 0).
/// `go_on` is asked every [`CHECK_EVERY`](super::CHECK_EVERY) lines, before
/// and after sorting, and every as many words copied.
pub(crate) fn parse_dictionary(
    src: &Source,
    min_score: Option<i64>,
    go_on: GoOn,
) -> Result<Dictionary, Error> {
    parse_keeping(src, min_score, None, go_on)
}

/// [`parse_dictionary`], keeping also the words below `min_score` that are
/// in `named` (sorted, normalised): the words a later list scores anew.
pub(crate) fn parse_keeping(
    src: &Source,
    min_score: Option<i64>,
    named: Option<&[String]>,
    go_on: GoOn,
) -> Result<Dictionary, Error> {
    let text: &str = &src.text;
    // Words borrow the file's text unless lowercasing changes them.
    let mut entries: Vec<(Cow<str>, i64)> = Vec::with_capacity(text.len() / 8);
    let mut any_score = false;
    let mut start = 0usize;
    for (n, raw) in text.split('\n').enumerate() {
        let line_start = start;
        start += raw.len() + 1;
        pace(go_on, n, line_start)?;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let (word_part, score_part) = match line.split_once(';') {
            Some((w, s)) => (w, Some(s)),
            None => (line, None),
        };
        let word = word_part.trim();
        if word.is_empty() && score_part.is_none() {
            continue;
        }
        let bad = |what: String, at: usize, len: usize| {
            Error::new(
                "cspi::data::dictionary",
                format!("line {} of `{}` {what}", n + 1, src.name),
            )
            .label(Span::new(at, at + len.max(1)), "here")
            .help("a dictionary has one word (letters only) per line, optionally `word;score` with an integer score")
        };
        let word_at = line_start + (word_part.len() - word_part.trim_start().len());
        if word.is_empty() {
            return Err(bad(
                "has a score but no word".into(),
                line_start,
                line.len(),
            ));
        }
        let ascii_letters = word.bytes().all(|b| b.is_ascii_alphabetic());
        // Spaces and punctuation inside an entry are dropped, as constructors'
        // tools do (`a lot` and `o'neill` fill `alot` and `oneill`); a digit
        // is refused: no grid cell holds one.
        if let Some((i, c)) = (!ascii_letters)
            .then(|| word.char_indices().find(|(_, c)| c.is_numeric()))
            .flatten()
        {
            return Err(bad(
                format!(
                    "is not a word: `{}` contains a digit",
                    crate::reader::shorten(word, 40)
                ),
                word_at + i,
                c.len_utf8(),
            ));
        }
        if !ascii_letters && !word.chars().any(char::is_alphabetic) {
            return Err(bad(
                format!(
                    "is not a word: `{}` has no letter",
                    crate::reader::shorten(word, 40)
                ),
                word_at,
                word.len(),
            ));
        }
        let score = match score_part {
            None => 0,
            Some(s) => {
                any_score = true;
                let at = line_start + word_part.len() + 1;
                s.trim().parse::<i64>().map_err(|e| {
                    use std::num::IntErrorKind::{NegOverflow, PosOverflow};
                    let why = if matches!(e.kind(), PosOverflow | NegOverflow) {
                        "a score that does not fit in 64 bits"
                    } else {
                        "a score that is not an integer"
                    };
                    let score = crate::reader::shorten(s.trim(), 40);
                    bad(format!("has {why}: `{score}`"), at, s.len())
                })?
            }
        };
        let below = min_score.is_some_and(|m| score < m);
        if below && named.is_none() {
            continue;
        }
        let word = if ascii_letters {
            if word.bytes().any(|b| b.is_ascii_uppercase()) {
                Cow::Owned(word.to_ascii_lowercase())
            } else {
                Cow::Borrowed(word)
            }
        } else {
            let mut folded = String::with_capacity(word.len());
            for (i, c) in word.char_indices().filter(|(_, c)| c.is_alphabetic()) {
                match fold_letter(c) {
                    Some(l) => folded.push(l),
                    None => {
                        return Err(bad(format!("has {}", unfoldable(c)), word_at + i, c.len_utf8()).help(
                            "replace the letter in the dictionary (for example `İ` by `I`), or remove the word",
                        ));
                    }
                }
            }
            Cow::Owned(folded)
        };
        if below && named.is_none_or(|n| n.binary_search_by(|x| x.as_str().cmp(&word)).is_err()) {
            continue;
        }
        entries.push((word, score));
    }
    // An earlier list of several may keep no word: the others may have some.
    if entries.is_empty() && named.is_none() {
        let d = Error::new(
            "cspi::data::dictionary",
            format!("the dictionary `{}` holds no words", src.name),
        );
        return Err(if min_score.is_some() && !text.trim().is_empty() {
            d.help("no word reaches the minimum score")
        } else {
            d.help("a dictionary has one word per line")
        });
    }
    // Sorting and copying a list of millions take as long as reading it:
    // the limits are asked before the sort, after it and while copying.
    let end = Span::new(text.len(), text.len());
    if !go_on(end) {
        return Err(Error::new("cspi::stopped", STOPPED));
    }
    // Sorted by word, best score first, so dedup keeps a word's best score.
    // The sort compares an 8-byte prefix first (words hold no NUL, so zero
    // padding keeps byte order) and the whole words only on a tie.
    let prefix = |w: &str| {
        let mut b = [0u8; 8];
        let n = w.len().min(8);
        b[..n].copy_from_slice(&w.as_bytes()[..n]);
        u64::from_be_bytes(b)
    };
    let mut order: Vec<(u64, u32)> = entries
        .iter()
        .enumerate()
        .map(|(i, (w, _))| (prefix(w), i as u32))
        .collect();
    order.sort_unstable_by(|a, b| {
        a.0.cmp(&b.0).then_with(|| {
            let (x, y) = (&entries[a.1 as usize], &entries[b.1 as usize]);
            x.0.cmp(&y.0).then(y.1.cmp(&x.1))
        })
    });
    order.dedup_by(|a, b| entries[a.1 as usize].0 == entries[b.1 as usize].0);
    if !go_on(end) {
        return Err(Error::new("cspi::stopped", STOPPED));
    }
    let mut words = Vec::with_capacity(order.len());
    let mut scores = Vec::with_capacity(order.len());
    for (n, &(_, i)) in order.iter().enumerate() {
        pace(go_on, n, end.start)?;
        let (w, s) = &entries[i as usize];
        words.push(w.to_string());
        scores.push(*s);
    }
    Ok(Dictionary {
        name: src.name.clone(),
        words,
        scores: if any_score { scores } else { Vec::new() },
        by_length: RefCell::new(BTreeMap::new()),
        positions: RefCell::new(None),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Dictionary, Error> {
        parse_dictionary(&Source::new("d.txt", text), None, &mut |_| true)
    }

    /// The caller is asked again after the sort and while the words are
    /// copied, not only while the lines are read: sorting and copying a
    /// list of millions took a second past `--time-limit`.
    #[test]
    fn the_caller_may_stop_after_the_sort_and_while_copying() {
        let word = |i: u32| -> String {
            (0..4)
                .map(|k| (b'a' + (i / 26u32.pow(k) % 26) as u8) as char)
                .collect()
        };
        let text: String = (0..5000u32)
            .map(|i| format!("{};{}\n", word(i), i % 60))
            .collect();
        let src = Source::new("d.txt", text.as_str());
        let end = Span::new(text.len(), text.len());
        for stop_at in [2, 3] {
            let mut asked_at_end = 0;
            let mut go_on = |at: Span| {
                if at == end {
                    asked_at_end += 1;
                }
                asked_at_end < stop_at
            };
            let r = parse_dictionary(&src, None, &mut go_on);
            assert!(
                r.is_err_and(|e| e.code == "cspi::stopped"),
                "not stopped at the question {stop_at} after the lines"
            );
        }
        let mut asked_at_end = 0;
        let mut count = |at: Span| {
            asked_at_end += usize::from(at == end);
            true
        };
        assert_eq!(
            parse_dictionary(&src, None, &mut count)
                .unwrap()
                .words
                .len(),
            5000
        );
        assert_eq!(
            asked_at_end, 3,
            "before the sort, after it, once while copying"
        );
    }

    #[test]
    fn lf_crlf_blank_lines_and_case() {
        let d = parse("Cat\r\n\r\ndog\n  \nCAT\nzebra").unwrap();
        assert_eq!(d.words, vec!["cat", "dog", "zebra"]);
        assert!(d.scores.is_empty());
    }

    #[test]
    fn scores_keep_the_best_and_filter() {
        let d = parse("cat;3\ndog;10\ncat;7\n").unwrap();
        assert_eq!(d.words, vec!["cat", "dog"]);
        assert_eq!(d.scores, vec![7, 10]);
        let d = parse_dictionary(
            &Source::new("d", "cat;3\ndog;10\nemu\n"),
            Some(5),
            &mut |_| true,
        )
        .unwrap();
        assert_eq!(d.words, vec!["dog"]);
    }

    #[test]
    fn a_digit_is_reported_with_its_line() {
        let e = parse("cat\nd0g\n").err().unwrap();
        assert!(e.message.contains("line 2"), "{}", e.message);
        assert!(e.message.contains("a digit"), "{}", e.message);
        assert_eq!(e.labels[0].0, Span::new(5, 6));
    }

    #[test]
    fn empty_and_bad_scores() {
        assert!(parse("").err().unwrap().message.contains("no words"));
        assert!(parse("\n\r\n").err().unwrap().message.contains("no words"));
        let e = parse("cat;x\n").err().unwrap();
        assert!(e.message.contains("score"), "{}", e.message);
    }

    #[test]
    fn constructors_formats_are_normalised() {
        // Spread the Wordlist (lowercase), XWI and Crossfire (uppercase),
        // entries with spaces and punctuation, a repeated entry after
        // normalisation keeping its best score.
        let d = parse("a lot;50\nO'NEILL;40\nSPREAD-EAGLE;30\nalot;45\nÉTÉ;20\n").unwrap();
        assert_eq!(d.words, vec!["alot", "oneill", "spreadeagle", "été"]);
        assert_eq!(d.scores, vec![50, 40, 30, 20]);
        let e = parse("r2d2;50\n").err().unwrap();
        assert!(e.message.contains("a digit"), "{}", e.message);
        assert_eq!(e.labels[0].0, Span::new(1, 2));
        let e = parse("ok;5\n--;50\n").err().unwrap();
        assert!(
            e.message.contains("line 2") && e.message.contains("no letter"),
            "{}",
            e.message
        );
        let e = parse("cat; 5x\n").err().unwrap();
        assert!(e.message.contains("not an integer"), "{}", e.message);
        let e = parse("cat;99999999999999999999\n").err().unwrap();
        assert!(
            e.message.contains("does not fit in 64 bits"),
            "{}",
            e.message
        );
        let e = parse("cat;-99999999999999999999\n").err().unwrap();
        assert!(
            e.message.contains("does not fit in 64 bits"),
            "{}",
            e.message
        );
    }

    #[test]
    fn minimum_score_keeps_the_best_duplicate() {
        // `cat` scored 3 and 7: kept at 7 when the minimum is 5.
        let d = parse_dictionary(
            &Source::new("d", "cat;3\nCAT;7\nemu;4\n"),
            Some(5),
            &mut |_| true,
        )
        .unwrap();
        assert_eq!(
            (d.words.clone(), d.scores.clone()),
            (vec!["cat".to_string()], vec![7])
        );
    }

    #[test]
    fn an_exclusion_list_leaves_words_out() {
        let mut d = parse("cat;3\ndog;10\nemu;4\nA LOT;5\n").unwrap();
        let never = parse("DOG\na-lot\nzebra\n").unwrap();
        d.exclude(&never.words);
        assert_eq!(d.words, vec!["cat", "emu"]);
        assert_eq!(d.scores, vec![3, 4]);
    }

    #[test]
    fn a_later_list_overrides_an_earlier_ones_scores() {
        let base = parse("cat;50\ndog;60\nemu;30\nOWL;40\n").unwrap();
        // Demotes `dog`, raises `emu` above the minimum, adds `yak`; a
        // list's own repeated word keeps its best score (`cat`).
        let mine = parse("DOG;10\nemu;55\nyak;70\ncat;20\ncat;52\n").unwrap();
        let d = layered(vec![base, mine], Some(45));
        assert_eq!(d.name, "d.txt + d.txt");
        assert_eq!(d.words, vec!["cat", "emu", "yak"]);
        assert_eq!(d.scores, vec![52, 55, 70]);
        // Without a minimum every word stays; a list without scores scores 0.
        let d = layered(
            vec![
                parse("cat;50\nowl;40\n").unwrap(),
                parse("owl\nbee\n").unwrap(),
            ],
            None,
        );
        assert_eq!(d.words, vec!["bee", "cat", "owl"]);
        assert_eq!(d.scores, vec![0, 50, 0]);
        // An earlier list parsed at the minimum keeps the words a later
        // one names; it may keep none.
        let src = Source::new("d", "cat;5\nDOG;60\nemu;10\n");
        let named = ["emu".to_string(), "owl".to_string()];
        let d = parse_keeping(&src, Some(50), Some(&named), &mut |_| true).unwrap();
        assert_eq!(
            (d.words, d.scores),
            (vec!["dog".to_string(), "emu".into()], vec![60, 10])
        );
        let d = parse_keeping(&src, Some(90), Some(&named[1..]), &mut |_| true).unwrap();
        assert!(d.words.is_empty());
        // Lists without scores stay without.
        let d = layered(
            vec![parse("b\na\n").unwrap(), parse("c\na\n").unwrap()],
            None,
        );
        assert_eq!(
            (d.words, d.scores.len()),
            (vec!["a".to_string(), "b".into(), "c".into()], 0)
        );
    }

    #[test]
    fn words_by_length_are_shared() {
        let d = parse("ab\ncd\nefg\n").unwrap();
        let a = d.words_of_length(2);
        assert_eq!(a.words, vec!["ab", "cd"]);
        assert!(Arc::ptr_eq(&a, &d.words_of_length(2)));
        assert!(d.words_of_length(5).words.is_empty());
    }
}
