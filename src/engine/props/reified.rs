//! `b <-> C` for any constraint `C` with a propagator, given a propagator
//! for `C` and one for its negation. Once `b` is fixed the matching one runs.
//! While `b` is open, each is tried in a look-ahead (a checkpoint, a run, a
//! restore): if `C`'s propagator fails on the current domains, `C` cannot
//! hold and `b` becomes 0; if the negation's fails, `b` becomes 1. So a
//! reified constraint prunes as soon as either propagator can tell, not
//! only once all its variables are fixed.
//!
//! The inner propagators may not ask for change notifications: they are
//! not registered with the engine, only run by this one.
//!
//! Explanations (learning) are the inner propagators', with `b`'s literal
//! (`reif::explain_reified`); when they have none, the default.

use crate::engine::domains::{Domains, PResult, event};
use crate::engine::learn::{Lit, Past};
use crate::engine::propagator::{Priority, Propagator, Subscriptions};
use crate::model::VarId;

pub(crate) struct Reified {
    /// `b`, the variables of `on_true` (repeats kept), those of `on_false`
    /// that `on_true` lacks.
    vars: Vec<VarId>,
    on_true: Box<dyn Propagator>,
    on_false: Box<dyn Propagator>,
}

impl Reified {
    /// `None` when an inner propagator asks for notifications.
    pub(crate) fn new(
        b: VarId,
        on_true: Box<dyn Propagator>,
        on_false: Box<dyn Propagator>,
    ) -> Option<Self> {
        let mut inner = Subscriptions::default();
        on_true.subscribe(&mut inner);
        on_false.subscribe(&mut inner);
        if !inner.notify.is_empty() {
            return None;
        }
        // A variable repeated within the constraint stays repeated here, so
        // that the engine runs this again on its own changes (`Engine::add_prop`).
        let mut vars = vec![b];
        vars.extend_from_slice(on_true.vars());
        for &v in on_false.vars() {
            if !vars.contains(&v) {
                vars.push(v);
            }
        }
        Some(Reified {
            vars,
            on_true,
            on_false,
        })
    }

    /// Whether `p` fails on the current domains (which are left unchanged).
    fn fails(p: &mut Box<dyn Propagator>, d: &mut Domains) -> bool {
        let cp = d.checkpoint();
        let failed = p.propagate(d).is_err();
        d.restore(cp);
        failed
    }
}

impl Propagator for Reified {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Slow
    }
    fn subscribe(&self, s: &mut Subscriptions) {
        s.wake(self.vars[0], event::FIX);
        let mut inner = Subscriptions::default();
        self.on_true.subscribe(&mut inner);
        self.on_false.subscribe(&mut inner);
        for (v, events) in inner.wake {
            s.wake(v, events);
        }
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        let b = self.vars[0];
        match d.value(b) {
            Some(1) => self.on_true.propagate(d),
            Some(_) => self.on_false.propagate(d),
            None => {
                if Self::fails(&mut self.on_true, d) {
                    d.fix(b, 0)?;
                    return self.on_false.propagate(d);
                }
                if Self::fails(&mut self.on_false, d) {
                    d.fix(b, 1)?;
                    return self.on_true.propagate(d);
                }
                Ok(())
            }
        }
    }
    fn explain(&self, lit: Option<Lit>, past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
        let (t, f) = (&*self.on_true, &*self.on_false);
        super::reif::explain_reified(self.vars[0], t, f, lit, past, out)
    }
    fn violated(&mut self, d: &Domains) -> bool {
        match d.value(self.vars[0]) {
            Some(1) => self.on_true.violated(d),
            Some(_) => self.on_false.violated(d),
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_random};
    use crate::engine::props::table::CompactTable;

    const ROWS: [[i64; 2]; 4] = [[0, 1], [1, 2], [2, 0], [-1, -1]];

    fn reified_table(d: &mut Domains, v: &[VarId]) -> Option<Box<dyn Propagator>> {
        if d.min(v[0]) < 0 || d.max(v[0]) > 1 {
            return None;
        }
        let rows: Vec<Vec<i64>> = ROWS.iter().map(|r| r.to_vec()).collect();
        let t = CompactTable::new(d, vec![v[1], v[2]], &rows, true)?;
        let f = CompactTable::new(d, vec![v[1], v[2]], &rows, false)?;
        Some(Box::new(Reified::new(v[0], Box::new(t), Box::new(f))?))
    }

    #[test]
    fn a_reified_table_against_brute_force() {
        check_random("reified table", Strength::Check, 3, reified_table, |t| {
            (0..=1).contains(&t[0]) && (t[0] == 1) == ROWS.iter().any(|r| r[..] == t[1..])
        });
    }

    #[test]
    fn the_truth_value_follows_the_domains() {
        let mut h = Harness::new();
        let (b, x, y) = (h.range(0, 1), h.range(-3, 4), h.range(-3, 4));
        let p = reified_table(&mut h.engine.doms, &[b, x, y]).unwrap();
        h.try_post_boxed(p).unwrap();
        assert_eq!(h.engine.doms.value(b), None);
        h.fix(x, 3).unwrap();
        assert_eq!(h.engine.doms.value(b), Some(0), "no row starts with 3");
        let mut h = Harness::new();
        let (b, x, y) = (h.range(0, 1), h.var(&[0, 1]), h.var(&[1, 2]));
        h.remove(y, 2).unwrap_or(());
        let p = reified_table(&mut h.engine.doms, &[b, x, y]).unwrap();
        h.try_post_boxed(p).unwrap();
        h.fix(x, 0).unwrap();
        assert_eq!(h.engine.doms.value(b), Some(1), "(0, 1) is a row");
    }
}
