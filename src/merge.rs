//! `cspi merge`: the parts of a split (`--part K/N`, JSON Lines) combined
//! into one result, as if one process had searched the whole model.
//!
//! Sub-problems partition the search space, so counts add up, solution
//! sets are unions, and the best objective is the best of the parts' —
//! proved optimal only when every part searched its sub-problems to the end.
//! Parts belong together only when they carry the same fingerprint (the
//! model, its parameters, the strategy, the kind of run and N), and each K
//! from 1 to N must come exactly once: anything else is refused, naming the
//! files. A partial merge (`--partial`, while a split goes on) lets parts be
//! missing and claims for the whole only what the parts given prove.

use crate::run::{MAX_NEST, MAX_PARTS, Merged};
use indexmap::IndexMap;
use serde_json::{Map, Value};

/// One part's output: where it came from, its solution records (as read),
/// its summary.
pub(crate) struct PartOutput {
    pub file: String,
    pub solutions: Vec<String>,
    /// The line of each solution record, from 1.
    pub lines: Vec<usize>,
    pub summary: Map<String, Value>,
    /// Where the part's search of a crossword failed, when a limit stopped
    /// it before a fill (its `failed` record).
    pub failed: Option<crate::run::FailedMap>,
}

/// Whether a part's output has no summary record yet: the part is still
/// running (or was stopped hard), so a partial merge leaves it out.
pub(crate) fn unfinished(text: &str) -> bool {
    !text.lines().any(|line| {
        serde_json::from_str::<Value>(line)
            .is_ok_and(|v| v.get("type").and_then(Value::as_str) == Some("summary"))
    })
}

/// Reads one part's JSON Lines: each line must be a JSON object; exactly
/// one summary record, which must carry a `part`.
pub(crate) fn read_part(file: &str, text: &str) -> Result<PartOutput, String> {
    let mut solutions = Vec::new();
    let mut lines = Vec::new();
    let mut summary = None;
    let mut summary_line = 0;
    let mut failed = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line)
            .map_err(|e| format!("{file}:{}: not a JSON record ({e})", i + 1))?;
        let Value::Object(obj) = v else {
            return Err(format!("{file}:{}: not a JSON object", i + 1));
        };
        match obj.get("type").and_then(Value::as_str) {
            Some("solution") if summary.is_some() => {
                return Err(format!(
                    "{file}:{}: a solution record after the summary",
                    i + 1
                ));
            }
            Some("solution") => {
                if !obj.get("values").is_some_and(Value::is_object) {
                    return Err(format!(
                        "{file}:{}: a solution record without values",
                        i + 1
                    ));
                }
                solutions.push(line.to_string());
                lines.push(i + 1);
            }
            Some("summary") if summary.is_some() => {
                return Err(format!(
                    "{file}:{}: a second summary: one part's output per file",
                    i + 1
                ));
            }
            Some("summary") => {
                summary = Some(obj);
                summary_line = i + 1;
            }
            // Where a part's search of a crossword failed: merged with the
            // other parts' maps.
            Some("failed") if summary.is_none() && failed.is_none() => {
                failed = Some(serde_json::from_value(Value::Object(obj)).map_err(|e| {
                    format!(
                        "{file}:{}: a `failed` record that cannot be read ({e})",
                        i + 1
                    )
                })?);
            }
            _ => {
                return Err(format!(
                    "{file}:{}: a record that is neither a solution nor a summary",
                    i + 1
                ));
            }
        }
    }
    let summary = summary.ok_or_else(|| {
        format!(
            "{file}: no summary record (the run did not finish, or this is not cspi's JSON output)"
        )
    })?;
    let Some(part) = summary.get("part").and_then(Value::as_object) else {
        return Err(format!(
            "{file}: not the output of a `cspi solve --part K/N` run (its summary has no part)"
        ));
    };
    let at = format!("{file}:{summary_line}");
    // The bounds `--part` takes: a merge makes a slot for each of N parts.
    let count = |v: Option<&Value>| {
        v.and_then(Value::as_u64)
            .filter(|&x| (1..=MAX_PARTS as u64).contains(&x))
    };
    let (k, n) = (count(part.get("k")), count(part.get("n")));
    if k.is_none() || n.is_none() || k > n {
        return Err(format!(
            "{at}: the summary's part has no index K/N with 1 <= K <= N <= {MAX_PARTS}"
        ));
    }
    let mut sub = part.get("sub");
    let mut depth = 0;
    while let Some(level) = sub {
        let (j, m) = (count(level.get("k")), count(level.get("n")));
        if j.is_none() || m.is_none() || j > m {
            return Err(format!(
                "{at}: the summary's sub-part has no index J/M with 1 <= J <= M <= {MAX_PARTS}"
            ));
        }
        depth += 1;
        if depth > MAX_NEST {
            return Err(format!("{at}: sub-parts nest more than {MAX_NEST} deep"));
        }
        sub = level.get("sub");
    }
    if part
        .get("fingerprint")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        return Err(format!("{at}: the summary's part has no fingerprint"));
    }
    let counted = summary.get("solutions").and_then(Value::as_u64);
    let Some(counted) = counted else {
        return Err(format!("{at}: the summary has no solution count"));
    };
    // The records written, as the part's summary says (older outputs do
    // not say): every one must be in the file, and no other.
    if let Some(records) = part.get("records") {
        let records = records
            .as_u64()
            .ok_or_else(|| format!("{at}: `records` is not a count"))?;
        if records != solutions.len() as u64 {
            return Err(format!(
                "{at}: the summary says {records} solution record{} were written, the file holds {} (lines lost or added)",
                if records == 1 { "" } else { "s" },
                solutions.len()
            ));
        }
        // Listing every solution (not counting them, not optimising): the
        // count is the records'.
        if records > 0 && !part.contains_key("sense") && records != counted {
            return Err(format!(
                "{at}: the summary counts {counted} solutions, the file lists {records}"
            ));
        }
    } else if !solutions.is_empty()
        && !part.contains_key("sense")
        && solutions.len() as u64 != counted
    {
        return Err(format!(
            "{at}: the summary counts {counted} solutions, the file lists {}",
            solutions.len()
        ));
    }
    Ok(PartOutput {
        file: file.to_string(),
        solutions,
        lines,
        summary,
        failed,
    })
}

/// Refuses a solution that two records give, in one part or in two: the
/// sub-problems of a split are disjoint, so a repeated solution is a
/// tampered or mixed-up file, and would be counted twice.
fn no_duplicates(parts: &[&PartOutput]) -> Result<(), String> {
    let mut seen: std::collections::HashMap<String, (&str, usize)> =
        std::collections::HashMap::new();
    for p in parts {
        for (record, &line) in p.solutions.iter().zip(&p.lines) {
            let values = serde_json::from_str::<Value>(record)
                .ok()
                .and_then(|v| v.get("values").map(Value::to_string))
                .unwrap_or_default();
            if let Some((file, first)) = seen.insert(values, (&p.file, line)) {
                return Err(format!(
                    "{}:{line}: the same solution as {file}:{first}: the parts of a split never share a solution",
                    p.file
                ));
            }
        }
    }
    Ok(())
}

fn part_field<'a>(p: &'a PartOutput, key: &str) -> Option<&'a Value> {
    p.summary.get("part")?.get(key)
}

fn int(v: Option<&Value>) -> Option<u64> {
    v.and_then(Value::as_u64)
}

/// Checks that the parts belong together and combines them. With
/// `partial`, parts and sub-parts may be missing: each stands as a part
/// stopped before it found anything (`UNKNOWN`, no solution), so that what
/// the others found holds for the whole (a solution, a count as a lower
/// bound, a best objective not proved) and nothing is claimed that needs
/// every part (`UNSATISFIABLE`, `ALL_SOLUTIONS`, `OPTIMAL`); the result
/// names them (`Merged::missing`).
pub(crate) fn merge(parts: &[PartOutput], partial: bool) -> Result<Merged, String> {
    let first = parts.first().ok_or("no parts to merge")?;
    let print = |p: &PartOutput| p.file.clone();
    let fp = |p: &PartOutput| {
        part_field(p, "fingerprint")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let kn = |p: &PartOutput| {
        (
            int(part_field(p, "k")).unwrap_or(0),
            int(part_field(p, "n")).unwrap_or(0),
        )
    };
    let (_, n) = kn(first);
    for p in parts {
        if fp(p) != fp(first) || kn(p).1 != n {
            let (k1, n1) = kn(first);
            let (k2, n2) = kn(p);
            return Err(format!(
                "these parts do not belong together: {} is part {k1}/{n1} with fingerprint {}, {} is part {k2}/{n2} with fingerprint {} (different model, parameters, strategy, kind of run or number of parts)",
                print(first),
                fp(first),
                print(p),
                fp(p)
            ));
        }
    }
    let sense = first.summary.get("part").and_then(|p| p.get("sense"));
    if sense.is_none() {
        no_duplicates(&parts.iter().collect::<Vec<_>>())?;
    }
    // Each K once: a part's output, or its sub-parts' (`K/N:J/M`, and
    // deeper), which are combined into it first.
    let mut by_k: Vec<Vec<&PartOutput>> = vec![Vec::new(); n as usize];
    for p in parts {
        let (k, _) = kn(p);
        by_k.get_mut((k as usize).wrapping_sub(1))
            .ok_or_else(|| format!("{}: part {k}/{n} is out of range", p.file))?
            .push(p);
    }
    let whole = Whole {
        n,
        fingerprint: fp(first),
        sense,
        partial,
    };
    let gaps = missing(&by_k, |k| k.to_string());
    let mut absent = Vec::new();
    let mut pieces = Vec::new();
    for (i, group) in by_k.iter().enumerate() {
        if !group.is_empty() {
            let k = i as u64 + 1;
            pieces.push(piece(
                group,
                0,
                k,
                &format!("{k}/{n}"),
                &whole,
                &mut absent,
            )?);
        }
    }
    if let Some(gaps) = gaps {
        if !partial {
            return Err(format!(
                "{} of {n} missing: the merged result would be incomplete",
                gaps.text()
            ));
        }
        // The parts missing first, then the sub-parts of the parts given.
        absent.splice(0..0, gaps.runs);
    }
    let ordered: Vec<&PartOutput> = pieces.iter().map(Piece::output).collect();
    let mut merged = combine(&ordered, &whole.fingerprint, absent.is_empty());
    merged.parts = by_k.iter().filter(|g| !g.is_empty()).count();
    merged.of = n;
    merged.missing = absent;
    Ok(merged)
}

/// The groups of a split with no output: their names, runs of three or
/// more consecutive ones as `first to last`.
struct Missing {
    runs: Vec<String>,
    count: usize,
}

impl Missing {
    /// "part is 3", "parts are 2, 3" or "parts are 3 to 256".
    fn text(&self) -> String {
        let plural = if self.count == 1 { " is" } else { "s are" };
        format!("part{plural} {}", self.runs.join(", "))
    }
}

/// The groups with no output, by their number from 1 (`name`); `None` when
/// every group has one.
fn missing(groups: &[Vec<&PartOutput>], name: impl Fn(usize) -> String) -> Option<Missing> {
    let empty: Vec<usize> = (1..=groups.len())
        .filter(|&i| groups[i - 1].is_empty())
        .collect();
    let mut runs = Vec::new();
    let mut at = 0;
    while at < empty.len() {
        let mut end = at;
        while end + 1 < empty.len() && empty[end + 1] == empty[end] + 1 {
            end += 1;
        }
        if end - at >= 2 {
            runs.push(format!("{} to {}", name(empty[at]), name(empty[end])));
        } else {
            runs.extend((at..=end).map(|i| name(empty[i])));
        }
        at = end + 1;
    }
    (!empty.is_empty()).then_some(Missing {
        runs,
        count: empty.len(),
    })
}

/// What the pieces of one split share: N, the fingerprint, the sense.
struct Whole<'a> {
    n: u64,
    fingerprint: String,
    sense: Option<&'a Value>,
    /// Missing parts and sub-parts are allowed ([`merge`]).
    partial: bool,
}

/// What stands for a part or sub-part in the merge: its own output, or
/// its sub-parts' combined.
enum Piece<'a> {
    Own(&'a PartOutput),
    Combined(Box<PartOutput>),
}

impl Piece<'_> {
    fn output(&self) -> &PartOutput {
        match self {
            Piece::Own(p) => p,
            Piece::Combined(p) => p,
        }
    }
}

/// How a piece was split into sub-parts: into M, evenly or not (`M`, `Me`).
#[derive(Clone, Copy, PartialEq, Eq)]
struct SplitInto {
    m: u64,
    even: bool,
}

impl std::fmt::Display for SplitInto {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.m, if self.even { "e" } else { "" })
    }
}

/// A part's sub-part at each level, `(J, M)`, outermost first.
fn subs_of(p: &PartOutput) -> Vec<(u64, SplitInto)> {
    let mut subs = Vec::new();
    let mut at = part_field(p, "sub");
    while let Some(level) = at {
        match (int(level.get("k")), int(level.get("n"))) {
            (Some(j), Some(m)) => {
                let even = level.get("even").and_then(Value::as_bool) == Some(true);
                subs.push((j, SplitInto { m, even }))
            }
            _ => break,
        }
        at = level.get("sub");
    }
    subs
}

/// The outputs of the piece `name` of part `k` (`depth` levels of sub-parts
/// below the part) as one: its own output, or its sub-parts' (each J from
/// 1 to M once, all with one M), combined as its own would read.
fn piece<'a>(
    group: &[&'a PartOutput],
    depth: usize,
    k: u64,
    name: &str,
    whole: &Whole,
    absent: &mut Vec<String>,
) -> Result<Piece<'a>, String> {
    let (mut own, split): (Vec<&PartOutput>, Vec<&PartOutput>) =
        group.iter().partition(|p| subs_of(p).len() == depth);
    // A piece stopped unfinished (UNKNOWN) and then run as sub-parts, as
    // `run-parts.py --resplit` does: while the split goes on, its sub-parts
    // stand for it.
    if whole.partial && !split.is_empty() {
        own.retain(|p| status_of(p) != "UNKNOWN");
    }
    match (own.as_slice(), split.first()) {
        ([p], None) => return Ok(Piece::Own(p)),
        ([a, b, ..], _) => {
            return Err(format!(
                "part {name} appears twice: {} and {}",
                a.file, b.file
            ));
        }
        ([a], Some(b)) => {
            return Err(format!(
                "part {name} is given whole ({}) and as sub-parts ({}): give one or the other",
                a.file, b.file
            ));
        }
        ([], None) => return Err(format!("part {name} is missing")),
        ([], Some(_)) => {}
    }
    let level = |p: &PartOutput| subs_of(p)[depth];
    let into = level(split[0]).1;
    let m = into.m;
    if let Some(other) = split.iter().find(|p| level(p).1 != into) {
        let (j1, (j2, m2)) = (level(split[0]).0, level(other));
        return Err(format!(
            "the sub-parts of part {name} come from different splits: {} is {name}:{j1}/{into}, {} is {name}:{j2}/{m2}",
            split[0].file, other.file
        ));
    }
    let mut by_j: Vec<Vec<&PartOutput>> = vec![Vec::new(); m as usize];
    for p in &split {
        by_j[level(p).0 as usize - 1].push(p);
    }
    if let Some(gaps) = missing(&by_j, |j| format!("{name}:{j}/{into}")) {
        if !whole.partial {
            return Err(format!(
                "{} missing: part {name} would be incomplete",
                gaps.text()
            ));
        }
        absent.extend(gaps.runs);
    }
    let complete = by_j.iter().all(|g| !g.is_empty());
    let mut pieces = Vec::new();
    for (j, g) in by_j.iter().enumerate() {
        if !g.is_empty() {
            let sub = format!("{name}:{}/{into}", j + 1);
            pieces.push(piece(g, depth + 1, k, &sub, whole, absent)?);
        }
    }
    let outputs: Vec<&PartOutput> = pieces.iter().map(Piece::output).collect();
    let merged = combine(&outputs, &whole.fingerprint, complete);
    let mut part = Map::new();
    part.insert("k".into(), k.into());
    part.insert("n".into(), whole.n.into());
    part.insert("fingerprint".into(), whole.fingerprint.clone().into());
    if let Some(sense) = whole.sense {
        part.insert("sense".into(), sense.clone());
    }
    let mut summary = Map::new();
    summary.insert("type".into(), "summary".into());
    summary.insert("status".into(), merged.status.into());
    summary.insert("solutions".into(), merged.count.into());
    if let Some((objective, lex)) = &merged.objective {
        summary.insert("objective".into(), (*objective).into());
        if let Some(lex) = lex {
            summary.insert("objective_lex".into(), lex.clone());
        }
    }
    summary.insert("part".into(), Value::Object(part));
    let numbers = |m: &Option<IndexMap<String, i64>>| {
        m.as_ref()
            .map(|m| Value::Object(m.iter().map(|(k, v)| (k.clone(), (*v).into())).collect()))
    };
    if let Some(totals) = numbers(&merged.totals) {
        summary.insert("totals".into(), totals);
    }
    if let Some(stats) = numbers(&merged.stats) {
        summary.insert("stats".into(), stats);
    }
    Ok(Piece::Combined(Box::new(PartOutput {
        file: format!("part {name} (its {m} sub-parts)"),
        lines: vec![0; merged.solutions.len()],
        solutions: merged.solutions,
        summary,
        failed: merged.failed,
    })))
}

fn status_of(p: &PartOutput) -> &str {
    p.summary
        .get("status")
        .and_then(Value::as_str)
        .unwrap_or("UNKNOWN")
}

/// Combines parts already checked to belong together, in part order; with
/// some missing (`complete` false, a partial merge), as if they were there
/// and a limit had stopped them before they found anything.
fn combine(parts: &[&PartOutput], fingerprint: &str, complete: bool) -> Merged {
    let sense = parts
        .iter()
        .find_map(|p| part_field(p, "sense").and_then(Value::as_str));
    let mut statuses: Vec<&str> = parts.iter().map(|p| status_of(p)).collect();
    if !complete {
        statuses.push("UNKNOWN");
    }
    let all = |f: &dyn Fn(&str) -> bool| statuses.iter().all(|s| f(s));
    let exhausted = all(&|s| matches!(s, "ALL_SOLUTIONS" | "UNSATISFIABLE" | "OPTIMAL"));
    let count: u64 = parts
        .iter()
        .map(|p| int(p.summary.get("solutions")).unwrap_or(0))
        .fold(0, u64::saturating_add);
    let (solutions, objective, status) = match sense {
        Some(sense) => {
            let maximize = sense == "maximize";
            let best = parts
                .iter()
                .filter_map(|p| Some((p.summary.get("objective")?.as_i64()?, p)))
                .reduce(|a, b| {
                    let better = if maximize { b.0 > a.0 } else { b.0 < a.0 };
                    if better { b } else { a }
                });
            let status = match (best, exhausted) {
                (Some(_), true) => "OPTIMAL",
                (None, true) => "UNSATISFIABLE",
                (Some(_), false) => "SATISFIABLE",
                (None, false) => "UNKNOWN",
            };
            let sols: Vec<String> = best
                .and_then(|(_, p)| p.solutions.last().cloned())
                .into_iter()
                .collect();
            let lex = best.and_then(|(_, p)| p.summary.get("objective_lex").cloned());
            (sols, best.map(|b| (b.0, lex)), status)
        }
        None => {
            let status = if all(&|s| s == "UNSATISFIABLE") {
                "UNSATISFIABLE"
            } else if exhausted {
                "ALL_SOLUTIONS"
            } else if statuses.contains(&"SATISFIABLE") || !statuses.contains(&"UNKNOWN") {
                // A part stopped at its solution limit: so would the whole.
                "SATISFIABLE"
            } else {
                "UNKNOWN"
            };
            let sols: Vec<String> = parts.iter().flat_map(|p| p.solutions.clone()).collect();
            (sols, None, status)
        }
    };
    let solutions_field = if sense.is_some() {
        solutions.len() as u64
    } else {
        count
    };
    Merged {
        solutions,
        status,
        count: solutions_field,
        objective,
        parts: parts.len(),
        of: parts.len() as u64,
        missing: Vec::new(),
        fingerprint: fingerprint.to_string(),
        totals: sum_objects(parts, "totals", &[]),
        stats: sum_objects(parts, "stats", &["max_depth", "peak_memory_kb"]),
        failed: if status == "UNKNOWN" && solutions_field == 0 {
            let maps: Vec<_> = parts.iter().filter_map(|p| p.failed.clone()).collect();
            crate::run::FailedMap::merge(&maps)
        } else {
            None
        },
    }
}

/// The field-wise sum of an object of numbers over the parts (the largest
/// for `maxed` keys): statistics in their usual order (`Stats::fields`),
/// other keys after them.
fn sum_objects(parts: &[&PartOutput], key: &str, maxed: &[&str]) -> Option<IndexMap<String, i64>> {
    // The first part that has the object: a missing part's stand-in has none.
    let first = parts.iter().find_map(|p| p.summary.get(key)?.as_object())?;
    let known = crate::engine::stats::Stats {
        peak_memory: Some(0),
        ..Default::default()
    };
    let mut keys: Vec<&str> = known
        .fields()
        .into_iter()
        .map(|(k, _)| k)
        .filter(|k| first.contains_key(*k))
        .collect();
    let others: Vec<&str> = first
        .keys()
        .map(String::as_str)
        .filter(|k| !keys.contains(k))
        .collect();
    keys.extend(others);
    let sums = keys.into_iter().map(|k| {
        let values = parts.iter().filter_map(|p| p.summary.get(key)?.get(k));
        let merged = if maxed.contains(&k) {
            values.filter_map(Value::as_i64).max().unwrap_or(0)
        } else {
            values
                .filter_map(Value::as_i64)
                .fold(0, i64::saturating_add)
        };
        (k.to_string(), merged)
    });
    Some(sums.collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A whole merge: every part must be there.
    fn merge(parts: &[PartOutput]) -> Result<Merged, String> {
        super::merge(parts, false)
    }

    fn part(k: u64, n: u64, fp: &str, status: &str, solutions: u64) -> PartOutput {
        let text = format!(
            "{{\"type\":\"summary\",\"status\":\"{status}\",\"solutions\":{solutions},\"part\":{{\"k\":{k},\"n\":{n},\"fingerprint\":\"{fp}\"}},\"stats\":{{\"nodes\":10,\"max_depth\":{k}}}}}"
        );
        read_part(&format!("p{k}"), &text).unwrap()
    }

    #[test]
    fn counts_add_up_and_statistics_are_summed() {
        let m = merge(&[
            part(2, 2, "f", "ALL_SOLUTIONS", 5),
            part(1, 2, "f", "UNSATISFIABLE", 0),
        ])
        .unwrap();
        assert_eq!((m.status, m.count), ("ALL_SOLUTIONS", 5));
        let stats = m.stats.as_ref().unwrap();
        assert_eq!((stats["nodes"], stats["max_depth"]), (20, 2), "{stats:?}");
    }

    #[test]
    fn parts_that_do_not_belong_together_are_refused() {
        let e = merge(&[
            part(1, 2, "f", "ALL_SOLUTIONS", 1),
            part(2, 2, "g", "ALL_SOLUTIONS", 1),
        ]);
        assert!(e.err().unwrap().contains("do not belong together"));
        let e = merge(&[
            part(1, 2, "f", "ALL_SOLUTIONS", 1),
            part(1, 2, "f", "ALL_SOLUTIONS", 1),
        ]);
        assert!(e.err().unwrap().contains("appears twice"));
        let e = merge(&[part(1, 3, "f", "ALL_SOLUTIONS", 1)]);
        assert!(e.err().unwrap().contains("parts are 2, 3 of 3 missing"));
        let e = merge(&[part(2, 9, "f", "ALL_SOLUTIONS", 1)]).err().unwrap();
        assert!(e.contains("parts are 1, 3 to 9 of 9 missing"), "{e}");
        let e = merge(&[
            part(1, 2, "f", "ALL_SOLUTIONS", 1),
            part(2, 3, "f", "ALL_SOLUTIONS", 1),
        ]);
        assert!(e.err().unwrap().contains("do not belong together"));
    }

    /// Sub-part `j/m` of part `k/n` (`--part K/N:J/M`).
    fn sub(k: u64, n: u64, j: u64, m: u64, status: &str, solutions: u64) -> PartOutput {
        nested(k, n, &[(j, m)], status, solutions)
    }

    #[test]
    fn sub_parts_stand_for_their_part() {
        let m = merge(&[
            part(1, 2, "f", "ALL_SOLUTIONS", 5),
            sub(2, 2, 2, 3, "ALL_SOLUTIONS", 4),
            sub(2, 2, 1, 3, "UNSATISFIABLE", 0),
            sub(2, 2, 3, 3, "ALL_SOLUTIONS", 1),
        ])
        .unwrap();
        assert_eq!((m.status, m.count, m.parts), ("ALL_SOLUTIONS", 10, 2));
        let stats = m.stats.as_ref().unwrap();
        assert_eq!((stats["nodes"], stats["max_depth"]), (40, 3), "{stats:?}");
        // Every sub-part without a solution: the part has none.
        let m = merge(&[
            sub(1, 1, 1, 2, "UNSATISFIABLE", 0),
            sub(1, 1, 2, 2, "UNSATISFIABLE", 0),
        ])
        .unwrap();
        assert_eq!(m.status, "UNSATISFIABLE");
        // One sub-part stopped: the part, and the whole, are unknown.
        let m = merge(&[
            part(1, 2, "f", "UNSATISFIABLE", 0),
            sub(2, 2, 1, 2, "UNSATISFIABLE", 0),
            sub(2, 2, 2, 2, "UNKNOWN", 0),
        ])
        .unwrap();
        assert_eq!(m.status, "UNKNOWN");
    }

    /// Part `k/n`'s sub-part `chain` (outermost first), nested as cspi
    /// writes it.
    fn nested(k: u64, n: u64, chain: &[(u64, u64)], status: &str, solutions: u64) -> PartOutput {
        let chain: Vec<_> = chain.iter().map(|&(j, m)| (j, m, false)).collect();
        nested_spread(k, n, &chain, status, solutions)
    }

    /// [`nested`] with each level's split evenly spread or not (`J/Me`).
    fn nested_spread(
        k: u64,
        n: u64,
        chain: &[(u64, u64, bool)],
        status: &str,
        solutions: u64,
    ) -> PartOutput {
        let subs: String = chain
            .iter()
            .map(|&(j, m, even)| {
                let even = if even { ",\"even\":true" } else { "" };
                format!(",\"sub\":{{\"k\":{j},\"n\":{m}{even}")
            })
            .collect();
        let text = format!(
            "{{\"type\":\"summary\",\"status\":\"{status}\",\"solutions\":{solutions},\"part\":{{\"k\":{k},\"n\":{n}{subs}{}, \"fingerprint\":\"f\"}},\"stats\":{{\"nodes\":10,\"max_depth\":{}}}}}",
            "}".repeat(chain.len()),
            chain.last().map_or(k, |c| c.0)
        );
        let name: String = chain.iter().map(|(j, ..)| format!(".{j}")).collect();
        read_part(&format!("p{k}{name}"), &text).unwrap()
    }

    /// A piece split evenly (`J/Me`) merges like any other, below a piece
    /// split the other way or above one; its sub-parts must all be split the
    /// same way, since the two spreads make different pieces.
    #[test]
    fn evenly_split_sub_parts_merge_only_with_their_own() {
        let even = |chain: &[(u64, u64, bool)], count| {
            let status = if count > 0 {
                "ALL_SOLUTIONS"
            } else {
                "UNSATISFIABLE"
            };
            nested_spread(1, 1, chain, status, count)
        };
        let m = merge(&[
            even(&[(1, 2, false)], 2),
            even(&[(2, 2, false), (1, 2, true)], 3),
            even(&[(2, 2, false), (2, 2, true), (1, 2, false)], 0),
            even(&[(2, 2, false), (2, 2, true), (2, 2, false)], 4),
        ])
        .unwrap();
        assert_eq!((m.status, m.count), ("ALL_SOLUTIONS", 9));
        let e = merge(&[
            even(&[(1, 2, false)], 2),
            even(&[(2, 2, false), (1, 2, true)], 3),
            even(&[(2, 2, false), (2, 2, false)], 4),
        ])
        .err()
        .unwrap_or_default();
        assert!(
            e.contains("come from different splits") && e.contains("1/1:2/2:1/2e"),
            "{e}"
        );
    }

    #[test]
    fn sub_parts_nest() {
        let deep = |j, status, count| nested(1, 1, &[(2, 2), (j, 3)], status, count);
        let m = merge(&[
            nested(1, 1, &[(1, 2)], "ALL_SOLUTIONS", 2),
            deep(3, "ALL_SOLUTIONS", 5),
            deep(1, "UNSATISFIABLE", 0),
            deep(2, "ALL_SOLUTIONS", 1),
        ])
        .unwrap();
        assert_eq!((m.status, m.count, m.parts), ("ALL_SOLUTIONS", 8, 1));
        assert_eq!(m.stats.as_ref().unwrap()["nodes"], 40);
        let e = merge(&[
            nested(1, 1, &[(1, 2)], "ALL_SOLUTIONS", 2),
            deep(1, "UNSATISFIABLE", 0),
            deep(2, "ALL_SOLUTIONS", 1),
        ])
        .err()
        .unwrap_or_default();
        assert!(e.contains("part is 1/1:2/2:3/3 missing"), "{e}");
        let e = merge(&[
            nested(1, 1, &[(1, 2)], "ALL_SOLUTIONS", 2),
            nested(1, 1, &[(2, 2)], "ALL_SOLUTIONS", 2),
            deep(1, "UNSATISFIABLE", 0),
        ])
        .err()
        .unwrap_or_default();
        assert!(e.contains("part 1/1:2/2 is given whole"), "{e}");
        // Stopped unfinished and then run as sub-parts: a partial merge
        // takes the sub-parts; a whole merge still refuses the mix.
        let pieces = [
            nested(1, 1, &[(1, 2)], "ALL_SOLUTIONS", 2),
            nested(1, 1, &[(2, 2)], "UNKNOWN", 0),
            deep(1, "UNSATISFIABLE", 0),
            deep(2, "ALL_SOLUTIONS", 1),
        ];
        let m = super::merge(&pieces, true).unwrap();
        assert_eq!(
            (m.status, m.count),
            ("UNKNOWN", 3),
            "1/1:2/2:3/3 is missing"
        );
        let e = merge(&pieces).err().unwrap_or_default();
        assert!(e.contains("part 1/1:2/2 is given whole"), "{e}");
    }

    #[test]
    fn sub_parts_missing_repeated_or_mixed_are_refused() {
        let err = |parts: &[PartOutput]| merge(parts).err().unwrap_or_default();
        let e = err(&[
            part(1, 2, "f", "UNSATISFIABLE", 0),
            sub(2, 2, 1, 3, "UNSATISFIABLE", 0),
        ]);
        assert!(e.contains("parts are 2/2:2/3, 2/2:3/3 missing"), "{e}");
        let e = err(&[
            sub(1, 1, 1, 2, "UNSATISFIABLE", 0),
            sub(1, 1, 1, 2, "UNSATISFIABLE", 0),
            sub(1, 1, 2, 2, "UNSATISFIABLE", 0),
        ]);
        assert!(e.contains("1/1:1/2 appears twice"), "{e}");
        let e = err(&[
            sub(1, 1, 1, 2, "UNSATISFIABLE", 0),
            sub(1, 1, 2, 3, "UNSATISFIABLE", 0),
        ]);
        assert!(e.contains("different splits"), "{e}");
        let e = err(&[
            part(1, 1, "f", "UNSATISFIABLE", 0),
            sub(1, 1, 1, 1, "UNSATISFIABLE", 0),
        ]);
        assert!(
            e.contains("given whole (p1) and as sub-parts (p1.1)"),
            "{e}"
        );
        let bad = "{\"type\":\"summary\",\"status\":\"UNKNOWN\",\"solutions\":0,\"part\":{\"k\":1,\"n\":1,\"sub\":{\"k\":3,\"n\":2},\"fingerprint\":\"f\"}}";
        let e = read_part("p", bad).err().unwrap_or_default();
        assert!(e.contains("no index J/M"), "{e}");
    }

    /// An optimising part: its status, and its best objective if any.
    fn best(k: u64, n: u64, status: &str, objective: Option<i64>) -> PartOutput {
        let (record, solutions, objective) = match objective {
            Some(o) => (
                format!("{{\"type\":\"solution\",\"values\":{{\"x\":{o}}}}}\n"),
                1,
                format!(",\"objective\":{o}"),
            ),
            None => (String::new(), 0, String::new()),
        };
        let text = format!(
            "{record}{{\"type\":\"summary\",\"status\":\"{status}\",\"solutions\":{solutions}{objective},\"part\":{{\"k\":{k},\"n\":{n},\"fingerprint\":\"f\",\"sense\":\"minimize\"}}}}"
        );
        read_part(&format!("p{k}"), &text).unwrap()
    }

    /// A partial merge claims only what the parts given prove for the
    /// whole: a solution, a count as a lower bound, a best objective; never
    /// that there is none, that all were found, or that the best is optimal.
    #[test]
    fn a_partial_merge_claims_only_what_the_parts_given_prove() {
        let partial = |parts: &[PartOutput]| super::merge(parts, true).unwrap();
        let m = partial(&[
            part(1, 7, "f", "UNSATISFIABLE", 0),
            part(5, 7, "f", "UNSATISFIABLE", 0),
        ]);
        assert_eq!((m.status, m.count, m.parts, m.of), ("UNKNOWN", 0, 2, 7));
        assert_eq!(m.missing, ["2 to 4", "6", "7"]);
        assert_eq!(m.stats.as_ref().unwrap()["nodes"], 20, "the parts' own");
        let m = partial(&[
            part(2, 3, "f", "ALL_SOLUTIONS", 4),
            part(3, 3, "f", "UNSATISFIABLE", 0),
        ]);
        assert_eq!((m.status, m.count), ("UNKNOWN", 4), "a count so far");
        let m = partial(&[part(2, 3, "f", "SATISFIABLE", 1)]);
        assert_eq!(m.status, "SATISFIABLE", "a solution holds for the whole");
        let m = partial(&[
            best(1, 3, "OPTIMAL", Some(9)),
            best(2, 3, "OPTIMAL", Some(4)),
        ]);
        assert_eq!((m.status, m.objective), ("SATISFIABLE", Some((4, None))));
        let m = partial(&[best(1, 2, "UNSATISFIABLE", None)]);
        assert_eq!(
            (m.status, m.missing.as_slice()),
            ("UNKNOWN", &["2".to_string()][..])
        );
        // Every part there: the same as a whole merge.
        let m = partial(&[
            best(1, 2, "OPTIMAL", Some(9)),
            best(2, 2, "UNSATISFIABLE", None),
        ]);
        assert_eq!((m.status, m.missing.len()), ("OPTIMAL", 0));
        // A missing sub-part is named, and its part is incomplete.
        let m = partial(&[
            part(1, 2, "f", "UNSATISFIABLE", 0),
            sub(2, 2, 1, 3, "UNSATISFIABLE", 0),
        ]);
        assert_eq!((m.status, m.parts), ("UNKNOWN", 2));
        assert_eq!(m.missing, ["2/2:2/3", "2/2:3/3"]);
        // Parts that do not belong together are refused all the same.
        let e = super::merge(
            &[
                part(1, 3, "f", "UNSATISFIABLE", 0),
                part(2, 3, "g", "UNSATISFIABLE", 0),
            ],
            true,
        );
        assert!(e.err().unwrap().contains("do not belong together"));
        // A file with no summary yet is a part still running.
        assert!(unfinished(
            "{\"type\":\"solution\",\"values\":{}}\n{\"type\":\"sum"
        ));
        assert!(!unfinished(&listing(1, 2, &[], Some(0), 0)));
    }

    /// A summary may not claim more parts than a split makes, nor nest
    /// deeper: the merge makes a slot for each part (a file claiming 10^12
    /// parts aborted it, asking for 24 TB).
    #[test]
    fn a_part_index_past_the_bounds_of_a_split_is_refused() {
        let summary = |part: &str| {
            format!(
                "{{\"type\":\"summary\",\"status\":\"UNKNOWN\",\"solutions\":0,\"part\":{{{part},\"fingerprint\":\"f\"}}}}"
            )
        };
        let e = read_part("p", &summary("\"k\":1,\"n\":1000000000000"))
            .err()
            .unwrap();
        assert!(
            e.contains("no index K/N with 1 <= K <= N <= 1048576"),
            "{e}"
        );
        assert!(read_part("p", &summary("\"k\":1,\"n\":1048576")).is_ok());
        let e = read_part(
            "p",
            &summary("\"k\":1,\"n\":2,\"sub\":{\"k\":1,\"n\":1048577}"),
        );
        assert!(e.err().unwrap().contains("no index J/M"));
        let deep = |levels: usize| {
            let subs = "\"sub\":{\"k\":1,\"n\":2,".repeat(levels);
            summary(&format!(
                "\"k\":1,\"n\":2,{subs}\"x\":0{}",
                "}".repeat(levels)
            ))
        };
        assert!(read_part("p", &deep(MAX_NEST)).is_ok());
        let e = read_part("p", &deep(MAX_NEST + 1)).err().unwrap();
        assert!(
            e.contains(&format!("nest more than {MAX_NEST} deep")),
            "{e}"
        );
    }

    /// A piece of a generated split: absent, one output (status, count), or
    /// split into sub-parts.
    #[derive(Clone, Debug)]
    enum Gen {
        Absent,
        Own(&'static str, u64),
        Subs(Vec<Gen>),
    }

    fn gen_piece(depth: u32) -> impl proptest::strategy::Strategy<Value = Gen> {
        use proptest::prelude::*;
        let own = prop_oneof![
            Just(Gen::Own("UNSATISFIABLE", 0)),
            (1u64..4).prop_map(|c| Gen::Own("ALL_SOLUTIONS", c)),
            (0u64..3).prop_map(|c| Gen::Own("UNKNOWN", c)),
            Just(Gen::Own("SATISFIABLE", 1)),
        ];
        let leaf = prop_oneof![1 => Just(Gen::Absent), 4 => own];
        leaf.prop_recursive(depth, 12, 3, |inner| {
            proptest::collection::vec(inner, 1..4).prop_map(Gen::Subs)
        })
    }

    /// The outputs of piece `g` of part `k/n` below the sub-parts `chain`;
    /// `stopped` writes an absent piece as a part a limit stopped at once.
    fn outputs(g: &Gen, k: u64, n: u64, chain: &[(u64, u64)], stopped: bool) -> Vec<PartOutput> {
        match g {
            Gen::Absent if stopped => vec![nested(k, n, chain, "UNKNOWN", 0)],
            Gen::Absent => Vec::new(),
            Gen::Own(status, count) => vec![nested(k, n, chain, status, *count)],
            Gen::Subs(subs) => (1..=subs.len() as u64)
                .flat_map(|j| {
                    let deeper = [chain, &[(j, subs.len() as u64)]].concat();
                    outputs(&subs[j as usize - 1], k, n, &deeper, stopped)
                })
                .collect(),
        }
    }

    fn absent_pieces(g: &Gen) -> usize {
        match g {
            Gen::Absent => 1,
            Gen::Own(..) => 0,
            Gen::Subs(subs) => subs.iter().map(absent_pieces).sum(),
        }
    }

    proptest::proptest! {
        /// A partial merge is the whole merge of the same split with each
        /// missing piece there as a part a limit stopped before it found
        /// anything; with nothing missing it is the whole merge itself.
        #[test]
        fn a_partial_merge_is_the_merge_with_the_missing_pieces_stopped(
            split in proptest::collection::vec(gen_piece(2), 1..5)
        ) {
            let n = split.len() as u64;
            let of = |stopped: bool| -> Vec<PartOutput> {
                (1..=n).flat_map(|k| outputs(&split[k as usize - 1], k, n, &[], stopped)).collect()
            };
            let given = of(false);
            proptest::prop_assume!(!given.is_empty());
            let partial = super::merge(&given, true).unwrap();
            let reference = merge(&of(true)).unwrap();
            proptest::prop_assert_eq!(
                (partial.status, partial.count),
                (reference.status, reference.count)
            );
            let absent: usize = split.iter().map(absent_pieces).sum();
            proptest::prop_assert_eq!(partial.missing.is_empty(), absent == 0);
            match merge(&given) {
                Ok(whole) => {
                    proptest::prop_assert_eq!(absent, 0);
                    proptest::prop_assert_eq!((whole.status, whole.count), (partial.status, partial.count));
                }
                Err(e) => {
                    proptest::prop_assert!(absent > 0, "{}", e);
                    proptest::prop_assert!(e.contains("missing"), "{}", e);
                    proptest::prop_assert!(
                        !matches!(partial.status, "UNSATISFIABLE" | "ALL_SOLUTIONS" | "OPTIMAL")
                    );
                }
            }
        }
    }

    /// A part that reached its solution limit makes the whole satisfiable,
    /// whatever a part a limit stopped says.
    #[test]
    fn a_part_at_its_solution_limit_makes_the_whole_satisfiable() {
        // Part 1 stopped by a limit, part 2 as given.
        let with = |status, count| {
            let m = merge(&[
                part(1, 2, "f", "UNKNOWN", 0),
                part(2, 2, "f", status, count),
            ]);
            m.map(|m| (m.status, m.count)).unwrap()
        };
        assert_eq!(with("SATISFIABLE", 1), ("SATISFIABLE", 1));
        assert_eq!(with("UNSATISFIABLE", 0), ("UNKNOWN", 0));
    }

    #[test]
    fn a_parts_map_of_where_its_search_failed_is_read_and_merged() {
        let summary = "{\"type\":\"summary\",\"status\":\"UNKNOWN\",\"solutions\":0,\"part\":{\"k\":1,\"n\":1,\"fingerprint\":\"f\"}}";
        // A record of a build before `failures` was written reads too.
        let failed = "{\"type\":\"failed\",\"grid\":\"xw\",\"cells\":[[1.0]],\"entries\":[]}";
        let m = merge(&[read_part("p", &format!("{failed}\n{summary}\n")).unwrap()]).unwrap();
        assert_eq!((m.status, m.count), ("UNKNOWN", 0));
        let map = m.failed.expect("the part's map");
        assert_eq!(
            (map.grid.as_str(), &map.cells),
            ("xw", &vec![vec![Some(1.0)]])
        );
        // No entry blamed: the map alone, no empty ranking.
        assert_eq!(map.text(5).lines().skip(1).collect::<Vec<_>>(), ["9"]);
        // A second map in one part, or one that cannot be read, is refused.
        let twice = read_part("p", &format!("{failed}\n{failed}\n{summary}\n"));
        assert!(
            twice
                .err()
                .unwrap()
                .contains("neither a solution nor a summary")
        );
        let bad = read_part(
            "p",
            &format!("{{\"type\":\"failed\",\"cells\":1}}\n{summary}\n"),
        );
        assert!(
            bad.err()
                .unwrap()
                .contains("a `failed` record that cannot be read")
        );
        let after = read_part("p", &format!("{summary}\n{failed}\n"));
        assert!(
            after
                .err()
                .unwrap()
                .contains("neither a solution nor a summary")
        );
    }

    #[test]
    fn an_unfinished_part_leaves_the_result_unknown() {
        let m = merge(&[
            part(1, 2, "f", "UNKNOWN", 3),
            part(2, 2, "f", "ALL_SOLUTIONS", 1),
        ])
        .unwrap();
        assert_eq!((m.status, m.count), ("UNKNOWN", 4));
    }

    fn listing(k: u64, n: u64, values: &[&str], records: Option<usize>, counted: usize) -> String {
        let mut text = String::new();
        for v in values {
            text.push_str(&format!(
                "{{\"type\":\"solution\",\"values\":{{\"x\":{v}}}}}\n"
            ));
        }
        let records = records.map_or(String::new(), |r| format!(",\"records\":{r}"));
        text.push_str(&format!(
            "{{\"type\":\"summary\",\"status\":\"ALL_SOLUTIONS\",\"solutions\":{counted},\"part\":{{\"k\":{k},\"n\":{n},\"fingerprint\":\"f\"{records}}}}}\n"
        ));
        text
    }

    #[test]
    fn tampered_parts_are_refused_naming_the_file_and_line() {
        // Whole parts merge.
        let a = read_part("a", &listing(1, 2, &["1", "2"], Some(2), 2)).unwrap();
        let b = read_part("b", &listing(2, 2, &["3"], Some(1), 1)).unwrap();
        assert_eq!(merge(&[a, b]).unwrap().count, 3);
        // A lost solution line.
        let e = read_part("a", &listing(1, 2, &["1"], Some(2), 2))
            .err()
            .unwrap();
        assert!(
            e.starts_with("a:2: the summary says 2 solution records"),
            "{e}"
        );
        // An added one.
        let e = read_part("a", &listing(1, 2, &["1", "2", "9"], Some(2), 2))
            .err()
            .unwrap();
        assert!(
            e.starts_with("a:4:") && e.contains("the file holds 3"),
            "{e}"
        );
        // A count that disagrees with the records (records edited too).
        let e = read_part("a", &listing(1, 2, &["1"], Some(1), 2))
            .err()
            .unwrap();
        assert!(e.contains("counts 2 solutions, the file lists 1"), "{e}");
        // Without `records` (older outputs), the count still holds.
        let e = read_part("a", &listing(1, 2, &["1"], None, 2))
            .err()
            .unwrap();
        assert!(e.contains("counts 2 solutions, the file lists 1"), "{e}");
        // A duplicate, within a part and across parts.
        let e = read_part("a", &listing(1, 2, &["1", "1"], Some(2), 2))
            .and_then(|a| merge(&[a, read_part("b", &listing(2, 2, &[], Some(0), 0))?]))
            .err()
            .unwrap();
        assert!(e.starts_with("a:2: the same solution as a:1"), "{e}");
        let a = read_part("a", &listing(1, 2, &["1", "2"], Some(2), 2)).unwrap();
        let b = read_part("b", &listing(2, 2, &["5", "2"], Some(2), 2)).unwrap();
        let e = merge(&[a, b]).err().unwrap();
        assert!(e.starts_with("b:2: the same solution as a:2"), "{e}");
        // A count run lists nothing.
        let a = read_part("a", &listing(1, 2, &[], Some(0), 7)).unwrap();
        let b = read_part("b", &listing(2, 2, &[], Some(0), 1)).unwrap();
        assert_eq!(merge(&[a, b]).unwrap().count, 8);
        // Index and fingerprint.
        let bad = listing(3, 2, &[], Some(0), 0);
        assert!(
            read_part("c", &bad)
                .err()
                .unwrap()
                .starts_with("c:1: the summary's part has no index")
        );
        let bad =
            listing(1, 2, &[], Some(0), 0).replace("\"fingerprint\":\"f\"", "\"fingerprint\":\"\"");
        assert!(
            read_part("c", &bad)
                .err()
                .unwrap()
                .contains("no fingerprint")
        );
        let bad = listing(1, 2, &[], Some(0), 0).replace("\"k\":1,", "");
        assert!(read_part("c", &bad).err().unwrap().contains("no index"));
        // A solution after the summary.
        let mut bad = listing(1, 2, &[], Some(0), 0);
        bad.push_str("{\"type\":\"solution\",\"values\":{\"x\":1}}\n");
        assert!(
            read_part("c", &bad)
                .err()
                .unwrap()
                .starts_with("c:2: a solution record after")
        );
    }

    #[test]
    fn bad_input_names_the_file_and_line() {
        let e = read_part(
            "a.jsonl",
            "{\"type\":\"solution\",\"values\":{}}\nnot json\n",
        )
        .err()
        .unwrap();
        assert!(e.starts_with("a.jsonl:2:"), "{e}");
        let e = read_part(
            "b.jsonl",
            "{\"type\":\"summary\",\"status\":\"ALL_SOLUTIONS\"}\n",
        )
        .err()
        .unwrap();
        assert!(e.contains("not the output of a `cspi solve --part"), "{e}");
        assert!(
            read_part("c.jsonl", "")
                .err()
                .unwrap()
                .contains("no summary")
        );
    }
}
