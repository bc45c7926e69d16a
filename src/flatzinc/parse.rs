//! From FlatZinc text to the items of `ast.rs`: pest parses by
//! `grammar/flatzinc.pest`, and one builder per rule makes the items.

use super::ast::*;
use crate::diag::Diag;
use crate::source::Span;
use pest::Parser as _;
use pest::iterators::Pair;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/flatzinc.pest"]
struct FznParser;

/// FlatZinc nests only in arrays and annotations; deeper text is refused
/// before pest would recurse into it.
const MAX_NESTING: usize = 100;

/// Parses a FlatZinc text, or reports where its syntax is wrong.
pub(super) fn parse(text: &str) -> Result<FznAst, Diag> {
    nesting(text)?;
    let mut pairs = FznParser::parse(Rule::model, text).map_err(|e| syntax_error(&e))?;
    let model = next(&mut pairs, "the model rule matched")?;
    let mut decls = Vec::new();
    let mut constraints = Vec::new();
    let mut solve = None;
    for pair in model.into_inner() {
        match pair.as_rule() {
            Rule::decl => decls.push(decl(pair)?),
            Rule::constraint_item => constraints.push(constraint(pair)?),
            Rule::solve_item => solve = Some(solve_item(pair)?),
            _ => {}
        }
    }
    Ok(FznAst {
        decls,
        constraints,
        solve: solve.ok_or_else(|| malformed("the solve item"))?,
    })
}

fn nesting(text: &str) -> Result<(), Diag> {
    let mut depth = 0usize;
    let mut in_string = false;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'"' => in_string = !in_string,
            b'(' | b'[' | b'{' if !in_string => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(Diag::new(
                        "cspi::fzn::too_deep",
                        format!("brackets nest more than {MAX_NESTING} levels deep"),
                    )
                    .label(Span::new(i, i + 1), "this bracket"));
                }
            }
            b')' | b']' | b'}' if !in_string => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

fn syntax_error(e: &pest::error::Error<Rule>) -> Diag {
    let (start, end) = match e.location {
        pest::error::InputLocation::Pos(p) => (p, p),
        pest::error::InputLocation::Span((a, b)) => (a, b),
    };
    let expected = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => positives
            .iter()
            .map(|r| rule_name(*r))
            .collect::<Vec<_>>()
            .join(", "),
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    let message = if expected.is_empty() {
        "FlatZinc syntax error".to_string()
    } else {
        format!("FlatZinc syntax error: expected {expected}")
    };
    Diag::new("cspi::fzn::syntax", message)
        .label(Span::new(start, end.max(start)), "here")
        .help("cspi reads FlatZinc as MiniZinc 2.6 writes it (minizinc -c, or --solver cspi)")
}

fn rule_name(r: Rule) -> String {
    match r {
        Rule::decl => "a declaration".into(),
        Rule::constraint_item => "a constraint".into(),
        Rule::solve_item => "the solve item".into(),
        Rule::predicate_item => "a predicate declaration".into(),
        Rule::expr | Rule::exprs => "an expression".into(),
        Rule::ident => "a name".into(),
        Rule::int_lit => "an integer".into(),
        Rule::base_type => "a type".into(),
        Rule::annotations => "`::` and an annotation".into(),
        Rule::goal => "satisfy, minimize or maximize".into(),
        Rule::EOI => "the end of the file".into(),
        other => format!("{other:?}"),
    }
}

/// The next part of a parsed rule; the grammar guarantees it, so a missing
/// one is a bug, reported as an error rather than a panic.
fn next<'i>(
    mut it: impl Iterator<Item = Pair<'i, Rule>>,
    what: &str,
) -> Result<Pair<'i, Rule>, Diag> {
    it.next().ok_or_else(|| malformed(what))
}

fn malformed(what: &str) -> Diag {
    Diag::new(
        "cspi::fzn::internal",
        format!("internal error: the parse lacks {what}"),
    )
}

fn span_of(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

fn int(pair: &Pair<Rule>) -> Result<i64, Diag> {
    let t = pair.as_str();
    let (neg, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let parsed = if let Some(h) = digits.strip_prefix("0x") {
        i128::from_str_radix(h, 16)
    } else if let Some(o) = digits.strip_prefix("0o") {
        i128::from_str_radix(o, 8)
    } else {
        digits.parse::<i128>()
    };
    parsed
        .ok()
        .map(|v| if neg { -v } else { v })
        .and_then(|v| i64::try_from(v).ok())
        .ok_or_else(|| {
            Diag::new(
                "cspi::fzn::int_range",
                format!("the integer `{t}` does not fit in 64 bits"),
            )
            .label(span_of(pair), "too large")
        })
}

fn range(pair: Pair<Rule>) -> Result<(i64, i64), Diag> {
    let mut it = pair.into_inner();
    let lo = int(&next(&mut it, "low bound")?)?;
    let hi = int(&next(&mut it, "high bound")?)?;
    Ok((lo, hi))
}

fn set(pair: Pair<Rule>) -> Result<Vec<i64>, Diag> {
    pair.into_inner().map(|p| int(&p)).collect()
}

fn ident(pair: Pair<Rule>) -> String {
    pair.as_str().to_string()
}

fn decl(pair: Pair<Rule>) -> Result<Decl, Diag> {
    let span = span_of(&pair);
    let mut array = None;
    let mut var = false;
    let mut base = BaseType::Int;
    let mut type_span = span;
    let mut name = String::new();
    let mut annotations = Vec::new();
    let mut value = None;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::array_dims => {
                let index = next(p.into_inner(), "index set")?;
                let s = span_of(&index);
                let mut inner = index.into_inner();
                array = Some(match (inner.next(), inner.next()) {
                    (Some(lo), Some(hi)) if lo.as_rule() == Rule::int_lit => {
                        let (lo, hi) = (int(&lo)?, int(&hi)?);
                        if lo != 1 || hi < 0 {
                            return Err(Diag::new(
                                "cspi::fzn::index_set",
                                format!("a FlatZinc array is indexed 1..n, not {lo}..{hi}"),
                            )
                            .label(s, "this index set"));
                        }
                        usize::try_from(hi).unwrap_or(usize::MAX)
                    }
                    // `array [int] of ...`: the length is the value's.
                    _ => usize::MAX,
                });
            }
            Rule::var_kw => var = true,
            Rule::base_type => {
                type_span = span_of(&p);
                base = base_type(p)?;
            }
            Rule::ident => name = ident(p),
            Rule::annotations => annotations = exprs_of(p)?,
            Rule::expr => value = Some(expr(p)?),
            _ => {}
        }
    }
    Ok(Decl {
        array,
        var,
        base,
        name,
        annotations,
        value,
        span,
        type_span,
    })
}

fn base_type(pair: Pair<Rule>) -> Result<BaseType, Diag> {
    let inner = next(pair.into_inner(), "a type")?;
    Ok(match inner.as_rule() {
        Rule::kw_bool => BaseType::Bool,
        Rule::kw_int => BaseType::Int,
        Rule::kw_float => BaseType::Float,
        Rule::float_range => BaseType::FloatRange,
        Rule::int_range => {
            let (lo, hi) = range(inner)?;
            BaseType::IntRange(lo, hi)
        }
        Rule::int_set => BaseType::IntSet(set(inner)?),
        Rule::set_of => BaseType::SetOf,
        r => unreachable!("base type {r:?}"),
    })
}

fn constraint(pair: Pair<Rule>) -> Result<Constraint, Diag> {
    let span = span_of(&pair);
    let mut it = pair.into_inner();
    let name_pair = next(&mut it, "constraint name")?;
    let name_span = span_of(&name_pair);
    let name = ident(name_pair);
    let args = exprs_of(next(&mut it, "arguments")?)?;
    let annotations = exprs_of(next(&mut it, "annotations")?)?;
    Ok(Constraint {
        name,
        name_span,
        args,
        annotations,
        span,
    })
}

fn solve_item(pair: Pair<Rule>) -> Result<Solve, Diag> {
    let mut it = pair.into_inner();
    let annotations = exprs_of(next(&mut it, "annotations")?)?;
    let mut g = next(&mut it, "goal")?.into_inner();
    let kind = next(&mut g, "goal kind")?;
    let goal = match kind.as_rule() {
        Rule::satisfy => Goal::Satisfy,
        Rule::minimize => Goal::Minimize(expr(next(&mut g, "objective")?)?),
        _ => Goal::Maximize(expr(next(&mut g, "objective")?)?),
    };
    Ok(Solve { annotations, goal })
}

/// The expressions of an `exprs` or `annotations` pair.
fn exprs_of(pair: Pair<Rule>) -> Result<Vec<Expr>, Diag> {
    pair.into_inner().map(expr_or_bare).collect()
}

/// An `expr`, or the call or name an annotation list holds directly.
fn expr_or_bare(pair: Pair<Rule>) -> Result<Expr, Diag> {
    if pair.as_rule() == Rule::expr {
        expr(pair)
    } else {
        atom(pair)
    }
}

fn expr(pair: Pair<Rule>) -> Result<Expr, Diag> {
    atom(next(pair.into_inner(), "an expression")?)
}

fn atom(p: Pair<Rule>) -> Result<Expr, Diag> {
    let span = span_of(&p);
    let kind = match p.as_rule() {
        Rule::bool_lit => ExprKind::Bool(p.as_str().starts_with('t')),
        Rule::int_lit => ExprKind::Int(int(&p)?),
        Rule::float_lit => ExprKind::Float(p.as_str().parse().unwrap_or(f64::NAN)),
        Rule::int_range => {
            let (lo, hi) = range(p)?;
            ExprKind::Range(lo, hi)
        }
        Rule::float_range => ExprKind::FloatRange,
        Rule::int_set => ExprKind::Set(set(p)?),
        Rule::array => ExprKind::Array(exprs_of(next(p.into_inner(), "items")?)?),
        Rule::call => {
            let mut it = p.into_inner();
            let name = ident(next(&mut it, "name")?);
            ExprKind::Call(name, exprs_of(next(&mut it, "arguments")?)?)
        }
        Rule::access => {
            let mut it = p.into_inner();
            let name = ident(next(&mut it, "name")?);
            ExprKind::Access(name, int(&next(&mut it, "index")?)?)
        }
        Rule::ident => ExprKind::Ident(ident(p)),
        Rule::string => {
            let s = p.as_str();
            ExprKind::Str(s[1..s.len() - 1].to_string())
        }
        r => unreachable!("expression {r:?}"),
    };
    Ok(Expr { kind, span })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_declarations_constraints_and_solve() {
        let text = "predicate my_pred(array [int] of var int: x);\n\
            array [1..2] of int: c = [1, -1];\n\
            var 1..4: x :: output_var;\n\
            var {1, 3, 5}: y;\n\
            var bool: b;\n\
            array [1..2] of var int: xs :: output_array([1..2]) = [x, y];\n\
            constraint int_lin_le(c, [x, y], -1) :: domain;\n\
            solve :: int_search(xs, first_fail, indomain_min, complete) minimize x;\n";
        let ast = parse(text).unwrap();
        assert_eq!(ast.decls.len(), 5);
        assert_eq!(ast.decls[0].array, Some(2));
        assert!(!ast.decls[0].var);
        assert_eq!(ast.decls[1].base, BaseType::IntRange(1, 4));
        assert_eq!(ast.decls[2].base, BaseType::IntSet(vec![1, 3, 5]));
        assert_eq!(ast.decls[3].base, BaseType::Bool);
        assert!(ast.decls[4].var);
        assert_eq!(ast.constraints[0].name, "int_lin_le");
        assert_eq!(ast.constraints[0].args.len(), 3);
        assert!(matches!(ast.solve.goal, Goal::Minimize(_)));
        assert!(
            matches!(&ast.solve.annotations[0].kind, ExprKind::Call(n, a) if n == "int_search" && a.len() == 4)
        );
    }

    #[test]
    fn syntax_errors_point_at_the_text() {
        let text = "var 1..3: x;\nconstraint int_le(x 2);\nsolve satisfy;\n";
        let d = parse(text).unwrap_err();
        let (span, _) = &d.labels[0];
        // On the constraint's line, at the argument pest stopped in.
        assert!((13..36).contains(&span.start), "{span:?}");
        assert!(parse("var 1..3: x;\n").is_err(), "no solve item");
        let deep = format!(
            "var 1..3: x;\nconstraint f({}1{});\nsolve satisfy;",
            "[".repeat(500),
            "]".repeat(500)
        );
        assert_eq!(parse(&deep).unwrap_err().code, "cspi::fzn::too_deep");
    }

    #[test]
    fn literals() {
        let text = "int: a = 0x1F;\nint: b = -0o17;\nfloat: f = 1.5e3;\nset of int: s = 1..3;\nsolve satisfy;";
        let ast = parse(text).unwrap();
        let v: Vec<_> = ast
            .decls
            .iter()
            .map(|d| d.value.clone().unwrap().kind)
            .collect();
        assert_eq!(v[0], ExprKind::Int(31));
        assert_eq!(v[1], ExprKind::Int(-15));
        assert_eq!(v[2], ExprKind::Float(1500.0));
        assert_eq!(v[3], ExprKind::Range(1, 3));
        assert!(parse("int: a = 99999999999999999999;\nsolve satisfy;").is_err());
    }
}
