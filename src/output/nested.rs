//! Arrays nested by dimension, the one place that walks a row-major array:
//! `[[1, 2], [3, 4]]` for people, `[[1,2],[3,4]]` in JSON.

/// Writes the items of an array with index ranges `dims` (row-major) as
/// nested brackets, `sep` between siblings; `item(out, k)` writes item `k`.
/// A scalar (no dimensions) is the single item 0.
use crate::model::EnumType;
use std::sync::Arc;

#[cfg(test)]
pub(crate) fn nested(
    out: &mut String,
    dims: &[(i64, i64)],
    sep: &str,
    item: &mut dyn FnMut(&mut String, usize),
) {
    nested_named(out, dims, &[], false, sep, item);
}

/// Like [`nested`], with the dimensions indexed by an enum (`names[d]`)
/// keyed by their members' names: `[red: 1, green: 2]` for people,
/// `{"red":1,"green":2}` in JSON.
pub(crate) fn nested_named(
    out: &mut String,
    dims: &[(i64, i64)],
    names: &[Option<Arc<EnumType>>],
    json: bool,
    sep: &str,
    item: &mut dyn FnMut(&mut String, usize),
) {
    fn walk(
        out: &mut String,
        dims: &[(i64, i64)],
        names: &[Option<Arc<EnumType>>],
        json: bool,
        sep: &str,
        at: &mut usize,
        item: &mut dyn FnMut(&mut String, usize),
    ) {
        let Some(&(lo, hi)) = dims.first() else {
            item(out, *at);
            *at += 1;
            return;
        };
        let named = names.first().and_then(Option::as_ref);
        let rest = names.get(1..).unwrap_or(&[]);
        out.push(if named.is_some() && json { '{' } else { '[' });
        for i in lo..=hi {
            if i > lo {
                out.push_str(sep);
            }
            if let Some(e) = named {
                if json {
                    super::json::string(out, &e.member(i));
                    out.push(':');
                } else {
                    out.push_str(&e.member(i));
                    out.push_str(": ");
                }
            }
            walk(out, &dims[1..], rest, json, sep, at, item);
        }
        out.push(if named.is_some() && json { '}' } else { ']' });
    }
    walk(out, dims, names, json, sep, &mut 0, item);
}

#[cfg(test)]
mod tests {
    use super::nested;

    fn show(dims: &[(i64, i64)], sep: &str) -> String {
        let mut out = String::new();
        nested(&mut out, dims, sep, &mut |o, k| o.push_str(&k.to_string()));
        out
    }

    #[test]
    fn scalars_lists_and_matrices() {
        assert_eq!(show(&[], ","), "0");
        assert_eq!(show(&[(1, 3)], ", "), "[0, 1, 2]");
        assert_eq!(show(&[(0, 1), (5, 7)], ","), "[[0,1,2],[3,4,5]]");
        assert_eq!(show(&[(1, 0)], ","), "[]");
    }
}
