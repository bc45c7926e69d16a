//! Short nogoods shared between the searches of a portfolio (`parallel.rs`):
//! each search of the whole problem publishes the short clauses it learns
//! (at most [`MAX_SHARED_LEN`] literals, or literal-block distance 2 or
//! less) and, at each restart (each LNS iteration), adds those the others
//! published since it last looked.
//!
//! They hold in every search of the portfolio: each is implied by the
//! constraints and the objective's bound when it was learned (its other
//! level-0 facts follow from those too), and the bound is shared and only
//! tightens, so any solution another search still looks for (better than
//! the best known) satisfies it. LNS fixings are decisions, so nogoods
//! learned under them name them. A search of a sub-problem (a split) learns
//! below the sub-problem's decisions, taken as facts: it shares nothing.

use super::Lit;
use std::sync::Mutex;

/// The longest clause shared, whatever its literal-block distance.
pub(crate) const MAX_SHARED_LEN: usize = 8;
/// Clauses of this literal-block distance or less are shared whatever
/// their length.
pub(crate) const MAX_SHARED_LBD: u32 = 2;
/// The most clauses the exchange holds: later ones are dropped.
const CAPACITY: usize = 200_000;

/// Whether a clause is worth sharing.
pub(crate) fn worth_sharing(len: usize, lbd: u32) -> bool {
    len <= MAX_SHARED_LEN || lbd <= MAX_SHARED_LBD
}

/// The clauses published so far, each with its publisher; append-only.
#[derive(Default)]
pub(crate) struct Exchange {
    log: Mutex<Vec<(usize, Vec<Lit>)>>,
}

/// One search's side of the exchange: who it is, what it has read, what it
/// has yet to publish.
pub(crate) struct Port {
    me: usize,
    read: usize,
    outbox: Vec<Vec<Lit>>,
}

impl Port {
    pub(crate) fn new(me: usize) -> Self {
        Port {
            me,
            read: 0,
            outbox: Vec::new(),
        }
    }

    /// Keeps a clause learned here, for the next [`Self::trade`].
    pub(crate) fn offer(&mut self, clause: &[Lit], lbd: u32) {
        if worth_sharing(clause.len(), lbd) {
            self.outbox.push(clause.to_vec());
        }
    }

    /// Publishes what was offered and returns what the others published
    /// since the last trade.
    pub(crate) fn trade(&mut self, exchange: &Exchange) -> Vec<Vec<Lit>> {
        let mut log = exchange.log.lock().unwrap_or_else(|e| e.into_inner());
        let room = CAPACITY.saturating_sub(log.len());
        let me = self.me;
        let start = self.read;
        let got: Vec<Vec<Lit>> = log[start.min(log.len())..]
            .iter()
            .filter(|(from, _)| *from != me)
            .map(|(_, c)| c.clone())
            .collect();
        log.extend(self.outbox.drain(..).take(room).map(|c| (me, c)));
        self.outbox.clear();
        self.read = log.len();
        got
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_search_reads_the_others_clauses_once() {
        let ex = Exchange::default();
        let (mut a, mut b) = (Port::new(0), Port::new(1));
        let short = [Lit::ge(0, 3), Lit::le(1, 2)];
        let long: Vec<Lit> = (0..12).map(|v| Lit::ge(v, 1)).collect();
        a.offer(&short, 2);
        a.offer(&long, 5);
        a.offer(&long, 2);
        assert!(a.trade(&ex).is_empty());
        let got = b.trade(&ex);
        assert_eq!(got, vec![short.to_vec(), long.clone()], "short, or glue");
        assert!(b.trade(&ex).is_empty(), "read once");
        b.offer(&short, 1);
        assert!(b.trade(&ex).is_empty(), "not its own");
        assert_eq!(a.trade(&ex), vec![short.to_vec()]);
    }
}
