//! Solutions as pictures (`cspi solve --svg FILE`, and `_repr_svg_` in
//! Python): the model's drawable output items, stacked top to bottom —
//! `grid(...)` as a grid with its boxes (sudoku of every size, givens in
//! black and the rest in blue), a crossword with its blocks and clue
//! numbers, `board(q)` as a chessboard with a queen per row, `path(...)` as a
//! Boggle board with the word's path. Written by hand as plain SVG 1.1: no
//! fonts embedded, no scripts, nothing fetched.

use crate::model::term::{CmpOp, Formula, Term};
use crate::model::{CrosswordLayout, Model, OutputItem, VarGroup};
use std::fmt::Write;

/// The side of a cell, in pixels.
pub(crate) const CELL: f64 = 36.0;
/// The margin around each picture.
pub(crate) const MARGIN: f64 = 8.0;

/// Colours, named once.
const INK: &str = "#111111";
const FILLED: &str = "#1f5fbf";
const THIN: &str = "#9a9a9a";
const BLOCK: &str = "#222222";
const LIGHT_SQUARE: &str = "#f0d9b5";
const DARK_SQUARE: &str = "#b58863";
const QUEEN: &str = "#8b1a1a";
const PATH: &str = "#d2452b";

/// A picture being drawn: SVG elements and its size.
pub(crate) struct Canvas {
    body: String,
    pub(crate) width: f64,
    pub(crate) height: f64,
}

impl Canvas {
    pub(crate) fn new() -> Self {
        Canvas {
            body: String::new(),
            width: 0.0,
            height: 0.0,
        }
    }

    /// Grows the picture to hold `(w, h)`.
    pub(crate) fn fit(&mut self, w: f64, h: f64) {
        self.width = self.width.max(w);
        self.height = self.height.max(h);
    }

    pub(crate) fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, style: &str) {
        let _ = writeln!(
            self.body,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" {style}/>"#
        );
    }

    pub(crate) fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), style: &str) {
        let _ = writeln!(
            self.body,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" {style}/>"#
        );
    }

    pub(crate) fn circle(&mut self, (x, y): (f64, f64), r: f64, style: &str) {
        let _ = writeln!(
            self.body,
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" {style}/>"#
        );
    }

    pub(crate) fn polyline(&mut self, points: &[(f64, f64)], style: &str) {
        let pts: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = writeln!(
            self.body,
            r#"<polyline points="{}" fill="none" {style}/>"#,
            pts.join(" ")
        );
    }

    pub(crate) fn polygon(&mut self, points: &[(f64, f64)], style: &str) {
        let pts: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = writeln!(
            self.body,
            r#"<polygon points="{}" {style}/>"#,
            pts.join(" ")
        );
    }

    /// Text centred on `(x, y)` (its middle, not its baseline).
    pub(crate) fn text(&mut self, (x, y): (f64, f64), size: f64, style: &str, text: &str) {
        self.text_anchored((x, y + 0.35 * size), size, "middle", style, text);
    }

    /// Text with its baseline at `y`, anchored `start`, `middle` or `end` at `x`.
    pub(crate) fn text_anchored(
        &mut self,
        (x, y): (f64, f64),
        size: f64,
        anchor: &str,
        style: &str,
        text: &str,
    ) {
        let _ = write!(
            self.body,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.1}" text-anchor="{anchor}" {style}>"#
        );
        escape(&mut self.body, text);
        self.body.push_str("</text>\n");
    }

    /// Raw SVG, for a group or a title.
    pub(crate) fn raw(&mut self, s: &str) {
        self.body.push_str(s);
    }

    /// The whole document.
    pub(crate) fn finish(self) -> String {
        let (w, h) = (self.width.ceil(), self.height.ceil());
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n\
             <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n{}</svg>\n",
            self.body
        )
    }
}

impl Default for Canvas {
    fn default() -> Self {
        Self::new()
    }
}

/// Appends `s` escaped for XML text and attributes.
pub(crate) fn escape(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
}

/// Whether the model has anything to draw.
pub(crate) fn drawable(model: &Model) -> bool {
    model.output.iter().any(|o| {
        matches!(
            o,
            OutputItem::Grid { .. }
                | OutputItem::Crossword { .. }
                | OutputItem::Board { .. }
                | OutputItem::Path { .. }
        )
    })
}

/// One solution drawn: each drawable output item, one below the other;
/// `None` when the model has none.
pub fn solution(model: &Model, values: &[i64]) -> Option<String> {
    if !drawable(model) {
        return None;
    }
    let given = givens(model);
    let mut canvas = Canvas::new();
    let mut top = MARGIN;
    for item in &model.output {
        let (w, h) = match item {
            OutputItem::Grid {
                group,
                box_size,
                symbols,
                ..
            } => grid(
                &mut canvas,
                top,
                model,
                group,
                *box_size,
                symbols.as_deref(),
                values,
                &given,
            ),
            OutputItem::Crossword { layout, .. } => {
                crossword(&mut canvas, top, model, layout, values)
            }
            OutputItem::Board { group, .. } => board(&mut canvas, top, group, values),
            OutputItem::Path {
                group, cells, cols, ..
            } => path(&mut canvas, top, group, cells, *cols, values),
            _ => continue,
        };
        canvas.fit(w + 2.0 * MARGIN, top + h + MARGIN);
        top += h + 2.0 * MARGIN;
    }
    Some(canvas.finish())
}

/// The variables fixed by the data (`cell[r, c] == 5`, or a domain of one
/// value): drawn as givens.
fn givens(model: &Model) -> Vec<bool> {
    let mut given: Vec<bool> = model.vars.iter().map(|v| v.domain.len() == 1).collect();
    let single = |t: &Term| match t {
        Term::Var(v) => Some(*v),
        Term::Linear(ts, 0) => match ts.as_slice() {
            [(1, Term::Var(v))] => Some(*v),
            _ => None,
        },
        _ => None,
    };
    for f in &model.constraints {
        if let Formula::Cmp(CmpOp::Eq, a, b) = f {
            let v = match (a, b) {
                (t, Term::Const(_)) | (Term::Const(_), t) => single(t),
                _ => None,
            };
            if let Some(v) = v {
                given[v] = true;
            }
        }
    }
    given
}

fn size(g: &VarGroup, d: usize) -> usize {
    g.dims
        .get(d)
        .map_or(0, |&(lo, hi)| (hi - lo + 1).max(0) as usize)
}

/// The font size that fits `text` in a cell.
fn fitted(text: &str, cell: f64) -> f64 {
    let n = text.chars().count().max(1) as f64;
    (cell * 0.62).min(cell * 1.1 / n)
}

#[allow(clippy::too_many_arguments)]
fn grid(
    c: &mut Canvas,
    top: f64,
    model: &Model,
    g: &VarGroup,
    box_size: Option<usize>,
    symbols: Option<&[char]>,
    values: &[i64],
    given: &[bool],
) -> (f64, f64) {
    let (rows, cols) = (size(g, 0), size(g, 1));
    let x0 = MARGIN;
    let (w, h) = (cols as f64 * CELL, rows as f64 * CELL);
    c.raw(&format!(
        "<g class=\"grid\" data-rows=\"{rows}\" data-cols=\"{cols}\">\n"
    ));
    for (k, &v) in g.vars.iter().enumerate() {
        let (r, col) = (k / cols.max(1), k % cols.max(1));
        let text = OutputItem::grid_cell(model, symbols, v, values[v]);
        let centre = (
            x0 + (col as f64 + 0.5) * CELL,
            top + (r as f64 + 0.5) * CELL,
        );
        let style = if given.get(v).copied().unwrap_or(false) {
            format!(r#"fill="{INK}" font-weight="bold""#)
        } else {
            format!(r#"fill="{FILLED}""#)
        };
        c.text(centre, fitted(&text, CELL), &style, &text);
    }
    let boxed = |i: usize| box_size.is_some_and(|b| b > 0 && i.is_multiple_of(b));
    for i in 0..=rows {
        let y = top + i as f64 * CELL;
        let style = line_style(i == 0 || i == rows || boxed(i));
        c.line((x0, y), (x0 + w, y), &style);
    }
    for j in 0..=cols {
        let x = x0 + j as f64 * CELL;
        let style = line_style(j == 0 || j == cols || boxed(j));
        c.line((x, top), (x, top + h), &style);
    }
    c.raw("</g>\n");
    (w, h)
}

fn line_style(thick: bool) -> String {
    if thick {
        format!(r#"stroke="{INK}" stroke-width="2.5" stroke-linecap="square""#)
    } else {
        format!(r#"stroke="{THIN}" stroke-width="1""#)
    }
}

/// A filled crossword: blocks, letters, and the clue numbers of the cells
/// where a slot starts (in reading order, as printed puzzles number them).
fn crossword(
    c: &mut Canvas,
    top: f64,
    model: &Model,
    layout: &CrosswordLayout,
    values: &[i64],
) -> (f64, f64) {
    let letters = layout.letters(model, values);
    let mut starts = vec![false; layout.width * layout.height];
    for s in &layout.slots {
        starts[s.y * layout.width + s.x] = true;
    }
    let mut number = 0;
    crossword_grid(
        c,
        (MARGIN, top),
        layout,
        "crossword",
        |_| "#ffffff".to_string(),
        |c, k, (px, py)| {
            if starts[k] {
                number += 1;
                c.text_anchored(
                    (px + 2.5, py + 10.0),
                    9.0,
                    "start",
                    &format!(r#"fill="{INK}""#),
                    &number.to_string(),
                );
            }
            if let Some(ch) = letters[k] {
                let t = ch.to_uppercase().to_string();
                c.text(
                    (px + CELL / 2.0, py + CELL * 0.56),
                    CELL * 0.55,
                    &format!(r#"fill="{INK}""#),
                    &t,
                );
            }
        },
    )
}

/// A crossword's grid with its top left corner at `at`, as `<g
/// class="{class}">`: blocks dark, open cell `k` (row-major) filled with
/// `fill(k)` and then marked by `mark(canvas, k, its corner)`, a heavy
/// border around. Its width and height. The filled crossword and the maps
/// of a grid (fillability, where a search failed) share it.
pub(crate) fn crossword_grid(
    c: &mut Canvas,
    (x0, top): (f64, f64),
    layout: &CrosswordLayout,
    class: &str,
    fill: impl Fn(usize) -> String,
    mut mark: impl FnMut(&mut Canvas, usize, (f64, f64)),
) -> (f64, f64) {
    let (width, height) = (layout.width, layout.height);
    c.raw(&format!(
        "<g class=\"{class}\" data-rows=\"{height}\" data-cols=\"{width}\">\n"
    ));
    for y in 0..height {
        for x in 0..width {
            let k = y * width + x;
            let (px, py) = (x0 + x as f64 * CELL, top + y as f64 * CELL);
            if !layout.open[k] {
                c.rect(px, py, CELL, CELL, &format!(r#"fill="{BLOCK}""#));
                continue;
            }
            c.rect(
                px,
                py,
                CELL,
                CELL,
                &format!(r#"fill="{}" stroke="{INK}" stroke-width="1""#, fill(k)),
            );
            mark(c, k, (px, py));
        }
    }
    let (w, h) = (width as f64 * CELL, height as f64 * CELL);
    c.rect(
        x0,
        top,
        w,
        h,
        &format!(r#"fill="none" stroke="{INK}" stroke-width="2.5""#),
    );
    c.raw("</g>\n");
    (w, h)
}

/// A chessboard with a queen in row `i` at column `q[i]`.
fn board(c: &mut Canvas, top: f64, g: &VarGroup, values: &[i64]) -> (f64, f64) {
    let n = g.vars.len();
    let x0 = MARGIN;
    let lo = g.dims.first().map_or(1, |d| d.0);
    c.raw(&format!(
        "<g class=\"board\" data-rows=\"{n}\" data-cols=\"{n}\">\n"
    ));
    for r in 0..n {
        for col in 0..n {
            let fill = if (r + col) % 2 == 0 {
                LIGHT_SQUARE
            } else {
                DARK_SQUARE
            };
            c.rect(
                x0 + col as f64 * CELL,
                top + r as f64 * CELL,
                CELL,
                CELL,
                &format!(r#"fill="{fill}""#),
            );
        }
    }
    for (r, &v) in g.vars.iter().enumerate() {
        let col = values[v] - lo;
        if col < 0 || col as usize >= n {
            continue;
        }
        queen(
            c,
            (
                x0 + (col as f64 + 0.5) * CELL,
                top + (r as f64 + 0.5) * CELL,
            ),
        );
    }
    let side = n as f64 * CELL;
    c.rect(
        x0,
        top,
        side,
        side,
        &format!(r#"fill="none" stroke="{INK}" stroke-width="2""#),
    );
    c.raw("</g>\n");
    (side, side)
}

/// A queen as a crown: a shape, so that it needs no chess font.
fn queen(c: &mut Canvas, (x, y): (f64, f64)) {
    let s = CELL * 0.34;
    let pts = [
        (x - s, y + 0.7 * s),
        (x - s, y - 0.6 * s),
        (x - 0.5 * s, y),
        (x, y - 0.9 * s),
        (x + 0.5 * s, y),
        (x + s, y - 0.6 * s),
        (x + s, y + 0.7 * s),
    ];
    c.polygon(
        &pts,
        &format!(r##"fill="{QUEEN}" stroke="#ffffff" stroke-width="1""##),
    );
}

/// A board of `cells` (texts, row by row, `cols` to a row) with the path
/// `group` traces through it: its values are cell numbers from 1, and the
/// path ends at the first value outside the board.
fn path(
    c: &mut Canvas,
    top: f64,
    g: &VarGroup,
    cells: &[String],
    cols: usize,
    values: &[i64],
) -> (f64, f64) {
    let cols = cols.max(1);
    let rows = cells.len().div_ceil(cols);
    let x0 = MARGIN;
    let centre = |k: usize| {
        (
            x0 + ((k % cols) as f64 + 0.5) * CELL,
            top + ((k / cols) as f64 + 0.5) * CELL,
        )
    };
    let steps: Vec<usize> = g
        .vars
        .iter()
        .map(|&v| values[v])
        .take_while(|&k| k >= 1 && (k as usize) <= cells.len())
        .map(|k| k as usize - 1)
        .collect();
    c.raw(&format!(
        "<g class=\"path\" data-rows=\"{rows}\" data-cols=\"{cols}\" data-steps=\"{}\">\n",
        steps.len()
    ));
    for k in 0..cells.len() {
        let (x, y) = centre(k);
        let on = steps.contains(&k);
        let fill = if on { "#fde3d8" } else { "#f4f4f4" };
        c.rect(
            x - CELL / 2.0 + 2.0,
            y - CELL / 2.0 + 2.0,
            CELL - 4.0,
            CELL - 4.0,
            &format!(r#"rx="5" fill="{fill}" stroke="{THIN}" stroke-width="1""#),
        );
    }
    let points: Vec<(f64, f64)> = steps.iter().map(|&k| centre(k)).collect();
    if points.len() > 1 {
        c.polyline(
            &points,
            &format!(
                r#"stroke="{PATH}" stroke-width="5" stroke-opacity="0.55" stroke-linejoin="round" stroke-linecap="round""#
            ),
        );
    }
    if let Some(&first) = points.first() {
        c.circle(
            first,
            CELL * 0.42,
            &format!(r#"fill="none" stroke="{PATH}" stroke-width="2.5""#),
        );
    }
    for (k, text) in cells.iter().enumerate() {
        c.text(
            centre(k),
            fitted(text, CELL),
            &format!(r#"fill="{INK}""#),
            text,
        );
    }
    c.raw("</g>\n");
    (cols as f64 * CELL, rows as f64 * CELL)
}
