//! Deterministic finite automata over classes of values, and their unrolling
//! into a layered graph: the one representation behind both forms of
//! `regular` (MiniZinc's transition table, `lower/globals/regular.rs`, and a
//! regular expression compiled by `model/regex.rs`).
//!
//! The automaton reads classes, not values: a transition table over every
//! integer is impossible, so each form says which class a value belongs to
//! (the DFA form: symbol `s` is class `s - 1`; a regular expression: the
//! cells its symbols and ranges cut the integers into). Unrolled over the
//! positions of `x`, the automaton becomes Pesant's layered graph (CP 2004),
//! stored as a decision diagram (`model/mdd.rs`) that `engine/props/mdd.rs`
//! filters to domain consistency.

use super::mdd::{Mdd, TERMINAL};

/// No transition.
pub(crate) const NONE: u32 = u32::MAX;

/// States `0..states()`; `next[state * classes + class]` is the state after
/// reading a value of `class` in `state`, or [`NONE`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dfa {
    pub classes: usize,
    pub start: u32,
    pub next: Vec<u32>,
    pub accepting: Vec<bool>,
}

impl Dfa {
    pub fn states(&self) -> usize {
        self.accepting.len()
    }

    pub(crate) fn step(&self, state: u32, class: u32) -> u32 {
        self.next[state as usize * self.classes + class as usize]
    }

    /// Whether the automaton accepts this sequence of classes.
    pub(crate) fn accepts(&self, classes: impl IntoIterator<Item = u32>) -> bool {
        let mut state = self.start;
        for c in classes {
            state = self.step(state, c);
            if state == NONE {
                return false;
            }
        }
        self.accepting[state as usize]
    }

    /// The layered graph over `layers.len()` positions, as a diagram whose
    /// edge labels index `values` (sorted, distinct). `layers[i]` lists the
    /// values position `i` may take as `(index into values, class)`, sorted
    /// by index. Only the states reachable from the start that still lead
    /// to an accepting state at the end become nodes.
    pub fn unroll(&self, values: Vec<i64>, layers: &[&[(u32, u32)]]) -> Mdd {
        let (n, q) = (layers.len(), self.states());
        // reach[i][state]: reachable from the start after i values.
        let mut reach = vec![vec![false; q]; n + 1];
        reach[0][self.start as usize] = true;
        for (i, layer) in layers.iter().enumerate() {
            for state in 0..q {
                if reach[i][state] {
                    for &(_, class) in *layer {
                        let t = self.step(state as u32, class);
                        if t != NONE {
                            reach[i + 1][t as usize] = true;
                        }
                    }
                }
            }
        }
        // id[i][state]: the node of a state on an accepting path; TERMINAL at layer n.
        let mut id = vec![vec![NONE; q]; n + 1];
        for state in 0..q {
            if reach[n][state] && self.accepting[state] {
                id[n][state] = TERMINAL;
            }
        }
        let mut m = Mdd {
            arity: n,
            values,
            first: vec![0, 0],
            label: Vec::new(),
            target: Vec::new(),
            rows: 0,
        };
        // Paths to the terminal from each node, saturating (for `rows`).
        let mut paths = vec![1u64];
        for i in (0..n).rev() {
            for state in 0..q {
                if !reach[i][state] || (i == 0 && state != self.start as usize) {
                    continue;
                }
                let mut count = 0u64;
                let before = m.label.len();
                for &(code, class) in layers[i] {
                    let t = self.step(state as u32, class);
                    if t != NONE && id[i + 1][t as usize] != NONE {
                        let to = id[i + 1][t as usize];
                        m.label.push(code);
                        m.target.push(to);
                        count = count.saturating_add(paths[to as usize]);
                    }
                }
                if m.label.len() > before {
                    id[i][state] = m.nodes() as u32;
                    m.first.push(m.label.len() as u32);
                    paths.push(count);
                }
            }
        }
        let root = id[0][self.start as usize];
        if n == 0 {
            m.rows = u64::from(root == TERMINAL);
        } else if root != NONE {
            m.rows = paths[root as usize];
        } else {
            // No accepting path: a root without edges.
            m.first.push(m.label.len() as u32);
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words over classes {0, 1} with no two 1s in a row, ending in 0.
    fn no_two_ones() -> Dfa {
        // state 0: last was 0 (or nothing); state 1: last was 1
        Dfa {
            classes: 2,
            start: 0,
            next: vec![0, 1, 0, NONE],
            accepting: vec![true, false],
        }
    }

    /// Every word of `n` values, in increasing order.
    fn words(values: &[i64], n: usize) -> Vec<Vec<i64>> {
        (0..n).fold(vec![vec![]], |acc, _| {
            acc.iter()
                .flat_map(|w| values.iter().map(move |&v| [w.clone(), vec![v]].concat()))
                .collect()
        })
    }

    #[test]
    fn the_layered_graph_holds_the_accepted_words_over_the_layer_values() {
        let dfa = no_two_ones();
        // Values 10 and 11 are class 0, 20 class 1; position 1 cannot be 11.
        let values = vec![10, 11, 20];
        let all: &[(u32, u32)] = &[(0, 0), (1, 0), (2, 1)];
        let no11: &[(u32, u32)] = &[(0, 0), (2, 1)];
        for n in 0..=5 {
            let layers: Vec<&[(u32, u32)]> =
                (0..n).map(|i| if i == 1 { no11 } else { all }).collect();
            let m = dfa.unroll(values.clone(), &layers);
            let mut expected = Vec::new();
            for word in words(&values, n) {
                let class = |v: i64| u32::from(v == 20);
                if (n < 2 || word[1] != 11) && dfa.accepts(word.iter().map(|&v| class(v))) {
                    expected.push(word);
                }
            }
            assert_eq!(m.rows(), expected, "n = {n}");
            assert_eq!(m.rows as usize, expected.len());
        }
    }

    #[test]
    fn no_accepting_path_is_an_empty_diagram() {
        let mut dfa = no_two_ones();
        dfa.accepting = vec![false, false];
        let all: &[(u32, u32)] = &[(0, 0), (1, 1)];
        let m = dfa.unroll(vec![1, 2], &[all, all, all]);
        assert!(m.rows().is_empty());
        assert_eq!(m.rows, 0);
    }
}
