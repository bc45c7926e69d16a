//! The pictures, looked at as a person would: each kind (sudoku of several
//! sizes, a crossword, an n-queens board, a Boggle path, a search tree, a
//! bench chart) is drawn by the binary, parsed as SVG and rendered to pixels
//! (resvg), and the pixels must show what the picture claims: not blank, and
//! the expected number of grid lines, blocks, queens, highlighted cells,
//! tree nodes or bars, counted on the image. The PNGs are left in Cargo's
//! target tmpdir (`target/tmp/pictures/`) for a person to look at.

use crate::common::{cspi, read, scratch};
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;
use std::path::{Path, PathBuf};

/// Parses and renders an SVG file, saves it as PNG next to it, returns the pixels.
fn render(svg: &Path) -> Pixmap {
    let text = read(svg);
    let mut opt = usvg::Options::default();
    opt.fontdb_mut().load_system_fonts();
    let tree = usvg::Tree::from_str(&text, &opt)
        .unwrap_or_else(|e| panic!("{} does not parse as SVG: {e}", svg.display()));
    let size = tree.size().to_int_size();
    let mut pixmap = Pixmap::new(size.width(), size.height()).expect("a non-empty picture");
    resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
    pixmap
        .save_png(svg.with_extension("png"))
        .expect("write the PNG");
    let inked = (0..pixmap.height())
        .flat_map(|y| (0..pixmap.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| luma(&pixmap, x, y) < 230)
        .count();
    let area = (pixmap.width() * pixmap.height()) as usize;
    assert!(
        inked * 100 > area,
        "{} is blank: {inked} of {area} pixels inked",
        svg.display()
    );
    pixmap
}

fn rgb(p: &Pixmap, x: u32, y: u32) -> (u8, u8, u8) {
    let c = p.pixel(x, y).expect("inside").demultiply();
    (c.red(), c.green(), c.blue())
}

fn luma(p: &Pixmap, x: u32, y: u32) -> u32 {
    let (r, g, b) = rgb(p, x, y);
    (r as u32 * 3 + g as u32 * 6 + b as u32) / 10
}

/// Runs of dark pixels along row `y`: the lines a scan crosses.
fn dark_runs(p: &Pixmap, y: u32, below: u32) -> usize {
    let mut runs = 0;
    let mut inside = false;
    for x in 0..p.width() {
        let dark = luma(p, x, y) < below;
        if dark && !inside {
            runs += 1;
        }
        inside = dark;
    }
    runs
}

/// Connected regions of pixels within a few units of `colour`.
fn blobs(p: &Pixmap, colour: (u8, u8, u8)) -> Vec<(f64, f64)> {
    let (w, h) = (p.width() as usize, p.height() as usize);
    let near = |x: usize, y: usize| {
        let (r, g, b) = rgb(p, x as u32, y as u32);
        r.abs_diff(colour.0) <= 6 && g.abs_diff(colour.1) <= 6 && b.abs_diff(colour.2) <= 6
    };
    let mut seen = vec![false; w * h];
    let mut found = Vec::new();
    for start in 0..w * h {
        if seen[start] || !near(start % w, start / w) {
            continue;
        }
        let mut stack = vec![start];
        seen[start] = true;
        let (mut n, mut sx, mut sy) = (0usize, 0.0, 0.0);
        while let Some(k) = stack.pop() {
            let (x, y) = (k % w, k / w);
            n += 1;
            sx += x as f64;
            sy += y as f64;
            let mut visit = |x: usize, y: usize| {
                let j = y * w + x;
                if !seen[j] && near(x, y) {
                    seen[j] = true;
                    stack.push(j);
                }
            };
            if x > 0 {
                visit(x - 1, y);
            }
            if x + 1 < w {
                visit(x + 1, y);
            }
            if y > 0 {
                visit(x, y - 1);
            }
            if y + 1 < h {
                visit(x, y + 1);
            }
        }
        // Specks where anti-aliased edges happen to match are not shapes.
        if n >= 12 {
            found.push((sx / n as f64, sy / n as f64));
        }
    }
    found
}

fn hex(s: &str) -> (u8, u8, u8) {
    let v = u32::from_str_radix(s.trim_start_matches('#'), 16).expect("hex colour");
    ((v >> 16) as u8, (v >> 8) as u8, v as u8)
}

/// The cell size and margin of svg.rs.
const CELL: f64 = 36.0;
const MARGIN: f64 = 8.0;

/// A scratch directory of its own for each test (they run in parallel).
fn dir(test: &str) -> PathBuf {
    scratch(&format!("pictures-{test}"))
}

fn solve_svg(file: &Path, args: &[&str]) {
    let mut a = vec!["solve"];
    a.extend_from_slice(args);
    a.push("--svg");
    let f = file.to_str().unwrap();
    a.push(f);
    let r = cspi(&a);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn sudoku_grids_of_every_size_show_their_lines_and_boxes() {
    let d = dir("sudoku");
    for n in [2usize, 3, 4, 5] {
        let size = n * n;
        let file = d.join(format!("sudoku-{size}.svg"));
        let puzzle = if n == 3 {
            String::new()
        } else {
            ".".repeat(size * size)
        };
        let p = format!("puzzle={puzzle}");
        let ns = format!("n={n}");
        let mut args = vec!["models/sudoku.csp", "--param", &ns];
        if n != 3 {
            args.extend(["--param", &p]);
        }
        solve_svg(&file, &args);
        let png = render(&file);
        assert_eq!(
            png.width() as f64,
            (size as f64 * CELL + 2.0 * MARGIN).ceil()
        );
        // A scan near the top of the first row of cells, above the digits,
        // crosses every vertical line; the darkest of them are the boxes'.
        let y = (MARGIN + CELL * 0.12) as u32;
        assert_eq!(dark_runs(&png, y, 235), size + 1, "{size}x{size} lines");
        assert_eq!(dark_runs(&png, y, 60), n + 1, "{size}x{size} box lines");
    }
}

#[test]
fn a_crossword_shows_its_blocks() {
    let file = dir("crossword").join("crossword.svg");
    solve_svg(&file, &["models/crossword.csp"]);
    let png = render(&file);
    let grid = read(&crate::common::model("data/crossword-grid.txt"));
    let rows: Vec<&str> = grid.lines().filter(|l| !l.is_empty()).collect();
    let mut blocks = 0;
    let mut dark = 0;
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            // A point in the cell's lower left, away from its number and letter.
            let x = (MARGIN + c as f64 * CELL + CELL * 0.15) as u32;
            let y = (MARGIN + r as f64 * CELL + CELL * 0.85) as u32;
            blocks += usize::from(ch == '#');
            dark += usize::from(luma(&png, x, y) < 80);
        }
    }
    assert!(blocks > 0);
    assert_eq!(dark, blocks);
    let svg = read(&file);
    // A clue number for each cell where a word starts: 1 to 5 in this grid
    // of three words across and three down, sharing the top left corner.
    assert!(
        svg.contains(">5</text>") && !svg.contains(">6</text>"),
        "{svg}"
    );
}

#[test]
fn an_n_queens_board_shows_one_queen_per_row_and_column() {
    let file = dir("queens").join("queens.svg");
    solve_svg(&file, &["models/n-queens.csp", "--param", "n=8"]);
    let png = render(&file);
    let queens = blobs(&png, hex("#8b1a1a"));
    assert_eq!(queens.len(), 8, "{queens:?}");
    let cell = |v: f64| ((v - MARGIN) / CELL).floor() as i64;
    let mut rows: Vec<i64> = queens.iter().map(|q| cell(q.1)).collect();
    let mut cols: Vec<i64> = queens.iter().map(|q| cell(q.0)).collect();
    rows.sort();
    cols.sort();
    assert_eq!(rows, (0..8).collect::<Vec<_>>());
    assert_eq!(cols, (0..8).collect::<Vec<_>>());
}

#[test]
fn a_boggle_path_highlights_the_cells_of_its_word() {
    let d = dir("boggle");
    std::fs::write(d.join("board.txt"), "3 3\nC A T\nX X S\nX X X\n").unwrap();
    std::fs::write(d.join("words.txt"), "CATS\n").unwrap();
    let file = d.join("boggle.svg");
    let board = format!("board={}", d.join("board.txt").display());
    let dict = format!("dict={}", d.join("words.txt").display());
    solve_svg(
        &file,
        &["models/boggle.csp", "--param", &board, "--param", &dict],
    );
    let png = render(&file);
    let mut lit = 0;
    for k in 0..9 {
        // Near the top left corner: off the path, its start ring and the letter.
        let x = (MARGIN + (k % 3) as f64 * CELL + CELL * 0.15) as u32;
        let y = (MARGIN + (k / 3) as f64 * CELL + CELL * 0.12) as u32;
        let (r, g, b) = rgb(&png, x, y);
        let want = hex("#fde3d8");
        lit += usize::from(
            r.abs_diff(want.0) <= 6 && g.abs_diff(want.1) <= 6 && b.abs_diff(want.2) <= 6,
        );
    }
    assert_eq!(lit, 4, "C, A, T, S");
    assert!(read(&file).contains("data-steps=\"4\""));
}

/// The node count `--stats` reports.
fn nodes_of(stderr: &str) -> usize {
    stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("nodes:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no node count in {stderr}"))
}

#[test]
fn a_search_tree_has_a_node_per_branch() {
    let d = dir("tree");
    for (name, var) in [("input", "input"), ("mrv", "mrv")] {
        let svg = d.join(format!("tree-{name}.svg"));
        let dot = d.join(format!("tree-{name}.dot"));
        for file in [&svg, &dot] {
            let r = cspi(&[
                "solve",
                "models/n-queens.csp",
                "--param",
                "n=5",
                "--all",
                "--var",
                var,
                "--propagation",
                "fc",
                "--stats",
                "--tree",
                file.to_str().unwrap(),
            ]);
            assert_eq!(r.code, 0, "{}", r.stderr);
            let nodes = nodes_of(&r.stderr);
            if file == &dot {
                let text = read(file);
                assert_eq!(text.matches(" -> ").count(), nodes);
                assert_eq!(text.matches("fillcolor").count(), nodes + 1);
                continue;
            }
            let png = render(file);
            let inner = blobs(&png, hex("#4a6fa5")).len();
            let failed = blobs(&png, hex("#d62728")).len();
            let solutions = blobs(&png, hex("#2ca02c")).len();
            // Each colour also marks one legend entry.
            assert_eq!(solutions - 1, 10, "n-queens 5 has 10 solutions");
            assert!(failed > 1);
            assert_eq!(inner - 1 + failed - 1 + solutions - 1, nodes + 1, "{name}");
        }
    }
}

#[test]
fn a_large_tree_is_cut_with_a_message() {
    let file = dir("tree-big").join("tree-big.svg");
    let r = cspi(&[
        "solve",
        "models/n-queens.csp",
        "--param",
        "n=10",
        "--all",
        "--tree",
        file.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("724 solutions"), "{}", r.stdout);
    assert!(r.stderr.contains("more than 400 branches"), "{}", r.stderr);
    render(&file);
    assert!(read(&file).contains("only its first nodes are drawn"));
}

#[test]
fn a_bench_chart_has_a_bar_per_strategy_in_each_panel() {
    let file = dir("bench").join("bench.svg");
    let r = cspi(&[
        "bench",
        "models/n-queens.csp",
        "--param",
        "n=7",
        "--var",
        "input,mrv,dom-wdeg",
        "--propagation",
        "none,fc,ac",
        "--no-product-count",
        "--plot",
        file.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let png = render(&file);
    assert_eq!(blobs(&png, hex("#4a6fa5")).len(), 9, "node bars");
    assert_eq!(blobs(&png, hex("#e07b39")).len(), 9, "time bars");
}

#[test]
fn a_model_without_a_picture_is_a_usage_error() {
    let file = dir("none").join("none.svg");
    let r = cspi(&[
        "solve",
        "models/send-more-money.csp",
        "--svg",
        file.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("draws no picture"), "{}", r.stderr);
    assert!(!file.exists());
}
