//! Large-neighbourhood search as the search runs it: when an iteration
//! ends, how it ended, and what the next one does (`lns.rs` chooses the
//! neighbourhoods). The first iteration begins at the first solution of
//! branch and bound; each one restarts from the root, where the search
//! fixes the neighbourhood below a floor frame, so that exhausting the
//! neighbourhood pops the floor and ends the iteration.

use super::lns::{End, Lns, Plan};

pub(super) struct LnsDriver {
    lns: Lns,
    /// Whether an iteration is under way (from the first solution on).
    under_way: bool,
    /// The failure count when the iteration under way began, and its budget.
    start: u64,
    budget: u64,
    /// Whether the iteration under way found a better solution.
    improved: bool,
}

impl LnsDriver {
    pub(super) fn new(lns: Lns) -> Self {
        LnsDriver {
            lns,
            under_way: false,
            start: 0,
            budget: u64::MAX,
            improved: false,
        }
    }

    /// Neighbourhoods searched so far.
    pub(super) fn iterations(&self) -> u64 {
        self.lns.iterations()
    }

    /// Whether iterations have begun (at the first solution).
    pub(super) fn under_way(&self) -> bool {
        self.under_way
    }

    /// Whether the iteration under way has spent its budget, with the
    /// search's failure count at `failures`.
    pub(super) fn spent(&self, failures: u64) -> bool {
        self.under_way && failures - self.start >= self.budget
    }

    /// The iteration under way found a better solution (branch and bound
    /// goes on inside it): it ends as improved, whatever ends it.
    pub(super) fn improved(&mut self) {
        self.improved = true;
    }

    /// Ends the iteration under way (`end`, unless it improved) at
    /// `failures`, and plans the next one, which begins there.
    pub(super) fn next(&mut self, end: End, failures: u64) -> Plan {
        let end = if std::mem::take(&mut self.improved) {
            End::Improved
        } else {
            end
        };
        self.lns.finished(end, failures - self.start);
        let plan = self.lns.plan();
        self.under_way = true;
        self.start = failures;
        self.budget = match plan {
            Plan::Complete(b) | Plan::Neighbourhood(b) => b,
        };
        plan
    }

    /// The neighbourhood policy, to fix the next neighbourhood.
    pub(super) fn lns(&mut self) -> &mut Lns {
        &mut self.lns
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::search::LnsKind;

    #[test]
    fn an_iteration_ends_when_its_budget_is_spent() {
        let mut d = LnsDriver::new(Lns::new(LnsKind::Random).unwrap());
        assert!(
            !d.under_way() && !d.spent(u64::MAX),
            "nothing before the first solution"
        );
        let Plan::Neighbourhood(budget) = d.next(End::Improved, 40) else {
            panic!("the first iteration is a neighbourhood");
        };
        assert!(d.under_way());
        assert!(!d.spent(40 + budget - 1));
        assert!(d.spent(40 + budget));
        assert_eq!(d.iterations(), 1);
    }
}
