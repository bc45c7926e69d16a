//! The FlatZinc constraints as formulas: every integer and boolean builtin
//! of MiniZinc 2.6 (`std/flatzinc_builtins.mzn`, with their `_reif` and
//! `_imp` forms), and the `cspi_*` calls of our solver library
//! (`share/minizinc/cspi/`), which name a global of `model::globals` (or
//! all-different, a table, a count) with its parameters in our order.

use super::ast::{Constraint, Expr};
use super::build::{Builder, unsupported};
use crate::diag::Diag;
use crate::model::globals::{self, ParamKind};
use crate::model::{CmpOp, Domain, Formula, GlobalArg, GlobalCall, Term};
use std::sync::Arc;

/// `t` is in the sorted set `values`.
pub(super) fn member(t: Term, values: &[i64]) -> Formula {
    match (values.first(), values.last()) {
        (None, _) | (_, None) => Formula::Const(false),
        (Some(&lo), Some(&hi)) if (hi as i128 - lo as i128 + 1) == values.len() as i128 => {
            if lo == hi {
                Formula::Cmp(CmpOp::Eq, t, Term::Const(lo))
            } else {
                Formula::And(vec![
                    Formula::Cmp(CmpOp::Ge, t.clone(), Term::Const(lo)),
                    Formula::Cmp(CmpOp::Le, t, Term::Const(hi)),
                ])
            }
        }
        _ => Formula::Table {
            terms: vec![t],
            tuples: Arc::new(values.iter().map(|&v| vec![v]).collect()),
            allowed: true,
        },
    }
}

/// `r <-> f`, with a constant `r` folded.
fn reif(r: Term, f: Formula) -> Formula {
    match r {
        Term::Const(0) => Formula::Not(Box::new(f)),
        Term::Const(_) => f,
        r => Formula::Cmp(
            CmpOp::Eq,
            r,
            Term::Ite(
                Box::new(f),
                Box::new(Term::Const(1)),
                Box::new(Term::Const(0)),
            ),
        ),
    }
}

/// `r -> f`.
fn imp(r: Term, f: Formula) -> Formula {
    match r {
        Term::Const(0) => Formula::Const(true),
        Term::Const(_) => f,
        r => Formula::Implies(Box::new(truth(r)), Box::new(f)),
    }
}

/// The 0/1 term `b` as a formula.
fn truth(b: Term) -> Formula {
    match b {
        Term::Const(k) => Formula::Const(k != 0),
        b => Formula::Cmp(CmpOp::Eq, b, Term::Const(1)),
    }
}

fn linear(coefs: &[i64], terms: Vec<Term>) -> Term {
    Term::Linear(coefs.iter().copied().zip(terms).collect(), 0)
}

fn sum(terms: Vec<Term>) -> Term {
    Term::Linear(terms.into_iter().map(|t| (1, t)).collect(), 0)
}

fn cmp_of(name: &str) -> Option<CmpOp> {
    Some(match name {
        "eq" => CmpOp::Eq,
        "ne" => CmpOp::Ne,
        "le" => CmpOp::Le,
        "lt" => CmpOp::Lt,
        "ge" => CmpOp::Ge,
        "gt" => CmpOp::Gt,
        _ => return None,
    })
}

/// How a constraint's truth is used: posted, reified or implied by its
/// last argument.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    Plain,
    Reif,
    Imp,
}

impl Builder {
    /// The formula of one constraint item.
    pub(super) fn constraint(&mut self, c: &Constraint) -> Result<Formula, Diag> {
        let name = c.name.as_str();
        if name.starts_with("float_") || name.contains("_float_") || name == "int2float" {
            return Err(unsupported(
                c.name_span,
                format!("`{name}` is a float constraint"),
            ));
        }
        if let Some(global) = name.strip_prefix("cspi_") {
            return self.library_call(c, global);
        }
        let (base, mut form) = if let Some(b) = name.strip_suffix("_reif") {
            (b, Form::Reif)
        } else if let Some(b) = name.strip_suffix("_imp") {
            (b, Form::Imp)
        } else {
            (name, Form::Plain)
        };
        // `array_bool_and(as, r)` and `bool_or(a, b, r)` are reified by
        // their last argument without saying so in their name.
        let reified_by_name = matches!(name, "array_bool_and" | "array_bool_or")
            || (matches!(name, "bool_and" | "bool_or" | "bool_xor") && c.args.len() == 3);
        if reified_by_name {
            form = Form::Reif;
        }
        let want = |n: usize| if form == Form::Plain { n } else { n + 1 };
        let f = match self.core(c, base, &want)? {
            Some(f) => f,
            None => return Err(unknown(c)),
        };
        Ok(match form {
            Form::Plain => f,
            Form::Reif => reif(self.term(last_arg(c)?)?, f),
            Form::Imp => imp(self.term(last_arg(c)?)?, f),
        })
    }

    fn arity(&self, c: &Constraint, n: usize) -> Result<(), Diag> {
        if c.args.len() == n {
            return Ok(());
        }
        Err(Diag::new(
            "cspi::fzn::arity",
            format!("`{}` takes {n} arguments, not {}", c.name, c.args.len()),
        )
        .label(c.span, "here"))
    }

    /// The formula of a builtin in its plain form (`base` without `_reif`
    /// or `_imp`); `None` for a name that is not a builtin.
    fn core(
        &mut self,
        c: &Constraint,
        base: &str,
        want: &dyn Fn(usize) -> usize,
    ) -> Result<Option<Formula>, Diag> {
        let a = &c.args;
        // int_eq, bool_lt, ... and int_lin_le, bool_lin_eq, ...
        if let Some((kind, op)) = base.split_once('_') {
            if let Some(op) = op.strip_prefix("lin_").and_then(cmp_of)
                && (kind == "int" || kind == "bool")
            {
                {
                    self.arity(c, want(3))?;
                    let coefs = self.ints(&a[0])?;
                    let xs = self.terms(&a[1])?;
                    if coefs.len() != xs.len() {
                        return Err(Diag::new(
                            "cspi::fzn::length",
                            format!(
                                "`{}`: {} coefficients for {} variables",
                                c.name,
                                coefs.len(),
                                xs.len()
                            ),
                        )
                        .label(c.span, "here"));
                    }
                    return Ok(Some(Formula::Cmp(
                        op,
                        linear(&coefs, xs),
                        self.term(&a[2])?,
                    )));
                }
            }
            if let Some(op) = cmp_of(op)
                && (kind == "int" || kind == "bool")
            {
                self.arity(c, want(2))?;
                return Ok(Some(Formula::Cmp(op, self.term(&a[0])?, self.term(&a[1])?)));
            }
        }
        let binary = |b: &Self, f: fn(Box<Term>, Box<Term>) -> Term| -> Result<Formula, Diag> {
            b.arity(c, 3)?;
            let (x, y, z) = (b.term(&a[0])?, b.term(&a[1])?, b.term(&a[2])?);
            Ok(Formula::Cmp(CmpOp::Eq, f(Box::new(x), Box::new(y)), z))
        };
        let f = match base {
            "int_plus" | "int_minus" => {
                self.arity(c, 3)?;
                let (x, y, z) = (self.term(&a[0])?, self.term(&a[1])?, self.term(&a[2])?);
                let k = if base == "int_plus" { 1 } else { -1 };
                Formula::Cmp(CmpOp::Eq, Term::Linear(vec![(1, x), (k, y)], 0), z)
            }
            "int_times" => binary(self, Term::Mul)?,
            "int_div" => binary(self, Term::Div)?,
            "int_mod" => binary(self, Term::Mod)?,
            "int_pow" | "int_pow_fixed" => binary(self, Term::Pow)?,
            "int_min" | "int_max" => {
                self.arity(c, 3)?;
                let xs = vec![self.term(&a[0])?, self.term(&a[1])?];
                let m = if base == "int_min" {
                    Term::Min(xs)
                } else {
                    Term::Max(xs)
                };
                Formula::Cmp(CmpOp::Eq, m, self.term(&a[2])?)
            }
            "int_abs" | "int_negate" => {
                self.arity(c, 2)?;
                let x = self.term(&a[0])?;
                let t = if base == "int_abs" {
                    Term::Abs(Box::new(x))
                } else {
                    Term::Linear(vec![(-1, x)], 0)
                };
                Formula::Cmp(CmpOp::Eq, t, self.term(&a[1])?)
            }
            "bool2int" | "int2bool" => {
                self.arity(c, want(2))?;
                Formula::Cmp(CmpOp::Eq, self.term(&a[0])?, self.term(&a[1])?)
            }
            "array_int_element"
            | "array_var_int_element"
            | "array_bool_element"
            | "array_var_bool_element" => {
                self.arity(c, 3)?;
                let items = self.terms(&a[1])?;
                let element = Term::Element {
                    items,
                    index: Box::new(self.term(&a[0])?),
                    low: 1,
                };
                Formula::Cmp(CmpOp::Eq, element, self.term(&a[2])?)
            }
            "array_int_minimum" | "array_int_maximum" => {
                self.arity(c, 2)?;
                let xs = self.terms(&a[1])?;
                if xs.is_empty() {
                    return Err(Diag::new(
                        "cspi::fzn::empty",
                        format!("`{}` of an empty array", c.name),
                    )
                    .label(c.span, "here"));
                }
                let m = if base == "array_int_minimum" {
                    Term::Min(xs)
                } else {
                    Term::Max(xs)
                };
                Formula::Cmp(CmpOp::Eq, self.term(&a[0])?, m)
            }
            "bool_clause" => {
                self.arity(c, want(2))?;
                let (pos, neg) = (self.terms(&a[0])?, self.terms(&a[1])?);
                // sum(pos) + sum(1 - neg) >= 1
                let k = 1 - neg.len() as i64;
                let mut parts: Vec<(i64, Term)> = pos.into_iter().map(|t| (1, t)).collect();
                parts.extend(neg.into_iter().map(|t| (-1, t)));
                Formula::Cmp(CmpOp::Ge, Term::Linear(parts, 0), Term::Const(k))
            }
            "array_bool_and" | "array_bool_or" => {
                self.arity(c, want(1))?;
                let xs = self.terms(&a[0])?;
                let n = xs.len() as i64;
                if base == "array_bool_and" {
                    Formula::Cmp(CmpOp::Eq, sum(xs), Term::Const(n))
                } else {
                    Formula::Cmp(CmpOp::Ge, sum(xs), Term::Const(1))
                }
            }
            "array_bool_xor" => {
                self.arity(c, want(1))?;
                let xs = self.terms(&a[0])?;
                Formula::Cmp(
                    CmpOp::Eq,
                    Term::Mod(Box::new(sum(xs)), Box::new(Term::Const(2))),
                    Term::Const(1),
                )
            }
            "bool_and" | "bool_or" | "bool_xor" => {
                self.arity(c, want(2))?;
                let (x, y) = (self.term(&a[0])?, self.term(&a[1])?);
                match base {
                    "bool_and" => Formula::Cmp(CmpOp::Eq, sum(vec![x, y]), Term::Const(2)),
                    "bool_or" => Formula::Cmp(CmpOp::Ge, sum(vec![x, y]), Term::Const(1)),
                    _ => Formula::Cmp(CmpOp::Ne, x, y),
                }
            }
            "bool_not" => {
                self.arity(c, want(2))?;
                Formula::Cmp(CmpOp::Ne, self.term(&a[0])?, self.term(&a[1])?)
            }
            "set_in" => {
                self.arity(c, want(2))?;
                let x = self.term(&a[0])?;
                let s = self.set_arg(&a[1])?;
                if let (Term::Var(v), true) = (&x, want(0) == 0) {
                    // Plain membership of a variable: its initial domain.
                    match Domain::of_values(s) {
                        Some(d) => self.intersect(*v, &d, c.span),
                        None => return Ok(Some(Formula::Const(false))),
                    }
                    Formula::Const(true)
                } else {
                    member(x, &s)
                }
            }
            "array_set_element" | "array_var_set_element" => {
                return Err(unsupported(c.name_span, format!("`{}` takes sets", c.name)));
            }
            _ if base.starts_with("set_") => {
                return Err(unsupported(
                    c.name_span,
                    format!("`{}` is a set constraint", c.name),
                ));
            }
            _ => return Ok(None),
        };
        Ok(Some(f))
    }

    /// A constant set argument; a set variable is refused.
    fn set_arg(&self, e: &Expr) -> Result<Vec<i64>, Diag> {
        self.set(e).map_err(|d| {
            if d.code == "cspi::fzn::type" {
                unsupported(e.span, "a set variable reaches the solver".into())
            } else {
                d
            }
        })
    }

    /// A constraint of our library, `cspi_<name>(...)`.
    fn library_call(&mut self, c: &Constraint, name: &str) -> Result<Formula, Diag> {
        let a = &c.args;
        // Truth values are 0 and 1 to our globals.
        let name = match name {
            "lex_less_bool" => "lex_less",
            "lex_lesseq_bool" => "lex_lesseq",
            other => other,
        };
        match name {
            "all_different" => {
                self.arity(c, 1)?;
                return Ok(Formula::AllDifferent(self.terms(&a[0])?));
            }
            "table" | "table_not" => {
                // cspi_table(x, flat rows): the rows of x.len() values each.
                self.arity(c, 2)?;
                let terms = self.terms(&a[0])?;
                let flat = self.ints(&a[1])?;
                let n = terms.len();
                if n == 0 || flat.len() % n != 0 {
                    return Err(Diag::new(
                        "cspi::fzn::table",
                        format!("a table of {} values is not rows of {n}", flat.len()),
                    )
                    .label(c.span, "here"));
                }
                let tuples = flat.chunks(n).map(<[i64]>::to_vec).collect();
                return Ok(Formula::Table {
                    terms,
                    tuples: Arc::new(tuples),
                    allowed: name == "table",
                });
            }
            "count_eq" => {
                // cspi_count_eq(x, y, c): c is the number of x[i] equal to y.
                self.arity(c, 3)?;
                let xs = self.terms(&a[0])?;
                let y = self.term(&a[1])?;
                let each = xs
                    .into_iter()
                    .map(|x| {
                        (
                            1,
                            Term::Ite(
                                Box::new(Formula::Cmp(CmpOp::Eq, x, y.clone())),
                                Box::new(Term::Const(1)),
                                Box::new(Term::Const(0)),
                            ),
                        )
                    })
                    .collect();
                return Ok(Formula::Cmp(
                    CmpOp::Eq,
                    Term::Linear(each, 0),
                    self.term(&a[2])?,
                ));
            }
            _ => {}
        }
        let forms: Vec<_> = globals::forms(name).collect();
        let Some(def) = forms
            .iter()
            .copied()
            .find(|g| g.params().len() == a.len())
            .or(forms.first().copied())
        else {
            return Err(unknown(c));
        };
        self.arity(c, def.params().len())?;
        let mut args = Vec::with_capacity(a.len());
        for (p, e) in def.params().iter().zip(a) {
            args.push(match p.kind {
                ParamKind::Term => GlobalArg::Term(self.term(e)?),
                ParamKind::Int => GlobalArg::Term(Term::Const(self.int(e)?)),
                ParamKind::Terms => GlobalArg::Terms(self.terms(e)?),
                ParamKind::Ints => {
                    GlobalArg::Terms(self.ints(e)?.into_iter().map(Term::Const).collect())
                }
                ParamKind::Set => {
                    GlobalArg::Terms(self.set_arg(e)?.into_iter().map(Term::Const).collect())
                }
                ParamKind::Mdd | ParamKind::Regex => {
                    return Err(Diag::new(
                        "cspi::fzn::library",
                        format!("`{}` cannot be called from FlatZinc", c.name),
                    )
                    .label(c.span, "here"));
                }
            });
        }
        def.check(&args).map_err(|p| {
            Diag::new("cspi::fzn::global", format!("`{}`: {}", c.name, p.message))
                .label(a.get(p.arg).map_or(c.span, |e| e.span), "this argument")
                .help(p.help)
        })?;
        Ok(Formula::Global(GlobalCall { def, args }))
    }
}

fn unknown(c: &Constraint) -> Diag {
    Diag::new(
        "cspi::fzn::unknown_constraint",
        format!("`{}` is not a FlatZinc builtin cspi knows", c.name),
    )
    .label(c.name_span, "unknown constraint")
    .help("compile the model for cspi (minizinc --solver share/minizinc/cspi.msc), so that MiniZinc decomposes what cspi does not take natively")
}

/// The last argument: the truth value of a reified or implied form.
fn last_arg(c: &Constraint) -> Result<&Expr, Diag> {
    c.args.last().ok_or_else(|| {
        Diag::new("cspi::fzn::arity", format!("`{}` needs arguments", c.name)).label(c.span, "here")
    })
}
