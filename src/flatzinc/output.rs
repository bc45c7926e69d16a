//! Solutions as MiniZinc's solns2out reads them: one `name = value;` line
//! per output item (`array2d(1..2, 1..3, [...])` for arrays), then
//! `----------`; the end of the search as `==========` (complete),
//! `=====UNSATISFIABLE=====` or `=====UNKNOWN=====`.

use super::{OutValue, Output};
use std::fmt::Write as _;

pub(crate) const SOLUTION_END: &str = "----------";
pub(crate) const COMPLETE: &str = "==========";
pub(crate) const UNSATISFIABLE: &str = "=====UNSATISFIABLE=====";
pub(crate) const UNKNOWN: &str = "=====UNKNOWN=====";

/// The text of one solution, `----------` included.
pub fn solution(outputs: &[Output], values: &[i64]) -> String {
    let mut s = String::new();
    for o in outputs {
        let show = |v: &OutValue| {
            let k = match *v {
                OutValue::Var(v) => values[v] as i128,
                OutValue::View(a, x, b) => a as i128 * values[x] as i128 + b as i128,
                OutValue::Const(k) => k as i128,
            };
            if o.bool {
                (if k != 0 { "true" } else { "false" }).to_string()
            } else {
                k.to_string()
            }
        };
        match &o.dims {
            None => {
                let _ = writeln!(s, "{} = {};", o.name, show(&o.items[0]));
            }
            Some(dims) => {
                let ranges: Vec<String> =
                    dims.iter().map(|(lo, hi)| format!("{lo}..{hi}")).collect();
                let items: Vec<String> = o.items.iter().map(show).collect();
                let _ = writeln!(
                    s,
                    "{} = array{}d({}, [{}]);",
                    o.name,
                    dims.len(),
                    ranges.join(", "),
                    items.join(", ")
                );
            }
        }
    }
    s.push_str(SOLUTION_END);
    s.push('\n');
    s
}
