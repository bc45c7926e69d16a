//! Variables that a linear equality of two variables defines become views:
//! `int_lin_eq([1, -1], [x, y], -1) :: defines_var(y)` makes `y` the term
//! `x + 1` wherever it is used, with no variable and no propagator of its
//! own. A sum over `y` then merges it into its own terms, an element index
//! `x + 1` shifts the array, an all-different takes the offset, and the
//! declared domain of `y` becomes a domain of `x` (its preimage), so the
//! view adds and loses no solution: `y` is a function of `x`, and it was
//! auxiliary (never counted) already. Its output prints `a * x + b`.
//!
//! Only where the division is exact: `c_y * y + c_x * x = k` with `c_y`
//! dividing `c_x` and `k`. Longer sums keep their defined variable (whose
//! domain MiniZinc has already narrowed to the sum's bounds) and one linear
//! propagator, which is what an auxiliary definition would be.
//!
//! `bool2int(b, y) :: defines_var(y)` makes `y` the 0/1 variable `b` itself
//! (a truth value is its 0/1 number in the model): a `bool_lin` sum or a
//! `sum(bool2int(..))` then reads `b`, with no equality of two variables to
//! propagate at each of its changes.

use super::ast::{Decl, Expr, ExprKind, FznAst};
use crate::model::Domain;
use rustc_hash::FxHashMap;

/// A defining `int_lin_eq` of two variables or `bool2int`, as written: its
/// parts are read when the defined variable is declared.
pub(super) struct Definition<'a> {
    /// The index of the constraint among the model's constraints.
    pub(super) constraint: usize,
    /// `c_y * y + c_x * x = k`; `None` for `bool2int(x, y)`, `y = x`.
    pub(super) equation: Option<Equation<'a>>,
    pub(super) x: &'a Expr,
}

/// The coefficients and constant of a defining `int_lin_eq`.
pub(super) struct Equation<'a> {
    pub(super) coef_y: &'a Expr,
    pub(super) coef_x: &'a Expr,
    pub(super) k: &'a Expr,
}

/// The defining equalities of two variables, by the name they define.
pub(super) fn definitions<'a>(ast: &'a FznAst) -> FxHashMap<&'a str, Definition<'a>> {
    let decls: FxHashMap<&str, &Decl> = ast.decls.iter().map(|d| (d.name.as_str(), d)).collect();
    let items = |e: &'a Expr| array_items(&decls, e);
    let mut found: FxHashMap<&str, Definition> = FxHashMap::default();
    let mut twice: Vec<&str> = Vec::new();
    for (i, c) in ast.constraints.iter().enumerate() {
        let linear = c.name == "int_lin_eq" && c.args.len() == 3;
        let bool2int = c.name == "bool2int" && c.args.len() == 2;
        if !linear && !bool2int {
            continue;
        }
        let Some(y) = c.annotations.iter().find_map(|a| match &a.kind {
            ExprKind::Call(n, args) if n == "defines_var" => match args.first()?.kind {
                ExprKind::Ident(ref y) => Some(y.as_str()),
                _ => None,
            },
            _ => None,
        }) else {
            continue;
        };
        let is_y = |e: &Expr| matches!(&e.kind, ExprKind::Ident(n) if n == y);
        if bool2int {
            if is_y(&c.args[1]) && !is_y(&c.args[0]) {
                let def = Definition {
                    constraint: i,
                    equation: None,
                    x: &c.args[0],
                };
                if found.insert(y, def).is_some() {
                    twice.push(y);
                }
            }
            continue;
        }
        let (Some(coefs), Some(xs)) = (items(&c.args[0]), items(&c.args[1])) else {
            continue;
        };
        let ([c0, c1], [x0, x1]) = (coefs, xs) else {
            continue;
        };
        let (coef_y, coef_x, x) = match (is_y(x0), is_y(x1)) {
            (true, false) => (c0, c1, x1),
            (false, true) => (c1, c0, x0),
            _ => continue,
        };
        let def = Definition {
            constraint: i,
            equation: Some(Equation {
                coef_y,
                coef_x,
                k: &c.args[2],
            }),
            x,
        };
        if found.insert(y, def).is_some() {
            twice.push(y);
        }
    }
    // Defined twice is not FlatZinc: keep both equalities as constraints.
    for y in twice {
        found.remove(y);
    }
    found
}

/// The items of an array argument: written out, or named.
fn array_items<'a>(decls: &FxHashMap<&str, &'a Decl>, e: &'a Expr) -> Option<&'a [Expr]> {
    match &e.kind {
        ExprKind::Array(items) => Some(items),
        ExprKind::Ident(n) => match &decls.get(n.as_str())?.value.as_ref()?.kind {
            ExprKind::Array(items) => Some(items),
            _ => None,
        },
        _ => None,
    }
}

/// `y = a * x + b` from `c_y * y + c_x * x = k`, when the division is exact.
pub(super) fn solve_for_y(c_y: i64, c_x: i64, k: i64) -> Option<(i64, i64)> {
    if c_y == 0 || c_x == 0 || c_x.checked_rem(c_y)? != 0 || k.checked_rem(c_y)? != 0 {
        return None;
    }
    Some((c_x.checked_div(c_y)?.checked_neg()?, k.checked_div(c_y)?))
}

/// `a * (a2 * z + b2) + b` as `(a * a2) * z + (a * b2 + b)`.
pub(super) fn compose((a, b): (i64, i64), (a2, b2): (i64, i64)) -> Option<(i64, i64)> {
    Some((a.checked_mul(a2)?, a.checked_mul(b2)?.checked_add(b)?))
}

/// The values of `x` for which `a * x + b` lies in `domain` (`a != 0`):
/// `None` when there are none.
pub(super) fn preimage(domain: &Domain, a: i64, b: i64) -> Option<Domain> {
    let (a128, b128) = (a as i128, b as i128);
    let clamp = |v: i128| v.clamp(i64::MIN as i128, i64::MAX as i128) as i64;
    match domain {
        Domain::Range(l, h) => {
            let (l, h) = (*l as i128 - b128, *h as i128 - b128);
            let (lo, hi) = if a > 0 {
                (ceil_div(l, a128), floor_div(h, a128))
            } else {
                (ceil_div(h, a128), floor_div(l, a128))
            };
            (lo <= hi).then(|| Domain::Range(clamp(lo), clamp(hi)))
        }
        Domain::Values(values) => Domain::of_values(
            values
                .iter()
                .filter_map(|&v| {
                    let d = v as i128 - b128;
                    (d % a128 == 0).then(|| i64::try_from(d / a128).ok())?
                })
                .collect(),
        ),
    }
}

/// `⌊n / d⌋` for any sign of `d`.
fn floor_div(n: i128, d: i128) -> i128 {
    let q = n / d;
    if (n % d != 0) && ((n < 0) != (d < 0)) {
        q - 1
    } else {
        q
    }
}

/// `⌈n / d⌉` for any sign of `d`.
fn ceil_div(n: i128, d: i128) -> i128 {
    -floor_div(-n, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The preimage against brute force over small domains and coefficients.
    #[test]
    fn preimage_is_exactly_the_values_that_map_into_the_domain() {
        let domains = [
            Domain::Range(-7, 9),
            Domain::Range(3, 3),
            Domain::of_values(vec![-5, -2, 0, 4, 7, 8]).unwrap(),
        ];
        for d in &domains {
            for a in [-3, -2, -1, 1, 2, 5] {
                for b in [-4, 0, 1, 6] {
                    let want: Vec<i64> = (-40..=40).filter(|&x| d.contains(a * x + b)).collect();
                    let got: Vec<i64> = match preimage(d, a, b) {
                        Some(p) => p.iter().collect(),
                        None => Vec::new(),
                    };
                    assert_eq!(got, want, "{d:?} a={a} b={b}");
                }
            }
        }
    }

    /// Views leave no variable and no constraint behind; a division that is
    /// not exact, a definition of a variable not declared yet and a reified
    /// equality keep theirs.
    #[test]
    fn views_replace_their_variable_and_equality() {
        let text = "var 0..9: x;\nvar 1..5: y :: is_defined_var;\n\
            var -9..9: u :: is_defined_var;\nvar 0..9: v :: is_defined_var;\n\
            var 0..9: early :: is_defined_var;\nvar 0..9: late;\nvar bool: r;\n\
            var 0..9: q :: is_defined_var;\n\
            constraint int_lin_eq([1, -1], [x, y], -1) :: defines_var(y);\n\
            constraint int_lin_eq([1, 1], [u, y], 0) :: defines_var(u);\n\
            constraint int_lin_eq([2, -3], [v, x], 0) :: defines_var(v);\n\
            constraint int_lin_eq([1, -1], [early, late], 0) :: defines_var(early);\n\
            constraint int_lin_eq_reif([1, -1], [x, q], 0, r) :: defines_var(q);\n\
            solve satisfy;\n";
        let m = crate::flatzinc::load_str("t.fzn", text)
            .expect("loads")
            .model;
        let names: Vec<&str> = m.vars.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["x", "v", "early", "late", "r", "q"]);
        assert_eq!(m.constraints.len(), 3);
        // y's domain 1..5 is x's 0..4; u = -x - 1 keeps it.
        assert_eq!(m.vars[0].domain, Domain::Range(0, 4));
    }

    /// `bool2int` makes its number the truth value's own variable; a
    /// `bool2int` that defines nothing stays a constraint.
    #[test]
    fn bool2int_reads_the_truth_value() {
        let text = "var bool: b;\nvar bool: c;\nvar 0..1: y :: is_defined_var;\n\
            var 0..1: z;\n\
            constraint bool2int(b, y) :: defines_var(y);\n\
            constraint bool2int(c, z);\n\
            constraint int_lin_le([1, 1], [y, z], 1);\n\
            solve satisfy;\n";
        let m = crate::flatzinc::load_str("t.fzn", text)
            .expect("loads")
            .model;
        let names: Vec<&str> = m.vars.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["b", "c", "z"]);
        assert_eq!(m.constraints.len(), 2);
    }

    #[test]
    fn only_exact_divisions_solve_for_y() {
        // 2y - 6x = 4: y = 3x + 2.
        assert_eq!(solve_for_y(2, -6, 4), Some((3, 2)));
        // -y + x = -1: y = x + 1.
        assert_eq!(solve_for_y(-1, 1, -1), Some((1, 1)));
        assert_eq!(solve_for_y(2, 3, 0), None);
        assert_eq!(solve_for_y(2, 4, 1), None);
        assert_eq!(solve_for_y(0, 4, 1), None);
        assert_eq!(solve_for_y(-1, i64::MIN, 0), None);
        assert_eq!(solve_for_y(-1, 1, i64::MIN), None);
        assert_eq!(solve_for_y(i64::MIN, i64::MIN, 0), Some((-1, 0)));
        assert_eq!(compose((2, 1), (-3, 4)), Some((-6, 9)));
        assert_eq!(compose((i64::MAX, 0), (2, 0)), None);
    }
}
