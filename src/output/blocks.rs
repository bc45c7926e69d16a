//! What `cspi solve --try-blocks` prints of each grid it searched (a line
//! for people, a `grid` JSON record) and the grid that filled, as a
//! picture file writes it.

use crate::model::{CrosswordLayout, Model};
use crate::run::{Status, Tried};
use std::fmt::Write;

/// The blocks of a grid tried, as constructors say it: `row 9, column 4`,
/// rows and columns from 1.
fn places(model: &Model, tried: &Tried) -> Vec<(usize, usize)> {
    let width = model.crosswords.first().map_or(1, |(_, l)| l.width);
    tried
        .blocks
        .places(width)
        .into_iter()
        .map(|(r, c)| (r + 1, c + 1))
        .collect()
}

/// One line for people: which grid, how its search ended.
pub(crate) fn line(model: &Model, tried: &Tried) -> String {
    let which = match places(model, tried).as_slice() {
        [] => "the grid as drawn".to_string(),
        cells => {
            let cells: Vec<String> = cells
                .iter()
                .map(|(r, c)| format!("row {r}, column {c}"))
                .collect();
            format!("blocks at {}", cells.join("; "))
        }
    };
    let nodes = super::plural(tried.stats.nodes, "node", "nodes");
    let secs = tried.stats.time.as_secs_f64();
    let how = match (&tried.unbuilt, tried.status) {
        (Some(why), _) => format!("no fill: {why}"),
        (None, Status::Satisfiable) => format!("filled in {secs:.1} s ({nodes})"),
        (None, Status::Unsatisfiable) => format!("no fill exists ({nodes} to show it)"),
        _ => format!("no fill found in {secs:.1} s ({nodes})"),
    };
    format!("{which}: {how}\n")
}

/// One JSON record: `{"type":"grid","blocks":[[row,column],...],"status":...}`.
pub(crate) fn record(model: &Model, tried: &Tried) -> String {
    #[derive(serde::Serialize)]
    struct Grid<'a> {
        #[serde(rename = "type")]
        kind: &'static str,
        blocks: Vec<(usize, usize)>,
        status: &'static str,
        nodes: u64,
        seconds: f64,
        #[serde(skip_serializing_if = "Option::is_none")]
        unbuilt: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        picture: Option<&'a str>,
    }
    let picture = (tried.status == Status::Satisfiable)
        .then(|| model.crosswords.first().map(|(_, l)| picture(l)))
        .flatten();
    super::json::to_json(&Grid {
        kind: "grid",
        blocks: places(model, tried),
        status: tried.status.name(),
        nodes: tried.stats.nodes,
        seconds: tried.stats.time.as_secs_f64(),
        unbuilt: tried.unbuilt.as_deref(),
        picture: picture.as_deref(),
    }) + "\n"
}

/// The grid as a picture file writes it: `#` a block, a given letter, `*`
/// a cell of a marked region, `.` any other open cell.
pub(crate) fn picture(layout: &CrosswordLayout) -> String {
    let marked = layout.region != layout.open;
    let mut out = String::new();
    for y in 0..layout.height {
        for x in 0..layout.width {
            let c = y * layout.width + x;
            out.push(match layout.given[c] {
                _ if !layout.open[c] => '#',
                Some(letter) => letter,
                None if marked && layout.region[c] => '*',
                None => '.',
            });
        }
        let _ = writeln!(out);
    }
    out
}
