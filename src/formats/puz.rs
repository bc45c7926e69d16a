//! Across Lite `.puz` crosswords, the binary format in which most published
//! crosswords and constructors' editors exchange grids: read into the
//! picture grid format (blocks and placed letters from the solution
//! layer), and written with the checksums Across Lite checks, so that a
//! fill opens in any crossword app.
//!
//! Layout (little-endian): a 0x34-byte header (file checksum, `ACROSS&DOWN`,
//! header checksum, masked checksums, version, width, height, clue count,
//! scrambled tag), the solution and the player's grid (a byte a cell, `.` a
//! block), then NUL-terminated title, author, copyright, one clue per entry
//! (across before down at each number) and notes, then extra sections
//! (`GRBS` marks rebus cells).

use super::Error;
use super::grid::numbered;

const MAGIC: &[u8; 12] = b"ACROSS&DOWN\0";
/// The header's length: the grids start here.
const HEADER: usize = 0x34;
const HELP: &str = "a .puz file is Across Lite's binary crossword: save it again from the crossword editor, or give the grid as a picture or .ipuz file";

/// The format's checksum of `data`, carried on from `sum`: rotate right by
/// one bit, add the byte.
pub(crate) fn checksum(data: &[u8], sum: u16) -> u16 {
    data.iter()
        .fold(sum, |s, &b| s.rotate_right(1).wrapping_add(u16::from(b)))
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

/// The checksum of the strings: title, author and copyright with their NUL
/// when not empty, the clues without it, and the notes (from version 1.3)
/// as the first three.
fn text_checksum(strings: &Strings, with_notes: bool, sum: u16) -> u16 {
    let mut sum = sum;
    let with_nul = |sum, s: &[u8]| {
        if s.is_empty() {
            sum
        } else {
            checksum(b"\0", checksum(s, sum))
        }
    };
    for s in [strings.title, strings.author, strings.copyright] {
        sum = with_nul(sum, s);
    }
    for clue in &strings.clues {
        sum = checksum(clue, sum);
    }
    if with_notes {
        sum = with_nul(sum, strings.notes);
    }
    sum
}

struct Strings<'a> {
    title: &'a [u8],
    author: &'a [u8],
    copyright: &'a [u8],
    clues: Vec<&'a [u8]>,
    notes: &'a [u8],
}

/// The grid of a `.puz` file as a picture (`#` a block, `.` an open cell, a
/// letter a placed one): its solution layer's letters are the letters
/// placed, and `-` or a space there leaves a cell open, as an editor writes
/// an unfinished grid. A file that fails its checksums, a scrambled one
/// (its letters are locked) and a rebus cell are refused: the grid read
/// would not be the one drawn.
pub(crate) fn picture(bytes: &[u8], name: &str) -> Result<String, Error> {
    let bad = |message: String| Error::new("cspi::data::grid", message).help(HELP);
    // Some publishers put a line before the header: start at the marker.
    let start = bytes
        .windows(MAGIC.len())
        .position(|w| w == MAGIC)
        .filter(|&p| p >= 2)
        .ok_or_else(|| {
            bad(format!(
                "`{name}` is not an Across Lite .puz file: it has no `ACROSS&DOWN` header"
            ))
        })?;
    let b = &bytes[start - 2..];
    let short = || {
        bad(format!(
            "`{name}` ends before its grid does: the file is cut short"
        ))
    };
    if b.len() < HEADER {
        return Err(short());
    }
    let (width, height) = (usize::from(b[0x2C]), usize::from(b[0x2D]));
    let cells = width * height;
    if cells == 0 {
        return Err(bad(format!(
            "`{name}` has an empty grid ({width}×{height})"
        )));
    }
    if checksum(&b[0x2C..HEADER], 0) != u16_at(b, 0x0E) {
        return Err(bad(format!(
            "`{name}` fails its header checksum: the file is damaged"
        )));
    }
    if b.len() < HEADER + 2 * cells {
        return Err(short());
    }
    let solution = &b[HEADER..HEADER + cells];
    let fill = &b[HEADER + cells..HEADER + 2 * cells];
    // The strings, each up to its NUL.
    let mut rest = &b[HEADER + 2 * cells..];
    let mut next = || -> Result<&[u8], Error> {
        let end = rest.iter().position(|&c| c == 0).ok_or_else(|| {
            bad(format!(
                "`{name}` ends inside its title, author, copyright or clues: the file is cut short"
            ))
        })?;
        let s = &rest[..end];
        rest = &rest[end + 1..];
        Ok(s)
    };
    let (title, author, copyright) = (next()?, next()?, next()?);
    let clues = (0..u16_at(b, 0x2E))
        .map(|_| next())
        .collect::<Result<Vec<_>, _>>()?;
    // Files before version 1.3 may end without notes.
    let notes = next().unwrap_or(&[]);
    let strings = Strings {
        title,
        author,
        copyright,
        clues,
        notes,
    };
    let grids = checksum(fill, checksum(solution, u16_at(b, 0x0E)));
    let whole = u16_at(b, 0);
    if ![true, false]
        .iter()
        .any(|&n| text_checksum(&strings, n, grids) == whole)
    {
        return Err(bad(format!(
            "`{name}` fails its checksum: the file is damaged"
        )));
    }
    if u16_at(b, 0x32) != 0 {
        return Err(Error::new(
            "cspi::data::grid",
            format!("`{name}` is scrambled: its solution is locked"),
        )
        .help("unlock the solution in Across Lite (Solution > Unlock) and save it again"));
    }
    let at = |cell: usize| format!("row {}, column {}", cell / width + 1, cell % width + 1);
    if let Some(cell) = rebus_cells(rest, cells).and_then(|r| r.iter().position(|&c| c != 0)) {
        return Err(Error::new(
            "cspi::data::grid",
            format!(
                "{} of `{name}` is a rebus (several letters in one cell)",
                at(cell)
            ),
        )
        .help("cspi fills one letter a cell: make the cell one letter in the editor"));
    }
    let mut text = String::with_capacity(cells + height);
    for (cell, &s) in solution.iter().enumerate() {
        let c = char::from(s);
        text.push(match s {
            b'.' | b':' => '#',
            b'-' | b' ' | 0 => '.',
            _ if c.is_alphabetic() => c,
            _ => {
                return Err(Error::new(
                    "cspi::data::grid",
                    format!(
                        "{} of `{name}` holds `{}`, not a letter",
                        at(cell),
                        c.escape_default()
                    ),
                )
                .help(
                    "cspi fills one letter a cell: leave the cell empty (`-`) or give it a letter",
                ));
            }
        });
        if cell % width == width - 1 {
            text.push('\n');
        }
    }
    Ok(text)
}

/// The `GRBS` section's cells (nonzero: a rebus), if the file has one.
fn rebus_cells(mut rest: &[u8], cells: usize) -> Option<&[u8]> {
    while rest.len() >= 8 {
        let len = usize::from(u16_at(rest, 4));
        let data = rest.get(8..8 + len)?;
        if &rest[..4] == b"GRBS" && len == cells {
            return Some(data);
        }
        rest = rest.get(8 + len + 1..)?;
    }
    None
}

/// A `.puz` file of a grid `width` wide: `cells` row by row, `None` a
/// block, `Some(None)` an open cell without a letter (`-`). Each entry
/// ([`numbered`] as the clues are) gets an empty clue. An error says what
/// the format cannot hold: a side over 255 cells, a letter outside Latin-1.
pub(crate) fn file(width: usize, cells: &[Option<Option<char>>]) -> Result<Vec<u8>, String> {
    let height = cells.len() / width.max(1);
    let (Ok(w), Ok(h)) = (u8::try_from(width), u8::try_from(height)) else {
        return Err(format!(
            "a .puz file holds grids of at most 255 by 255 cells; this one is {width} by {height}"
        ));
    };
    let open: Vec<bool> = cells.iter().map(Option::is_some).collect();
    let entries: usize = numbered(width, &open)
        .iter()
        .map(|&(_, a, d)| usize::from(a) + usize::from(d))
        .sum();
    // Upper case where Latin-1 has it (not `ÿ`'s `Ÿ`, nor `ß`'s `SS`).
    let latin1 = |c: char| u8::try_from(u32::from(c)).ok();
    let mut solution = Vec::with_capacity(cells.len());
    for cell in cells {
        solution.push(match *cell {
            None => b'.',
            Some(None) => b'-',
            Some(Some(c)) => {
                let mut up = c.to_uppercase();
                let upper = match (up.next(), up.next()) {
                    (Some(u), None) => latin1(u),
                    _ => None,
                };
                upper.or_else(|| latin1(c)).ok_or_else(|| {
                    format!("a .puz file holds letters of Latin-1 (western European), not `{c}`")
                })?
            }
        });
    }
    let fill: Vec<u8> = solution
        .iter()
        .map(|&s| if s == b'.' { b'.' } else { b'-' })
        .collect();
    let mut head = vec![0u8; HEADER];
    head[2..14].copy_from_slice(MAGIC);
    head[0x18..0x1C].copy_from_slice(b"1.3\0");
    head[0x2C] = w;
    head[0x2D] = h;
    // At most 255 × 255 cells, two entries a cell at most every other cell.
    head[0x2E..0x30].copy_from_slice(&(entries as u16).to_le_bytes());
    head[0x30] = 1;
    let cib = checksum(&head[0x2C..HEADER], 0);
    // Title, author, copyright, clues and notes are all empty: they add
    // nothing to a checksum.
    let part = 0;
    let whole = checksum(&fill, checksum(&solution, cib));
    head[0..2].copy_from_slice(&whole.to_le_bytes());
    head[0x0E..0x10].copy_from_slice(&cib.to_le_bytes());
    let sums = [cib, checksum(&solution, 0), checksum(&fill, 0), part];
    for (i, (&s, (lo, hi))) in sums.iter().zip(b"ICHE".iter().zip(b"ATED")).enumerate() {
        head[0x10 + i] = lo ^ (s & 0xFF) as u8;
        head[0x14 + i] = hi ^ (s >> 8) as u8;
    }
    let mut out = head;
    out.extend_from_slice(&solution);
    out.extend_from_slice(&fill);
    // Title, author, copyright, the empty clues and the notes: a NUL each.
    out.extend(std::iter::repeat_n(0u8, 4 + entries));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3×3 grid with a block in the middle, two letters placed.
    fn ring() -> Vec<Option<Option<char>>> {
        let mut cells = vec![Some(None); 9];
        cells[4] = None;
        cells[0] = Some(Some('c'));
        cells[8] = Some(Some('t'));
        cells
    }

    #[test]
    fn checksum_rotates_then_adds() {
        // By hand: 0 → 0 + 0x41; 0x41 is odd → 0x8020 + 0x42 = 0x8062.
        assert_eq!(checksum(b"A", 0), 0x41);
        assert_eq!(checksum(b"AB", 0), 0x8062);
        assert_eq!(checksum(b"", 0x1234), 0x1234);
    }

    #[test]
    fn a_written_file_reads_back_as_its_picture() {
        let bytes = file(3, &ring()).unwrap();
        assert_eq!(&bytes[2..14], MAGIC);
        // 1 across, 1 down, 2 down, 3 across: four empty clues.
        assert_eq!(u16_at(&bytes, 0x2E), 4);
        assert_eq!(picture(&bytes, "r.puz").unwrap(), "C..\n.#.\n..T\n");
        // Leading junk, as some publishers write, is passed over.
        let junk = [b"ring.puz\r\n".as_slice(), &bytes].concat();
        assert_eq!(picture(&junk, "r.puz").unwrap(), "C..\n.#.\n..T\n");
    }

    #[test]
    fn every_damage_is_refused() {
        let bytes = file(3, &ring()).unwrap();
        // Any byte of the header or grids changed fails a checksum (or the
        // marker): never a grid other than the one written.
        for i in 0..HEADER + 18 {
            if (0x18..0x2C).contains(&i) || (0x10..0x18).contains(&i) {
                continue; // version, reserved and masked sums: not checked
            }
            let mut b = bytes.clone();
            b[i] ^= 0x01;
            assert!(picture(&b, "r.puz").is_err(), "byte {i:#x} changed");
        }
        for cut in 0..bytes.len() - 1 {
            let e = picture(&bytes[..cut], "r.puz").unwrap_err().message;
            assert!(e.contains("r.puz"), "{e}");
        }
    }

    #[test]
    fn what_one_letter_a_cell_cannot_hold_is_refused_at_its_cell() {
        // The ring's file with `edit` made, its sums made good again (its
        // strings are empty: only the header and grids count), so only the
        // content is at fault.
        let edited = |edit: &dyn Fn(&mut Vec<u8>)| {
            let mut b = file(3, &ring()).unwrap();
            edit(&mut b);
            let cib = checksum(&b[0x2C..HEADER], 0);
            b[0x0E..0x10].copy_from_slice(&cib.to_le_bytes());
            let grids = checksum(
                &b[HEADER + 9..HEADER + 18],
                checksum(&b[HEADER..HEADER + 9], cib),
            );
            b[0..2].copy_from_slice(&grids.to_le_bytes());
            picture(&b, "r.puz")
        };
        let cell5 = |byte: u8| edited(&|b: &mut Vec<u8>| b[HEADER + 5] = byte);
        let e = cell5(b'7').unwrap_err().message;
        assert!(
            e.contains("row 2, column 3") && e.contains("not a letter"),
            "{e}"
        );
        assert_eq!(cell5(b' ').unwrap(), "C..\n.#.\n..T\n");
        assert_eq!(cell5(b'x').unwrap(), "C..\n.#x\n..T\n");
        // A rebus section marking cell 2 (sections lie outside the sums).
        let e = edited(&|b: &mut Vec<u8>| {
            b.extend_from_slice(b"GRBS");
            b.extend_from_slice(&9u16.to_le_bytes());
            b.extend_from_slice(&[0, 0]);
            b.extend_from_slice(&[0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
        });
        let e = e.unwrap_err().message;
        assert!(e.contains("row 1, column 3") && e.contains("rebus"), "{e}");
        let e = edited(&|b: &mut Vec<u8>| b[0x32] = 4).unwrap_err().message;
        assert!(e.contains("scrambled"), "{e}");
    }

    #[test]
    fn what_the_format_cannot_hold_is_not_written() {
        let e = file(256, &vec![Some(None); 512]).unwrap_err();
        assert!(e.contains("this one is 256 by 2"), "{e}");
        let e = file(2, &[Some(Some('я')), Some(Some('a'))]).unwrap_err();
        assert!(e.contains("not `я`"), "{e}");
        // Latin-1 letters are written upper case where Latin-1 has it.
        let b = file(3, &[Some(Some('é')), Some(Some('a')), Some(Some('ÿ'))]).unwrap();
        assert_eq!(&b[HEADER..HEADER + 3], &[0xC9, b'A', 0xFF]);
    }
}
