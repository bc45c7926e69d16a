//! `global_cardinality(x, v, c)`: `c[k]` of the items of `x` equal `v[k]`.

use super::{ArgProblem, ArgValue, Global, Kind, Param, ParamKind, consts, same_length};
use crate::model::GlobalArg;

const fn param(name: &'static str, kind: ParamKind) -> Param {
    Param { name, kind }
}

pub struct GlobalCardinality;

impl Global for GlobalCardinality {
    fn kind(&self) -> Kind {
        Kind::GlobalCardinality
    }
    fn name(&self) -> &'static str {
        "global_cardinality"
    }
    fn params(&self) -> &'static [Param] {
        const P: &[Param] = &[
            param("x", ParamKind::Terms),
            param("v", ParamKind::Ints),
            param("c", ParamKind::Terms),
        ];
        P
    }
    fn check(&self, args: &[GlobalArg]) -> Result<(), ArgProblem> {
        same_length(args, &["x", "v", "c"], 1, 2)?;
        let v = consts(&args[1]);
        for (i, a) in v.iter().enumerate() {
            if let Some(j) = v[..i].iter().position(|b| b == a) {
                return Err(ArgProblem::new(
                    1,
                    format!(
                        "value {a} is listed twice in `v` (items {} and {})",
                        j + 1,
                        i + 1
                    ),
                    "list each value once: `c[k]` counts the variables equal to `v[k]`",
                ));
            }
        }
        Ok(())
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        holds(args[0].ints(), args[1].ints(), args[2].ints())
    }
}

/// Whether `counts[k]` is the number of items of `x` equal to `values[k]`.
pub fn holds(x: &[i64], values: &[i64], counts: &[i64]) -> bool {
    values
        .iter()
        .zip(counts)
        .all(|(&v, &c)| x.iter().filter(|&&xi| xi == v).count() as i64 == c)
}
