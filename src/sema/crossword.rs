//! Crosswords: `crossword xw = slots(path, dict);` or `= picture(path, dict);`
//! declares one word variable per slot and posts a word-intersection
//! constraint (`a[i] == b[j]`) for every cell two slots share, plus one
//! `w[i] == letter` for every letter given in a picture grid. The grid
//! files are read by `formats::grid`.

use super::Checker;
use super::data::InFile;
use super::value::{Array, Value};
use crate::diag::{Diag, Source};
use crate::formats::dictionary::Dictionary;
use crate::formats::grid::{
    Geometry, check_symmetric, parse_ipuz, parse_picture, parse_slots, with_blocks,
};
use crate::model::{
    CmpOp, CrosswordLayout, CrosswordSlot, Formula, Term, VarGroup, VarKind, Variable,
};
use crate::syntax::ast::{Expr, ExprKind, Ident, Span};
use std::rc::Rc;
use std::sync::Arc;

impl Checker<'_> {
    /// The `crossword NAME = slots(...)` / `picture(...)` item.
    pub(super) fn crossword(&mut self, name: &Ident, value: &Expr) -> Result<(), Diag> {
        self.define(name, Value::Poison)?;
        let usage = || {
            Diag::new(
                "cspi::crossword",
                "a crossword is `slots(path, dict)`, `slots(path, dict, width, height)` or `picture(path, dict [, symmetric])`",
            )
            .label(value.span, "here")
            .help("for example: crossword xw = picture(\"grid.txt\", dictionary(\"words.txt\"));")
        };
        let ExprKind::Call(kind, arg_exprs) = &value.kind else {
            return Err(usage());
        };
        let mut args = Vec::with_capacity(arg_exprs.len());
        for a in arg_exprs {
            args.push((self.eval(a)?, a.span));
        }
        if args.iter().any(|(v, _)| matches!(v, Value::Poison)) {
            return Ok(());
        }
        let mut symmetric = false;
        let size = match (kind.name.as_str(), &args[..]) {
            ("slots", [_, _]) | ("picture", [_, _]) => None,
            ("picture", [_, _, (Value::Bool(b), _)]) => {
                symmetric = *b;
                None
            }
            ("slots", [_, _, (Value::Int(w), _), (Value::Int(h), _)]) if *w > 0 && *h > 0 => {
                Some((*w as usize, *h as usize))
            }
            _ => return Err(usage()),
        };
        let (Value::Str(path), pspan) = &args[0] else {
            return Err(usage());
        };
        let Value::Dict(dict) = &args[1].0 else {
            return Err(Diag::new(
                "cspi::type",
                format!("expected a dictionary, found {}", args[1].0.type_name()),
            )
            .label(args[1].1, "here")
            .help("load one with dictionary(\"words.txt\")"));
        };
        let puz = path.to_ascii_lowercase().ends_with(".puz");
        if puz && kind.name == "slots" {
            return Err(Diag::new(
                "cspi::crossword",
                "a .puz file is a drawn grid, not a slot file",
            )
            .label(*pspan, "this .puz file")
            .help("read it as a picture: crossword xw = picture(\"grid.puz\", words);"));
        }
        let src = if puz {
            // Binary: read as the picture of its grid, which diagnostics show.
            let bytes = self.read_binary(path, *pspan)?;
            let shown = crate::reader::shown(&self.resolve(path));
            let picture = crate::formats::puz::picture(&bytes, &shown)
                .in_file(&Source::new(shown.clone(), ""))?;
            Source::new(shown, picture)
        } else {
            self.read_file(path, *pspan)?
        };
        let blocks = &self.input.options.blocks;
        let geo = if kind.name == "slots" {
            if !blocks.is_empty() {
                return Err(Diag::new(
                    "cspi::crossword",
                    "blocks can be added to picture, .ipuz and .puz grids, not to a slot file",
                )
                .label(value.span, "a slot file"));
            }
            parse_slots(&src, size).in_file(&src)?
        } else if path.to_ascii_lowercase().ends_with(".ipuz") {
            self.parse_paced(&src, |go_on| parse_ipuz(&src, go_on))?
        } else {
            parse_picture(&src).in_file(&src)?
        };
        let geo = if blocks.is_empty() {
            geo
        } else {
            with_blocks(&src, geo, blocks).in_file(&src)?
        };
        if symmetric {
            check_symmetric(&src, &geo).in_file(&src)?;
        }
        self.spend(geo.slots.len() as u64, name.span)?;
        self.declare_crossword(name, &geo, dict, &src, kind.name != "slots")
    }

    /// The output item `quality(xw, t)`.
    pub(super) fn quality_item(
        &mut self,
        args: &[Expr],
        span: Span,
    ) -> Result<crate::model::OutputItem, Diag> {
        let usage = || {
            Diag::new(
                "cspi::output",
                "quality(xw, t) takes a crossword and a score: it reports the fill's lowest and mean score and the entries below t",
            )
            .label(span, "here")
            .help("for example: output xw, quality(xw, 50);")
        };
        let [grid, threshold] = args else {
            return Err(usage());
        };
        let ExprKind::Name(n) = &grid.kind else {
            return Err(usage());
        };
        let Some(layout) = self.crosswords.get(n).cloned() else {
            return Err(usage());
        };
        let Value::Int(below) = self.eval(threshold)? else {
            return Err(usage());
        };
        Ok(crate::model::OutputItem::Quality {
            name: n.clone(),
            layout,
            below,
        })
    }

    fn declare_crossword(
        &mut self,
        name: &Ident,
        geo: &Geometry,
        dict: &Dictionary,
        src: &Source,
        picture: bool,
    ) -> Result<(), Diag> {
        let mut vars = Vec::with_capacity(geo.slots.len());
        let mut slots = Vec::with_capacity(geo.slots.len());
        for (k, s) in geo.slots.iter().enumerate() {
            // A length's words are indexed at its first slot: with a list of
            // millions, a tenth of a second each.
            self.input.options.in_time(name.span)?;
            let list = dict.words_of_length(s.len);
            if list.words.is_empty() {
                let e = crate::formats::Error::new(
                    super::NO_WORDS,
                    format!(
                        "no word of the dictionary `{}` fits this slot of length {}",
                        dict.name, s.len
                    ),
                )
                .label(s.span, "this slot".to_string())
                .help(format!(
                    "the dictionary's words have lengths {}",
                    super::dict::lengths(dict)
                ));
                return Err(super::data::in_file(e, src));
            }
            let var = self.model.add_var(Variable {
                name: format!("{}[{}]", name.name, k + 1),
                domain: crate::model::Domain::Range(0, list.words.len() as i64 - 1),
                kind: VarKind::Word(list),
                aux: false,
                span: name.span,
            });
            vars.push(var);
            slots.push(CrosswordSlot {
                var,
                x: s.x,
                y: s.y,
                len: s.len,
                across: s.across,
            });
        }
        // Which (slot, position) pairs cover each cell.
        let mut cover: Vec<Vec<(usize, usize)>> = vec![Vec::new(); geo.width * geo.height];
        for (k, s) in geo.slots.iter().enumerate() {
            for i in 0..s.len {
                let (x, y) = if s.across {
                    (s.x + i, s.y)
                } else {
                    (s.x, s.y + i)
                };
                cover[y * geo.width + x].push((k, i));
            }
        }
        let which = self.model.crosswords.len();
        let row_column = |c: usize| {
            vec![
                ("row".to_string(), (c / geo.width + 1).to_string()),
                ("column".to_string(), (c % geo.width + 1).to_string()),
            ]
        };
        for (c, pairs) in cover.iter().enumerate() {
            for w in pairs.windows(2) {
                let (a, b) = (w[0], w[1]);
                self.model.constraints.push(Formula::Cmp(
                    CmpOp::Eq,
                    Term::Letter(vars[a.0], a.1),
                    Term::Letter(vars[b.0], b.1),
                ));
                self.model.origins.push(crate::model::Origin {
                    span: name.span,
                    bindings: row_column(c),
                    data: Vec::new(),
                    cell: Some((which, c)),
                });
            }
            if let Some(letter) = geo.given[c] {
                for &(k, i) in pairs {
                    self.model.constraints.push(Formula::Cmp(
                        CmpOp::Eq,
                        Term::Letter(vars[k], i),
                        Term::Const(i64::from(u32::from(letter))),
                    ));
                    let mut bindings = row_column(c);
                    bindings.push(("letter".into(), letter.to_string()));
                    bindings.push(("entry".into(), self.model.vars[vars[k]].name.clone()));
                    self.model.origins.push(crate::model::Origin {
                        span: name.span,
                        bindings,
                        data: vec![src.name.clone()],
                        cell: Some((which, c)),
                    });
                }
            }
        }
        let layout = Arc::new(CrosswordLayout {
            width: geo.width,
            height: geo.height,
            open: geo.open.clone(),
            given: geo.given.clone(),
            region: geo.region.clone(),
            slots,
            picture,
        });
        let n = vars.len() as i64;
        self.model.groups.insert(
            name.name.clone(),
            VarGroup {
                dims: vec![(1, n)],
                vars: vars.clone(),
                index_enums: vec![None],
                set: None,
            },
        );
        self.model
            .crosswords
            .push((name.name.clone(), Arc::clone(&layout)));
        self.crosswords.insert(name.name.clone(), layout);
        let items = vars
            .iter()
            .map(|&v| Value::Term(Rc::new(Term::Var(v))))
            .collect();
        self.globals
            .insert(name.name.clone(), Value::Array(Rc::new(Array::list(items))));
        Ok(())
    }
}
