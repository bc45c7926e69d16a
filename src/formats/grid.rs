//! Crossword grids: slot files, picture grids and `.ipuz` files read into
//! a [`Geometry`] (cells and slots), before any variable exists.
//!
//! Slot files (the original assignment's format): groups of four tokens
//! `x y length dir`, x the column and y the row of the first cell (0-based),
//! dir `A` (across) or `D` (down). Picture grids: one row per line, `.` an
//! open cell, `#` a block, a letter a pre-filled cell; every run of two or
//! more open cells across or down is a slot. A picture may mark a region
//! with `*` cells: only the slots through it are filled (a partly filled
//! grid). `.ipuz` files (the open JSON format) are read as pictures.

use super::dictionary::{fold_letter, unfoldable};
use super::{Error, GoOn, STOPPED, json};
use crate::source::{Source, Span};
/// The most cells a crossword grid may have.
const MAX_CELLS: usize = 1 << 20;

/// A slot as read from the data file, with where it was written.
pub(crate) struct RawSlot {
    pub x: usize,
    pub y: usize,
    pub len: usize,
    pub across: bool,
    /// In the data file.
    pub span: Span,
}

/// A grid read from a file, before any variable exists.
pub(crate) struct Geometry {
    pub width: usize,
    pub height: usize,
    pub open: Vec<bool>,
    pub given: Vec<Option<char>>,
    /// The cells the fill writes: the `*` cells when a picture marks a
    /// region, else every open cell.
    pub region: Vec<bool>,
    /// Byte offset of each cell in the file (picture grids), for pointing
    /// at a cell; empty when cells have no place of their own (slot files,
    /// ipuz).
    pub offsets: Vec<usize>,
    pub slots: Vec<RawSlot>,
}

/// The cells where an entry (a run of two or more open cells) starts, in
/// reading order, as printed puzzles number them: each cell with whether it
/// starts an across entry and a down entry. `open` is row by row, `width`
/// cells a row. The ipuz and `.puz` writers number their clues by it.
pub(crate) fn numbered(width: usize, open: &[bool]) -> Vec<(usize, bool, bool)> {
    let height = open.len() / width.max(1);
    let at = |x: usize, y: usize| open[y * width + x];
    let mut starts = Vec::new();
    for y in 0..height {
        for x in (0..width).filter(|&x| at(x, y)) {
            let across = (x == 0 || !at(x - 1, y)) && x + 1 < width && at(x + 1, y);
            let down = (y == 0 || !at(x, y - 1)) && y + 1 < height && at(x, y + 1);
            if across || down {
                starts.push((y * width + x, across, down));
            }
        }
    }
    starts
}

/// An error at one place of a grid file.
pub(crate) fn data_error(span: Span, message: String, label: &str, help: &str) -> Error {
    Error::new("cspi::data::grid", message)
        .label(span, label.to_string())
        .help(help.to_string())
}

/// Parses the assignment's slot format; `size` is the grid's (width, height)
/// if the model gives it, otherwise the slots' bounding box.
pub(crate) fn parse_slots(src: &Source, size: Option<(usize, usize)>) -> Result<Geometry, Error> {
    const HELP: &str = "a slot file holds groups of four tokens `x y length dir`: column, row (from 0), length, and A (across) or D (down)";
    let text: &str = &src.text;
    let mut tokens: Vec<(&str, Span)> = Vec::new();
    let mut at = 0;
    for piece in text.split(|c: char| c.is_whitespace()) {
        if !piece.is_empty() {
            tokens.push((piece, Span::new(at, at + piece.len())));
        }
        // Every separator is one char; multi-byte whitespace is rare enough to measure.
        at += piece.len()
            + text[at + piece.len()..]
                .chars()
                .next()
                .map_or(0, char::len_utf8);
    }
    if tokens.is_empty() {
        return Err(Error::new(
            "cspi::data::grid",
            format!("the slot file `{}` holds no slots", src.name),
        )
        .help(HELP));
    }
    if !tokens.len().is_multiple_of(4) {
        let k = tokens.len() / 4 * 4;
        let span = tokens[k].1.to(tokens[tokens.len() - 1].1);
        return Err(data_error(
            span,
            format!(
                "the slot file `{}` ends with an incomplete slot ({} tokens, a slot has 4)",
                src.name,
                tokens.len() - k
            ),
            "incomplete slot",
            HELP,
        ));
    }
    let number = |(t, s): (&str, Span), what: &str| -> Result<usize, Error> {
        t.parse::<usize>().map_err(|_| {
            data_error(
                s,
                format!("`{t}` is not a {what} in `{}`", src.name),
                &format!("expected the {what}, a number from 0"),
                HELP,
            )
        })
    };
    let mut slots = Vec::new();
    for g in tokens.chunks(4) {
        let x = number(g[0], "column")?;
        let y = number(g[1], "row")?;
        let len = number(g[2], "length")?;
        let span = g[0].1.to(g[3].1);
        if len == 0 {
            return Err(data_error(
                g[2].1,
                "a slot has length 0".into(),
                "length",
                HELP,
            ));
        }
        let across = match g[3].0 {
            "A" | "a" => true,
            "D" | "d" => false,
            t => {
                return Err(data_error(
                    g[3].1,
                    format!("`{t}` is not a direction in `{}`", src.name),
                    "expected A (across) or D (down)",
                    HELP,
                ));
            }
        };
        slots.push(RawSlot {
            x,
            y,
            len,
            across,
            span,
        });
    }
    let end = |s: &RawSlot| {
        let (w, h) = if s.across { (s.len, 1) } else { (1, s.len) };
        (s.x.saturating_add(w), s.y.saturating_add(h))
    };
    let (width, height) = match size {
        Some(wh) => wh,
        None => slots
            .iter()
            .map(end)
            .fold((0, 0), |(w, h), (a, b)| (w.max(a), h.max(b))),
    };
    for s in &slots {
        let (ex, ey) = end(s);
        if ex > width || ey > height {
            return Err(data_error(
                s.span,
                format!(
                    "a slot runs off the {width}×{height} grid (it ends at column {}, row {})",
                    ex - 1,
                    ey - 1
                ),
                "this slot",
                "columns are 0..width-1 and rows 0..height-1",
            ));
        }
    }
    if width.checked_mul(height).is_none_or(|c| c > MAX_CELLS) {
        return Err(data_error(
            slots[0].span,
            format!("the grid of `{}` is too large ({width}×{height})", src.name),
            "the slots span this far",
            "a crossword grid may have at most 2^20 cells",
        ));
    }
    let mut open = vec![false; width * height];
    // The slot covering each cell in each direction, to reject overlaps.
    let mut owner = vec![[usize::MAX; 2]; width * height];
    for (k, s) in slots.iter().enumerate() {
        for i in 0..s.len {
            let (x, y) = if s.across {
                (s.x + i, s.y)
            } else {
                (s.x, s.y + i)
            };
            let c = y * width + x;
            open[c] = true;
            let d = usize::from(!s.across);
            if owner[c][d] != usize::MAX {
                return Err(data_error(
                    s.span,
                    format!(
                        "two {} slots overlap at column {x}, row {y}",
                        if s.across { "across" } else { "down" }
                    ),
                    "this slot",
                    "slots in the same direction may not share a cell",
                )
                .label(slots[owner[c][d]].span, "and this one"));
            }
            owner[c][d] = k;
        }
    }
    Ok(Geometry {
        width,
        height,
        given: vec![None; width * height],
        region: open.clone(),
        open,
        offsets: Vec::new(),
        slots,
    })
}

/// Parses a picture grid: rows of `.` (open), `#` (block) and letters (given).
pub(crate) fn parse_picture(src: &Source) -> Result<Geometry, Error> {
    const HELP: &str =
        "a picture grid has one row per line: `.` an open cell, `#` a block, a letter a given cell";
    let text: &str = &src.text;
    let mut rows: Vec<(usize, &str)> = Vec::new();
    let mut at = 0;
    for raw in text.split('\n') {
        rows.push((at, raw.strip_suffix('\r').unwrap_or(raw).trim_end()));
        at += raw.len() + 1;
    }
    while rows.last().is_some_and(|(_, r)| r.is_empty()) {
        rows.pop();
    }
    if rows.is_empty() {
        return Err(Error::new(
            "cspi::data::grid",
            format!("the grid `{}` is empty", src.name),
        )
        .help(HELP));
    }
    let width = rows[0].1.chars().count();
    let height = rows.len();
    if width.saturating_mul(height) > MAX_CELLS {
        return Err(Error::new(
            "cspi::data::grid",
            format!("the grid `{}` is too large ({width}×{height})", src.name),
        )
        .help("a crossword grid may have at most 2^20 cells"));
    }
    let mut open = Vec::with_capacity(width * height);
    let mut given = Vec::with_capacity(width * height);
    let mut region = Vec::with_capacity(width * height);
    // Byte offset of each cell in the file, for pointing at slots.
    let mut offsets = Vec::with_capacity(width * height);
    for (r, &(start, row)) in rows.iter().enumerate() {
        let n = row.chars().count();
        if n != width {
            return Err(data_error(
                Span::new(start, start + row.len().max(1)),
                format!(
                    "row {} of `{}` has {n} cells, but row 1 has {width}",
                    r + 1,
                    src.name
                ),
                "this row",
                "every row of a picture grid has the same number of cells; fill with `#`",
            ));
        }
        for (i, c) in row.char_indices() {
            offsets.push(start + i);
            match c {
                '.' => {
                    open.push(true);
                    given.push(None);
                    region.push(false);
                }
                '*' => {
                    open.push(true);
                    given.push(None);
                    region.push(true);
                }
                '#' => {
                    open.push(false);
                    given.push(None);
                    region.push(false);
                }
                c if c.is_alphabetic() => {
                    let Some(letter) = fold_letter(c) else {
                        return Err(data_error(
                            Span::new(start + i, start + i + c.len_utf8()),
                            format!(
                                "row {}, column {} of `{}` has {}",
                                r + 1,
                                row[..i].chars().count() + 1,
                                src.name,
                                unfoldable(c)
                            ),
                            "this letter",
                            "give the letter in a form whose lowercase is one letter (for example `I` for `İ`)",
                        ));
                    };
                    open.push(true);
                    given.push(Some(letter));
                    region.push(false);
                }
                c => {
                    return Err(data_error(
                        Span::new(start + i, start + i + c.len_utf8()),
                        format!(
                            "`{}` at row {}, column {} of `{}` is not a cell",
                            c.escape_debug(),
                            r + 1,
                            row[..i].chars().count() + 1,
                            src.name
                        ),
                        "this character",
                        HELP,
                    ));
                }
            }
        }
    }
    let geo = Geometry {
        width,
        height,
        open,
        given,
        region,
        offsets,
        slots: Vec::new(),
    };
    with_slots(src, geo)
}

/// Finds the slots of a grid of cells: every maximal run of two or more
/// open cells across or down that has a cell in the region (with no region
/// marked, every run). A marked region (`*` cells) fills only the slots
/// through it; their cells outside the region are not written, but they
/// still hold a word of the list, so the rest of the grid stays fillable.
fn with_slots(src: &Source, mut geo: Geometry) -> Result<Geometry, Error> {
    const HELP: &str =
        "a picture grid has one row per line: `.` an open cell, `#` a block, a letter a given cell";
    let (width, height) = (geo.width, geo.height);
    if !geo.region.iter().any(|&r| r) {
        geo.region = geo.open.clone();
    }
    let open = &geo.open;
    let is_open = |x: usize, y: usize| open[y * width + x];
    let cell_span = |c: usize| {
        geo.offsets
            .get(c)
            .map_or(Span::new(0, 0), |&at| Span::new(at, at + 1))
    };
    let mut slots = Vec::new();
    for y in 0..height {
        for x in 0..width {
            if !is_open(x, y) {
                continue;
            }
            for across in [true, false] {
                let starts = if across {
                    x == 0 || !is_open(x - 1, y)
                } else {
                    y == 0 || !is_open(x, y - 1)
                };
                if !starts {
                    continue;
                }
                let mut len = 0;
                while if across {
                    x + len < width && is_open(x + len, y)
                } else {
                    y + len < height && is_open(x, y + len)
                } {
                    len += 1;
                }
                let cell = |i: usize| {
                    if across {
                        y * width + x + i
                    } else {
                        (y + i) * width + x
                    }
                };
                if len >= 2 && (0..len).any(|i| geo.region[cell(i)]) {
                    let first = cell_span(cell(0));
                    let span = if across {
                        first.to(cell_span(cell(len - 1)))
                    } else {
                        first
                    };
                    slots.push(RawSlot {
                        x,
                        y,
                        len,
                        across,
                        span,
                    });
                }
            }
        }
    }
    if slots.is_empty() {
        let why = if geo.region == geo.open {
            "no two open cells are adjacent"
        } else {
            "no run of two or more open cells passes through the region (`*`)"
        };
        return Err(Error::new(
            "cspi::data::grid",
            format!("the grid `{}` has no slot: {why}", src.name),
        )
        .help(HELP));
    }
    geo.slots = slots;
    Ok(geo)
}

/// The grid with more blocks: the open cells at `blocks` (row, column,
/// from 0) closed, and its slots found again (`cspi solve --try-blocks`
/// tries cheater blocks this way, without a new file). A cell outside the
/// grid, or one with a given letter, is an error; a block already there is
/// left as it is.
pub(crate) fn with_blocks(
    src: &Source,
    mut geo: Geometry,
    blocks: &[(usize, usize)],
) -> Result<Geometry, Error> {
    for &(row, column) in blocks {
        if row >= geo.height || column >= geo.width {
            return Err(Error::new(
                "cspi::data::grid",
                format!(
                    "a block at row {}, column {} lies outside the grid `{}` ({} by {})",
                    row + 1,
                    column + 1,
                    src.name,
                    geo.width,
                    geo.height
                ),
            )
            .help("rows and columns count from 1 at the top left"));
        }
        let c = row * geo.width + column;
        if let Some(letter) = geo.given[c] {
            return Err(Error::new(
                "cspi::data::grid",
                format!(
                    "a block at row {}, column {} of `{}` would cover the given letter `{letter}`",
                    row + 1,
                    column + 1,
                    src.name
                ),
            )
            .help("blocks go on open cells"));
        }
        geo.open[c] = false;
        geo.region[c] = false;
    }
    geo.slots.clear();
    with_slots(src, geo)
}

/// Checks that the blocks are symmetric under a 180° turn, as published
/// grids are; the first cell whose partner differs is pointed at.
pub(crate) fn check_symmetric(src: &Source, geo: &Geometry) -> Result<(), Error> {
    let n = geo.width * geo.height;
    let Some(c) = (0..n).find(|&c| geo.open[c] != geo.open[n - 1 - c]) else {
        return Ok(());
    };
    let (w, p) = (geo.width, n - 1 - c);
    let what = |c: usize| if geo.open[c] { "open" } else { "a block" };
    let span = geo
        .offsets
        .get(c)
        .map_or(Span::new(0, 0), |&at| Span::new(at, at + 1));
    let mut d = Error::new(
        "cspi::data::grid::symmetry",
        format!(
            "the grid `{}` is not symmetric under a 180° turn: row {}, column {} is {} but row {}, column {} is {}",
            src.name,
            c / w + 1,
            c % w + 1,
            what(c),
            p / w + 1,
            p % w + 1,
            what(p)
        ),
    )
    .help("make the two cells alike, or do not ask for symmetry (picture(path, dict, false))");
    if !geo.offsets.is_empty() {
        let other = Span::new(geo.offsets[p], geo.offsets[p] + 1);
        d = d.label(span, "this cell").label(other, "and its partner");
    }
    Err(d)
}

/// The largest .ipuz file read (see [`parse_ipuz`]).
/// Its JSON tree takes up to 25 times the text (48 bytes a value), so
/// 4 MB stays near 100 MB without `--memory-limit`.
const MAX_IPUZ_BYTES: usize = 4 << 20;

/// Reads an `.ipuz` crossword (the open JSON format): `dimensions`, the
/// `puzzle` grid (`#` or the puzzle's `block` a block, `null` an omitted
/// cell, read as a block; anything else an open cell) and, when present,
/// the `solution` grid's letters as given letters (a partly filled grid),
/// or a puzzle cell's prefilled `value`. A rebus or a symbol is an error at
/// its cell: one letter a cell.
///
/// It is read with our own JSON parser (`json.rs`), which asks `go_on`
/// every few thousand values, so the time limit, Ctrl-C and
/// `--memory-limit` hold while a large file is read, and which keeps each
/// value's place, so a diagnostic points at the row or cell at fault.
pub(crate) fn parse_ipuz(src: &Source, go_on: GoOn) -> Result<Geometry, Error> {
    use json::{Kind, Node};
    const HELP: &str = "an ipuz crossword is a JSON object with `dimensions` {width, height} and a `puzzle` array of rows; see ipuz.org";
    let bad = |message: String, at: Span, label: &str| {
        Error::new("cspi::data::grid", message)
            .label(at, label)
            .help(HELP)
    };
    // Real ipuz files are kilobytes (a 21×21 grid with its clues, about
    // 50 KB); a larger one is most likely the wrong file.
    if src.text.len() > MAX_IPUZ_BYTES {
        return Err(Error::new(
            "cspi::data::grid",
            format!(
                "`{}` is {} MB, larger than the {} MB cspi reads from an .ipuz file",
                src.name,
                src.text.len() >> 20,
                MAX_IPUZ_BYTES >> 20
            ),
        )
        .help("an ipuz crossword with its clues is kilobytes; is this the right file?"));
    }
    let doc = json::parse_checked(&src.text, go_on).map_err(|e| {
        if e.message == STOPPED {
            return Error::new("cspi::stopped", STOPPED);
        }
        Error::new(
            "cspi::data::grid",
            format!("`{}` is not valid JSON: {}", src.name, e.message),
        )
        .label(e.span, "here")
        .help(HELP)
    })?;
    let whole = Span::new(0, 0);
    if !matches!(doc.kind, Kind::Object(_)) {
        return Err(bad(
            format!("`{}` is {}, not a JSON object", src.name, doc.kind.what()),
            doc.span,
            "this",
        ));
    }
    let dim = |k: &str| {
        let d = doc.member("dimensions");
        d.and_then(|d| d.member(k))
            .and_then(Node::as_u64)
            .filter(|&n| n > 0)
            .map(|n| n as usize)
            .ok_or_else(|| {
                let at = d.and_then(|d| d.member(k)).or(d).map_or(whole, |n| n.span);
                bad(
                    format!("`{}` has no `dimensions.{k}` (a positive number)", src.name),
                    at,
                    "here",
                )
            })
    };
    let (width, height) = (dim("width")?, dim("height")?);
    if width.saturating_mul(height) > MAX_CELLS {
        return Err(bad(
            format!("the grid `{}` is too large ({width}×{height})", src.name),
            doc.member("dimensions").map_or(whole, |d| d.span),
            "these dimensions",
        ));
    }
    let block = doc.member("block").and_then(Node::as_str).unwrap_or("#");
    // A grid: `height` arrays of `width` cells; the row at fault is shown.
    let rows = |key: &str| -> Result<Option<Vec<&[Node]>>, Error> {
        let Some(v) = doc.member(key) else {
            return Ok(None);
        };
        let shape = || {
            format!(
                "`{key}` in `{}` is not {height} rows of {width} cells",
                src.name
            )
        };
        let rows = v
            .as_array()
            .filter(|r| r.len() == height)
            .ok_or_else(|| bad(shape(), v.span, "this"))?;
        rows.iter()
            .map(|row| {
                row.as_array()
                    .filter(|c| c.len() == width)
                    .ok_or_else(|| bad(shape(), row.span, "this row"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    };
    let puzzle = rows("puzzle")?.ok_or_else(|| {
        bad(
            format!("`{}` has no `puzzle` grid", src.name),
            doc.span,
            "this object",
        )
    })?;
    let solution = rows("solution")?;
    // A cell may be written as itself or as {"cell": .., "style": ..}; a
    // solution's value as itself or as {"value": ..}.
    fn plain(c: &Node) -> &Node {
        c.member("cell").or_else(|| c.member("value")).unwrap_or(c)
    }
    let is_block = |c: &Node| matches!(c.kind, Kind::Null) || c.as_str() == Some(block);
    // What the puzzle writes for an empty cell (`empty`, 0 by default).
    let empty = match doc.member("empty").map(|e| &e.kind) {
        Some(Kind::Str(t)) => t.clone(),
        Some(Kind::Int(n)) => n.to_string(),
        _ => "0".to_string(),
    };
    // The letter a cell is given: its solution, else the puzzle's prefilled
    // `value`. Nothing (null, "", ".", the `empty` text, a number) leaves it open;
    // one letter is given; anything else, a rebus (`ONE`) or a symbol, is
    // refused: a cell holds one letter here, and filling over it would
    // silently drop it.
    let letter_of = |n: &Node, y: usize, x: usize| -> Result<Option<char>, Error> {
        let t = match &n.kind {
            Kind::Str(t) => t.trim(),
            _ => return Ok(None),
        };
        // `.` too: the picture grids' empty cell, never a letter.
        if t.is_empty() || t == empty || t == "." {
            return Ok(None);
        }
        let mut cs = t.chars();
        let c = match (cs.next(), cs.next()) {
            (Some(c), None) if c.is_alphabetic() => c,
            _ => {
                let what = if t.chars().count() > 1 && t.chars().all(char::is_alphabetic) {
                    "a rebus (several letters in one cell)"
                } else {
                    "not a letter"
                };
                return Err(bad(
                    format!(
                        "row {}, column {} of `{}` holds `{t}`, {what}",
                        y + 1,
                        x + 1,
                        src.name
                    ),
                    n.span,
                    "this cell",
                )
                .help("cspi fills one letter a cell: write one letter, or null to leave the cell open"));
            }
        };
        fold_letter(c).map(Some).ok_or_else(|| {
            bad(
                format!(
                    "row {}, column {} of `{}` has {}",
                    y + 1,
                    x + 1,
                    src.name,
                    unfoldable(c)
                ),
                n.span,
                "this letter",
            )
        })
    };
    let mut open = Vec::with_capacity(width * height);
    let mut given = Vec::with_capacity(width * height);
    for y in 0..height {
        for x in 0..width {
            let cell = &puzzle[y][x];
            let sol = solution.as_ref().map(|s| plain(&s[y][x]));
            let blocked = is_block(plain(cell)) || sol.is_some_and(|s| s.as_str() == Some(block));
            open.push(!blocked);
            let mut letter = None;
            if !blocked {
                if let Some(s) = sol {
                    letter = letter_of(s, y, x)?;
                }
                if let (None, Some(v)) = (letter, cell.member("value")) {
                    letter = letter_of(v, y, x)?;
                }
            }
            given.push(letter);
        }
    }
    let geo = Geometry {
        width,
        height,
        region: vec![false; width * height],
        open,
        given,
        offsets: Vec::new(),
        slots: Vec::new(),
    };
    with_slots(src, geo)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(text: &str) -> Source {
        Source::new("g.txt", text)
    }

    #[test]
    fn entries_are_numbered_in_reading_order() {
        // 1 # 2    1 and 2 start downs; 3 an across; 4 (under the block) a
        // 3 4 .    down; 5 an across. The others continue entries.
        // 5 . .
        let open = [true, false, true, true, true, true, true, true, true];
        let starts = vec![
            (0, false, true),
            (2, false, true),
            (3, true, false),
            (4, false, true),
            (6, true, false),
        ];
        assert_eq!(numbered(3, &open), starts);
    }

    #[test]
    fn slot_file_geometry() {
        let g = parse_slots(&src("0 0 4 A   0 0 5 D   2 0 4 D\n"), None).unwrap();
        assert_eq!((g.width, g.height, g.slots.len()), (4, 5, 3));
        assert!(g.open[0] && g.open[2] && !g.open[4 + 1]);
    }

    #[test]
    fn slot_file_errors() {
        let e = |t: &str, size| parse_slots(&src(t), size).err().unwrap().message;
        assert!(e("0 0 4", None).contains("incomplete"));
        assert!(e("0 0 4 X", None).contains("direction"));
        assert!(e("0 x 4 A", None).contains("row"));
        assert!(e("", None).contains("no slots"));
        assert!(e("3 0 4 A", Some((5, 5))).contains("runs off"));
        assert!(e("0 0 4 A 2 0 3 A", None).contains("overlap"));
    }

    #[test]
    fn added_blocks_split_the_slots_through_them() {
        let g = parse_picture(&src("....\n....\n..a.\n....\n")).unwrap();
        assert_eq!(g.slots.len(), 8);
        // A block at row 2, column 2 (from 0: 1, 1) splits its across and
        // down slots into a run of 1 (no slot) and a run of 2.
        let g = with_blocks(&src(""), g, &[(1, 1)]).unwrap();
        assert!(!g.open[5] && !g.region[5]);
        let at = |x, y, across| {
            g.slots
                .iter()
                .find(|s| (s.x, s.y, s.across) == (x, y, across))
                .map(|s| s.len)
        };
        assert_eq!(at(2, 1, true), Some(2));
        assert_eq!(at(0, 1, true), None);
        assert_eq!(at(1, 2, false), Some(2));
        assert_eq!(at(0, 0, true), Some(4));
        assert_eq!(g.slots.len(), 8);
        let g = parse_picture(&src("....\n....\n..a.\n....\n")).unwrap();
        let e = |b| {
            with_blocks(
                &src("g.txt"),
                parse_picture(&src("....\n....\n..a.\n....\n")).unwrap(),
                &[b],
            )
            .err()
            .unwrap()
            .message
        };
        assert!(e((2, 2)).contains("given letter `a`"), "{}", e((2, 2)));
        assert!(e((4, 0)).contains("outside the grid"));
        assert_eq!(with_blocks(&src(""), g, &[]).unwrap().slots.len(), 8);
    }

    #[test]
    fn picture_slots_and_errors() {
        let g = parse_picture(&src("..#\n.a.\r\n#..\n\n")).unwrap();
        assert_eq!((g.width, g.height), (3, 3));
        // Across: (0,0)2 (0,1)3 (1,2)2; down: (0,0)2 (1,0)3 (2,1)2.
        assert_eq!(g.slots.len(), 6);
        assert_eq!(g.given[4], Some('a'));
        let e = |t: &str| parse_picture(&src(t)).err().unwrap().message;
        assert!(e("...\n..\n").contains("row 2"));
        assert!(e("..\n.1\n").contains("not a cell"));
        assert!(e("").contains("empty"));
        assert!(e(".#\n#.\n").contains("no slot"));
    }

    #[test]
    fn a_region_fills_only_the_slots_through_it() {
        // Only row 3 and the three columns cross the `*` cells.
        let g = parse_picture(&src("...\n.a.\n**.\n")).unwrap();
        let names: Vec<(usize, usize, bool)> =
            g.slots.iter().map(|s| (s.x, s.y, s.across)).collect();
        assert_eq!(names, vec![(0, 0, false), (1, 0, false), (0, 2, true)]);
        assert!(g.region[6] && g.region[7] && !g.region[8] && !g.region[0]);
        let e = parse_picture(&src(".#*\n..#\n")).err().unwrap().message;
        assert!(e.contains("region"), "{e}");
        // No `*`: the region is every open cell.
        let g = parse_picture(&src("..\n.#\n")).unwrap();
        assert_eq!(g.region, vec![true, true, true, false]);
    }

    #[test]
    fn symmetry_is_checked_when_asked() {
        let g = parse_picture(&src("#..\n...\n..#\n")).unwrap();
        assert!(check_symmetric(&src(""), &g).is_ok());
        let text = "#..\n...\n...\n";
        let g = parse_picture(&src(text)).unwrap();
        let e = check_symmetric(&src(text), &g).err().unwrap();
        assert!(
            e.message
                .contains("row 1, column 1 is a block but row 3, column 3 is open"),
            "{}",
            e.message
        );
        assert_eq!(e.labels[0].0, Span::new(0, 1));
        assert_eq!(e.labels[1].0, Span::new(10, 11));
    }

    fn ipuz(text: &str) -> Result<Geometry, Error> {
        parse_ipuz(&src(text), &mut |_| true)
    }

    #[test]
    fn ipuz_grids() {
        let text = r##"{"version":"http://ipuz.org/v2","kind":["http://ipuz.org/crossword#1"],
            "dimensions":{"width":3,"height":2},
            "puzzle":[[1,2,"#"],[3,0,{"cell":4,"style":{}}]],
            "solution":[["C",null,"#"],[null,"A",null]]}"##;
        let g = ipuz(text).unwrap();
        assert_eq!(g.open, vec![true, true, false, true, true, true]);
        assert_eq!(g.given[0], Some('c'));
        assert_eq!(g.given[4], Some('a'));
        // Across (0,0)2 (0,1)3; down (0,0)2 (1,0)2.
        assert_eq!(g.slots.len(), 4);
        let e = |t: &str| ipuz(t).err().unwrap().message;
        assert!(e("{\"dimensions\":{\"width\":2}}").contains("dimensions.height"));
        assert!(
            e("{\"dimensions\":{\"width\":2,\"height\":1},\"puzzle\":[[0]]}")
                .contains("1 rows of 2")
        );
        assert!(e("{\"dimensions\"").contains("not valid JSON"));
        let e = ipuz("{\n  \"a\": x}").err().unwrap();
        assert_eq!(e.labels[0].0, Span::new(9, 10));
        // A row of the wrong length is pointed at.
        let text = r#"{"dimensions":{"width":2,"height":2},"puzzle":[[0,0],[0]]}"#;
        let err = ipuz(text).err().unwrap();
        assert!(err.message.contains("2 rows of 2"), "{}", err.message);
        assert_eq!(&text[err.labels[0].0.start..err.labels[0].0.end], "[0]");
        // So is a letter that is not one.
        let text = r#"{"dimensions":{"width":1,"height":1},"puzzle":[[0]],"solution":[["İ"]]}"#;
        let err = ipuz(text).err().unwrap();
        assert!(err.message.contains("2 letters"), "{}", err.message);
        assert_eq!(&text[err.labels[0].0.start..err.labels[0].0.end], "\"İ\"");
        let err = ipuz("[1]").err().unwrap();
        assert!(err.message.contains("not a JSON object"), "{}", err.message);
    }

    /// A solution's value may be an object, a puzzle cell may be prefilled,
    /// and the file's `empty` text, " ", "." and "" leave a cell open.
    #[test]
    fn ipuz_given_letters_in_every_form() {
        let text = r##"{"dimensions":{"width":3,"height":2},"empty":"-",
            "puzzle":[[1,{"cell":2,"value":"A"},3],[{"cell":4,"value":"-"},0,0]],
            "solution":[[{"value":"C"}," ","-"],[".","",{"value":"e"}]]}"##;
        let g = ipuz(text).unwrap();
        assert_eq!(g.open, vec![true; 6]);
        assert_eq!(
            g.given,
            vec![Some('c'), Some('a'), None, None, None, Some('e')]
        );
    }

    /// A rebus or a symbol is refused at its cell, not filled over: a fill
    /// would silently drop it.
    #[test]
    fn ipuz_rebus_and_symbols_are_refused_at_their_cell() {
        let cell = |value: &str| {
            let text = format!(
                r#"{{"dimensions":{{"width":2,"height":1}},"puzzle":[[1,0]],"solution":[["A",{value}]]}}"#
            );
            let err = ipuz(&text).err().unwrap();
            let at = &text[err.labels[0].0.start..err.labels[0].0.end];
            (err.message, at.to_string())
        };
        let (message, at) = cell(r#""ONE""#);
        assert!(
            message.contains("row 1, column 2") && message.contains("rebus"),
            "{message}"
        );
        assert_eq!(at, r#""ONE""#);
        let (message, at) = cell(r#"{"value":"7"}"#);
        assert!(message.contains("not a letter"), "{message}");
        assert_eq!(at, r#""7""#);
        let (message, _) = cell(r#""?""#);
        assert!(message.contains("`?`, not a letter"), "{message}");
    }

    /// A large file asks the caller's check as it is read, and stops when
    /// told to (the time limit, Ctrl-C, `--memory-limit`).
    #[test]
    fn ipuz_reading_stops_at_the_check() {
        let text = format!(
            r#"{{"dimensions":{{"width":3,"height":1}},"puzzle":[[0,0,0]],"clues":[{}0]}}"#,
            "0,".repeat(100_000)
        );
        let mut calls = 0;
        let e = parse_ipuz(&src(&text), &mut |_| {
            calls += 1;
            calls < 3
        })
        .err()
        .unwrap();
        assert_eq!((e.message.as_str(), calls), (STOPPED, 3));
        assert!(ipuz(&text).is_ok());
    }
}
