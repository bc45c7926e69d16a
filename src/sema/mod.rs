//! Semantic analysis: resolves names, merges `--param` overrides and data
//! files, folds constants, unrolls comprehensions and produces a [`Model`].
//! It collects every error it can (one per item) before giving up.

mod builtins;
mod crossword;
mod data;
mod datafiles;
pub(crate) mod dict;
mod enums;
mod eval;
mod format;
mod functions;
mod globals;
mod items;
mod logic;
mod ops;
mod order;
mod origin;
mod output;
mod params;
mod range;
mod records;
mod rounding;
mod set_build;
mod sets;
mod strings;
pub(crate) use origin::walk_names;
mod tables;
mod text;
mod trie;
mod types;
pub(crate) mod value;

pub(crate) use data::MAX_FILE_BYTES;

use crate::diag::{Diag, Diags, Source, did_you_mean};
use crate::model::{Formula, Model};
use crate::reader::Sandbox;
use crate::syntax::ast;
use indexmap::IndexMap;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::rc::Rc;
use value::Value;

/// The most values one variable's domain may hold.
pub(crate) const MAX_DOMAIN: u64 = 1 << 24;
/// The most 64-bit bitset words all declared domains may take together
/// (128 MiB, twice that with the trail's bookkeeping).
pub(crate) const MAX_DOMAIN_WORDS: u64 = 1 << 24;
/// The most elements (variables, array items, comprehension steps) one model may create.
pub(crate) const MAX_ELEMENTS: u64 = 50_000_000;

/// The code of the diagnostic for a time limit reached while loading: an
/// answer (`UNKNOWN`), not a model error.
pub(crate) const TIME_LIMIT: &str = "cspi::time-limit";
/// The code of the diagnostic that ends loading on SIGINT or SIGTERM.
pub(crate) const INTERRUPTED: &str = "cspi::interrupted";
/// The code of the diagnostics for a word or a length the word list does
/// not have: the model has no solution (`--try-blocks` goes on past it).
pub(crate) const NO_WORDS: &str = "cspi::data::no_words";

/// A `--param NAME=VALUE` from the command line.
#[derive(Clone, Debug)]
pub struct ParamOverride {
    pub name: String,
    pub value: String,
}

/// How a model is loaded: its parameters and data, what it may read, and
/// the bounds on building it.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// `--param NAME=VALUE` overrides.
    pub params: Vec<ParamOverride>,
    /// `--sandbox DIR`: the files the model names must lie inside DIR.
    pub sandbox: Option<Sandbox>,
    /// Parameters whose value is the text of a file (`--param NAME=@path`),
    /// with the path: messages name the path instead of repeating the text.
    pub param_files: Vec<(String, PathBuf)>,
    /// JSON data files (`--data FILE`), later ones overriding earlier ones.
    pub data_files: Vec<PathBuf>,
    /// `--memory-limit`: the most live heap bytes while the model is built
    /// (counted by the binary's allocator, [`crate::memory`]).
    pub memory_limit: Option<u64>,
    /// `--time-limit` counted from the start of the run: loading stops here.
    pub deadline: Option<std::time::Instant>,
    /// Set from outside (SIGINT, SIGTERM) to stop loading as the time limit
    /// does.
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Also build the constraints as written ([`Model::written`]) for the
    /// independent checker: a second run of sema, so only where solutions
    /// are checked (`--check-solutions`, the library by default, tests).
    pub as_written: bool,
    /// Cells (row, column, from 0) to read as blocks in the model's
    /// picture and .ipuz crosswords: the cheater blocks `cspi solve
    /// --try-blocks` tries ([`crate::cheaters`]).
    pub blocks: Vec<(usize, usize)>,
}

impl Default for LoadOptions {
    /// The library's defaults: no parameters, no sandbox or bounds, and the
    /// constraints as written kept for the checker.
    fn default() -> Self {
        LoadOptions {
            params: Vec::new(),
            sandbox: None,
            param_files: Vec::new(),
            data_files: Vec::new(),
            memory_limit: None,
            deadline: None,
            stop: None,
            as_written: true,
            blocks: Vec::new(),
        }
    }
}

impl LoadOptions {
    /// The defaults with these `--param` overrides.
    pub fn with_params(params: &[ParamOverride]) -> Self {
        LoadOptions {
            params: params.to_vec(),
            ..LoadOptions::default()
        }
    }
}

impl Input<'_> {
    /// `--memory-limit` against the live heap bytes as this building sees
    /// them ([`crate::memory::Mark::used`]), at `span`.
    pub(crate) fn memory_within(&self, span: ast::Span) -> Result<(), Diag> {
        match self.options.memory_limit {
            Some(limit) if self.memory.used() > limit => Err(Diag::new(
                "cspi::memory",
                format!(
                    "building the model takes more than {} of memory",
                    crate::memory::shown(limit)
                ),
            )
            .label(span, "building this pushed it past the limit")
            .help("make the model smaller, or raise the limit: --memory-limit 8G")),
            _ => Ok(()),
        }
    }
}

impl LoadOptions {
    /// The time limit and the stop flag, at `span`: a diagnostic coded
    /// [`TIME_LIMIT`] or [`INTERRUPTED`], which the command line turns into
    /// a run stopped while loading.
    pub fn in_time(&self, span: ast::Span) -> Result<(), Diag> {
        if self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
        {
            return Err(
                Diag::new(INTERRUPTED, "interrupted while the model was being built")
                    .label(span, "still building this"),
            );
        }
        if self
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
        {
            return Err(Diag::new(
                TIME_LIMIT,
                "the time limit ran out while the model was being built",
            )
            .label(span, "still building this"));
        }
        Ok(())
    }

    /// The value of an override as messages show it: `@path` for a file's
    /// text, otherwise the value itself, shortened.
    pub fn shown_value(&self, o: &ParamOverride) -> String {
        match self.param_file(&o.name) {
            Some(path) => format!("@{}", crate::reader::shown(path)),
            None => crate::reader::shorten(&o.value, 60),
        }
    }

    /// The file whose text parameter `name` was given, if any.
    pub fn param_file(&self, name: &str) -> Option<&PathBuf> {
        self.param_files
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, p)| p)
    }
}

/// Everything the checker needs besides the syntax tree.
pub(crate) struct Input<'a> {
    pub source: &'a Source,
    /// The directory that relative paths written in the model are resolved against.
    pub model_dir: PathBuf,
    pub overrides: &'a [ParamOverride],
    /// JSON data files (`--data FILE`), later ones overriding earlier ones.
    pub data_files: &'a [PathBuf],
    pub options: &'a LoadOptions,
    /// The heap when the building began, which `--memory-limit` counts from.
    pub memory: crate::memory::Mark,
}

/// Checks a parsed model and builds the [`Model`], or reports every error found.
pub(crate) fn check(input: &Input, syntax: &ast::Model) -> Result<Model, Diags> {
    let mut model = check_once(input, syntax, false)?;
    output::deferred_type_errors(input, &model)?;
    model.render = output::program(input, &model);
    if input.options.as_written {
        model.written = written_constraints(input, syntax, &model);
    }
    Ok(model)
}

/// The constraints as written (see [`Model::written`]), from a second run
/// of sema in as-written mode; `None` if that run does not declare the same
/// variables (it cannot, short of a bug: declarations never depend on folding).
fn written_constraints(input: &Input, syntax: &ast::Model, folded: &Model) -> Option<Vec<Formula>> {
    let written = check_once(input, syntax, true).ok()?;
    let same_vars = written.vars.len() == folded.vars.len()
        && written
            .vars
            .iter()
            .zip(&folded.vars)
            .all(|(a, b)| a.name == b.name);
    same_vars.then_some(written.constraints)
}

/// One run of the checker, pass by pass (`as_written`: see
/// [`Checker::as_written`]).
fn check_once(input: &Input, syntax: &ast::Model, as_written: bool) -> Result<Model, Diags> {
    let mut cx = Checker::new(input, as_written);
    cx.read_call_graph(syntax);
    cx.read_declarations(syntax);
    cx.read_data_files();
    cx.check_items(syntax);
    cx.check_overrides_used();
    cx.check_data_used();
    cx.finish()
}

/// Whether `d` only complains about a value whose definition failed (and
/// was reported there): it would be an echo of that error.
pub(crate) fn is_echo_of_poison(d: &Diag) -> bool {
    let poison = Value::Poison.type_name();
    d.message.contains(poison) || d.labels.iter().any(|(_, l)| l.contains(poison))
}

/// The state of one run of the checker.
/// An array value and the table rows converted from it.
type RowsMemo = (Rc<value::Array>, std::sync::Arc<Vec<Vec<i64>>>);

pub(crate) struct Checker<'a> {
    pub input: &'a Input<'a>,
    /// Whether this run builds the constraints as written, for the
    /// independent checker ([`Model::written`]), rather than folded for the
    /// engine: sums stay as written (`ops::linear`), constant factors are
    /// not distributed and the 64-bit bound check is skipped, so that a bug
    /// in folding shows as a rejected solution (docs/ARCHITECTURE.md,
    /// invariant 5a).
    pub as_written: bool,
    pub model: Model,
    pub globals: IndexMap<String, Value>,
    /// Comprehension variables in scope, innermost last.
    pub locals: Vec<(String, Value)>,
    pub errors: Diags,
    /// Elements created so far, against [`MAX_ELEMENTS`].
    pub elements: u64,
    /// A chain of products `a * b * c` (`ops.rs`, `product_chain`): the
    /// bounds of the product built so far, handed to the next step, so that
    /// each step checks its range in the size of its new factor, not of the
    /// whole chain (which made `x * x * ... * x` cost quadratic time).
    pub chain_bounds: Option<range::Bounds>,
    /// Steps of loading that create no element, for [`Checker::tick`].
    pub ticks: u64,
    /// Bitset words of the domains declared so far, against [`MAX_DOMAIN_WORDS`].
    pub domain_words: u64,
    /// Strings that came from the command line: paths in them are relative to
    /// the working directory rather than to the model file.
    pub cli_strings: HashSet<Rc<str>>,
    /// Strings that are the text of a `--param NAME=@path` file, with the
    /// parameter: used as a path, they are named by their origin, never shown.
    pub file_texts: HashMap<Rc<str>, (String, PathBuf)>,
    /// The texts of every `--param NAME=@path` file, whatever the
    /// parameter's type: no message repeats them or any part of them
    /// ([`Checker::is_param_file_text`]).
    pub secret_texts: Vec<Rc<str>>,
    pub params_seen: HashSet<String>,
    /// Whether a `search` item was seen (only one is allowed).
    pub search_seen: bool,
    /// Crossword layouts by name, for drawing them in output.
    pub crosswords: IndexMap<String, std::sync::Arc<crate::model::CrosswordLayout>>,
    /// User-defined predicates and functions, as they are defined.
    pub functions: IndexMap<String, Rc<functions::Function>>,
    /// Every function of the model and the names its body calls, read before
    /// checking, to explain recursion.
    pub call_graph: IndexMap<String, (Rc<ast::FunctionDef>, Vec<ast::Ident>)>,
    /// Where every name of the file is declared, to explain a use before
    /// the declaration.
    pub declared: HashMap<String, ast::Span>,
    /// Functions whose definition was rejected: their calls are poison.
    pub failed_functions: HashSet<String>,
    /// Enums by name.
    pub enums: IndexMap<String, std::sync::Arc<crate::model::EnumType>>,
    /// Types named by `type` items.
    pub types: IndexMap<String, types::Type>,
    /// The data files, parsed.
    pub data: Vec<params::DataFile>,
    /// Whether a data file could not be read or parsed (parameters it may
    /// have given are then not reported missing).
    pub data_failed: bool,
    /// For each parameter or `let` that reads data, the data parameters it
    /// reads (see origin.rs).
    pub data_deps: IndexMap<String, Vec<String>>,
    /// Table rows already converted from an array value (one `let` of rows
    /// used by many `table` constraints is converted and stored once).
    pub table_rows: Vec<RowsMemo>,
    /// Calls of user functions with constant arguments, and their values
    /// (`functions.rs`, `call_user`).
    pub memo: HashMap<functions::MemoKey, (Vec<Value>, Value)>,
    /// The position of the item being checked, in the model file.
    pub item_index: usize,
    /// In a run over a solution (`output.rs`): every declared variable's
    /// value by name; `None` when loading.
    pub fixed: Option<HashMap<String, Value>>,
    /// In a run over a solution: the deferred output expressions (item,
    /// position in its list), and their texts as written.
    pub deferred_here: HashSet<(usize, usize)>,
    pub texts: Vec<String>,
    /// Comprehensions that met a failed value (`eval.rs`, `comprehension`).
    pub poison_hits: u64,
    /// The conditions decided by variables under which the current binding
    /// of the comprehensions being unrolled counts (`i in s` of a set
    /// variable, a `where` over variables), with their spans, innermost last.
    pub guards: Vec<(Value, ast::Span)>,
}

impl<'a> Checker<'a> {
    fn new(input: &'a Input<'a>, as_written: bool) -> Self {
        Checker {
            input,
            as_written,
            model: Model::default(),
            globals: IndexMap::new(),
            locals: Vec::new(),
            errors: Diags::default(),
            elements: 0,
            chain_bounds: None,
            ticks: 0,
            domain_words: 0,
            cli_strings: HashSet::new(),
            file_texts: HashMap::new(),
            secret_texts: Vec::new(),
            params_seen: HashSet::new(),
            search_seen: false,
            crosswords: IndexMap::new(),
            functions: IndexMap::new(),
            failed_functions: HashSet::new(),
            call_graph: IndexMap::new(),
            declared: HashMap::new(),
            enums: IndexMap::new(),
            types: IndexMap::new(),
            data: Vec::new(),
            data_failed: false,
            data_deps: IndexMap::new(),
            table_rows: Vec::new(),
            memo: HashMap::new(),
            item_index: 0,
            fixed: None,
            deferred_here: HashSet::new(),
            texts: Vec::new(),
            poison_hits: 0,
            guards: Vec::new(),
        }
    }

    /// Pass: every function of the model and the names its body calls, to
    /// explain recursion.
    fn read_call_graph(&mut self, syntax: &ast::Model) {
        self.call_graph = functions::call_graph(&syntax.items);
    }

    /// Pass: where every name is declared, to explain a use before its
    /// declaration.
    fn read_declarations(&mut self, syntax: &ast::Model) {
        self.declared = order::declarations(&syntax.items);
    }

    /// Pass: each item in order, one error per item (a failed `assert`
    /// stops here: what follows would only echo it).
    fn check_items(&mut self, syntax: &ast::Model) {
        for (i, item) in syntax.items.iter().enumerate() {
            self.item_index = i;
            if let Err(d) = self.item(item) {
                // A value that failed was reported where it failed: what
                // it then breaks stays quiet.
                if is_echo_of_poison(&d) {
                    continue;
                }
                let stop = d.code == "cspi::assert";
                self.errors.push(d.in_source(self.input.source));
                if stop {
                    break;
                }
            }
        }
    }

    /// Pass: every `--param` names a parameter of the model.
    fn check_overrides_used(&mut self) {
        for o in self.input.overrides {
            if !self.params_seen.contains(&o.name) {
                let params: Vec<&str> = self.params_seen.iter().map(String::as_str).collect();
                let mut d = Diag::new(
                    "cspi::param::unknown",
                    format!(
                        "--param {}: the model has no parameter `{}`",
                        o.name, o.name
                    ),
                )
                .usage();
                d = match did_you_mean(&o.name, params.iter().copied()) {
                    Some(s) => d.help(format!("did you mean `{s}`?")),
                    None if params.is_empty() => d.help("this model declares no parameters"),
                    None => {
                        let mut names = params.clone();
                        names.sort_unstable();
                        d.help(format!("its parameters are: {}", names.join(", ")))
                    }
                };
                self.errors.push(d);
            }
        }
    }

    fn finish(self) -> Result<Model, Diags> {
        if self.errors.is_empty() {
            Ok(self.model)
        } else {
            Err(self.errors)
        }
    }

    /// Counts `n` new elements against the model-wide budget.
    pub(crate) fn spend(&mut self, n: u64, span: ast::Span) -> Result<(), Diag> {
        let before = self.elements;
        self.elements = self.elements.saturating_add(n);
        self.within_limits(before, span)?;
        if self.elements > MAX_ELEMENTS {
            return Err(Diag::new("cspi::size", "the model is too large")
                .label(span, "this pushes it past the limit")
                .help(format!("cspi builds at most {MAX_ELEMENTS} variables, array items and comprehension steps")));
        }
        Ok(())
    }

    /// Checks `--memory-limit` at every step and the time limit and the stop
    /// flag every 4,096 elements (reading the clock costs more than counting).
    fn within_limits(&self, before: u64, span: ast::Span) -> Result<(), Diag> {
        self.input.memory_within(span)?;
        if before >> 12 != self.elements >> 12 {
            self.input.options.in_time(span)?;
        }
        Ok(())
    }

    /// Whether `text` is, or is part of, the text of a `--param NAME=@path`
    /// file: a message shows such text never, not even a part of it (a
    /// line, a word, a member of a JSON array).
    pub(crate) fn is_param_file_text(&self, text: &str) -> bool {
        !text.is_empty() && self.secret_texts.iter().any(|t| t.contains(text))
    }

    /// A step of loading that creates no element (an operator of a chain, a
    /// value of a data file), or makes one of the elements a declaration
    /// spent at once: the same limits, read every 4,096 steps.
    pub(crate) fn tick(&mut self, span: ast::Span) -> Result<(), Diag> {
        self.ticks += 1;
        if self.ticks.is_multiple_of(4096) {
            self.input.memory_within(span)?;
            self.input.options.in_time(span)?;
        }
        Ok(())
    }

    /// The text of the model at a span, for labels in output.
    pub(crate) fn text(&self, span: ast::Span) -> &str {
        self.input
            .source
            .text
            .get(span.start..span.end)
            .unwrap_or("")
    }
}
