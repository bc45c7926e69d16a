//! `cspi merge`'s result (`run::Merged`): for people, the status line and
//! how many parts were merged; for machines, the merged summary record, as
//! the parts' summaries read (written by serde).

use super::json::to_json;
use crate::run::Merged;
use indexmap::IndexMap;
use serde::Serialize;
use serde_json::Value;

/// The status line, then how many parts were merged.
pub(crate) fn human(m: &Merged) -> String {
    let shown = m.objective.as_ref().map(|(o, lex)| match lex {
        // A lexicographic objective as people read it: `lex(3, 5)`.
        Some(Value::Array(c)) => {
            let c: Vec<String> = c.iter().map(Value::to_string).collect();
            format!("lex({})", c.join(", "))
        }
        _ => o.to_string(),
    });
    let head = match (m.status, shown) {
        ("OPTIMAL", Some(o)) => format!("OPTIMAL: objective {o}"),
        (s, Some(o)) => format!("{s}: best objective {o} (optimality not proved)"),
        ("UNSATISFIABLE", None) => "UNSATISFIABLE".to_string(),
        // A partial merge: what the parts there found, so far.
        ("UNKNOWN", None) if !m.missing.is_empty() && m.count == 0 => {
            "UNKNOWN: no solution in the parts merged so far".to_string()
        }
        ("UNKNOWN", None) if !m.missing.is_empty() => {
            format!("{} so far (UNKNOWN)", super::count_text(m.count))
        }
        (s, None) => format!("{} ({s})", super::count_text(m.count)),
    };
    let mut out = if m.missing.is_empty() {
        format!("{head}\nmerged {} parts\n", m.parts)
    } else {
        format!(
            "{head}\nmerged {} of {} parts; missing: {}\n",
            m.parts,
            m.of,
            m.missing.join(", ")
        )
    };
    if let Some(map) = &m.failed {
        out += &map.text(5);
    }
    out
}

/// The merged summary record.
#[derive(Serialize)]
struct Summary<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    status: &'static str,
    solutions: u64,
    /// `solutions` is a lower bound: the count does not fit 64 bits.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    solutions_at_least: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    objective: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    objective_lex: Option<&'a Value>,
    parts: usize,
    /// A partial merge's missing parts (`merge --partial`).
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    missing: &'a [String],
    fingerprint: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    totals: Option<&'a IndexMap<String, i64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<&'a IndexMap<String, i64>>,
}

/// The merged summary record, one JSON line (no newline).
pub(crate) fn json(m: &Merged) -> String {
    to_json(&Summary {
        kind: "summary",
        status: m.status,
        solutions: m.count,
        solutions_at_least: m.count == crate::engine::stats::SATURATED,
        objective: m.objective.as_ref().map(|(o, _)| *o),
        objective_lex: m.objective.as_ref().and_then(|(_, lex)| lex.as_ref()),
        parts: m.parts,
        missing: &m.missing,
        fingerprint: &m.fingerprint,
        totals: m.totals.as_ref(),
        stats: m.stats.as_ref(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn merged(objective: Option<(i64, Option<Value>)>, count: u64) -> Merged {
        Merged {
            solutions: Vec::new(),
            status: if objective.is_some() {
                "OPTIMAL"
            } else {
                "ALL_SOLUTIONS"
            },
            count,
            objective,
            parts: 3,
            of: 3,
            missing: Vec::new(),
            fingerprint: "f00d".to_string(),
            totals: None,
            failed: None,
            stats: Some(IndexMap::from([
                ("nodes".to_string(), 30),
                ("failures".to_string(), 4),
                ("max_depth".to_string(), 2),
            ])),
        }
    }

    #[test]
    fn the_summary_record_in_the_order_of_a_part_s() {
        assert_eq!(
            json(&merged(None, 12)),
            r#"{"type":"summary","status":"ALL_SOLUTIONS","solutions":12,"parts":3,"fingerprint":"f00d","stats":{"nodes":30,"failures":4,"max_depth":2}}"#
        );
        let lex = serde_json::json!([3, -5]);
        let mut m = merged(Some((3, Some(lex))), 1);
        m.totals = Some(IndexMap::from([("cost".to_string(), 7)]));
        assert_eq!(
            json(&m),
            r#"{"type":"summary","status":"OPTIMAL","solutions":1,"objective":3,"objective_lex":[3,-5],"parts":3,"fingerprint":"f00d","totals":{"cost":7},"stats":{"nodes":30,"failures":4,"max_depth":2}}"#
        );
        assert_eq!(human(&m), "OPTIMAL: objective lex(3, -5)\nmerged 3 parts\n");
        // A partial merge says how far it got.
        let mut m = merged(None, 0);
        (m.status, m.parts, m.of) = ("UNKNOWN", 2, 9);
        m.missing = vec!["2".into(), "4 to 9".into()];
        assert_eq!(
            human(&m),
            "UNKNOWN: no solution in the parts merged so far\nmerged 2 of 9 parts; missing: 2, 4 to 9\n"
        );
        assert!(json(&m).contains(r#","parts":2,"missing":["2","4 to 9"],"#));
        m.count = 5;
        assert!(human(&m).starts_with("5 solutions so far (UNKNOWN)\n"));
        let m = merged(None, crate::engine::stats::SATURATED);
        assert!(json(&m).contains(r#","solutions_at_least":true,"#));
    }
}
