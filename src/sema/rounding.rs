//! `sqrt`, `floor`, `ceil` and `round` on integers, for data computed at
//! load time (a distance from coordinates, a number of bins). The language
//! has no fractions, so a rounding function applies to the exact value of
//! the quotient or square root written inside it: `round(sqrt(d))` is the
//! integer nearest to the real √d, `ceil(a / b)` the smallest integer at
//! least a/b. Alone, `sqrt(x)` is ⌊√x⌋ and a rounding of an integer is that
//! integer. Everything is exact (128-bit intermediates); constants only.

use super::Checker;
use super::value::Value;
use crate::diag::Diag;
use crate::syntax::ast::{BinOp, Expr, ExprKind, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rounding {
    Floor,
    Ceil,
    /// To the nearest integer, halves away from zero.
    Round,
}

impl Rounding {
    pub(super) fn of_name(name: &str) -> Option<Rounding> {
        Some(match name {
            "floor" => Rounding::Floor,
            "ceil" => Rounding::Ceil,
            "round" => Rounding::Round,
            _ => return None,
        })
    }
}

/// `a / b` rounded as `mode` says, exactly; `None` when `b` is 0 or the
/// result leaves 64 bits.
pub(super) fn quotient(a: i64, b: i64, mode: Rounding) -> Option<i64> {
    if b == 0 {
        return None;
    }
    // The same rational with a positive denominator.
    let (n, d) = if b < 0 {
        (-(a as i128), -(b as i128))
    } else {
        (a as i128, b as i128)
    };
    let q = match mode {
        Rounding::Floor => n.div_euclid(d),
        Rounding::Ceil => -(-n).div_euclid(d),
        // |n/d| + 1/2 rounded down, with the sign of n/d.
        Rounding::Round if n >= 0 => (2 * n + d).div_euclid(2 * d),
        Rounding::Round => -(-2 * n + d).div_euclid(2 * d),
    };
    i64::try_from(q).ok()
}

/// √x rounded as `mode` says; `None` for a negative `x`.
pub(super) fn square_root(x: i64, mode: Rounding) -> Option<i64> {
    let r = u64::try_from(x).ok()?.isqrt();
    let (r, x) = (r as i128, x as i128);
    let up = match mode {
        Rounding::Floor => false,
        Rounding::Ceil => r * r != x,
        // √x ≥ r + 1/2 exactly when x ≥ r² + r + 1/4, that is x > r² + r.
        Rounding::Round => x > r * r + r,
    };
    Some((r + i128::from(up)) as i64)
}

impl Checker<'_> {
    /// `floor(e)`, `ceil(e)`, `round(e)` when no user function takes the
    /// name: `e` a quotient `a / b` or a square root `sqrt(x)` is rounded
    /// from its exact value; any other integer is itself. `None` when the
    /// call is not one of these.
    pub(super) fn rounding_call(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Option<Result<Value, Diag>> {
        let mode = Rounding::of_name(name)?;
        if self.functions.contains_key(name) {
            return None;
        }
        let [arg] = args else {
            return Some(Err(Diag::new(
                "cspi::call::arity",
                format!(
                    "{name}(...) takes one argument: a quotient `a / b`, `sqrt(x)` or an integer"
                ),
            )
            .label(span, "here")));
        };
        Some(self.rounded(name, mode, arg))
    }

    fn rounded(&mut self, name: &str, mode: Rounding, arg: &Expr) -> Result<Value, Diag> {
        match &arg.kind {
            ExprKind::Binary(BinOp::Div, a, b) => {
                let (x, y) = (self.eval(a)?, self.eval(b)?);
                let (Value::Int(x), Value::Int(y)) = (&x, &y) else {
                    if matches!(x, Value::Poison) || matches!(y, Value::Poison) {
                        return Ok(Value::Poison);
                    }
                    return Err(constants_only(name, arg.span));
                };
                if *y == 0 {
                    return Err(Diag::new("cspi::arith::zero", "division by zero")
                        .label(b.span, "this is 0")
                        .help("`/` needs a non-zero divisor"));
                }
                quotient(*x, *y, mode).map(Value::Int).ok_or_else(|| {
                    Diag::new("cspi::arith::overflow", "integer overflow")
                        .label(arg.span, "this does not fit in 64 bits")
                })
            }
            ExprKind::Call(f, inner)
                if f.name == "sqrt" && !self.functions.contains_key("sqrt") =>
            {
                let [x] = inner.as_slice() else {
                    return Err(super::builtins::wrong_count("sqrt", inner.len(), arg.span));
                };
                let v = self.eval(x)?;
                self.sqrt_of(v, mode, x.span)
            }
            _ => match self.eval(arg)? {
                v @ (Value::Int(_) | Value::Poison) => Ok(v),
                // An integer over variables is already an integer.
                v @ Value::Term(_) if v.enum_type(&self.model).is_none() => Ok(v),
                other => Err(Diag::new(
                    "cspi::type",
                    format!("{name}(...) rounds an integer, not {}", other.type_name()),
                )
                .label(arg.span, "here")),
            },
        }
    }

    /// `sqrt(x)` of a value: ⌊√x⌋ (or as `mode` rounds it).
    pub(super) fn sqrt_of(&self, v: Value, mode: Rounding, span: Span) -> Result<Value, Diag> {
        match v {
            Value::Poison => Ok(Value::Poison),
            Value::Int(k) => square_root(k, mode).map(Value::Int).ok_or_else(|| {
                Diag::new(
                    "cspi::arith::sqrt",
                    format!("sqrt of a negative number, {k}"),
                )
                .label(span, "this is negative")
                .help("sqrt(x) takes x >= 0")
            }),
            Value::Term(_) | Value::BoolTerm(_) | Value::Formula(_) => {
                Err(constants_only("sqrt", span))
            }
            other => Err(Diag::new(
                "cspi::type",
                format!("sqrt takes an integer, not {}", other.type_name()),
            )
            .label(span, "here")),
        }
    }
}

fn constants_only(name: &str, span: Span) -> Diag {
    Diag::new(
        "cspi::type",
        format!("{name}(...) computes with constants only"),
    )
    .label(span, "this depends on variables")
    .help(
        "sqrt, floor, ceil and round are computed when the model loads, from parameters and \
         constants; over variables, `/` divides rounding toward zero",
    )
}

#[cfg(test)]
mod tests {
    use super::{Rounding, quotient, square_root};

    // [(a, b, floor, ceil, round) for a in (-7, -5, -4, -1, 0, 1, 5, 7)
    //  for b in (-2, 3, 4)], `round` taking halves away from zero.
    const PYTHON_QUOTIENTS: &[(i64, i64, i64, i64, i64)] = &[
        (-7, -2, 3, 4, 4),
        (-7, 3, -3, -2, -2),
        (-7, 4, -2, -1, -2),
        (-5, -2, 2, 3, 3),
        (-5, 3, -2, -1, -2),
        (-5, 4, -2, -1, -1),
        (-4, -2, 2, 2, 2),
        (-4, 3, -2, -1, -1),
        (-4, 4, -1, -1, -1),
        (-1, -2, 0, 1, 1),
        (-1, 3, -1, 0, 0),
        (-1, 4, -1, 0, 0),
        (0, -2, 0, 0, 0),
        (0, 3, 0, 0, 0),
        (0, 4, 0, 0, 0),
        (1, -2, -1, 0, -1),
        (1, 3, 0, 1, 0),
        (1, 4, 0, 1, 0),
        (5, -2, -3, -2, -3),
        (5, 3, 1, 2, 2),
        (5, 4, 1, 2, 1),
        (7, -2, -4, -3, -4),
        (7, 3, 2, 3, 2),
        (7, 4, 1, 2, 2),
    ];

    // [(x, isqrt(x), ceil, nearest) for x in (0, 1, 2, 3, 4, 5, 6, 8, 9, 12, 13,
    //  15, 16, 20, 24, 30, 56, 57, 99, 10**12 + 10**6, 2**62)]
    const PYTHON_ROOTS: &[(i64, i64, i64, i64)] = &[
        (0, 0, 0, 0),
        (1, 1, 1, 1),
        (2, 1, 2, 1),
        (3, 1, 2, 2),
        (4, 2, 2, 2),
        (5, 2, 3, 2),
        (6, 2, 3, 2),
        (8, 2, 3, 3),
        (9, 3, 3, 3),
        (12, 3, 4, 3),
        (13, 3, 4, 4),
        (15, 3, 4, 4),
        (16, 4, 4, 4),
        (20, 4, 5, 4),
        (24, 4, 5, 5),
        (30, 5, 6, 5),
        (56, 7, 8, 7),
        (57, 7, 8, 8),
        (99, 9, 10, 10),
        (1000001000000, 1000000, 1000001, 1000000),
        (4611686018427387904, 2147483648, 2147483648, 2147483648),
    ];

    /// Rounded quotients and square roots against values computed with
    /// Python 3 (`fractions.Fraction`, `math.floor`/`math.ceil`, halves
    /// away from zero, `math.isqrt`; the generating expressions are above
    /// the tables).
    #[test]
    fn rounding_agrees_with_python() {
        for &(a, b, f, c, r) in PYTHON_QUOTIENTS {
            assert_eq!(quotient(a, b, Rounding::Floor), Some(f), "floor({a} / {b})");
            assert_eq!(quotient(a, b, Rounding::Ceil), Some(c), "ceil({a} / {b})");
            assert_eq!(quotient(a, b, Rounding::Round), Some(r), "round({a} / {b})");
        }
        for &(x, f, c, r) in PYTHON_ROOTS {
            assert_eq!(square_root(x, Rounding::Floor), Some(f), "sqrt({x})");
            assert_eq!(square_root(x, Rounding::Ceil), Some(c), "ceil(sqrt({x}))");
            assert_eq!(square_root(x, Rounding::Round), Some(r), "round(sqrt({x}))");
        }
    }

    /// Exhaustively against definitions over the reals written another way.
    #[test]
    fn rounding_is_exact_near_zero_and_at_the_ends() {
        for a in -60i64..=60 {
            for b in (-9i64..=9).filter(|&b| b != 0) {
                let exact = a as f64 / b as f64;
                assert_eq!(quotient(a, b, Rounding::Floor), Some(exact.floor() as i64));
                assert_eq!(quotient(a, b, Rounding::Ceil), Some(exact.ceil() as i64));
                // f64::round rounds halves away from zero.
                assert_eq!(quotient(a, b, Rounding::Round), Some(exact.round() as i64));
            }
        }
        for x in 0i64..=10_000 {
            let exact = (x as f64).sqrt();
            assert_eq!(square_root(x, Rounding::Floor), Some(exact.floor() as i64));
            assert_eq!(square_root(x, Rounding::Ceil), Some(exact.ceil() as i64));
            assert_eq!(square_root(x, Rounding::Round), Some(exact.round() as i64));
        }
        assert_eq!(quotient(5, 0, Rounding::Floor), None);
        assert_eq!(quotient(i64::MIN, -1, Rounding::Floor), None);
        assert_eq!(quotient(i64::MIN, 1, Rounding::Round), Some(i64::MIN));
        assert_eq!(square_root(-1, Rounding::Floor), None);
        assert_eq!(square_root(i64::MAX, Rounding::Floor), Some(3_037_000_499));
        assert_eq!(square_root(i64::MAX, Rounding::Ceil), Some(3_037_000_500));
        assert_eq!(square_root(i64::MAX, Rounding::Round), Some(3_037_000_500));
    }
}
