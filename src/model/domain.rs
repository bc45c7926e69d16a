//! A variable's initial values: a range kept as its bounds (so `0..10^18`
//! costs nothing) or an explicit sorted list.

use std::sync::Arc;

/// The engine keeps a whole range of at most this many values as a bitset
/// (every value represented), a wider one as its bounds only.
pub(crate) const RANGE_BITSET_SPAN: u64 = 1 << 16;

/// A domain with holes is a bitset up to this span; beyond it, bounds only
/// (and membership is enforced by a constraint).
pub(crate) const MAX_BITSET_SPAN: u64 = 1 << 24;

#[derive(Clone, Debug, PartialEq)]
pub enum Domain {
    /// Every value of `lo..=hi` (never empty).
    Range(i64, i64),
    /// Sorted, distinct, non-empty.
    Values(Arc<[i64]>),
}

impl Domain {
    /// The domain of these values (sorted and deduplicated here), as a range
    /// when they are one; `None` when there are none.
    pub(crate) fn of_values(mut values: Vec<i64>) -> Option<Domain> {
        values.sort_unstable();
        values.dedup();
        let (&lo, &hi) = (values.first()?, values.last()?);
        if hi as i128 - lo as i128 + 1 == values.len() as i128 {
            return Some(Domain::Range(lo, hi));
        }
        Some(Domain::Values(values.into()))
    }

    pub(crate) fn min(&self) -> i64 {
        match self {
            Domain::Range(lo, _) => *lo,
            Domain::Values(v) => v[0],
        }
    }

    pub(crate) fn max(&self) -> i64 {
        match self {
            Domain::Range(_, hi) => *hi,
            Domain::Values(v) => v[v.len() - 1],
        }
    }

    /// The number of values, saturating at `u64::MAX`.
    pub(crate) fn len(&self) -> u64 {
        match self {
            Domain::Range(lo, hi) => {
                u64::try_from(*hi as i128 - *lo as i128 + 1).unwrap_or(u64::MAX)
            }
            Domain::Values(v) => v.len() as u64,
        }
    }

    pub(crate) fn contains(&self, x: i64) -> bool {
        match self {
            Domain::Range(lo, hi) => *lo <= x && x <= *hi,
            Domain::Values(v) => v.binary_search(&x).is_ok(),
        }
    }

    /// The number of values from the smallest to the largest, saturating.
    pub(crate) fn span(&self) -> u64 {
        u64::try_from(self.max() as i128 - self.min() as i128 + 1).unwrap_or(u64::MAX)
    }

    /// Whether the engine represents the domain by its bounds only.
    pub(crate) fn is_wide(&self) -> bool {
        match self {
            Domain::Range(..) => self.span() > RANGE_BITSET_SPAN,
            Domain::Values(_) => self.span() > MAX_BITSET_SPAN,
        }
    }

    /// The 64-bit words the engine's bitset for this domain takes (0 when
    /// it keeps bounds only).
    pub(crate) fn bitset_words(&self) -> u64 {
        if self.is_wide() {
            0
        } else {
            self.span().div_ceil(64)
        }
    }

    /// The values in increasing order; callers bound [`Self::len`] first.
    pub(crate) fn iter(&self) -> Box<dyn Iterator<Item = i64> + '_> {
        match self {
            Domain::Range(lo, hi) => Box::new(*lo..=*hi),
            Domain::Values(v) => Box::new(v.iter().copied()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_that_form_a_range_become_one() {
        assert_eq!(
            Domain::of_values(vec![3, 1, 2, 2]),
            Some(Domain::Range(1, 3))
        );
        assert_eq!(Domain::of_values(vec![]), None);
        let d = Domain::of_values(vec![5, 1]).unwrap();
        assert_eq!((d.min(), d.max(), d.len()), (1, 5, 2));
        assert!(d.contains(5) && !d.contains(3));
        assert_eq!(Domain::Range(i64::MIN, i64::MAX).len(), u64::MAX);
    }
}
