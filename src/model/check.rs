//! The independent solution checker: evaluates every constraint of the model
//! directly on a complete assignment, without any propagator. `--check-solutions`
//! runs it on each solution the engine reports.
//!
//! Where the model carries its constraints as written ([`Model::written`]:
//! no constant folding, no sum merging, no distribution), those are what it
//! evaluates, exactly, in 128-bit checked arithmetic ([`super::exact`]: a
//! value beyond that is undefined and the constraint false, never wrapped): a folding bug then shows as a
//! rejected solution instead of passing unseen.

use super::Model;

/// Why an assignment is not a solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    /// The value lies outside the variable's declared domain.
    Domain { var: String, value: i64 },
    /// Constraint number `index` (in model order) does not hold.
    Constraint { index: usize, description: String },
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Violation::Domain { var, value } => write!(f, "{var} = {value} is outside its domain"),
            Violation::Constraint { index, description } => {
                write!(f, "constraint #{index} is violated: {description}")
            }
        }
    }
}

/// Every violation of `values` (one per model variable), empty for a solution.
pub fn violations(model: &Model, values: &[i64]) -> Vec<Violation> {
    let mut out = Vec::new();
    for (var, &value) in model.vars.iter().zip(values) {
        if !var.domain.contains(value) {
            out.push(Violation::Domain {
                var: var.name.clone(),
                value,
            });
        }
    }
    let (constraints, exact) = match &model.written {
        Some(written) => (written, true),
        None => (&model.constraints, false),
    };
    for (index, formula) in constraints.iter().enumerate() {
        let holds = if exact {
            super::exact::holds(formula, model, values)
        } else {
            formula.holds(model, values)
        };
        if !holds {
            let vars = formula.vars();
            let shown: Vec<String> = vars
                .iter()
                .take(8)
                .map(|&v| {
                    format!(
                        "{} = {}",
                        model.vars[v].name,
                        model.format_value(v, values[v])
                    )
                })
                .collect();
            let more = if vars.len() > 8 { ", ..." } else { "" };
            out.push(Violation::Constraint {
                index,
                description: format!("{}{more}", shown.join(", ")),
            });
        }
    }
    out
}
