//! The compiler on chosen expressions: syntax, errors with their offsets,
//! caps, and minimisation. Random expressions against a backtracking
//! matcher are in tests/it/regex.rs.

use super::*;

fn compile(text: &str) -> Regex {
    Regex::compile(text).unwrap_or_else(|e| panic!("{text:?}: {e:?}"))
}

/// An expression, words it matches, words it does not.
type Case = (
    &'static str,
    &'static [&'static [i64]],
    &'static [&'static [i64]],
);

#[test]
fn each_form_matches_what_it_should() {
    let cases: &[Case] = &[
        ("1 2", &[&[1, 2]], &[&[1], &[12], &[2, 1], &[1, 2, 2]]),
        ("12", &[&[12]], &[&[1, 2]]),
        ("  1\t2\n", &[&[1, 2]], &[&[]]),
        ("-1 -20", &[&[-1, -20]], &[&[1, 20]]),
        ("1|2 3", &[&[1], &[2, 3]], &[&[1, 3], &[2]]),
        ("(1|2) 3", &[&[1, 3], &[2, 3]], &[&[1], &[3]]),
        ("1*", &[&[], &[1], &[1, 1, 1]], &[&[2], &[1, 2]]),
        ("1+", &[&[1], &[1, 1]], &[&[]]),
        ("1? 2", &[&[2], &[1, 2]], &[&[1, 1, 2]]),
        ("1{2}", &[&[1, 1]], &[&[1], &[1, 1, 1]]),
        ("1{2,}", &[&[1, 1], &[1, 1, 1, 1]], &[&[1]]),
        ("1{1,3}", &[&[1], &[1, 1, 1]], &[&[], &[1, 1, 1, 1]]),
        ("1{0}", &[&[]], &[&[1]]),
        ("1 { 1 , 2 }", &[&[1], &[1, 1]], &[&[]]),
        ("1*{2}", &[&[], &[1, 1, 1]], &[&[2]]),
        ("(1 2)+", &[&[1, 2], &[1, 2, 1, 2]], &[&[1, 2, 1]]),
        ("(1?)*", &[&[], &[1, 1]], &[&[2]]),
        ("[1 3 5]", &[&[1], &[3], &[5]], &[&[2], &[4], &[6]]),
        ("[1-4]", &[&[1], &[4]], &[&[0], &[5]]),
        ("[1 - 4]", &[&[2]], &[&[0]]),
        ("[1 -4]", &[&[1], &[-4]], &[&[2], &[-3]]),
        ("[-3--1 2]", &[&[-3], &[-1], &[2]], &[&[0], &[1], &[-4]]),
        ("[^1 2]", &[&[0], &[3], &[-7], &[1_000_000]], &[&[1], &[2]]),
        (".", &[&[0], &[i64::MIN], &[i64::MAX]], &[&[], &[1, 1]]),
        (". 1 .", &[&[5, 1, -5]], &[&[5, 2, 5]]),
        ("[0-9223372036854775807]", &[&[0], &[i64::MAX]], &[&[-1]]),
        ("-9223372036854775808", &[&[i64::MIN]], &[&[0]]),
        (
            "[^-9223372036854775808]",
            &[&[i64::MIN + 1], &[i64::MAX]],
            &[&[i64::MIN]],
        ),
    ];
    for &(text, yes, no) in cases {
        let r = compile(text);
        for w in yes {
            assert!(r.accepts(w), "{text:?} should match {w:?}");
        }
        for w in no {
            assert!(!r.accepts(w), "{text:?} should not match {w:?}");
        }
    }
}

#[test]
fn errors_say_what_and_where() {
    let cases: &[(&str, Option<usize>, &str)] = &[
        ("", Some(0), "empty"),
        ("   ", Some(3), "empty"),
        ("(1 2", Some(0), "never closed"),
        ("1 2)", Some(3), "without a matching `(`"),
        ("()", Some(1), "nothing between"),
        ("1 (", Some(3), "ends where a symbol is expected"),
        ("1 |", Some(2), "nothing after `|`"),
        ("1||2", Some(1), "nothing after `|`"),
        ("|1", Some(0), "nothing before `|`"),
        ("(|1)", Some(1), "nothing before `|`"),
        ("*1", Some(0), "`*` has nothing to repeat"),
        ("1 | +", Some(4), "`+` has nothing to repeat"),
        ("{2}", Some(0), "`{` has nothing to repeat"),
        ("1{3,1}", Some(1), "minimum above its maximum"),
        ("1{", Some(2), "expected a repeat count"),
        ("1{-1}", Some(2), "cannot be negative"),
        ("1{2", Some(3), "expected `,` or `}`"),
        ("1{2,x}", Some(4), "a number or `}`"),
        ("1{2,3", Some(5), "expected `}`"),
        ("1{999999999999}", Some(2), "above 100000"),
        ("[]", Some(0), "empty"),
        ("[^]", Some(0), "excludes nothing"),
        ("[1 2", Some(0), "never closed"),
        ("[4-1]", Some(1), "the range 4-1 is empty"),
        ("[1-]", Some(3), "expected a number after `-`"),
        ("[1 a]", Some(3), "`a` in a class"),
        ("1-2", Some(1), "`-` right after a number"),
        ("1 - 2", Some(2), "followed by digits"),
        ("1 x", Some(2), "neither a symbol"),
        ("1 ]", Some(2), "unexpected `]`"),
        ("99999999999999999999", Some(0), "does not fit in 64 bits"),
        (
            "((1{1000}){1000}){1000}",
            Some(10),
            "100000 symbol positions",
        ),
        ("(0|1)* 1 (0|1){30}", None, "too large"),
    ];
    for &(text, at, says) in cases {
        match Regex::compile(text) {
            Ok(_) => panic!("{text:?} compiled"),
            Err(e) => {
                assert_eq!(e.at, at, "{text:?}: {}", e.message);
                assert!(e.message.contains(says), "{text:?}: {}", e.message);
            }
        }
    }
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let deep = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
    let e = Regex::compile(&deep).unwrap_err();
    assert!(e.message.contains("nest"), "{}", e.message);
    let stars = format!("1{}", "*".repeat(100_000));
    let e = Regex::compile(&stars).unwrap_err();
    assert!(e.message.contains("nest"), "{}", e.message);
    // Wide is fine: a long concatenation is not deep.
    let long = "1 ".repeat(50_000);
    assert!(compile(&long).accepts(&[1; 50_000]));
    // Many distinct symbols make many classes: the table is capped.
    let symbols: Vec<String> = (0..50_000).map(|i| i.to_string()).collect();
    let e = Regex::compile(&symbols.join(" ")).unwrap_err();
    assert!(e.message.contains("too large"), "{}", e.message);
    // One of many values is one position, and one state however many.
    let r = compile(&format!("({})*", symbols.join("|")));
    assert_eq!(r.dfa.states(), 1);
    assert!(r.accepts(&[49_999, 0, 7]) && !r.accepts(&[50_000]));
    // Many alternatives of two symbols need a state each after the first.
    let pairs: Vec<String> = (0..30_000).map(|i| format!("{i} {i}")).collect();
    let e = Regex::compile(&format!("({})*", pairs.join("|"))).unwrap_err();
    assert!(e.message.contains("too large"), "{}", e.message);
}

#[test]
fn automata_come_out_minimal() {
    // (the dead state is implicit, as NONE)
    for (text, states) in [
        ("1 1|1 1", 3),
        ("(1 2)*", 2),
        ("(1|2)*", 1),
        ("1*1*1*", 1),
        ("(0|1)* 1 (0|1){2}", 8),
        ("1{0,500}", 501),
    ] {
        assert_eq!(compile(text).dfa.states(), states, "{text:?}");
    }
}

#[test]
fn classes_cut_the_integers_at_the_ends_of_what_is_written() {
    let r = compile("[1-4] 7 .");
    // (-inf, 0], [1, 4], [5, 6], [7, 7], [8, +inf)
    assert_eq!(r.breaks, vec![1, 5, 7, 8]);
    assert_eq!(r.cell(0), (i64::MIN, 0));
    assert_eq!(r.cell(1), (1, 4));
    assert_eq!(r.cell(4), (8, i64::MAX));
    assert_eq!(r.class(3), 1);
    assert_eq!(r.class(6), 2);
    // Every class is read (by `.`); without it only [1-4] and 7 are.
    assert_eq!(r.used, vec![true; 5]);
    assert_eq!(r.listed(-10, 10, 100), 21);
    assert_eq!(r.listed(i64::MIN, i64::MAX, u64::MAX), u64::MAX);
    // Every cell is non-empty, even at the ends of the integers.
    let r = compile("[^-9223372036854775808 9223372036854775807]");
    for c in 0..r.dfa.classes as u32 {
        let (lo, hi) = r.cell(c);
        assert!(lo <= hi, "class {c}: {lo}..{hi}");
    }
    let r = compile("[1-4] 7");
    assert_eq!(r.used, vec![false, true, false, true, false]);
    assert_eq!(r.listed(-10, 10, 100), 5);
    assert_eq!(r.listed(3, 6, 100), 2);
    // The count stops past its cap.
    assert!(r.listed(-10, 10, 2) > 2);
}

#[test]
fn zero_copies_leave_the_empty_word() {
    let r = compile("(1 2){0} 3{0}");
    assert!(r.accepts(&[]));
    assert!(!r.accepts(&[3]));
    assert_eq!(r.used, vec![false; r.dfa.classes]);
}
