//! `cspi bench --plot FILE.svg`: a bar chart of nodes and time per strategy,
//! one row per combination, two panels side by side. A panel whose values
//! span more than two orders of magnitude is drawn on a log scale (and says
//! so), so that the good strategies do not vanish next to the bad ones.

use super::svg::Canvas;

/// One bar pair: the strategy's name, its nodes and its time.
#[derive(Clone, Debug)]
pub(crate) struct Bar {
    pub(crate) label: String,
    pub(crate) nodes: f64,
    pub(crate) time_ms: f64,
}

const ROW: f64 = 22.0;
const LABEL: f64 = 210.0;
const PANEL: f64 = 300.0;
const GAP: f64 = 70.0;
const TOP: f64 = 62.0;

/// Whether values this far apart need a log scale.
pub(crate) fn log_scaled(values: &[f64]) -> bool {
    let pos: Vec<f64> = values.iter().copied().filter(|&v| v > 0.0).collect();
    let (lo, hi) = pos.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &v| {
        (lo.min(v), hi.max(v))
    });
    pos.len() >= 2 && hi / lo > 100.0
}

/// The chart; `title` names the model.
pub(crate) fn svg(bars: &[Bar], title: &str) -> String {
    let mut c = Canvas::new();
    let height = TOP + bars.len() as f64 * ROW + 40.0;
    c.fit(LABEL + 2.0 * PANEL + GAP + 40.0, height);
    c.text_anchored(
        (12.0, 20.0),
        13.0,
        "start",
        r##"fill="#111111" font-weight="bold""##,
        title,
    );
    for (i, b) in bars.iter().enumerate() {
        let y = TOP + i as f64 * ROW;
        c.text_anchored(
            (LABEL - 8.0, y + ROW * 0.66),
            11.0,
            "end",
            r##"fill="#222222""##,
            &b.label,
        );
    }
    let nodes: Vec<f64> = bars.iter().map(|b| b.nodes).collect();
    let times: Vec<f64> = bars.iter().map(|b| b.time_ms).collect();
    panel(&mut c, LABEL, "nodes", &nodes, "#4a6fa5", bars.len(), |v| {
        format!("{}", v.round() as u64)
    });
    panel(
        &mut c,
        LABEL + PANEL + GAP,
        "time (ms)",
        &times,
        "#e07b39",
        bars.len(),
        |v| {
            if v >= 10.0 {
                format!("{v:.0}")
            } else {
                format!("{v:.2}")
            }
        },
    );
    c.finish()
}

/// One panel of bars at `x0`, scaled to its largest value.
fn panel(
    c: &mut Canvas,
    x0: f64,
    name: &str,
    values: &[f64],
    colour: &str,
    rows: usize,
    show: impl Fn(f64) -> String,
) {
    let log = log_scaled(values);
    let max = values.iter().copied().fold(0.0f64, f64::max);
    let min_pos = values
        .iter()
        .copied()
        .filter(|&v| v > 0.0)
        .fold(f64::INFINITY, f64::min);
    // Log scale from one decade under the smallest value to the largest.
    let lo = if log {
        (min_pos.log10().floor() - 1.0).max(-3.0)
    } else {
        0.0
    };
    let hi = if log {
        max.log10().ceil().max(lo + 1.0)
    } else {
        max.max(1e-9)
    };
    let scale = |v: f64| -> f64 {
        if log {
            if v <= 0.0 {
                0.0
            } else {
                ((v.log10() - lo) / (hi - lo)).clamp(0.0, 1.0) * PANEL
            }
        } else {
            (v / hi).clamp(0.0, 1.0) * PANEL
        }
    };
    let heading = if log {
        format!("{name} (log scale)")
    } else {
        name.to_string()
    };
    c.text_anchored(
        (x0, TOP - 14.0),
        12.0,
        "start",
        r##"fill="#111111""##,
        &heading,
    );
    let bottom = TOP + rows as f64 * ROW;
    // Grid lines: each decade on a log scale, quarters on a linear one.
    let ticks: Vec<f64> = if log {
        (lo as i64..=hi as i64)
            .map(|e| 10f64.powi(e as i32))
            .collect()
    } else {
        (0..=4).map(|k| hi * k as f64 / 4.0).collect()
    };
    for t in ticks {
        let x = x0 + scale(t);
        c.line(
            (x, TOP - 4.0),
            (x, bottom),
            r##"stroke="#dddddd" stroke-width="1""##,
        );
        c.text_anchored(
            (x, bottom + 14.0),
            9.0,
            "middle",
            r##"fill="#555555""##,
            &short(t),
        );
    }
    c.raw(&format!("<g class=\"bars\" data-panel=\"{name}\">\n"));
    for (i, &v) in values.iter().enumerate() {
        let y = TOP + i as f64 * ROW + 3.0;
        let w = scale(v).max(1.0);
        c.rect(x0, y, w, ROW - 6.0, &format!(r#"fill="{colour}""#));
        c.text_anchored(
            (x0 + w + 4.0, y + ROW * 0.5),
            9.5,
            "start",
            r##"fill="#333333""##,
            &show(v),
        );
    }
    c.raw("</g>\n");
    c.line(
        (x0, TOP - 4.0),
        (x0, bottom),
        r##"stroke="#111111" stroke-width="1""##,
    );
}

/// 1, 10, 1k, 1M: tick labels that stay short.
fn short(v: f64) -> String {
    if v >= 1e9 {
        format!("{:.0}G", v / 1e9)
    } else if v >= 1e6 {
        format!("{:.0}M", v / 1e6)
    } else if v >= 1e3 {
        format!("{:.0}k", v / 1e3)
    } else if v >= 1.0 || v == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_scale_only_for_wide_spans() {
        assert!(!log_scaled(&[10.0, 900.0]));
        assert!(log_scaled(&[10.0, 1001.0]));
        assert!(!log_scaled(&[0.0, 5000.0]));
        assert!(!log_scaled(&[7.0]));
    }

    #[test]
    fn a_bar_per_value_in_each_panel() {
        let bars = vec![
            Bar {
                label: "input".into(),
                nodes: 10.0,
                time_ms: 1.0,
            },
            Bar {
                label: "mrv".into(),
                nodes: 100_000.0,
                time_ms: 80.0,
            },
        ];
        let s = svg(&bars, "t");
        assert_eq!(s.matches("<rect x=").count(), 4, "{s}");
        assert!(s.contains("nodes (log scale)"));
        assert!(s.contains(">time (ms)<"));
    }
}
