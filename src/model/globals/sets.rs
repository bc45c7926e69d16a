//! Set constraints over set variables, each set given as its membership
//! terms (0/1, one per value) aligned on one universe: position `e` of
//! every set stands for the same value. The checker of `.csp` models emits
//! them (`sema/sets.rs`) for `x == y union z`, `x subset y`, `v in s`,
//! `all_disjoint`, `partition_set` and the like; they are not names a
//! model can call (they are not in [`super::REGISTRY`]). Lowering posts the
//! set propagators of `engine/props/sets/`.

use super::{ArgValue, Global, Kind, Param, ParamKind};

fn member(v: i64) -> bool {
    v != 0
}

const X: Param = Param {
    name: "x",
    kind: ParamKind::Terms,
};
const Y: Param = Param {
    name: "y",
    kind: ParamKind::Terms,
};
const Z: Param = Param {
    name: "z",
    kind: ParamKind::Terms,
};

/// `x = y ∪ z`, `x = y ∩ z`, `x = y \ z`.
pub(crate) struct SetOpDef(pub(crate) Op);

/// Which operation [`SetOpDef`] states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Union,
    Intersect,
    Diff,
}

impl Op {
    pub(crate) fn apply(self, y: bool, z: bool) -> bool {
        match self {
            Op::Union => y || z,
            Op::Intersect => y && z,
            Op::Diff => y && !z,
        }
    }
}

pub(crate) static SET_UNION: SetOpDef = SetOpDef(Op::Union);
pub(crate) static SET_INTERSECT: SetOpDef = SetOpDef(Op::Intersect);
pub(crate) static SET_DIFF: SetOpDef = SetOpDef(Op::Diff);

impl Global for SetOpDef {
    fn kind(&self) -> Kind {
        match self.0 {
            Op::Union => Kind::SetUnion,
            Op::Intersect => Kind::SetIntersect,
            Op::Diff => Kind::SetDiff,
        }
    }
    fn name(&self) -> &'static str {
        match self.0 {
            Op::Union => "set_union",
            Op::Intersect => "set_intersect",
            Op::Diff => "set_diff",
        }
    }
    fn params(&self) -> &'static [Param] {
        &[X, Y, Z]
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        let (x, y, z) = (args[0].ints(), args[1].ints(), args[2].ints());
        x.len() == y.len()
            && x.len() == z.len()
            && (0..x.len()).all(|e| member(x[e]) == self.0.apply(member(y[e]), member(z[e])))
    }
}

/// `x ⊆ y` (`equal`: `x = y`).
pub(crate) struct SetSubsetDef {
    pub(crate) equal: bool,
}

pub(crate) static SET_SUBSET: SetSubsetDef = SetSubsetDef { equal: false };
pub(crate) static SET_EQ: SetSubsetDef = SetSubsetDef { equal: true };

impl Global for SetSubsetDef {
    fn kind(&self) -> Kind {
        if self.equal {
            Kind::SetEq
        } else {
            Kind::SetSubset
        }
    }
    fn name(&self) -> &'static str {
        if self.equal { "set_eq" } else { "set_subset" }
    }
    fn params(&self) -> &'static [Param] {
        &[X, Y]
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        let (x, y) = (args[0].ints(), args[1].ints());
        x.len() == y.len()
            && x.iter().zip(y).all(|(&a, &b)| {
                let (a, b) = (member(a), member(b));
                if self.equal { a == b } else { !a || b }
            })
    }
}

/// `all_disjoint` of the sets laid end to end in `sets`, each `width`
/// long; with `cover` (one 0/1 per position, not empty), the partition of
/// the values whose `cover` is 1.
pub(crate) struct SetDisjointDef;

impl Global for SetDisjointDef {
    fn kind(&self) -> Kind {
        Kind::SetDisjoint
    }
    fn name(&self) -> &'static str {
        "set_all_disjoint"
    }
    fn params(&self) -> &'static [Param] {
        &[
            Param {
                name: "sets",
                kind: ParamKind::Terms,
            },
            Param {
                name: "width",
                kind: ParamKind::Int,
            },
            Param {
                name: "cover",
                kind: ParamKind::Ints,
            },
        ]
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        let (sets, width, cover) = (args[0].ints(), args[1].int(), args[2].ints());
        let Ok(width) = usize::try_from(width) else {
            return false;
        };
        if width == 0 {
            return cover.is_empty();
        }
        if !sets.len().is_multiple_of(width) || !(cover.is_empty() || cover.len() == width) {
            return false;
        }
        (0..width).all(|e| {
            let holders = sets.chunks(width).filter(|s| member(s[e])).count();
            match cover.get(e) {
                None => holders <= 1,
                Some(&c) => holders == usize::from(member(c)),
            }
        })
    }
}

/// `v ∈ s`, `s` over the values `elems` (increasing).
pub(crate) struct SetInDef;

pub(crate) static SET_IN: SetInDef = SetInDef;

impl Global for SetInDef {
    fn kind(&self) -> Kind {
        Kind::SetIn
    }
    fn name(&self) -> &'static str {
        "set_in"
    }
    fn params(&self) -> &'static [Param] {
        &[
            Param {
                name: "v",
                kind: ParamKind::Term,
            },
            Param {
                name: "elems",
                kind: ParamKind::Ints,
            },
            Param {
                name: "s",
                kind: ParamKind::Terms,
            },
        ]
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        let (v, elems, s) = (args[0].int(), args[1].ints(), args[2].ints());
        elems.len() == s.len()
            && elems
                .iter()
                .position(|&e| e == v)
                .is_some_and(|i| member(s[i]))
    }
}
