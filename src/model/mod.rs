//! The model: pure data that the front end produces and the engine consumes.
//!
//! A [`Model`] holds variables with their initial domains, constraints as
//! [`Formula`]s over [`Term`]s, the search specification and what to print. It
//! knows nothing of propagators, so it can be printed, checked and tested
//! without an engine; `lower::lower` is the one place that lowers it.

pub mod check;
pub(crate) mod dfa;
pub(crate) mod domain;
pub(crate) mod exact;
pub mod globals;
pub(crate) mod mdd;
pub mod regex;
pub mod search;
pub(crate) mod term;

pub use domain::Domain;
pub use search::{
    Guide, LnsKind, Propagation, Restarts, SearchPhase, SearchSpec, ValSelect, VarSelect,
};
pub use term::{Assignment, CmpOp, Formula, GlobalArg, GlobalCall, Term};

use crate::source::Span;
use indexmap::IndexMap;
use std::sync::Arc;

/// Index of a variable in [`Model::vars`].
pub type VarId = usize;

/// A sorted list of distinct words, the domain universe of word variables.
/// Words are lowercase letters; a word's length and positions count letters
/// (chars), and a letter's value is its code point.
#[derive(Debug)]
pub struct WordList {
    /// The dictionary's name, for messages.
    pub name: String,
    pub words: Vec<String>,
    /// The score of each word (`word;score` lines), or empty when none is given.
    pub scores: Vec<i64>,
}

impl WordList {
    /// The score of the word with index `value`, if the list has scores.
    pub(crate) fn score(&self, value: i64) -> Option<i64> {
        self.scores.get(usize::try_from(value).ok()?).copied()
    }

    /// The lowest and highest score of the words with indices in `lo..=hi`.
    pub(crate) fn score_range(&self, lo: i64, hi: i64) -> Option<(i64, i64)> {
        let lo = usize::try_from(lo.max(0)).ok()?;
        let hi = usize::try_from(hi)
            .ok()?
            .min(self.scores.len().checked_sub(1)?);
        let s = self.scores.get(lo..=hi)?;
        Some((*s.iter().min()?, *s.iter().max()?))
    }
}

/// The geometry of a crossword: which cells are open and where each slot's
/// word variable lies, for drawing a filled grid.
#[derive(Debug)]
pub struct CrosswordLayout {
    pub width: usize,
    pub height: usize,
    /// Row-major; false for a block (or, in a slot file, a cell no slot covers).
    pub open: Vec<bool>,
    /// Letters given in a picture grid, row-major.
    pub given: Vec<Option<char>>,
    /// The cells the fill writes, row-major: every open cell, or only the
    /// marked region (`*` cells) of a partly filled grid.
    pub region: Vec<bool>,
    pub slots: Vec<CrosswordSlot>,
    /// Read from a picture, .ipuz or .puz grid, where blocks can be added; false
    /// for a slot file, which lists its entries rather than its blocks.
    pub picture: bool,
}

impl CrosswordLayout {
    /// The letter of each cell, row-major: the given letters, and the
    /// slots' words in the cells the fill writes (`None`: a block, or an
    /// open cell left empty).
    pub(crate) fn letters(&self, model: &Model, values: &[i64]) -> Vec<Option<char>> {
        let mut cells = self.given.clone();
        for s in &self.slots {
            let word = model.format_value(s.var, values[s.var]);
            for (i, ch) in word.chars().take(s.len).enumerate() {
                let c = s.cell(i, self.width);
                if self.region[c] {
                    cells[c] = Some(ch);
                }
            }
        }
        cells
    }
}

impl CrosswordSlot {
    /// Where the slot lies, as constructors say it: `5 down, row 1, column 1`.
    pub(crate) fn place(&self) -> String {
        format!(
            "{} {}, row {}, column {}",
            self.len,
            if self.across { "across" } else { "down" },
            self.y + 1,
            self.x + 1
        )
    }

    /// The row-major index of the slot's `i`-th cell in a grid `width` wide.
    pub(crate) fn cell(&self, i: usize, width: usize) -> usize {
        if self.across {
            self.y * width + self.x + i
        } else {
            (self.y + i) * width + self.x
        }
    }
}

/// One slot: the word variable written from `(x, y)` across or down.
#[derive(Clone, Debug)]
pub struct CrosswordSlot {
    pub var: VarId,
    pub x: usize,
    pub y: usize,
    pub len: usize,
    pub across: bool,
}

/// An enumerated type: `enum Colour = {red, green, blue};`. Its values are
/// the integers 1..=n in the model; `members[k - 1]` is the name of `k`.
#[derive(Debug, PartialEq, Eq)]
pub struct EnumType {
    pub name: String,
    pub members: Vec<String>,
}

impl EnumType {
    /// The name of value `k`, or `#k` outside the enum.
    pub(crate) fn member(&self, k: i64) -> String {
        usize::try_from(k - 1)
            .ok()
            .and_then(|i| self.members.get(i))
            .cloned()
            .unwrap_or_else(|| format!("#{k}"))
    }
}

#[derive(Clone, Debug)]
pub enum VarKind {
    Int,
    /// 0 is false, 1 is true.
    Bool,
    /// The value `k` stands for the enum's member `k` (from 1).
    Enum(Arc<EnumType>),
    /// The value `i` stands for `list.words[i]`.
    Word(Arc<WordList>),
}

/// How a value is shown: a number, a truth value, or a name.
#[derive(Clone, Debug, PartialEq)]
pub enum Shown {
    Int(i64),
    Bool(bool),
    Text(String),
}

impl std::fmt::Display for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Shown::Int(k) => write!(f, "{k}"),
            Shown::Bool(b) => write!(f, "{b}"),
            Shown::Text(t) => f.write_str(t),
        }
    }
}

/// How the values of a term are written, from the type of what it computes.
#[derive(Clone, Debug)]
pub enum Display {
    Int,
    Bool,
    Enum(Arc<EnumType>),
    /// Like the variable: a word variable's word.
    As(VarId),
}

/// A piece of formatted output: text, or a value of the solution.
#[derive(Clone, Debug)]
pub enum FormatPiece {
    Text(String),
    Value(Term, Display),
}

#[derive(Clone, Debug)]
pub struct Variable {
    /// The name as the user would write it: `x`, `cell[1,2]`.
    pub name: String,
    /// The initial values; shared by every variable of an array.
    pub domain: Domain,
    pub kind: VarKind,
    /// Introduced by cspi rather than declared: never counted, never printed.
    pub aux: bool,
    pub span: Span,
}

/// A declared variable or array of variables, as the user named it.
#[derive(Clone, Debug)]
pub struct VarGroup {
    /// One `(low, high)` index range per dimension; empty for a single variable.
    pub dims: Vec<(i64, i64)>,
    /// Row-major. For set variables, each set's membership variables one
    /// after the other (see [`SetLayout`]).
    pub vars: Vec<VarId>,
    /// For each dimension indexed by an enum, the enum (its indices are printed by name).
    pub index_enums: Vec<Option<Arc<EnumType>>>,
    /// Set variables (`var s: set of 1..n;`): the values each set may hold.
    pub set: Option<Arc<SetLayout>>,
}

/// How set variables are represented: one 0/1 variable per value a set may
/// hold (its upper bound), 1 when the value is in the set. So a set's
/// value is one vector of these, and counting the vectors counts the sets.
#[derive(Debug, PartialEq, Eq)]
pub struct SetLayout {
    /// The values a set may hold, increasing.
    pub elems: Vec<i64>,
    /// The enum whose members the values are, if any.
    pub of_enum: Option<Arc<EnumType>>,
}

impl SetLayout {
    /// The values in one set of a solution, given its membership variables.
    pub(crate) fn members(&self, vars: &[VarId], values: &[i64]) -> Vec<i64> {
        self.elems
            .iter()
            .zip(vars)
            .filter(|&(_, &v)| values[v] != 0)
            .map(|(&e, _)| e)
            .collect()
    }

    /// How one value of the set is written: a number or an enum member.
    pub(crate) fn shown(&self, e: i64) -> Shown {
        match &self.of_enum {
            Some(en) => Shown::Text(en.member(e)),
            None => Shown::Int(e),
        }
    }
}

impl VarGroup {
    /// The variables of item `k` (row-major) of the group: one variable, or
    /// a set's membership variables.
    pub(crate) fn item_vars(&self, k: usize) -> &[VarId] {
        match &self.set {
            None => &self.vars[k..k + 1],
            Some(s) => &self.vars[k * s.elems.len()..(k + 1) * s.elems.len()],
        }
    }

    /// The text of item `k` of a set group for people: `{1, 3, 5}`.
    pub(crate) fn set_text(&self, layout: &SetLayout, k: usize, values: &[i64]) -> String {
        let shown: Vec<String> = layout
            .members(self.item_vars(k), values)
            .into_iter()
            .map(|e| layout.shown(e).to_string())
            .collect();
        format!("{{{}}}", shown.join(", "))
    }
}

#[derive(Clone, Debug)]
pub enum OutputItem {
    /// A two-dimensional array drawn as a grid; `box_size` draws separators.
    /// With `symbols`, value `i` is drawn as `symbols[i - 1]` (a puzzle typed
    /// in letters prints back in letters).
    Grid {
        name: String,
        group: VarGroup,
        box_size: Option<usize>,
        symbols: Option<Vec<char>>,
    },
    /// `label = value` lines for a term.
    Value { label: String, term: Term },
    /// A declared variable or array printed as `name = value`.
    Group { name: String, group: VarGroup },
    /// Literal text.
    Text(String),
    /// Text with values of the solution interpolated (`"row \(i): \(q[i])"`).
    Format(Vec<FormatPiece>),
    /// An array of codes written as text: code `i` is `symbols[i - 1]`, other
    /// values (such as 0 for padding) write nothing.
    Spell {
        label: String,
        group: VarGroup,
        symbols: Vec<String>,
    },
    /// Not printed per solution: summed over all solutions and printed at the end.
    Total { label: String, term: Term },
    /// A crossword drawn as its filled grid (JSON: the grid's rows).
    Crossword {
        name: String,
        layout: Arc<CrosswordLayout>,
    },
    /// `board(q)`: a chessboard with a piece in row `i` at column `q[i]`
    /// (n-queens); printed as the array, drawn as a board (`--svg`).
    Board { name: String, group: VarGroup },
    /// `path(cell, cells, cols)`: a board of `cells` (texts, `cols` to a
    /// row) and the path the array `cell` traces through it, by cell number
    /// from 1, up to its first value off the board (a Boggle word). Only
    /// drawn (`--svg`); the array prints as a variable does.
    Path {
        group: VarGroup,
        cells: Vec<String>,
        cols: usize,
    },
    /// An expression of `output` that needs the solution's values (`where
    /// x[i]`, `follow(next, 1)`, a function over variables): the front end
    /// that built the model writes it from each solution ([`Render`]); item
    /// `item` of the model file, expression `expr` of its `output` list.
    Deferred { item: usize, expr: usize },
    /// `quality(xw, t)`: the fill's lowest and mean word score and the
    /// entries scoring below `t` (JSON: `xw_quality`).
    Quality {
        name: String,
        layout: Arc<CrosswordLayout>,
        below: i64,
    },
}

/// The scores of a filled crossword's entries: what a constructor checks
/// before accepting a fill.
pub struct FillQuality {
    pub lowest: i64,
    pub mean: f64,
    /// The entries scoring below the threshold, worst first: (word, score).
    pub below: Vec<(String, i64)>,
    pub entries: usize,
}

impl FillQuality {
    /// `None` when the grid's word lists have no scores.
    pub(crate) fn of(
        model: &Model,
        layout: &CrosswordLayout,
        values: &[i64],
        below: i64,
    ) -> Option<Self> {
        let mut scored = Vec::with_capacity(layout.slots.len());
        for s in &layout.slots {
            let VarKind::Word(list) = &model.vars[s.var].kind else {
                return None;
            };
            let score = *list.scores.get(usize::try_from(values[s.var]).ok()?)?;
            scored.push((model.format_value(s.var, values[s.var]), score));
        }
        let lowest = scored.iter().map(|e| e.1).min()?;
        let mean = scored.iter().map(|e| e.1 as f64).sum::<f64>() / scored.len() as f64;
        let mut low: Vec<(String, i64)> = scored.iter().filter(|e| e.1 < below).cloned().collect();
        low.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
        Some(FillQuality {
            lowest,
            mean,
            below: low,
            entries: scored.len(),
        })
    }
}

impl OutputItem {
    /// The text of one cell of a `Grid` item: its symbol, else the value.
    pub(crate) fn grid_cell(
        model: &Model,
        symbols: Option<&[char]>,
        var: VarId,
        value: i64,
    ) -> String {
        match symbols.and_then(|s| s.get(usize::try_from(value).ok()?.checked_sub(1)?)) {
            Some(c) => c.to_string(),
            None => model.format_value(var, value),
        }
    }

    /// The text of a `Spell` item for one solution.
    pub(crate) fn spell(group: &VarGroup, symbols: &[String], values: &[i64]) -> String {
        group
            .vars
            .iter()
            .filter_map(|&v| {
                let i = usize::try_from(values[v]).ok()?.checked_sub(1)?;
                symbols.get(i).map(String::as_str)
            })
            .collect()
    }
}

/// Where a constraint came from, for `cspi explain` and `cspi check`: one
/// per entry of [`Model::constraints`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The constraint's text in the model: a constraint item's expression, or
    /// the body of its `forall`.
    pub span: Span,
    /// The comprehension variables that produced this instance, and their
    /// values as written for people (`r = 3`).
    pub bindings: Vec<(String, String)>,
    /// The data it reads: parameters given on the command line or holding
    /// text (a puzzle, a file name), directly or through `let`s. Empty for a
    /// constraint that only states the rules.
    pub data: Vec<String>,
    /// For a crossword's crossing or given letter: which cell
    /// ([`Model::crosswords`] index, row-major cell), to draw a conflict on
    /// its grid.
    pub cell: Option<(usize, usize)>,
}

impl Origin {
    /// `r = 3, c = 4`, or empty.
    pub fn bindings_text(&self) -> String {
        self.bindings
            .iter()
            .map(|(n, v)| format!("{n} = {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Writes the [`OutputItem::Deferred`] items of a model from one solution:
/// the front end evaluates them again with every variable fixed to its value
/// (as MiniZinc evaluates `output`), so the model stays pure data.
pub trait Render: std::fmt::Debug + Send + Sync {
    /// The text of each deferred item of `model.output`, in order, or a
    /// message saying why they cannot be written.
    fn render(&self, model: &Model, values: &[i64]) -> Result<Vec<String>, String>;
}

#[derive(Clone, Debug)]
pub struct Objective {
    pub maximize: bool,
    pub term: Term,
    /// A lexicographic objective (`minimize lex(a, b)`), empty for a plain
    /// one. `term` then combines the components in mixed radix, each
    /// weighted by the product of the spans of those after it, so that
    /// ordering by `term` is ordering by the components lexicographically:
    /// every search mode optimises it unchanged, and proving its optimum
    /// proves every component's. The components are decoded from it.
    pub lex: Vec<LexPart>,
}

/// One component of a lexicographic objective: its term, lowest value,
/// weight in the combined term and number of values (`weight * span` is the
/// weight of the component before it).
#[derive(Clone, Debug)]
pub struct LexPart {
    pub term: Term,
    pub low: i64,
    pub weight: i64,
    pub span: i64,
}

impl Objective {
    /// The components of a lexicographic objective's combined value, or
    /// `None` for a plain objective.
    pub fn components(&self, value: i64) -> Option<Vec<i64>> {
        if self.lex.is_empty() {
            return None;
        }
        Some(
            self.lex
                .iter()
                .map(|p| p.low + value.div_euclid(p.weight).rem_euclid(p.span))
                .collect(),
        )
    }

    /// The value as people read it: the number, or `lex(3, 5)`.
    pub(crate) fn shown(&self, value: i64) -> String {
        match self.components(value) {
            None => value.to_string(),
            Some(c) => {
                let c: Vec<String> = c.iter().map(i64::to_string).collect();
                format!("lex({})", c.join(", "))
            }
        }
    }

    /// `,"objective_lex":[3,5]` after the combined value in JSON, or nothing.
    pub(crate) fn json_components(&self, value: i64) -> String {
        match self.components(value) {
            None => String::new(),
            Some(c) => {
                let c: Vec<String> = c.iter().map(i64::to_string).collect();
                format!(",\"objective_lex\":[{}]", c.join(","))
            }
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct Model {
    pub vars: Vec<Variable>,
    /// Declared variables and arrays by name, in declaration order.
    pub groups: IndexMap<String, VarGroup>,
    /// A conjunction: every formula must hold.
    pub constraints: Vec<Formula>,
    /// Where each constraint came from (parallel to `constraints`).
    pub origins: Vec<Origin>,
    /// Constraint instances that folded to a constant once the data were
    /// known (true ones are left out of `constraints`), for `cspi check`.
    pub folded: Vec<(Origin, bool)>,
    /// The constraints as written, for the independent checker
    /// ([`check`]): built by a second run of sema with constant folding,
    /// sum merging and distribution turned off, so that the checker does
    /// not share the folding it checks. `None` when not asked for
    /// ([`crate::solve::LoadOptions::as_written`]); the checker then
    /// evaluates `constraints`.
    pub written: Option<Vec<Formula>>,
    pub search: SearchSpec,
    pub output: Vec<OutputItem>,
    pub objective: Option<Objective>,
    /// Variables whose values distinguish solutions; empty means every declared variable.
    pub projection: Vec<VarId>,
    /// What writes the deferred output items, when there are any.
    pub render: Option<Arc<dyn Render>>,
    /// The crosswords declared, by name, for drawing on their grids.
    pub crosswords: Vec<(String, Arc<CrosswordLayout>)>,
    /// Where the model first names a crossword entry by its number
    /// (`xw[5] == "grape"`): a new block renumbers the entries, so
    /// `--try-blocks` refuses such a model.
    pub numbered_entries: Option<Span>,
}

impl Model {
    /// Adds a variable and returns its id.
    pub(crate) fn add_var(&mut self, var: Variable) -> VarId {
        self.vars.push(var);
        self.vars.len() - 1
    }

    /// The variables that tell solutions apart: the projection if one is given,
    /// otherwise every variable the user declared.
    pub(crate) fn solution_vars(&self) -> Vec<VarId> {
        if !self.projection.is_empty() {
            return self.projection.clone();
        }
        (0..self.vars.len())
            .filter(|&v| !self.vars[v].aux)
            .collect()
    }

    /// How a value of `var` is written for people: a number, `true` or
    /// `false`, an enum member or a word.
    pub fn format_value(&self, var: VarId, value: i64) -> String {
        self.shown(var, value).to_string()
    }

    /// A value of `var` as its kind shows it (JSON writes `Text` as a string).
    pub(crate) fn shown(&self, var: VarId, value: i64) -> Shown {
        match &self.vars[var].kind {
            VarKind::Int => Shown::Int(value),
            VarKind::Bool => Shown::Bool(value != 0),
            VarKind::Enum(e) => Shown::Text(e.member(value)),
            VarKind::Word(list) => Shown::Text(
                usize::try_from(value)
                    .ok()
                    .and_then(|i| list.words.get(i))
                    .cloned()
                    .unwrap_or_else(|| format!("#{value}")),
            ),
        }
    }

    /// The texts of the deferred output items for one solution (empty when
    /// there are none).
    pub(crate) fn deferred_texts(&self, values: &[i64]) -> Result<Vec<String>, String> {
        match &self.render {
            Some(r) => r.render(self, values),
            None => Ok(Vec::new()),
        }
    }

    /// The text of formatted output for one solution.
    pub(crate) fn format_text(&self, pieces: &[FormatPiece], values: &[i64]) -> String {
        let mut out = String::new();
        for p in pieces {
            match p {
                FormatPiece::Text(t) => out.push_str(t),
                FormatPiece::Value(term, display) => match term.eval(self, values) {
                    None => out.push_str("undefined"),
                    Some(v) => out.push_str(&match display {
                        Display::Int => v.to_string(),
                        Display::Bool => (v != 0).to_string(),
                        Display::Enum(e) => e.member(v),
                        Display::As(var) => self.format_value(*var, v),
                    }),
                },
            }
        }
        out
    }
}
