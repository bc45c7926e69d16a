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
        _ if tried.cut_short => {
            format!("stopped after {secs:.1} s ({nodes}): another grid filled")
        }
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
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        cut_short: bool,
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
        cut_short: tried.cut_short,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CrosswordLayout;
    use crate::run::{BlockSet, Stats};
    use std::sync::Arc;

    /// A grid whose search a fill beside it stopped says so, in the line
    /// and in the record; a grid searched to its budget does not.
    #[test]
    fn a_grid_cut_short_says_why() {
        let layout = CrosswordLayout {
            width: 3,
            height: 3,
            open: vec![true; 9],
            given: vec![None; 9],
            region: vec![true; 9],
            slots: Vec::new(),
            picture: true,
        };
        let model = Model {
            crosswords: vec![("xw".to_string(), Arc::new(layout))],
            ..Model::default()
        };
        let mut tried = Tried {
            blocks: BlockSet {
                cells: vec![0, 8],
                share: 1.0,
            },
            status: Status::Unknown,
            stats: Stats {
                nodes: 7,
                ..Stats::default()
            },
            rejected: Vec::new(),
            unbuilt: None,
            cut_short: false,
        };
        assert_eq!(
            line(&model, &tried),
            "blocks at row 1, column 1; row 3, column 3: no fill found in 0.0 s (7 nodes)\n"
        );
        assert!(!record(&model, &tried).contains("cut_short"));
        tried.cut_short = true;
        assert_eq!(
            line(&model, &tried),
            "blocks at row 1, column 1; row 3, column 3: stopped after 0.0 s (7 nodes): another grid filled\n"
        );
        assert_eq!(
            record(&model, &tried),
            "{\"type\":\"grid\",\"blocks\":[[1,1],[3,3]],\"status\":\"UNKNOWN\",\"nodes\":7,\"seconds\":0.0,\"cut_short\":true}\n"
        );
    }
}
