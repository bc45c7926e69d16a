//! `cspi merge`'s result for people: the status line and how many parts
//! were merged (the JSON summary is the merged record itself, `crate::merge`).

use crate::run::Merged;

/// The status line, then how many parts were merged.
pub(crate) fn human(m: &Merged) -> String {
    let head = match (m.status, &m.objective_shown) {
        ("OPTIMAL", Some(o)) => format!("OPTIMAL: objective {o}"),
        (s, Some(o)) => format!("{s}: best objective {o} (optimality not proved)"),
        ("UNSATISFIABLE", None) => "UNSATISFIABLE".to_string(),
        (s, None) => format!("{} ({s})", super::count_text(m.count)),
    };
    format!("{head}\nmerged {} parts\n", m.parts)
}
