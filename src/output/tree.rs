//! The search tree of a small search as a picture (`cspi solve --tree
//! FILE.svg`, or Graphviz with `FILE.dot`), as teachers draw them: one node
//! per branch taken, the edge labelled with its decision (`q[2] = 4`, or
//! its negation `q[2] ≠ 4` on backtracking), dead ends in red, solutions
//! in green, and beside each node the values propagation removed after the
//! decision. Built from the events of `engine::tree`.

use super::svg::{Canvas, escape};
use crate::engine::select::Branch;
use crate::engine::tree::{TreeEvent, TreeLog};
use crate::model::Model;
use std::fmt::Write;

/// What became of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Its propagation failed, or the completion below it did.
    Failed,
    Solution,
    /// It has children.
    Inner,
    /// Not explored further (the search stopped, or the drawing was cut).
    Open,
}

/// One node of the tree: the root (no parent) or a branch.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub(crate) parent: Option<usize>,
    /// The decision on the edge from the parent.
    pub(crate) label: String,
    pub(crate) depth: usize,
    pub(crate) pruned: u64,
    pub(crate) kind: Kind,
    pub(crate) children: Vec<usize>,
}

/// The tree rebuilt from the events: node 0 is the root.
pub(crate) struct Tree {
    pub(crate) nodes: Vec<Node>,
    /// Some events were not recorded (over the cap).
    pub(crate) truncated: bool,
}

impl Tree {
    pub(crate) fn new(model: &Model, log: &TreeLog) -> Tree {
        let mut nodes = vec![Node {
            parent: None,
            label: String::new(),
            depth: 0,
            pruned: 0,
            kind: Kind::Open,
            children: Vec::new(),
        }];
        // The current path from the root, by depth.
        let mut path = vec![0usize];
        for e in &log.events {
            match *e {
                TreeEvent::Branch {
                    var,
                    branch,
                    right,
                    depth,
                    pruned,
                    failed,
                } => {
                    path.truncate(depth.max(1));
                    let Some(&parent) = path.last() else { continue };
                    let id = nodes.len();
                    nodes.push(Node {
                        parent: Some(parent),
                        label: decision(model, var, branch, right),
                        depth: nodes[parent].depth + 1,
                        pruned,
                        kind: if failed { Kind::Failed } else { Kind::Open },
                        children: Vec::new(),
                    });
                    nodes[parent].children.push(id);
                    if nodes[parent].kind == Kind::Open {
                        nodes[parent].kind = Kind::Inner;
                    }
                    path.push(id);
                }
                TreeEvent::Solution | TreeEvent::Fail => {
                    if let Some(&last) = path.last() {
                        let n = &mut nodes[last];
                        if n.children.is_empty() {
                            n.kind = if *e == TreeEvent::Solution {
                                Kind::Solution
                            } else {
                                Kind::Failed
                            };
                        }
                    }
                }
            }
        }
        Tree {
            nodes,
            truncated: log.truncated,
        }
    }

    pub(crate) fn count(&self, kind: Kind) -> usize {
        self.nodes.iter().filter(|n| n.kind == kind).count()
    }
}

/// `q[2] = 4`, `q[2] ≠ 4`, `x ≤ 7`, `x > 7`, with values as the model shows them.
fn decision(model: &Model, var: usize, branch: Branch, right: bool) -> String {
    let name = &model.vars[var].name;
    match branch {
        Branch::Assign(v) => {
            let v = model.format_value(var, v);
            if right {
                format!("{name} ≠ {v}")
            } else {
                format!("{name} = {v}")
            }
        }
        Branch::AtMost(v) => {
            if right {
                format!("{name} > {v}")
            } else {
                format!("{name} ≤ {v}")
            }
        }
    }
}

const DX: f64 = 30.0;
const DY: f64 = 64.0;
const R: f64 = 8.0;
const TOP: f64 = 56.0;
const SIDE: f64 = 24.0;

/// Each node's x position: leaves side by side in the order the search met
/// them, a parent centred over its children.
fn layout(tree: &Tree) -> Vec<f64> {
    fn place(tree: &Tree, n: usize, next: &mut f64, x: &mut [f64]) {
        let node = &tree.nodes[n];
        if node.children.is_empty() {
            x[n] = *next;
            *next += DX;
            return;
        }
        for &c in &node.children {
            place(tree, c, next, x);
        }
        let first = x[node.children[0]];
        let last = x[node.children[node.children.len() - 1]];
        x[n] = (first + last) / 2.0;
    }
    let mut x = vec![0.0; tree.nodes.len()];
    let mut next = SIDE + DX / 2.0;
    // The tree is at most the cap deep in recursion: a few hundred frames.
    place(tree, 0, &mut next, &mut x);
    x
}

fn colours(kind: Kind) -> (&'static str, &'static str) {
    match kind {
        Kind::Failed => ("#d62728", "#8c1515"),
        Kind::Solution => ("#2ca02c", "#15631b"),
        Kind::Inner => ("#4a6fa5", "#24406b"),
        Kind::Open => ("#ffffff", "#555555"),
    }
}

/// The tree as SVG, with `title` (the model and strategy) and a legend.
pub(crate) fn svg(tree: &Tree, title: &str) -> String {
    let x = layout(tree);
    let depth = tree.nodes.iter().map(|n| n.depth).max().unwrap_or(0);
    let mut c = Canvas::new();
    let leaves = tree.nodes.iter().filter(|n| n.children.is_empty()).count();
    let width = (2.0 * SIDE + leaves as f64 * DX).max(520.0);
    c.fit(width, TOP + depth as f64 * DY + 48.0);
    c.text_anchored(
        (SIDE, 20.0),
        13.0,
        "start",
        r##"fill="#111111" font-weight="bold""##,
        title,
    );
    let summary = format!(
        "{} nodes: {} dead ends, {} solutions{}",
        tree.nodes.len() - 1,
        tree.count(Kind::Failed),
        tree.count(Kind::Solution),
        if tree.truncated {
            " — the search went on: only its first nodes are drawn"
        } else {
            ""
        }
    );
    c.text_anchored((SIDE, 38.0), 11.0, "start", r##"fill="#333333""##, &summary);
    let y = |n: &Node| TOP + n.depth as f64 * DY;
    for (i, n) in tree.nodes.iter().enumerate() {
        if let Some(p) = n.parent {
            let (x1, y1) = (x[p], y(&tree.nodes[p]));
            let (x2, y2) = (x[i], y(n));
            let dash = if n.label.contains('≠') || n.label.contains('>') {
                r#" stroke-dasharray="4 3""#
            } else {
                ""
            };
            c.line(
                (x1, y1 + R),
                (x2, y2 - R),
                &format!(r##"stroke="#888888" stroke-width="1.2"{dash}"##),
            );
            // The label sits near the child, rotated so that long ones fit.
            let (lx, ly) = (x1 + (x2 - x1) * 0.62, y1 + (y2 - y1) * 0.62);
            let mut label = String::new();
            escape(&mut label, &n.label);
            c.raw(&format!(
                "<text x=\"{lx:.1}\" y=\"{ly:.1}\" font-size=\"9\" fill=\"#333333\" \
                 text-anchor=\"middle\" transform=\"rotate(-28 {lx:.1} {ly:.1})\">{label}</text>\n"
            ));
        }
    }
    c.raw("<g class=\"nodes\">\n");
    for (i, n) in tree.nodes.iter().enumerate() {
        let (fill, stroke) = colours(n.kind);
        let kind = match n.kind {
            Kind::Failed => "failed",
            Kind::Solution => "solution",
            Kind::Inner => "inner",
            Kind::Open => "open",
        };
        c.raw(&format!("<g class=\"node {kind}\">"));
        c.circle(
            (x[i], y(n)),
            R,
            &format!(r#"fill="{fill}" stroke="{stroke}" stroke-width="1.5""#),
        );
        if n.pruned > 0 {
            c.text_anchored(
                (x[i] + R + 2.0, y(n) + 3.5),
                8.5,
                "start",
                r##"fill="#7a4b00""##,
                &format!("−{}", n.pruned),
            );
        }
        c.raw("</g>\n");
    }
    c.raw("</g>\n");
    legend(&mut c, width);
    c.finish()
}

fn legend(c: &mut Canvas, width: f64) {
    let items = [
        (Kind::Inner, "decision"),
        (Kind::Failed, "dead end"),
        (Kind::Solution, "solution"),
        (Kind::Open, "not explored"),
    ];
    let mut x = width - SIDE - 4.0 * 86.0;
    for (kind, text) in items {
        let (fill, stroke) = colours(kind);
        c.circle(
            (x, 34.0),
            5.0,
            &format!(r#"fill="{fill}" stroke="{stroke}" stroke-width="1.2""#),
        );
        c.text_anchored((x + 9.0, 37.5), 10.0, "start", r##"fill="#333333""##, text);
        x += 86.0;
    }
    c.text_anchored(
        (width - SIDE, 52.0),
        9.0,
        "end",
        r##"fill="#7a4b00""##,
        "−k: values removed by propagation",
    );
}

/// The tree in Graphviz's language (`dot -Tsvg`).
pub(crate) fn dot(tree: &Tree, title: &str) -> String {
    let mut out = String::from("digraph search {\n");
    let _ = writeln!(out, "  label={};\n  labelloc=t;", quoted(title));
    out.push_str("  node [shape=circle, width=0.25, fixedsize=true, label=\"\", style=filled];\n");
    out.push_str("  edge [fontsize=9];\n");
    for (i, n) in tree.nodes.iter().enumerate() {
        let (fill, stroke) = colours(n.kind);
        let pruned = if n.pruned > 0 {
            format!(", xlabel=\"−{}\"", n.pruned)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "  n{i} [fillcolor=\"{fill}\", color=\"{stroke}\"{pruned}];"
        );
        if let Some(p) = n.parent {
            let style = if n.label.contains('≠') || n.label.contains('>') {
                ", style=dashed"
            } else {
                ""
            };
            let _ = writeln!(out, "  n{p} -> n{i} [label={}{style}];", quoted(&n.label));
        }
    }
    out.push_str("}\n");
    out
}

fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
