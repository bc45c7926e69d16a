//! Sudoku: file parsers for ../shared/data/sudoku, the independent checker, and
//! solving one puzzle with models/sudoku.csp through the library API.

use cspi::solve::ParamOverride;
use cspi::solve::{Limits, Next};
use cspi::solve::{LoadOptions, Options, Status, load, solve};
use std::path::Path;
use std::sync::Arc;

/// One puzzle as read from a data file.
#[derive(Clone, Debug)]
pub(crate) struct Puzzle {
    /// `file:line` (or `file#index`), for failure messages.
    pub label: String,
    /// Box side: 2 for 4×4, 3 for 9×9, 4 for 16×16, 5 for 25×25.
    pub n: usize,
    /// The puzzle exactly as the file writes it; this is what the model reads.
    pub text: String,
    /// The alphabet to pass as the model's `symbols` parameter, if not the default.
    pub symbols: Option<&'static str>,
    /// Givens decoded by the test (0 = blank, else 1..=N), row-major.
    pub givens: Vec<u8>,
    /// Number of solutions, where the file states it.
    pub count: Option<u64>,
    /// The solution, where the file gives one.
    pub solution: Option<Vec<u8>>,
}

impl Puzzle {
    pub(crate) fn side(&self) -> usize {
        self.n * self.n
    }
}

/// Decodes one cell symbol of a line-format puzzle: `.`/`0` blank, `1-9`, then
/// `A`=10, `B`=11, ... (the 16×16 file uses `G` for 16).
fn decode_symbol(c: char) -> Option<u8> {
    match c {
        '.' | '0' => Some(0),
        '1'..='9' => Some(c as u8 - b'0'),
        'A'..='Z' => Some(c as u8 - b'A' + 10),
        _ => None,
    }
}

/// Decodes a line of `side²` symbols; `None` if it is not one.
fn decode_line(line: &str, side: usize) -> Option<Vec<u8>> {
    let cells: Option<Vec<u8>> = line.chars().map(decode_symbol).collect();
    let cells = cells?;
    (cells.len() == side * side && cells.iter().all(|&v| (v as usize) <= side)).then_some(cells)
}

fn box_of(side: usize) -> usize {
    (1..=side).find(|b| b * b == side).expect("square side")
}

/// One puzzle per line (`#` comments and blank lines skipped, CRLF allowed),
/// `side²` symbols each: norvig, magictour, forum, tdoku 17-clue, vu-kr files.
pub(crate) fn parse_lines(name: &str, text: &str, side: usize) -> Vec<Puzzle> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r').trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let givens = decode_line(line, side)
            .unwrap_or_else(|| panic!("{name}:{}: not a {side}×{side} puzzle: {line}", i + 1));
        out.push(Puzzle {
            label: format!("{name}:{}", i + 1),
            n: box_of(side),
            text: line.to_string(),
            symbols: None,
            givens,
            count: None,
            solution: None,
        });
    }
    out
}

/// tdoku's test file: `puzzle:count[:solution]`, count = number of solutions.
pub(crate) fn parse_tdoku_test(name: &str, text: &str) -> Vec<Puzzle> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r').trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(':').collect();
        let at = format!("{name}:{}", i + 1);
        assert!(
            (2..=3).contains(&fields.len()),
            "{at}: expected puzzle:count[:solution]"
        );
        let givens = decode_line(fields[0], 9).unwrap_or_else(|| panic!("{at}: bad puzzle"));
        let count: u64 = fields[1]
            .parse()
            .unwrap_or_else(|_| panic!("{at}: bad count"));
        let solution = fields
            .get(2)
            .map(|s| decode_line(s, 9).unwrap_or_else(|| panic!("{at}: bad solution")));
        out.push(Puzzle {
            label: at,
            n: 3,
            text: fields[0].to_string(),
            symbols: None,
            givens,
            count: Some(count),
            solution,
        });
    }
    out
}

/// Kaggle CSV: header `puzzle,solution,clues,difficulty,difficulty_range`, `0` blank.
pub(crate) fn parse_kaggle(name: &str, text: &str) -> Vec<Puzzle> {
    let mut lines = text.lines().enumerate();
    let (_, header) = lines.next().expect("kaggle header");
    assert!(
        header.trim_end().starts_with("puzzle,solution"),
        "{name}: unexpected header {header}"
    );
    let mut out = Vec::new();
    for (i, raw) in lines {
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        let at = format!("{name}:{}", i + 1);
        let fields: Vec<&str> = line.split(',').collect();
        let givens = decode_line(fields[0], 9).unwrap_or_else(|| panic!("{at}: bad puzzle"));
        let solution = decode_line(fields[1], 9).unwrap_or_else(|| panic!("{at}: bad solution"));
        let clues: usize = fields[2]
            .parse()
            .unwrap_or_else(|_| panic!("{at}: bad clues"));
        assert_eq!(
            givens.iter().filter(|&&v| v > 0).count(),
            clues,
            "{at}: clue count"
        );
        out.push(Puzzle {
            label: at,
            n: 3,
            text: fields[0].to_string(),
            symbols: None,
            givens,
            count: None,
            solution: Some(solution),
        });
    }
    out
}

/// Project Euler 96: a `Grid NN` line, then 9 lines of 9 digits, `0` blank, CRLF.
/// The model receives the nine rows joined by newlines (whitespace is ignored).
pub(crate) fn parse_euler(name: &str, text: &str) -> Vec<Puzzle> {
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim().is_empty() {
            i += 1;
            continue;
        }
        assert!(
            lines[i].starts_with("Grid "),
            "{name}:{}: expected `Grid NN`",
            i + 1
        );
        let rows = &lines[i + 1..i + 10];
        let text = rows.join("\n");
        let givens =
            decode_line(&rows.concat(), 9).unwrap_or_else(|| panic!("{name}:{}: bad grid", i + 1));
        out.push(Puzzle {
            label: format!("{name}:{} ({})", i + 1, lines[i].trim()),
            n: 3,
            text,
            symbols: None,
            givens,
            count: None,
            solution: None,
        });
        i += 10;
    }
    out
}

/// The 25×25 letters alphabet: `A` is 1, ..., `Y` is 25.
pub(crate) const ALPHADOKU_SYMBOLS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXY";

/// One alphadoku file: 25 rows of letters `A-Y` and `_` separated by spaces,
/// with blank lines between bands. The model receives the whole file.
pub(crate) fn parse_alphadoku(name: &str, text: &str) -> Puzzle {
    let mut givens = Vec::new();
    let mut rows = 0;
    for line in text.lines() {
        let cells: Vec<&str> = line.split_whitespace().collect();
        if cells.is_empty() {
            continue;
        }
        assert_eq!(
            cells.len(),
            25,
            "{name}: row {} has {} cells",
            rows + 1,
            cells.len()
        );
        rows += 1;
        for c in cells {
            let ch = c.chars().next().unwrap();
            assert_eq!(c.chars().count(), 1, "{name}: cell `{c}`");
            givens.push(match ch {
                '_' => 0,
                'A'..='Y' => ch as u8 - b'A' + 1,
                _ => panic!("{name}: unexpected symbol `{ch}`"),
            });
        }
    }
    assert_eq!(rows, 25, "{name}: expected 25 rows");
    Puzzle {
        label: name.to_string(),
        n: 5,
        text: text.to_string(),
        symbols: Some(ALPHADOKU_SYMBOLS),
        givens,
        count: None,
        solution: None,
    }
}

/// Checks a filled grid against the rules: every row, column and box holds
/// 1..=N exactly once, and every given is kept. Returns what is wrong.
pub(crate) fn check(n: usize, givens: &[u8], grid: &[u8]) -> Result<(), String> {
    let side = n * n;
    if grid.len() != side * side {
        return Err(format!("{} cells, expected {}", grid.len(), side * side));
    }
    for (i, (&g, &v)) in givens.iter().zip(grid).enumerate() {
        if v == 0 || v as usize > side {
            return Err(format!(
                "cell r{}c{} = {v} is out of 1..={side}",
                i / side + 1,
                i % side + 1
            ));
        }
        if g != 0 && g != v {
            return Err(format!(
                "cell r{}c{} = {v} but the given is {g}",
                i / side + 1,
                i % side + 1
            ));
        }
    }
    let unit_ok = |cells: &mut dyn Iterator<Item = usize>| {
        let mut seen = vec![false; side + 1];
        for i in cells {
            let v = grid[i] as usize;
            if seen[v] {
                return false;
            }
            seen[v] = true;
        }
        true
    };
    for r in 0..side {
        if !unit_ok(&mut (0..side).map(|c| r * side + c)) {
            return Err(format!("row {} repeats a value", r + 1));
        }
    }
    for c in 0..side {
        if !unit_ok(&mut (0..side).map(|r| r * side + c)) {
            return Err(format!("column {} repeats a value", c + 1));
        }
    }
    for b in 0..side {
        let (r0, c0) = ((b / n) * n, (b % n) * n);
        if !unit_ok(&mut (0..side).map(|k| (r0 + k / n) * side + c0 + k % n)) {
            return Err(format!("box {} repeats a value", b + 1));
        }
    }
    Ok(())
}

/// Whether two givens already clash in a row, column or box: such a puzzle
/// has no solution, and this can be seen without search.
pub(crate) fn givens_clash(n: usize, givens: &[u8]) -> bool {
    let side = n * n;
    let clash = |cells: Vec<usize>| {
        let mut seen = vec![false; side + 1];
        cells.into_iter().any(|i| {
            let v = givens[i] as usize;
            v != 0 && std::mem::replace(&mut seen[v], true)
        })
    };
    (0..side).any(|r| clash((0..side).map(|c| r * side + c).collect()))
        || (0..side).any(|c| clash((0..side).map(|r| r * side + c).collect()))
        || (0..side).any(|b| {
            let (r0, c0) = ((b / n) * n, (b % n) * n);
            clash(
                (0..side)
                    .map(|k| (r0 + k / n) * side + c0 + k % n)
                    .collect(),
            )
        })
}

/// What one run of the solver produced.
pub(crate) struct Solved {
    pub status: Status,
    /// Each solution's grid, row-major, values 1..=N.
    pub solutions: Vec<Vec<u8>>,
    pub nodes: u64,
}

/// Solves `p` with models/sudoku.csp through the library: the model reads
/// `p.text` as its `puzzle` parameter. `max` bounds the solutions (None = all);
/// `nodes` bounds the search.
pub(crate) fn solve_puzzle(p: &Puzzle, max: Option<u64>, nodes: Option<u64>) -> Solved {
    let mut overrides = vec![
        ParamOverride {
            name: "n".into(),
            value: p.n.to_string(),
        },
        ParamOverride {
            name: "puzzle".into(),
            value: p.text.clone(),
        },
    ];
    if let Some(s) = p.symbols {
        overrides.push(ParamOverride {
            name: "symbols".into(),
            value: s.into(),
        });
    }
    let path = super::model("sudoku.csp");
    let model = load(Path::new(&path), &LoadOptions::with_params(&overrides)).unwrap_or_else(|d| {
        panic!(
            "{}: the model does not load: {:?}",
            p.label,
            d.0.first().map(|d| &d.message)
        )
    });
    let model = Arc::new(model);
    let cells = model.groups["cell"].vars.clone();
    assert_eq!(cells.len(), p.side() * p.side(), "{}: cell count", p.label);
    let options = Options {
        search: model.search.clone(),
        limits: Limits {
            solutions: max,
            nodes,
            ..Limits::default()
        },
        check: true,
        ..Options::default()
    };
    let mut solutions = Vec::new();
    let summary = solve(&model, &options, |values| {
        solutions.push(cells.iter().map(|&v| values[v] as u8).collect());
        Next::Continue
    });
    assert!(
        summary.rejected.is_empty(),
        "{}: cspi's own checker rejected a solution: {}",
        p.label,
        summary.rejected[0]
    );
    Solved {
        status: summary.status,
        solutions,
        nodes: summary.stats.nodes,
    }
}

/// Solves `p` and checks everything the file lets us check:
/// - with a stated count: exactly that many distinct, valid solutions
///   (UNSATISFIABLE for 0, ALL_SOLUTIONS otherwise), and the given solution
///   among them;
/// - with a given solution only: the solver's first solution is valid, and it
///   is the given one once uniqueness is proved (up to two solutions searched);
/// - otherwise: the first solution is valid, or the givens clash.
///
/// Returns an error message instead of panicking, so that a test can report
/// every failing puzzle of a file at once.
pub(crate) fn verify(p: &Puzzle, nodes: Option<u64>) -> Result<(), String> {
    let at = &p.label;
    let max = match (p.count, &p.solution) {
        (Some(_), _) => None,
        (None, Some(_)) => Some(2),
        (None, None) => Some(1),
    };
    let r = solve_puzzle(p, max, nodes);
    if r.status == Status::Unknown {
        return Err(format!(
            "{at}: UNKNOWN after {} nodes (limit reached)",
            r.nodes
        ));
    }
    for s in &r.solutions {
        check(p.n, &p.givens, s).map_err(|e| format!("{at}: invalid solution: {e}"))?;
    }
    let mut distinct = r.solutions.clone();
    distinct.sort();
    distinct.dedup();
    if distinct.len() != r.solutions.len() {
        return Err(format!("{at}: the same solution was reported twice"));
    }
    if let Some(count) = p.count {
        if r.solutions.len() as u64 != count {
            return Err(format!(
                "{at}: {} solutions, the file says {count}",
                r.solutions.len()
            ));
        }
        let want = if count == 0 {
            Status::Unsatisfiable
        } else {
            Status::AllSolutions
        };
        if r.status != want {
            return Err(format!("{at}: status {:?}, expected {want:?}", r.status));
        }
    }
    if let Some(sol) = &p.solution {
        if !r.solutions.contains(sol) {
            return Err(format!("{at}: the file's solution was not found"));
        }
        if p.count.is_none() && r.solutions.len() != 1 {
            return Err(format!(
                "{at}: {} solutions, expected exactly the file's one",
                r.solutions.len()
            ));
        }
    }
    if r.solutions.is_empty() {
        if r.status != Status::Unsatisfiable {
            return Err(format!("{at}: no solution but status {:?}", r.status));
        }
        if p.count.is_none()
            && !givens_clash(p.n, &p.givens)
            && reference_count(p.n, &p.givens, 1, 200_000_000) != Some(0)
        {
            return Err(format!(
                "{at}: UNSATISFIABLE, but the reference solver finds a solution or cannot decide"
            ));
        }
    }
    Ok(())
}

/// A small reference solver, independent of cspi: plain backtracking over
/// cells with bitmask candidates, always branching on the cell with the fewest
/// candidates. Counts solutions up to `limit`; `None` if it gives up after
/// `max_nodes` branches.
pub(crate) fn reference_count(n: usize, givens: &[u8], limit: u64, max_nodes: u64) -> Option<u64> {
    struct S {
        n: usize,
        side: usize,
        grid: Vec<u8>,
        rows: Vec<u32>,
        cols: Vec<u32>,
        boxes: Vec<u32>,
        found: u64,
        limit: u64,
        nodes: u64,
        max_nodes: u64,
    }
    impl S {
        fn bx(&self, i: usize) -> usize {
            let (r, c) = (i / self.side, i % self.side);
            (r / self.n) * self.n + c / self.n
        }
        fn flip(&mut self, i: usize, v: u8) {
            let bit = 1u32 << v;
            let b = self.bx(i);
            self.rows[i / self.side] ^= bit;
            self.cols[i % self.side] ^= bit;
            self.boxes[b] ^= bit;
        }
        fn candidates(&self, i: usize) -> u32 {
            let all = ((1u64 << (self.side + 1)) - 2) as u32;
            all & !(self.rows[i / self.side] | self.cols[i % self.side] | self.boxes[self.bx(i)])
        }
        /// Cells of unit `u`: rows, then columns, then boxes.
        fn unit(&self, u: usize) -> Vec<usize> {
            let (side, n) = (self.side, self.n);
            let k = u % side;
            match u / side {
                0 => (0..side).map(|c| k * side + c).collect(),
                1 => (0..side).map(|r| r * side + k).collect(),
                _ => {
                    let (r0, c0) = ((k / n) * n, (k % n) * n);
                    (0..side)
                        .map(|j| (r0 + j / n) * side + c0 + j % n)
                        .collect()
                }
            }
        }
        /// Tries `v` in each of `cells` in turn. Returns false when it gave up.
        fn branch(&mut self, choices: Vec<(usize, u8)>) -> bool {
            for (i, v) in choices {
                if self.found >= self.limit {
                    break;
                }
                self.nodes += 1;
                if self.nodes > self.max_nodes {
                    return false;
                }
                self.grid[i] = v;
                self.flip(i, v);
                let ok = self.go();
                self.flip(i, v);
                self.grid[i] = 0;
                if !ok {
                    return false;
                }
            }
            true
        }
        /// Branches on the cell with the fewest candidates, or on the value
        /// with the fewest places left in some row, column or box, whichever
        /// has fewer choices. Returns false when it gave up.
        fn go(&mut self) -> bool {
            let mut best: Option<(usize, u32)> = None;
            for i in 0..self.grid.len() {
                if self.grid[i] == 0 {
                    let c = self.candidates(i);
                    if best.is_none_or(|(_, b)| c.count_ones() < b.count_ones()) {
                        best = Some((i, c));
                    }
                }
            }
            let Some((cell, cands)) = best else {
                self.found += 1;
                return true;
            };
            let mut choices: Vec<(usize, u8)> = (1..=self.side as u8)
                .filter(|v| cands & (1 << v) != 0)
                .map(|v| (cell, v))
                .collect();
            if choices.len() > 1 {
                for u in 0..3 * self.side {
                    let cells = self.unit(u);
                    for v in 1..=self.side as u8 {
                        if cells.iter().any(|&i| self.grid[i] == v) {
                            continue;
                        }
                        let places: Vec<(usize, u8)> = cells
                            .iter()
                            .filter(|&&i| self.grid[i] == 0 && self.candidates(i) & (1 << v) != 0)
                            .map(|&i| (i, v))
                            .collect();
                        if places.len() < choices.len() {
                            choices = places;
                            if choices.len() <= 1 {
                                return self.branch(choices);
                            }
                        }
                    }
                }
            }
            self.branch(choices)
        }
    }
    if givens_clash(n, givens) {
        return Some(0);
    }
    let side = n * n;
    let mut s = S {
        n,
        side,
        grid: givens.to_vec(),
        rows: vec![0; side],
        cols: vec![0; side],
        boxes: vec![0; side],
        found: 0,
        limit,
        nodes: 0,
        max_nodes,
    };
    for (i, &v) in givens.iter().enumerate() {
        if v != 0 {
            s.flip(i, v);
        }
    }
    s.go().then_some(s.found)
}
