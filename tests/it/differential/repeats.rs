//! Global constraints whose arguments repeat a variable, or mix a variable
//! with a view of it (`[y, y + 1, y, x]`): a propagator reads each position
//! as its own, so a value it removes from one position leaves its twin too,
//! unseen by that run. [`with_repeats`] turns any generated case of
//! `globals.rs` into one over fewer variables, each position a variable or
//! a shifted variable; the models the issue reported are regression tests
//! below, each against brute force under every strategy.

use super::globals::{Case, Draw};
use super::{check_int_source, product};
use cspi::solve::Next;
use cspi::solve::{LoadOptions, ModelSource, Options, load, solve};
use std::collections::BTreeSet;
use std::sync::Arc;

/// `case` over fewer variables: position `i` (the case's `x{i}`) becomes
/// `x{of[i]} + shift[i]`, with at least one variable in two positions. The
/// new variables take the domain of their first position, shifted back.
pub(super) fn with_repeats(case: Case, d: &mut Draw) -> Case {
    let n = case.domains.len();
    if n < 2 {
        return case;
    }
    let bases = d.int(1, n as i64 - 1) as usize;
    let mut of: Vec<usize> = (0..n)
        .map(|_| d.int(0, bases as i64 - 1) as usize)
        .collect();
    of[d.int(0, n as i64 - 1) as usize] = bases - 1;
    // Mostly the variable itself (`x` twice), sometimes a view of it.
    let shift: Vec<i64> = (0..n)
        .map(|_| [0, 0, 0, 1, -1, 2][d.int(0, 5) as usize])
        .collect();
    let domains = (0..bases)
        .map(|j| match (0..n).find(|&i| of[i] == j) {
            Some(i) => case.domains[i].iter().map(|v| v - shift[i]).collect(),
            None => vec![0],
        })
        .collect();
    let view = |i: usize| match shift[i] {
        0 => format!("x{}", of[i]),
        k if k > 0 => format!("(x{} + {k})", of[i]),
        k => format!("(x{} - {})", of[i], -k),
    };
    // Each position keeps the case's domain for it (some decompositions,
    // such as a list of rows, hold only there).
    let within: String = (0..n)
        .map(|i| {
            let vals: Vec<String> = case.domains[i].iter().map(i64::to_string).collect();
            format!("constraint {} in {{{}}};\n", view(i), vals.join(", "))
        })
        .collect();
    let global = within.clone() + &rename(&case.global, &view);
    let decomposition = within + &rename(&case.decomposition, &view);
    let (holds, original) = (case.holds, case.domains);
    Case {
        domains,
        global,
        decomposition,
        holds: Box::new(move |u| {
            let v: Vec<i64> = (0..n).map(|i| u[of[i]] + shift[i]).collect();
            (0..n).all(|i| original[i].contains(&v[i])) && holds(&v)
        }),
    }
}

/// `text` with every name `x{i}` replaced by `view(i)`, all at once.
fn rename(text: &str, view: &impl Fn(usize) -> String) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let starts_name = bytes[i] == b'x'
            && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'));
        let digits = bytes[i + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let ends_name = bytes
            .get(i + 1 + digits)
            .is_none_or(|b| !(b.is_ascii_alphanumeric() || *b == b'_'));
        if starts_name && digits > 0 && ends_name {
            let k: usize = text[i + 1..i + 1 + digits].parse().expect("digits");
            out.push_str(&view(k));
            i += 1 + digits;
        } else {
            out.push(bytes[i] as char);
            i += 1;
        }
    }
    out
}

/// Checks model text over `x0..` against brute force over `domains` with
/// `holds`, under every strategy (solution sets, counts, three threads).
fn check_brute(src: &str, domains: &[Vec<i64>], holds: impl Fn(&[i64]) -> bool) {
    let expected: BTreeSet<Vec<i64>> = product(domains).filter(|t| holds(t)).collect();
    check_int_source(src, domains.len(), &expected, 0, src);
}

/// Whether the values are pairwise distinct.
fn distinct(v: &[i64]) -> bool {
    (0..v.len()).all(|i| (i + 1..v.len()).all(|j| v[i] != v[j]))
}

fn header(domains: &[Vec<i64>]) -> String {
    domains
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let vals: Vec<String> = d.iter().map(i64::to_string).collect();
            format!("var x{i} in {{{}}};\n", vals.join(", "))
        })
        .collect()
}

/// Langford's problem L(2, n) as the issue wrote it: `x{i}` is the first
/// place of the number `i + 1`, the second is `x{i} + i + 2`, and all 2n
/// places differ.
fn langford(n: usize) -> String {
    let firsts: Vec<String> = (0..n).map(|i| format!("x{i}")).collect();
    let seconds: Vec<String> = (0..n).map(|i| format!("x{i} + {}", i + 2)).collect();
    let mut src: String = (0..n)
        .map(|i| format!("var x{i} in 1..{};\n", 2 * n - i - 2))
        .collect();
    src += &format!(
        "constraint alldifferent([{}, {}]);\n",
        firsts.join(", "),
        seconds.join(", ")
    );
    src
}

fn langford_holds(n: usize) -> impl Fn(&[i64]) -> bool {
    move |x| {
        let places: Vec<i64> = (0..n)
            .map(|i| x[i])
            .chain((0..n).map(|i| x[i] + i as i64 + 2))
            .collect();
        distinct(&places)
    }
}

/// L(2, 3) and L(2, 4) have two solutions each (a sequence and its
/// mirror), L(2, 5) none: under `ac` one solution of L(2, 5) was printed,
/// a place given twice.
#[test]
fn langford_small_agrees_with_brute_force() {
    for n in 3..=5 {
        let domains: Vec<Vec<i64>> = (0..n)
            .map(|i| (1..=(2 * n - i - 2) as i64).collect())
            .collect();
        check_brute(&langford(n), &domains, langford_holds(n));
    }
}

/// L(2, 11): 35,584 solutions (17,792 up to mirroring); 47,961 were counted.
#[test]
fn langford_11_counts_35584() {
    let model = Arc::new(
        load(
            ModelSource::text("langford.csp", &langford(11)),
            &LoadOptions::default(),
        )
        .unwrap(),
    );
    for no_product_count in [false, true] {
        let options = Options {
            count_only: true,
            no_product_count,
            ..Options::default()
        };
        let summary = solve(&model, &options, |_| Next::Continue);
        assert_eq!(
            summary.stats.solutions, 35_584,
            "no_product_count {no_product_count}"
        );
    }
}

/// `y` twice: never all different. `--all` listed two solutions.
#[test]
fn alldifferent_with_a_variable_twice_has_no_solution() {
    let domains = vec![(0..=3).collect::<Vec<i64>>(), (0..=3).collect()];
    let src = format!(
        "{}constraint alldifferent([x1, x1 + 1, x1, x0]);\n",
        header(&domains)
    );
    check_brute(&src, &domains, |v| distinct(&[v[1], v[1] + 1, v[1], v[0]]));
}

/// `a - 2` and `a` never clash: counting by components counted 4, not 2.
#[test]
fn alldifferent_with_a_view_counts_by_components() {
    let domains = vec![
        (0..=2).collect::<Vec<i64>>(),
        (2..=3).collect(),
        (1..=3).collect(),
    ];
    let src = format!(
        "{}constraint all_different([x0, x2, x1 - 2, x1]);\n",
        header(&domains)
    );
    check_brute(&src, &domains, |v| distinct(&[v[0], v[2], v[1] - 2, v[1]]));
}

/// `x` in two columns of a diagram: the row `[1, 3, 2]` was accepted with
/// `x = 1`.
#[test]
fn mdd_with_a_variable_in_two_columns() {
    let domains = vec![vec![0, 1, 3], vec![1, 2, 3]];
    let src = format!(
        "{}constraint mdd([x0, x0, x1], [[1, 3, 2], [0, 3, 0], [3, 3, 1]]);\n",
        header(&domains)
    );
    let rows = [[1, 3, 2], [0, 3, 0], [3, 3, 1]];
    check_brute(&src, &domains, |v| rows.contains(&[v[0], v[0], v[1]]));
}

/// `x` against itself at the last position: 20, 19 or 18 solutions
/// depending on the variable selection; 18 is right.
#[test]
fn lex_less_with_a_variable_on_both_sides() {
    let domains = vec![vec![1, 3, 5, 7], vec![0, 2, 4, 6], vec![1, 2, 4]];
    let src = format!(
        "{}constraint lex_less([x0 - 1, x2], [x1, x2]);\n",
        header(&domains)
    );
    check_brute(&src, &domains, |v| v[0] - 1 < v[1]);
    let expected = product(&domains).filter(|v| v[0] - 1 < v[1]).count();
    assert_eq!(expected, 18);
}

#[test]
fn renaming_replaces_whole_names_only() {
    let view = |i: usize| format!("(y{i} + 1)");
    assert_eq!(
        rename("x0 + x12 * max(x1, ax2, x3_)", &view),
        "(y0 + 1) + (y12 + 1) * max((y1 + 1), ax2, x3_)"
    );
}
