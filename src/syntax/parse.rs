//! From text to the spanned AST: pest parses by `grammar/cspi.pest`, and one
//! builder function per rule turns its pairs into AST nodes.

use super::ast::*;
use crate::diag::{Diag, Diags};
use pest::Parser as _;
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::sync::OnceLock;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/cspi.pest"]
pub(super) struct CspParser;

/// Parses a whole model file, or reports every syntax error in it.
pub(crate) fn parse(text: &str) -> Result<Model, Diags> {
    within_bounds(text)?;
    let mut pairs = match CspParser::parse(Rule::model, text) {
        Ok(pairs) => pairs,
        Err(first) => {
            return Err(super::errors::all(text, first, |t| {
                CspParser::parse(Rule::model, t).err()
            }));
        }
    };
    let model = pairs
        .next()
        .ok_or_else(|| Diag::new("cspi::syntax", "empty parse"))?;
    let mut items = Vec::new();
    for pair in model.into_inner() {
        if pair.as_rule() != Rule::EOI {
            items.push(item(pair)?);
        }
    }
    Ok(Model { items })
}

/// Refuses texts that would make the parser recurse too deep or work too long.
fn within_bounds(text: &str) -> Result<(), Diag> {
    let (depth, at) = nesting(text);
    if depth > MAX_NESTING {
        return Err(Diag::new(
            "cspi::syntax::too_deep",
            format!("brackets nest {depth} levels deep"),
        )
        .label(Span::new(at, at + 1), "this bracket")
        .help(format!(
            "cspi accepts at most {MAX_NESTING} levels of brackets; name parts with `let`"
        )));
    }
    let operators = text.bytes().filter(|b| b"+-*/%^!<>=&|".contains(b)).count();
    if operators > MAX_OPERATORS {
        return Err(Diag::new(
            "cspi::syntax::too_long",
            format!("the model has {operators} operator symbols"),
        )
        .help(format!(
            "cspi accepts at most {MAX_OPERATORS}; write long sums and conjunctions with sum(...) and forall"
        )));
    }
    Ok(())
}

fn span_of(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

fn item(pair: Pair<Rule>) -> Result<Item, Diag> {
    let span = span_of(&pair);
    let rule = pair.as_rule();
    let mut inner = pair.into_inner();
    let mut next = || {
        inner
            .next()
            .ok_or_else(|| Diag::new("cspi::syntax", "malformed item"))
    };
    Ok(match rule {
        Rule::param_item => {
            let name = ident(next()?);
            let (mut index_sets, mut ty, mut value) = (Vec::new(), None, None);
            for part in inner {
                match part.as_rule() {
                    Rule::index_sets => {
                        index_sets = part.into_inner().map(expr).collect::<Result<_, _>>()?
                    }
                    Rule::type_expr => ty = Some(type_expr(part)?),
                    _ => value = Some(expr(part)?),
                }
            }
            Item::Param {
                name,
                index_sets,
                ty,
                value,
            }
        }
        Rule::let_item => Item::Let {
            name: ident(next()?),
            value: expr(next()?)?,
        },
        Rule::var_item => {
            let name = ident(next()?);
            let mut part = next()?;
            let mut index_sets = Vec::new();
            if part.as_rule() == Rule::index_sets {
                index_sets = part.into_inner().map(expr).collect::<Result<_, _>>()?;
                part = next()?;
            }
            let domain = match part.as_rule() {
                Rule::kw_in => VarDomain::In(expr(next()?)?),
                Rule::var_set_of => {
                    let of = part.into_inner().nth(2).ok_or_else(|| malformed(span))?;
                    VarDomain::SetOf(expr(of)?)
                }
                _ => VarDomain::Type(type_expr(part)?),
            };
            if let VarDomain::Type(ty) = &domain {
                super::minizinc::type_before_name(&name, ty)?;
            }
            Item::Var {
                name,
                index_sets,
                domain,
            }
        }
        Rule::enum_item => {
            next()?;
            let name = ident(next()?);
            Item::Enum {
                name,
                members: inner.map(ident).collect(),
            }
        }
        Rule::type_item => {
            next()?;
            Item::Type {
                name: ident(next()?),
                ty: type_expr(next()?)?,
            }
        }
        Rule::predicate_item | Rule::function_item => {
            next()?;
            let name = ident(next()?);
            let mut params = Vec::new();
            let mut body = None;
            for part in inner {
                if part.as_rule() == Rule::fn_params {
                    for p in part.into_inner() {
                        let mut q = p.into_inner();
                        let pname = ident(q.next().ok_or_else(|| malformed(span))?);
                        let ty = q.next().map(type_expr).transpose()?;
                        params.push(FnParam { name: pname, ty });
                    }
                } else {
                    body = Some(expr(part)?);
                }
            }
            Item::Function(std::rc::Rc::new(FunctionDef {
                name,
                params,
                body: body.ok_or_else(|| malformed(span))?,
                predicate: rule == Rule::predicate_item,
            }))
        }
        Rule::constraint_item => Item::Constraint(expr(next()?)?),
        Rule::search_item => {
            let mut scope = Vec::new();
            let mut options = Vec::new();
            for p in inner {
                match p.as_rule() {
                    Rule::expr_list => scope = expr_list(p)?,
                    _ => {
                        let mut kv = p.into_inner();
                        let (Some(key), Some(value)) = (kv.next(), kv.next()) else {
                            return Err(Diag::new("cspi::syntax", "malformed search option"));
                        };
                        options.push(SearchOption {
                            key: ident(key),
                            value: ident(value),
                        });
                    }
                }
            }
            Item::Search {
                scope,
                options,
                span,
            }
        }
        Rule::output_item => Item::Output(expr_list(next()?)?),
        Rule::project_item => Item::Project(expr_list(next()?)?),
        Rule::crossword_item => {
            next()?;
            Item::Crossword {
                name: ident(next()?),
                value: expr(next()?)?,
            }
        }
        Rule::objective_item => {
            let maximize = next()?.as_str() == "maximize";
            Item::Objective {
                maximize,
                expr: expr(next()?)?,
                span,
            }
        }
        other => return Err(Diag::new("cspi::syntax", format!("unexpected {other:?}"))),
    })
}

fn ident(pair: Pair<Rule>) -> Ident {
    Ident {
        name: pair.as_str().to_string(),
        span: span_of(&pair),
    }
}

fn type_expr(pair: Pair<Rule>) -> Result<TypeExpr, Diag> {
    let span = span_of(&pair);
    let rule = pair.as_rule();
    let text = pair.as_str().to_string();
    let mut inner = pair.into_inner().peekable();
    let kind = match rule {
        Rule::type_expr => {
            let is_var = inner.peek().map(|p| p.as_rule()) == Some(Rule::kw_var);
            if is_var {
                inner.next();
            }
            let body = type_expr(inner.next().ok_or_else(|| malformed(span))?)?;
            if !is_var {
                return Ok(TypeExpr { span, ..body });
            }
            TypeKind::Var(Box::new(body))
        }
        Rule::ident => {
            return Ok(TypeExpr {
                kind: TypeKind::Named(Ident { name: text, span }),
                span,
            });
        }
        Rule::array_type | Rule::set_type => {
            let elem = inner
                .find(|p| p.as_rule() == Rule::type_expr)
                .ok_or_else(|| malformed(span))?;
            let elem = Box::new(type_expr(elem)?);
            if rule == Rule::array_type {
                TypeKind::Array(elem)
            } else {
                TypeKind::Set(elem)
            }
        }
        Rule::tuple_type => TypeKind::Tuple(inner.map(type_expr).collect::<Result<_, _>>()?),
        Rule::record_type => {
            let mut fields = Vec::new();
            for f in inner {
                let mut q = f.into_inner();
                let name = ident(q.next().ok_or_else(|| malformed(span))?);
                let ty = type_expr(q.next().ok_or_else(|| malformed(span))?)?;
                fields.push((name, ty));
            }
            TypeKind::Record(fields)
        }
        _ => return Err(malformed(span)),
    };
    Ok(TypeExpr { kind, span })
}

fn expr_list(pair: Pair<Rule>) -> Result<Vec<Expr>, Diag> {
    pair.into_inner().map(expr).collect()
}

fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::iff, Assoc::Left))
            .op(Op::infix(Rule::implies, Assoc::Right))
            .op(Op::infix(Rule::or, Assoc::Left))
            .op(Op::infix(Rule::xor, Assoc::Left))
            .op(Op::infix(Rule::and, Assoc::Left))
            .op(Op::infix(Rule::eq, Assoc::Left)
                | Op::infix(Rule::ne, Assoc::Left)
                | Op::infix(Rule::lt, Assoc::Left)
                | Op::infix(Rule::le, Assoc::Left)
                | Op::infix(Rule::gt, Assoc::Left)
                | Op::infix(Rule::ge, Assoc::Left)
                | Op::infix(Rule::in_op, Assoc::Left)
                | Op::infix(Rule::not_in, Assoc::Left)
                | Op::infix(Rule::subset, Assoc::Left)
                | Op::infix(Rule::superset, Assoc::Left))
            .op(Op::infix(Rule::union, Assoc::Left)
                | Op::infix(Rule::diff, Assoc::Left)
                | Op::infix(Rule::symdiff, Assoc::Left))
            .op(Op::infix(Rule::range_op, Assoc::Left))
            .op(Op::infix(Rule::concat, Assoc::Left))
            .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
            .op(Op::infix(Rule::mul, Assoc::Left)
                | Op::infix(Rule::div, Assoc::Left)
                | Op::infix(Rule::modulo, Assoc::Left)
                | Op::infix(Rule::intersect, Assoc::Left))
            .op(Op::prefix(Rule::neg) | Op::prefix(Rule::not))
            .op(Op::infix(Rule::pow, Assoc::Right))
            .op(Op::postfix(Rule::index) | Op::postfix(Rule::field))
    })
}

/// How deep expressions may nest before we refuse them, so that hostile input
/// cannot overflow the stack in the recursive builders and evaluator.
pub(crate) const MAX_NESTING: usize = 200;

/// How many operator symbols a model may contain. Chains of operators build
/// deep trees, and the parser and evaluator recurse on them: this bound (with
/// the large stack `main` gives the pipeline) keeps them from overflowing.
pub(super) const MAX_OPERATORS: usize = 200_000;

fn expr(pair: Pair<Rule>) -> Result<Expr, Diag> {
    let span = span_of(&pair);
    pratt()
        .map_primary(primary)
        .map_prefix(|op, rhs| {
            let rhs = rhs?;
            let span = span_of(&op).to(rhs.span);
            let op = if op.as_rule() == Rule::neg {
                UnOp::Neg
            } else {
                UnOp::Not
            };
            Ok(Expr {
                kind: ExprKind::Unary(op, Box::new(rhs)),
                span,
            })
        })
        .map_postfix(|lhs, op| {
            let lhs = lhs?;
            let span = lhs.span.to(span_of(&op));
            if op.as_rule() == Rule::field {
                let name = op.into_inner().next().ok_or_else(|| malformed(span))?;
                return Ok(Expr {
                    kind: ExprKind::Field(Box::new(lhs), ident(name)),
                    span,
                });
            }
            let args = op
                .into_inner()
                .map(|a| {
                    if a.as_rule() == Rule::full_slice {
                        Ok(None)
                    } else {
                        expr(a).map(Some)
                    }
                })
                .collect::<Result<_, _>>()?;
            Ok(Expr {
                kind: ExprKind::Index(Box::new(lhs), args),
                span,
            })
        })
        .map_infix(|lhs, op, rhs| {
            let (lhs, rhs) = (lhs?, rhs?);
            let op = match op.as_rule() {
                Rule::iff => BinOp::Iff,
                Rule::implies => BinOp::Implies,
                Rule::xor => BinOp::Xor,
                Rule::in_op => BinOp::In,
                Rule::not_in => BinOp::NotIn,
                Rule::or => BinOp::Or,
                Rule::and => BinOp::And,
                Rule::eq => BinOp::Eq,
                Rule::ne => BinOp::Ne,
                Rule::lt => BinOp::Lt,
                Rule::le => BinOp::Le,
                Rule::gt => BinOp::Gt,
                Rule::ge => BinOp::Ge,
                Rule::range_op => BinOp::Range,
                Rule::subset => BinOp::Subset,
                Rule::superset => BinOp::Superset,
                Rule::union => BinOp::Union,
                Rule::diff => BinOp::Diff,
                Rule::symdiff => BinOp::Symdiff,
                Rule::intersect => BinOp::Intersect,
                Rule::concat => BinOp::Concat,
                Rule::add => BinOp::Add,
                Rule::sub => BinOp::Sub,
                Rule::mul => BinOp::Mul,
                Rule::div => BinOp::Div,
                Rule::modulo => BinOp::Mod,
                _ => BinOp::Pow,
            };
            let span = lhs.span.to(rhs.span);
            Ok(Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                span,
            })
        })
        .parse(pair.into_inner())
        .map_err(|e: Diag| e)
        .map(|mut e: Expr| {
            e.span = e.span.to(span);
            e
        })
}

/// The deepest bracket nesting in the text and where it is first reached, so
/// that hostile input cannot overflow the stack of the recursive parser.
/// Brackets inside strings and comments count too: harmless at this depth.
fn nesting(text: &str) -> (usize, usize) {
    let (mut depth, mut max, mut at) = (0usize, 0usize, 0usize);
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    max = depth;
                    at = i;
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    (max, at)
}

fn primary(pair: Pair<Rule>) -> Result<Expr, Diag> {
    let span = span_of(&pair);
    let rule = pair.as_rule();
    let text = pair.as_str();
    let kind = match rule {
        Rule::int => {
            let digits: String = text.chars().filter(|c| *c != '_').collect();
            ExprKind::Int(digits.parse().map_err(|_| {
                Diag::new(
                    "cspi::syntax::int",
                    format!("the number {text} does not fit in 64 bits"),
                )
                .label(span, "too large")
                .help("integers range from -9223372036854775808 to 9223372036854775807")
            })?)
        }
        Rule::string => {
            let mut parts = Vec::new();
            for p in pair.into_inner() {
                match p.as_rule() {
                    Rule::interp => {
                        let e = p.into_inner().next().ok_or_else(|| malformed(span))?;
                        parts.push(FmtPart::Expr(expr(e)?));
                    }
                    _ => parts.push(FmtPart::Text(unescape(p.as_str()))),
                }
            }
            match parts.as_slice() {
                [] => ExprKind::Str(String::new()),
                [FmtPart::Text(t)] => ExprKind::Str(t.clone()),
                _ => ExprKind::Format(parts),
            }
        }
        Rule::boolean => ExprKind::Bool(text == "true"),
        Rule::ident => ExprKind::Name(text.to_string()),
        Rule::paren => {
            let mut inner = pair.into_inner();
            let first = inner.next().ok_or_else(|| malformed(span))?;
            if first.as_rule() == Rule::record_lit {
                let mut fields = Vec::new();
                for f in first.into_inner() {
                    let mut q = f.into_inner();
                    let (Some(name), Some(value)) = (q.next(), q.next()) else {
                        return Err(malformed(span));
                    };
                    fields.push((ident(name), expr(value)?));
                }
                return Ok(Expr {
                    kind: ExprKind::Record(fields),
                    span,
                });
            }
            let first = expr(first)?;
            let Some(tail) = inner.next() else {
                return Ok(first);
            };
            let mut items = vec![first];
            for p in tail.into_inner() {
                items.push(expr(p)?);
            }
            ExprKind::Tuple(items)
        }
        Rule::expr => return expr(pair),
        Rule::list => {
            let mut inner = pair.into_inner();
            let Some(first) = inner.next() else {
                return Ok(Expr {
                    kind: ExprKind::List(Vec::new()),
                    span,
                });
            };
            let first = expr(first)?;
            if inner.peek().map(|p| p.as_rule()) == Some(Rule::comp_tail) {
                let gens = inner.next().and_then(|t| t.into_inner().next());
                let gens = generators(gens.ok_or_else(|| malformed(span))?)?;
                ExprKind::ListComp(Box::new(first), gens)
            } else {
                let mut items = vec![first];
                for p in inner {
                    items.push(expr(p)?);
                }
                ExprKind::List(items)
            }
        }
        Rule::set_lit => {
            let mut inner = pair.into_inner();
            let Some(first) = inner.next() else {
                return Ok(Expr {
                    kind: ExprKind::Set(Vec::new()),
                    span,
                });
            };
            let first = expr(first)?;
            if inner.peek().map(|p| p.as_rule()) == Some(Rule::comp_tail) {
                let gens = inner.next().and_then(|t| t.into_inner().next());
                let gens = generators(gens.ok_or_else(|| malformed(span))?)?;
                ExprKind::SetComp(Box::new(first), gens)
            } else {
                let mut items = vec![first];
                for p in inner {
                    items.push(expr(p)?);
                }
                ExprKind::Set(items)
            }
        }
        Rule::call => {
            let mut inner = pair.into_inner();
            let name = ident(inner.next().ok_or_else(|| malformed(span))?);
            match inner.peek().map(|p| p.as_rule()) {
                Some(Rule::comp_args) => {
                    let mut parts = inner
                        .next()
                        .map(|p| p.into_inner())
                        .ok_or_else(|| malformed(span))?;
                    let (Some(gens), Some(body)) = (parts.next(), parts.next()) else {
                        return Err(malformed(span));
                    };
                    ExprKind::Aggregate(name, generators(gens)?, Box::new(expr(body)?))
                }
                _ => ExprKind::Call(name, inner.map(expr).collect::<Result<_, _>>()?),
            }
        }
        Rule::forall_expr | Rule::exists_expr => {
            let mut inner = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
            let (Some(gens), Some(body)) = (inner.next(), inner.next()) else {
                return Err(malformed(span));
            };
            let (gens, body) = (generators(gens)?, Box::new(expr(body)?));
            if rule == Rule::forall_expr {
                ExprKind::Forall(gens, body)
            } else {
                ExprKind::Exists(gens, body)
            }
        }
        Rule::if_expr => {
            let mut inner = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
            let (Some(c), Some(a), Some(b)) = (inner.next(), inner.next(), inner.next()) else {
                return Err(malformed(span));
            };
            ExprKind::If(Box::new(expr(c)?), Box::new(expr(a)?), Box::new(expr(b)?))
        }
        Rule::let_expr => {
            let mut binds = Vec::new();
            let mut braces = false;
            let mut body = None;
            for p in pair.into_inner().filter(|p| !is_keyword(p.as_rule())) {
                match p.as_rule() {
                    Rule::let_bind => binds.push(let_bind(p, span)?),
                    Rule::let_braces => {
                        braces = true;
                        for b in p.into_inner() {
                            binds.push(let_bind(b, span)?);
                        }
                    }
                    _ => body = Some(Box::new(expr(p)?)),
                }
            }
            ExprKind::Let {
                binds,
                body: body.ok_or_else(|| malformed(span))?,
                braces,
            }
        }
        _ => return Err(malformed(span)),
    };
    Ok(Expr { kind, span })
}

/// One `name = value` of a `let` expression (a MiniZinc type before the
/// name is read and dropped: the value carries its type).
fn let_bind(pair: Pair<Rule>, span: Span) -> Result<(Ident, Expr), Diag> {
    let mut inner = pair.into_inner().filter(|p| p.as_rule() != Rule::type_expr);
    let (Some(name), Some(value)) = (inner.next(), inner.next()) else {
        return Err(malformed(span));
    };
    Ok((ident(name), expr(value)?))
}

fn generators(pair: Pair<Rule>) -> Result<Generators, Diag> {
    let mut gens = Vec::new();
    let mut condition = None;
    for p in pair.into_inner().filter(|p| !is_keyword(p.as_rule())) {
        if p.as_rule() == Rule::generator {
            let mut names = Vec::new();
            let mut source = None;
            for q in p.into_inner().filter(|q| !is_keyword(q.as_rule())) {
                match q.as_rule() {
                    Rule::ident => names.push(ident(q)),
                    _ => source = Some(expr(q)?),
                }
            }
            let span = names.first().map(|n| n.span).unwrap_or(Span::new(0, 0));
            gens.push((names, source.ok_or_else(|| malformed(span))?));
        } else {
            condition = Some(Box::new(expr(p)?));
        }
    }
    Ok(Generators { gens, condition })
}

/// Keyword tokens carry no meaning of their own in the tree.
fn is_keyword(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::kw_forall
            | Rule::kw_exists
            | Rule::kw_if
            | Rule::kw_then
            | Rule::kw_else
            | Rule::kw_end
            | Rule::kw_in
            | Rule::kw_where
            | Rule::kw_let
    )
}

fn malformed(span: Span) -> Diag {
    Diag::new("cspi::syntax", "malformed expression").label(span, "here")
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}
