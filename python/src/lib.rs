//! The native half of the `cspi` Python package (PyO3): loading a model,
//! running a search on its own thread, and turning solutions into Python
//! values. The Python half (`cspi/__init__.py`) gives it its public face:
//! keyword arguments, the `Solution` dict, iterators, docstrings.
//!
//! Every search runs on a thread of its own and hands its solutions over a
//! bounded channel. The calling thread waits with the GIL released and
//! checks for signals between waits, so Ctrl-C (a notebook's interrupt)
//! sets the search's stop flag; a consumer that stops reading (a `break`,
//! a dropped iterator) closes the channel and the search stops at its next
//! solution, or at once through the same flag.

use cspi::diag::Diags;
use cspi::model::Model;
use cspi::model::search::{Guide, LnsKind, Named, Propagation, Restarts, ValSelect, VarSelect};
use cspi::solve::ParamOverride;
use cspi::solve::{self, LoadOptions, ModelSource, Options, Probe};
use cspi::solve::{Limits, MemoryLimit, Next};
use cspi::source::Source;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Rust's allocations in the extension counted, as in the binary, so that a
/// load's `memory_limit` bounds what building the model really takes.
#[global_allocator]
static ALLOCATOR: cspi::memory::Counting = cspi::memory::Counting;

pyo3::create_exception!(
    cspi,
    ModelError,
    pyo3::exceptions::PyException,
    "A model or its data is wrong; the message is cspi's rendered diagnostic."
);

/// The stack of the threads that load and search: as the binary's pipeline
/// thread (`src/main.rs`), so that deeply nested models do not overflow the
/// Python thread's stack. Only what is touched is ever mapped.
const STACK: usize = 1 << 30;

/// How often a waiting caller looks for Ctrl-C.
const POLL: Duration = Duration::from_millis(50);

/// Where a model's text comes from.
#[derive(Clone)]
enum Text {
    File(PathBuf),
    Str {
        name: String,
        text: String,
        dir: PathBuf,
    },
}

/// `memory_limit`: the most heap bytes cspi may hold in this process while
/// the model is built (as the command line counts them; models loaded
/// before and still alive count too).
fn load_on_thread(
    text: &Text,
    overrides: &[ParamOverride],
    data_files: &[PathBuf],
    memory_limit: Option<u64>,
    blocks: &[(usize, usize)],
) -> Result<(Model, Source), String> {
    let options = LoadOptions {
        params: overrides.to_vec(),
        data_files: data_files.to_vec(),
        memory_limit,
        blocks: blocks.to_vec(),
        ..LoadOptions::default()
    };
    let text = text.clone();
    let loaded = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let source = match &text {
                Text::File(p) => ModelSource::File(p),
                Text::Str { name, text, dir } => ModelSource::text_in(name, text, dir),
            };
            let parsed = solve::parse(source).map_err(|d| render(&d))?;
            let model = solve::load(&parsed, &options).map_err(|d| render(&d))?;
            Ok((model, parsed.source().clone()))
        })
        .map_err(|e| format!("cannot start the loading thread: {e}"))?
        .join();
    loaded.unwrap_or_else(|_| Err("cspi panicked while loading the model (a bug)".into()))
}

/// Diagnostics as the command line prints them when not on a terminal.
fn render(diags: &Diags) -> String {
    diags
        .0
        .iter()
        .map(cspi::diag::render_plain)
        .collect::<String>()
        .trim_end()
        .to_string()
}

/// A loaded (parsed and checked) model.
#[pyclass(module = "cspi._cspi", frozen)]
struct Loaded {
    text: Text,
    overrides: Vec<ParamOverride>,
    data_files: Vec<PathBuf>,
    memory_limit: Option<u64>,
    /// Blocks added to its crossword (row, column from 0): a grid
    /// `try_blocks` opened.
    blocks: Vec<(usize, usize)>,
    model: Arc<Model>,
    /// The model's text, which explanations point into.
    source: Source,
}

fn overrides_of(pairs: Vec<(String, String)>) -> Vec<ParamOverride> {
    pairs
        .into_iter()
        .map(|(name, value)| ParamOverride { name, value })
        .collect()
}

fn loaded(
    py: Python<'_>,
    text: Text,
    overrides: Vec<ParamOverride>,
    data_files: Vec<PathBuf>,
    memory_limit: Option<u64>,
    blocks: Vec<(usize, usize)>,
) -> PyResult<Loaded> {
    let (model, source) = py
        .detach(|| load_on_thread(&text, &overrides, &data_files, memory_limit, &blocks))
        .map_err(ModelError::new_err)?;
    Ok(Loaded {
        text,
        overrides,
        data_files,
        memory_limit,
        blocks,
        model: Arc::new(model),
        source,
    })
}

/// A memory limit as bytes (an int) or as the command line writes it ("512M").
fn memory_limit(limit: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    let Some(limit) = limit.filter(|l| !l.is_none()) else {
        return Ok(None);
    };
    let bytes = match limit.extract::<u64>() {
        Ok(b) => b,
        Err(_) => {
            let text: String = limit.extract().map_err(|_| {
                PyValueError::new_err(
                    "memory_limit: give bytes (an int) or a size such as \"512M\"",
                )
            })?;
            cspi::memory::parse_size(&text)
                .map_err(|e| PyValueError::new_err(format!("memory_limit: {e}")))?
        }
    };
    if bytes == 0 {
        return Err(PyValueError::new_err("memory_limit: give a size above 0"));
    }
    Ok(Some(bytes))
}

/// Reads and checks a model file; `params` are `(name, value)` pairs as
/// `--param` takes them, `data` JSON data files as `--data` does,
/// `memory_limit` as `--memory-limit` (bytes or "512M").
#[pyfunction]
#[pyo3(signature = (path, params, data, memory_limit=None))]
fn load_file(
    py: Python<'_>,
    path: PathBuf,
    params: Vec<(String, String)>,
    data: Vec<PathBuf>,
    memory_limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<Loaded> {
    let limit = self::memory_limit(memory_limit)?;
    loaded(
        py,
        Text::File(path),
        overrides_of(params),
        data,
        limit,
        Vec::new(),
    )
}

/// Checks model text; relative paths in it resolve against `dir`.
#[pyfunction]
#[pyo3(signature = (text, name, dir, params, data, memory_limit=None))]
fn load_text(
    py: Python<'_>,
    text: String,
    name: String,
    dir: PathBuf,
    params: Vec<(String, String)>,
    data: Vec<PathBuf>,
    memory_limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<Loaded> {
    let limit = self::memory_limit(memory_limit)?;
    loaded(
        py,
        Text::Str { name, text, dir },
        overrides_of(params),
        data,
        limit,
        Vec::new(),
    )
}

/// What kind of run, for its defaults.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Solutions one by one, up to a limit.
    Solutions,
    Count,
    Optimize,
}

fn strategy<T: Named>(name: &str) -> PyResult<T> {
    T::from_name(name).ok_or_else(|| {
        let hint = match T::synonym(name) {
            Some(ours) => format!(" (cspi calls it `{ours}`)"),
            None => cspi::diag::did_you_mean(name, T::names())
                .map(|n| format!(" (did you mean `{n}`?)"))
                .unwrap_or_default(),
        };
        PyValueError::new_err(format!(
            "unknown {} `{name}`{hint}; valid names: {}",
            T::WHAT,
            T::names().join(", ")
        ))
    })
}

fn get<'py, T: FromPyObjectOwned<'py>>(
    opts: &Bound<'py, PyDict>,
    key: &str,
) -> PyResult<Option<T>> {
    match opts.get_item(key)? {
        Some(v) if !v.is_none() => v.extract::<T>().map(Some).map_err(|e| {
            let e: PyErr = e.into();
            PyValueError::new_err(format!("option `{key}`: {e}"))
        }),
        _ => Ok(None),
    }
}

use pyo3::conversion::FromPyObjectOwned;

const KNOWN: &[&str] = &[
    "var",
    "val",
    "propagation",
    "restarts",
    "lns",
    "guide",
    "seed",
    "time_limit",
    "node_limit",
    "threads",
    "check",
];

/// The run's options from the keyword arguments.
fn options(
    model: &Model,
    kind: Kind,
    limit: Option<u64>,
    opts: &Bound<'_, PyDict>,
    stop: &Arc<AtomicBool>,
) -> PyResult<Options> {
    for (k, _) in opts.iter() {
        let k: String = k.extract()?;
        if !KNOWN.contains(&k.as_str()) {
            let hint = cspi::diag::did_you_mean(&k, KNOWN.iter().copied())
                .map(|n| format!(" (did you mean `{n}`?)"))
                .unwrap_or_default();
            return Err(PyValueError::new_err(format!(
                "unknown search option `{k}`{hint}; valid: {}",
                KNOWN.join(", ")
            )));
        }
    }
    let mut search = model.search.clone();
    if let Some(v) = get::<String>(opts, "var")? {
        search.var = strategy::<VarSelect>(&v)?;
    }
    if let Some(v) = get::<String>(opts, "val")? {
        search.val = strategy::<ValSelect>(&v)?;
    }
    if let Some(v) = get::<String>(opts, "propagation")? {
        search.propagation = strategy::<Propagation>(&v)?;
    }
    if let Some(v) = get::<String>(opts, "restarts")? {
        search.restarts = strategy::<Restarts>(&v)?;
    }
    if let Some(v) = get::<String>(opts, "lns")? {
        search.lns = strategy::<LnsKind>(&v)?;
    }
    if let Some(v) = get::<String>(opts, "guide")? {
        search.guide = strategy::<Guide>(&v)?;
    }
    if let Some(s) = get::<u64>(opts, "seed")? {
        search.seed = s;
    }
    solve::check_strategy(model, &search)
        .map_err(|d| PyValueError::new_err(render(&Diags::from(d))))?;
    let time = seconds("time_limit", get::<f64>(opts, "time_limit")?)?;
    let node_limit = get::<u64>(opts, "node_limit")?;
    // As the command line: threads not asked for are every core when the
    // whole search space is explored, after a one-thread probe.
    let asked = get::<usize>(opts, "threads")?;
    let whole = limit.is_none() || kind != Kind::Solutions;
    let threads = match asked {
        Some(n) => n.max(1),
        None if whole && node_limit.is_none() => {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        }
        None => 1,
    };
    let check = get::<bool>(opts, "check")?.unwrap_or(false);
    Ok(Options {
        search,
        check,
        count_only: kind == Kind::Count,
        threads,
        probe: asked.is_none().then_some(Probe::DEFAULT),
        limits: Limits {
            solutions: match kind {
                Kind::Solutions => limit,
                Kind::Count | Kind::Optimize => None,
            },
            nodes: node_limit,
            time,
            stop: Some(Arc::clone(stop)),
            progress: None,
            memory: None,
        },
        ..Options::default()
    })
}

/// What the search thread sends.
enum Message {
    Solution(Vec<i64>),
    Done(Box<End>),
}

/// The end of a run, as Python sees it.
struct End {
    status: &'static str,
    objective: Option<i64>,
    stats: Vec<(&'static str, u64)>,
    improvements: Vec<(i64, f64)>,
    stopped: bool,
    rejected: Vec<String>,
    /// Where a crossword's search failed, when it stopped before a fill
    /// (`Stats::blame`); empty otherwise.
    blame: Vec<f64>,
}

/// A search running on its own thread: its solutions one by one, then its end.
#[pyclass(module = "cspi._cspi")]
struct Run {
    receiver: Mutex<Option<Receiver<Message>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
    stop: Arc<AtomicBool>,
    end: Mutex<Option<Arc<End>>>,
    interrupted: AtomicBool,
}

impl Run {
    fn start(model: Arc<Model>, options: Options, stop: Arc<AtomicBool>) -> PyResult<Run> {
        let (tx, rx): (SyncSender<Message>, _) = sync_channel(64);
        let thread = std::thread::Builder::new()
            .stack_size(STACK)
            .spawn(move || {
                let count = options.count_only;
                // The model's own variables; the engine's auxiliary ones follow.
                let n = model.vars.len();
                let summary = solve::solve(&model, &options, |values| {
                    if count {
                        return Next::Continue;
                    }
                    match tx.send(Message::Solution(values[..n.min(values.len())].to_vec())) {
                        Ok(()) => Next::Continue,
                        // The consumer went away: stop searching.
                        Err(_) => Next::Stop,
                    }
                });
                // Where a crossword's search failed, when nothing was filled.
                let stuck = !model.crosswords.is_empty() && summary.stopped_before_a_solution();
                let end = End {
                    status: summary.status.name(),
                    objective: summary.objective,
                    stats: summary.stats.fields(),
                    improvements: summary
                        .stats
                        .improvements
                        .iter()
                        .map(|i| (i.objective, i.time.as_secs_f64()))
                        .collect(),
                    stopped: summary.stopped,
                    rejected: summary.rejected,
                    blame: if stuck {
                        summary.stats.blame
                    } else {
                        Vec::new()
                    },
                };
                let _ = tx.send(Message::Done(Box::new(end)));
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start the search: {e}")))?;
        Ok(Run {
            receiver: Mutex::new(Some(rx)),
            thread: Mutex::new(Some(thread)),
            stop,
            end: Mutex::new(None),
            interrupted: AtomicBool::new(false),
        })
    }

    /// Stops the search and waits for its thread.
    fn halt(&self) {
        self.stop.store(true, Ordering::Relaxed);
        // Dropping the receiver unblocks a search waiting to send.
        if let Ok(mut r) = self.receiver.lock() {
            r.take();
        }
        if let Ok(mut t) = self.thread.lock()
            && let Some(t) = t.take()
        {
            let _ = t.join();
        }
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        self.halt();
    }
}

#[pymethods]
impl Run {
    /// The next solution's raw values, or `None` at the end of the run.
    /// Ctrl-C while waiting stops the search and raises KeyboardInterrupt.
    fn next(&self, py: Python<'_>) -> PyResult<Option<Vec<i64>>> {
        loop {
            // The receiver is taken out while waiting (the wait releases
            // the GIL) and put back after.
            let Some(rx) = self.receiver.lock().ok().and_then(|mut r| r.take()) else {
                return Ok(None);
            };
            let (rx, got) = py.detach(move || {
                let got = rx.recv_timeout(POLL);
                (rx, got)
            });
            if let Ok(mut r) = self.receiver.lock() {
                *r = Some(rx);
            }
            match got {
                Ok(Message::Solution(v)) => return Ok(Some(v)),
                Ok(Message::Done(end)) => {
                    if let Ok(mut e) = self.end.lock() {
                        *e = Some(Arc::from(end));
                    }
                    py.detach(|| self.halt());
                    return Ok(None);
                }
                Err(RecvTimeoutError::Timeout) => {
                    // Ctrl-C reaches us as Python's handler's KeyboardInterrupt
                    // (a program with its own SIGINT handler, or with SIGINT
                    // ignored, keeps its choice and the search goes on).
                    if let Err(e) = py.check_signals() {
                        // Stop the search, keep what it ends with, re-raise.
                        self.stop.store(true, Ordering::Relaxed);
                        self.interrupted.store(true, Ordering::Relaxed);
                        py.detach(|| self.drain());
                        return Err(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    py.detach(|| self.halt());
                    return Err(PyRuntimeError::new_err(
                        "the search thread ended without a summary (a bug in cspi)",
                    ));
                }
            }
        }
    }

    /// Stops the search (idempotent); the run's end is then known.
    fn close(&self, py: Python<'_>) {
        self.stop.store(true, Ordering::Relaxed);
        py.detach(|| self.drain());
    }

    /// Whether Ctrl-C stopped this run.
    #[getter]
    fn interrupted(&self) -> bool {
        self.interrupted.load(Ordering::Relaxed)
    }

    /// The end of the run as a dict (`status`, `objective`, `stopped`,
    /// `stats`, `improvements`, `rejected`), or `None` while it runs.
    fn end<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(e) = self.end.lock().ok().and_then(|e| e.clone()) else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("status", e.status)?;
        d.set_item("objective", e.objective)?;
        d.set_item("stopped", e.stopped)?;
        let stats = PyDict::new(py);
        for (k, v) in &e.stats {
            stats.set_item(*k, *v)?;
        }
        d.set_item("stats", stats)?;
        d.set_item("improvements", e.improvements.clone())?;
        d.set_item("rejected", e.rejected.clone())?;
        d.set_item("blame", e.blame.clone())?;
        Ok(Some(d))
    }
}

impl Run {
    /// Reads the channel to its end (solutions dropped), keeping the end.
    fn drain(&self) {
        let rx = self.receiver.lock().ok().and_then(|mut r| r.take());
        if let Some(rx) = rx {
            for m in rx.iter() {
                if let Message::Done(end) = m
                    && let Ok(mut e) = self.end.lock()
                {
                    *e = Some(Arc::from(end));
                }
            }
        }
        self.halt();
    }
}

fn json_to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value as J;
    Ok(match v {
        J::Null => py.None().into_bound(py),
        J::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        J::Number(n) => match n.as_i64() {
            Some(k) => k.into_pyobject(py)?.into_any(),
            None => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        J::String(s) => s.into_pyobject(py)?.into_any(),
        J::Array(a) => {
            let items = a
                .iter()
                .map(|x| json_to_py(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any()
        }
        J::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}

#[pymethods]
impl Loaded {
    /// The same model text checked again with other parameters (added to,
    /// and overriding, those it was loaded with).
    fn with_params(&self, py: Python<'_>, params: Vec<(String, String)>) -> PyResult<Loaded> {
        let mut overrides = self.overrides.clone();
        overrides.extend(overrides_of(params));
        loaded(
            py,
            self.text.clone(),
            overrides,
            self.data_files.clone(),
            self.memory_limit,
            self.blocks.clone(),
        )
    }

    /// Starts a search. `kind`: "solutions", "count" or "optimize";
    /// `limit`: the most solutions (kind "solutions").
    fn start(&self, kind: &str, limit: Option<u64>, opts: &Bound<'_, PyDict>) -> PyResult<Run> {
        let kind = match kind {
            "solutions" => Kind::Solutions,
            "count" => Kind::Count,
            "optimize" => Kind::Optimize,
            k => return Err(PyValueError::new_err(format!("unknown kind of run `{k}`"))),
        };
        if kind == Kind::Optimize && self.model.objective.is_none() {
            return Err(PyValueError::new_err(
                "the model has no objective: add `minimize EXPR;` or `maximize EXPR;`",
            ));
        }
        let stop = Arc::new(AtomicBool::new(false));
        let mut options = options(&self.model, kind, limit, opts, &stop)?;
        // As `--memory-limit` given on the command line: the load's limit
        // holds while the model is lowered and searched too.
        options.limits.memory = self.memory_limit.map(MemoryLimit::new);
        Run::start(Arc::clone(&self.model), options, stop)
    }

    /// A solution's values by name (as `--format json` gives them).
    fn values<'py>(&self, py: Python<'py>, raw: Vec<i64>) -> PyResult<Bound<'py, PyAny>> {
        self.fits(&raw)?;
        let line = cspi::output::json::solution(&self.model, &raw, None);
        let v: serde_json::Value = serde_json::from_str(&line)
            .map_err(|e| PyRuntimeError::new_err(format!("solution JSON: {e}")))?;
        json_to_py(py, &v["values"])
    }

    /// The objective's value in a solution, if the model has one.
    fn objective(&self, raw: Vec<i64>) -> PyResult<Option<i64>> {
        self.fits(&raw)?;
        Ok(self
            .model
            .objective
            .as_ref()
            .and_then(|o| o.term.eval(&self.model, raw.as_slice())))
    }

    /// A solution as the command line prints it for people.
    fn text(&self, raw: Vec<i64>) -> PyResult<String> {
        self.fits(&raw)?;
        Ok(cspi::output::human::solution(&self.model, &raw))
    }

    /// A solution drawn as SVG (as `cspi solve --svg`), or `None` when the
    /// model draws no grid.
    fn svg(&self, raw: Vec<i64>) -> PyResult<Option<String>> {
        self.fits(&raw)?;
        Ok(cspi::output::svg::solution(&self.model, &raw))
    }

    /// A filled crossword as `.ipuz` text (as `cspi solve --ipuz`), or `None`
    /// when the model draws no crossword.
    fn ipuz(&self, raw: Vec<i64>) -> PyResult<Option<String>> {
        self.fits(&raw)?;
        Ok(cspi::output::report::ipuz(&self.model, &raw))
    }

    /// A filled crossword as Across Lite `.puz` bytes (as `cspi solve
    /// --puz`), or `None` when the model draws no crossword; a grid the
    /// format cannot hold is a `ValueError`.
    fn puz<'py>(&self, py: Python<'py>, raw: Vec<i64>) -> PyResult<Option<Bound<'py, PyBytes>>> {
        self.fits(&raw)?;
        match cspi::output::report::puz(&self.model, &raw) {
            None => Ok(None),
            Some(Ok(bytes)) => Ok(Some(PyBytes::new(py, &bytes))),
            Some(Err(why)) => Err(PyValueError::new_err(why)),
        }
    }

    /// The declared variables and arrays, in order.
    fn names(&self) -> Vec<String> {
        self.model.groups.keys().cloned().collect()
    }

    /// The number of variables (declared and auxiliary).
    fn variables(&self) -> usize {
        self.model.vars.len()
    }

    /// Whether the model has an objective.
    fn optimising(&self) -> bool {
        self.model.objective.is_some()
    }

    /// The `top` best-scored values of variable `var` (a crossword slot),
    /// each with the exact number of solutions it leaves (`cspi solve
    /// --suggest`): `(left, [(word, value, score, count)], text)`, `count`
    /// `None` when the time limit stopped it, `text` as the command prints it;
    /// the values counted on `threads` threads at once.
    #[pyo3(signature = (var, top, time_limit=None, threads=1))]
    fn suggest(
        &self,
        py: Python<'_>,
        var: &str,
        top: usize,
        time_limit: Option<f64>,
        threads: usize,
    ) -> PyResult<(u64, Vec<PyCandidate>, String)> {
        threads_in_range(threads)?;
        let v = self.var_named(var)?;
        let stop = Arc::new(AtomicBool::new(false));
        let limits = Limits {
            time: seconds("time_limit", time_limit)?,
            stop: Some(Arc::clone(&stop)),
            memory: self.memory_limit.map(MemoryLimit::new),
            ..Limits::default()
        };
        let model = Arc::clone(&self.model);
        let s = blocking(py, &stop, move || {
            cspi::suggest::suggest(&model, Some(v), top, &limits, threads)
        })?;
        let candidates = s
            .candidates
            .iter()
            .map(|c| {
                (
                    self.model.format_value(v, c.value),
                    c.value,
                    c.score,
                    c.count,
                )
            })
            .collect();
        let text = cspi::output::report::suggestions_text(&self.model, v, &s);
        Ok((s.left, candidates, text))
    }

    /// The values each declared variable keeps after propagation at the
    /// root, by name, and the first crossword's fillability map as text and
    /// SVG (`None` without a crossword); `None` when the model's memory
    /// limit stopped the propagation (Ctrl-C raises KeyboardInterrupt).
    fn fillability(&self, py: Python<'_>) -> PyResult<Option<(Vec<Size>, Option<Pictures>)>> {
        let stop = Arc::new(AtomicBool::new(false));
        let model = Arc::clone(&self.model);
        let limits = Limits {
            stop: Some(Arc::clone(&stop)),
            memory: self.memory_limit.map(MemoryLimit::new),
            ..Limits::default()
        };
        let s = blocking(py, &stop, move || {
            cspi::suggest::suggest(&model, None, 0, &limits, 1)
        })?;
        if s.stopped {
            return Ok(None);
        }
        let vars = &self.model.vars;
        let sizes = (0..vars.len())
            .filter(|&v| !vars[v].aux)
            .map(|v| (vars[v].name.clone(), s.sizes[v]))
            .collect();
        Ok(Some((
            sizes,
            cspi::output::report::fillability(&self.model, &s.sizes),
        )))
    }

    /// Why the model has no solution (`cspi explain`), within `time_limit`
    /// seconds: the answer as text and as its JSON line.
    fn explain(&self, py: Python<'_>, time_limit: f64) -> PyResult<(String, String)> {
        let time = seconds("time_limit", Some(time_limit))?.unwrap_or_default();
        let stop = Arc::new(AtomicBool::new(false));
        let limits = Limits {
            stop: Some(Arc::clone(&stop)),
            memory: self.memory_limit.map(MemoryLimit::new),
            ..Limits::default()
        };
        let model = Arc::clone(&self.model);
        let answer = blocking(py, &stop, move || {
            cspi::explain::explain(&model, time, &limits)
        })?;
        Ok((
            cspi::output::report::explanation_text(&self.model, &self.source, &answer),
            cspi::output::report::explanation_json(&self.model, &self.source, &answer),
        ))
    }

    /// `cspi solve --try-blocks`: the grids searched, each `(blocks, status,
    /// nodes, seconds, unbuilt, line)` (blocks as (row, column) from 1,
    /// `line` as the command prints it), and the grid that filled, if one
    /// did: its model, its fill, its picture. Every fill is checked.
    #[pyo3(signature = (most, time_per_grid, time_limit=None, threads=1))]
    fn try_blocks(
        &self,
        py: Python<'_>,
        most: usize,
        time_per_grid: f64,
        time_limit: Option<f64>,
        threads: usize,
    ) -> PyResult<(Vec<PyTried>, Option<PyOpened>)> {
        if !(1..=3).contains(&most) {
            return Err(PyValueError::new_err(format!(
                "most {most}: give 1 to 3 blocks"
            )));
        }
        threads_in_range(threads)?;
        let per_grid = seconds("time_per_grid", Some(time_per_grid))?.unwrap_or_default();
        let deadline = seconds("time_limit", time_limit)?.map(|t| std::time::Instant::now() + t);
        let stop = Arc::new(AtomicBool::new(false));
        let load = LoadOptions {
            params: self.overrides.clone(),
            data_files: self.data_files.clone(),
            memory_limit: self.memory_limit,
            blocks: self.blocks.clone(),
            deadline,
            stop: Some(Arc::clone(&stop)),
            ..LoadOptions::default()
        };
        let plan = cspi::cheaters::Plan {
            most,
            pool: 12,
            per_grid,
            nodes: None,
            deadline,
            stop: Some(Arc::clone(&stop)),
            threads,
            memory: self.memory_limit.map(MemoryLimit::new),
        };
        let text = self.text.clone();
        type Found = (
            Vec<PyTried>,
            Option<(Arc<Model>, Vec<i64>, cspi::cheaters::BlockSet, Source)>,
        );
        let (tried, found) = blocking(py, &stop, move || -> Result<Found, String> {
            let source = match &text {
                Text::File(p) => ModelSource::File(p),
                Text::Str { name, text, dir } => ModelSource::text_in(name, text, dir),
            };
            let parsed = solve::parse(source).map_err(|d| render(&d))?;
            let mut tried = Vec::new();
            let opened = cspi::cheaters::open_up(&parsed, &load, true, &plan, &|_| {}, |m, t| {
                let width = m.crosswords.first().map_or(1, |(_, l)| l.width);
                tried.push((
                    t.blocks.places(width).into_iter().map(|(r, c)| (r + 1, c + 1)).collect(),
                    t.status.name().to_string(),
                    t.stats.nodes,
                    t.stats.time.as_secs_f64(),
                    t.unbuilt.clone(),
                    t.cut_short,
                    cspi::output::report::tried_line(m, t),
                ));
            });
            let opened = match opened {
                Ok(o) => o,
                // A limit or Ctrl-C while the grid as drawn was loading.
                Err(_) if plan.deadline.is_some_and(|d| std::time::Instant::now() >= d) => None,
                Err(d) => return Err(render(&d)),
            };
            if let Some(o) = opened.as_ref().filter(|o| !o.tried.rejected.is_empty()) {
                return Err(format!(
                    "the independent checker rejected a fill; this is a bug in cspi, please report it: {}",
                    o.tried.rejected[0]
                ));
            }
            Ok((
                tried,
                opened.map(|o| (o.model, o.values, o.tried.blocks, parsed.source().clone())),
            ))
        })?
        .map_err(ModelError::new_err)?;
        let found = match found {
            None => None,
            Some((model, values, set, source)) => {
                let width = model.crosswords.first().map_or(1, |(_, l)| l.width);
                let mut blocks = self.blocks.clone();
                blocks.extend(set.places(width));
                let picture = cspi::output::report::grid_picture(&model).unwrap_or_default();
                let loaded = Loaded {
                    text: self.text.clone(),
                    overrides: self.overrides.clone(),
                    data_files: self.data_files.clone(),
                    memory_limit: self.memory_limit,
                    blocks,
                    model,
                    source,
                };
                Some((loaded, values, picture))
            }
        };
        Ok((tried, found))
    }

    /// Where a crossword's search failed, from a run's `blame` (its end's):
    /// `(text, json, svg)`, `None` without a crossword or a failure in it.
    fn stuck(&self, blame: Vec<f64>) -> Option<(String, String, String)> {
        cspi::output::report::stuck(&self.model, &blame).map(|s| (s.text, s.json, s.svg))
    }
}

/// The grid `try_blocks` opened: its model, its fill, its picture.
type PyOpened = (Loaded, Vec<i64>, String);

/// A grid `try_blocks` searched: its new blocks (row, column from 1),
/// status, nodes, seconds, why it could not be built, its line.
/// `threads` as `try_blocks` and `suggest` take it: 1 to 1024, as `--threads`.
fn threads_in_range(threads: usize) -> PyResult<()> {
    if (1..=1024).contains(&threads) {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "threads {threads}: give 1 to 1024"
        )))
    }
}

type PyTried = (
    Vec<(usize, usize)>,
    String,
    u64,
    f64,
    Option<String>,
    bool,
    String,
);

/// A suggested value as Python gets it: word, value, score, count.
type PyCandidate = (String, i64, Option<i64>, Option<u64>);

/// A variable's name and the values it keeps.
type Size = (String, u64);

/// A map as text and as SVG.
type Pictures = (String, String);

/// Seconds above 0 as a duration; `None` stays `None`.
fn seconds(what: &str, s: Option<f64>) -> PyResult<Option<Duration>> {
    match s {
        Some(t) if t > 0.0 && t.is_finite() => Ok(Some(Duration::from_secs_f64(t))),
        Some(t) => Err(PyValueError::new_err(format!(
            "{what} {t}: give seconds above 0"
        ))),
        None => Ok(None),
    }
}

/// Runs `work` on a thread of its own and waits for its answer with the GIL
/// released; Ctrl-C sets `stop` (which `work` heeds), waits for the answer
/// and raises KeyboardInterrupt.
fn blocking<T: Send + 'static>(
    py: Python<'_>,
    stop: &Arc<AtomicBool>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (tx, rx) = sync_channel(1);
    let thread = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let _ = tx.send(work());
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the work thread: {e}")))?;
    let mut rx = rx;
    let mut interrupted: Option<PyErr> = None;
    loop {
        let (back, got) = py.detach(move || {
            let got = rx.recv_timeout(POLL);
            (rx, got)
        });
        rx = back;
        match got {
            Ok(answer) => {
                let _ = thread.join();
                return match interrupted {
                    Some(e) => Err(e),
                    None => Ok(answer),
                };
            }
            Err(RecvTimeoutError::Timeout) => {
                if interrupted.is_none()
                    && let Err(e) = py.check_signals()
                {
                    stop.store(true, Ordering::Relaxed);
                    interrupted = Some(e);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                let _ = thread.join();
                return Err(PyRuntimeError::new_err(
                    "cspi's work thread ended without an answer (a bug in cspi)",
                ));
            }
        }
    }
}

impl Loaded {
    /// The declared (not auxiliary) variable named `name`, as the output
    /// writes it (`xw[5]`).
    fn var_named(&self, name: &str) -> PyResult<usize> {
        let vars = &self.model.vars;
        (0..vars.len())
            .find(|&v| !vars[v].aux && vars[v].name == name)
            .ok_or_else(|| {
                let names = vars.iter().filter(|v| !v.aux).map(|v| v.name.as_str());
                let hint = cspi::diag::did_you_mean(name, names)
                    .map(|n| format!(" (did you mean `{n}`?)"))
                    .unwrap_or_default();
                PyValueError::new_err(format!("the model has no variable `{name}`{hint}"))
            })
    }

    fn fits(&self, raw: &[i64]) -> PyResult<()> {
        if raw.len() == self.model.vars.len() {
            Ok(())
        } else {
            Err(PyValueError::new_err(format!(
                "a solution of this model has {} values, not {}",
                self.model.vars.len(),
                raw.len()
            )))
        }
    }
}

#[pymodule]
fn _cspi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ModelError", m.py().get_type::<ModelError>())?;
    m.add_function(wrap_pyfunction!(load_file, m)?)?;
    m.add_function(wrap_pyfunction!(load_text, m)?)?;
    m.add_class::<Loaded>()?;
    m.add_class::<Run>()?;
    Ok(())
}
