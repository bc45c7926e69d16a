//! models/roster.csp (`regular` with a regular expression): its rosters are
//! checked against the ward's rules as its comment states them, written
//! here run by run without a regular expression, and its solution counts
//! on small instances against brute force over the same rules.

use crate::common::cspi;
use serde_json::Value;

/// The instance: nurses, days, day cover, night cover.
type Instance = (usize, usize, usize, usize);

fn params(&(nurses, days, day, night): &Instance) -> Vec<String> {
    [
        ("nurses", nurses),
        ("days", days),
        ("day_cover", day),
        ("night_cover", night),
    ]
    .iter()
    .flat_map(|(k, v)| ["--param".to_string(), format!("{k}={v}")])
    .collect()
}

/// One nurse's shifts (1 day, 2 night, 3 off) follow the rules: at most
/// four shifts in a row; no day shift right after a night; at most three
/// nights in a row, then two days off (as far as the horizon goes); at most
/// `most` shifts in all.
fn follows_rules(row: &[i64], most: usize) -> bool {
    let n = row.len();
    let mut run = 0;
    let mut nights = 0;
    for i in 0..n {
        if !(1..=3).contains(&row[i]) {
            return false;
        }
        run = if row[i] == 3 { 0 } else { run + 1 };
        nights = if row[i] == 2 { nights + 1 } else { 0 };
        if run > 4 || nights > 3 || (i > 0 && row[i - 1] == 2 && row[i] == 1) {
            return false;
        }
        let last_night = row[i] == 2 && (i + 1 == n || row[i + 1] != 2);
        if last_night && row[i + 1..n.min(i + 3)].iter().any(|&s| s != 3) {
            return false;
        }
    }
    row.iter().filter(|&&s| s != 3).count() <= most
}

/// A roster (one row per nurse) meets the rules and the cover.
fn valid(roster: &[Vec<i64>], &(nurses, days, day, night): &Instance) -> bool {
    let most = days * 5 / 7;
    roster.len() == nurses
        && roster
            .iter()
            .all(|r| r.len() == days && follows_rules(r, most))
        && (0..days).all(|d| {
            let on = |s| roster.iter().filter(|r| r[d] == s).count();
            on(1) >= day && on(2) >= night
        })
}

fn solve(instance: &Instance, extra: &[&str]) -> Vec<Value> {
    let mut args: Vec<String> = vec!["solve".into(), "models/roster.csp".into()];
    args.extend(params(instance));
    args.extend(["--format", "json"].iter().map(|s| s.to_string()));
    args.extend(extra.iter().map(|s| s.to_string()));
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = cspi(&argv);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect()
}

fn roster(v: &Value) -> Vec<Vec<i64>> {
    v["values"]["shift"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            r.as_array()
                .expect("a row")
                .iter()
                .map(|x| x.as_i64().expect("an int"))
                .collect()
        })
        .collect()
}

#[test]
fn the_bundled_rosters_meet_the_rules_and_the_cover() {
    for instance in [(5, 14, 2, 1), (7, 28, 3, 1), (9, 21, 4, 2)] {
        let out = solve(&instance, &[]);
        let found: Vec<&Value> = out.iter().filter(|v| v["type"] == "solution").collect();
        assert_eq!(found.len(), 1, "{instance:?}: {out:?}");
        let r = roster(found[0]);
        assert!(valid(&r, &instance), "{instance:?}: {r:?}");
    }
}

/// Every assignment of small instances, checked by the rules here: the
/// model finds exactly as many rosters, and each of them is valid. (Two
/// nurses cannot cover five days and nights with three shifts each.)
#[test]
fn small_instances_have_as_many_rosters_as_brute_force_finds() {
    let cases = [
        (1, 9, 0, 0, 2464),
        (2, 6, 1, 0, 502),
        (2, 5, 1, 1, 0),
        (3, 3, 1, 1, 12),
    ];
    for (nurses, days, day, night, known) in cases {
        let instance = (nurses, days, day, night);
        let cells = nurses * days;
        let mut expected = 0;
        for code in 0..3usize.pow(cells as u32) {
            let mut c = code;
            let roster: Vec<Vec<i64>> = (0..nurses)
                .map(|_| {
                    (0..days)
                        .map(|_| {
                            let s = (c % 3) as i64 + 1;
                            c /= 3;
                            s
                        })
                        .collect()
                })
                .collect();
            expected += usize::from(valid(&roster, &instance));
        }
        let out = solve(&instance, &["--all"]);
        let found: Vec<Vec<Vec<i64>>> = out
            .iter()
            .filter(|v| v["type"] == "solution")
            .map(roster)
            .collect();
        assert_eq!(expected, known, "{instance:?}: brute force");
        assert_eq!(found.len(), expected, "{instance:?}");
        assert!(found.iter().all(|r| valid(r, &instance)), "{instance:?}");
    }
}
