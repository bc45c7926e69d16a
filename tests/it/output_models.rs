//! Models whose output is computed from the solution (docs/language.md,
//! Output): models/vrp.csp prints its routes by following `next[]`, and
//! models/timetable.csp draws a day × period grid of course names. The
//! optimum of the routing is checked against an enumeration of every split
//! of every order of the customers, on the bundled and on random instances,
//! and the printed routes against the problem's rules; the timetable's count
//! against a brute force over placements, and its grid against the values.

use crate::common::cspi;
use crate::common::json::JsonRead;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

struct Vrp {
    x: Vec<i64>,
    y: Vec<i64>,
    demand: Vec<i64>,
    k: usize,
    capacity: i64,
}

impl Vrp {
    fn dist(&self, a: usize, b: usize) -> i64 {
        (self.x[a] - self.x[b]).abs() + (self.y[a] - self.y[b]).abs()
    }

    /// The cost of a route of customers (numbered from 1), depot to depot.
    fn route_cost(&self, r: &[usize]) -> i64 {
        let mut at = 0;
        let mut cost = 0;
        for &c in r {
            cost += self.dist(at, c);
            at = c;
        }
        cost + self.dist(at, 0)
    }

    /// The shortest total distance over every order of the customers cut
    /// into k routes within the capacity; `None` when none fits.
    fn brute_force(&self) -> Option<i64> {
        let n = self.demand.len();
        let mut order: Vec<usize> = (1..=n).collect();
        let mut best = None;
        permute(&mut order, 0, &mut |p| {
            cuts(p, self.k, &mut |routes| {
                let fits = routes
                    .iter()
                    .all(|r| r.iter().map(|&c| self.demand[c - 1]).sum::<i64>() <= self.capacity);
                if fits {
                    let cost: i64 = routes.iter().map(|r| self.route_cost(r)).sum();
                    best = Some(best.map_or(cost, |b: i64| b.min(cost)));
                }
            });
        });
        best
    }

    fn params(&self) -> Vec<String> {
        let list = |v: &[i64]| {
            format!(
                "[{}]",
                v.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
            )
        };
        vec![
            format!("n={}", self.demand.len()),
            format!("k={}", self.k),
            format!("capacity={}", self.capacity),
            format!("x={}", list(&self.x)),
            format!("y={}", list(&self.y)),
            format!("demand={}", list(&self.demand)),
        ]
    }
}

fn permute(v: &mut Vec<usize>, i: usize, f: &mut dyn FnMut(&[usize])) {
    if i == v.len() {
        f(v);
        return;
    }
    for j in i..v.len() {
        v.swap(i, j);
        permute(v, i + 1, f);
        v.swap(i, j);
    }
}

/// Every cut of `order` into `k` consecutive (possibly empty) routes.
fn cuts(order: &[usize], k: usize, f: &mut dyn FnMut(&[Vec<usize>])) {
    fn go(rest: &[usize], k: usize, acc: &mut Vec<Vec<usize>>, f: &mut dyn FnMut(&[Vec<usize>])) {
        if k == 1 {
            acc.push(rest.to_vec());
            f(acc);
            acc.pop();
            return;
        }
        for cut in 0..=rest.len() {
            acc.push(rest[..cut].to_vec());
            go(&rest[cut..], k - 1, acc, f);
            acc.pop();
        }
    }
    go(order, k, &mut Vec::new(), f);
}

/// Solves with `params`, checks the last printed solution's routes against
/// the rules and its distance against the brute force.
fn check_vrp(p: &Vrp) {
    let params = p.params();
    let mut args = vec!["solve", "models/vrp.csp"];
    for q in &params {
        args.extend(["--param", q.as_str()]);
    }
    let r = cspi(&args);
    let best = p.brute_force();
    let Some(best) = best else {
        assert!(
            r.stdout.contains("UNSATISFIABLE"),
            "{params:?}: {}",
            r.stdout
        );
        return;
    };
    assert_eq!(r.code, 0, "{params:?}: {}", r.stderr);
    assert!(
        r.stdout.ends_with(&format!("OPTIMAL: objective {best}\n")),
        "{params:?}: expected {best}:\n{}",
        r.stdout
    );
    let last = r
        .stdout
        .rsplit("--- solution ---")
        .next()
        .expect("a solution");
    let n = p.demand.len();
    let mut seen = vec![false; n + 1];
    let mut total = 0;
    let mut vehicles = 0;
    for line in last.lines() {
        if let Some(rest) = line.strip_prefix("vehicle ") {
            vehicles += 1;
            let (route, load) = rest.split_once(" (load ").expect("a load");
            let load: i64 = load.trim_end_matches(')').parse().expect("a number");
            let route = route.split_once(": ").expect("a route").1;
            let customers: Vec<usize> = if route == "stays at the depot" {
                Vec::new()
            } else {
                let inner = route
                    .strip_prefix("depot -> ")
                    .and_then(|r| r.strip_suffix(" -> depot"))
                    .expect("depot to depot");
                inner
                    .split(" -> ")
                    .map(|c| c.parse().expect("a customer"))
                    .collect()
            };
            for &c in &customers {
                assert!(!seen[c], "{params:?}: customer {c} served twice:\n{last}");
                seen[c] = true;
            }
            let carried: i64 = customers.iter().map(|&c| p.demand[c - 1]).sum();
            assert_eq!(load, carried, "{params:?}: {line}");
            assert!(load <= p.capacity, "{params:?}: {line}");
            total += p.route_cost(&customers);
        }
        if let Some(d) = line.strip_prefix("distance ") {
            assert_eq!(d.parse::<i64>().expect("a number"), best, "{params:?}");
        }
    }
    assert_eq!(vehicles, p.k, "{params:?}:\n{last}");
    assert!(
        seen[1..].iter().all(|&s| s),
        "{params:?}: a customer is not served:\n{last}"
    );
    assert_eq!(
        total, best,
        "{params:?}: the printed routes' length:\n{last}"
    );
}

#[test]
fn the_bundled_routing_prints_optimal_routes() {
    check_vrp(&Vrp {
        x: vec![0, 2, 5, 6, -3, -4, 1],
        y: vec![0, 4, 3, -2, 1, -4, -5],
        demand: vec![4, 3, 5, 2, 4, 3],
        k: 2,
        capacity: 12,
    });
}

#[test]
fn random_routings_print_routes_of_the_brute_force_optimum() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(26);
    for _ in 0..6 {
        let n = rng.random_range(1..=5usize);
        let k = rng.random_range(1..=3usize);
        let p = Vrp {
            x: (0..=n).map(|_| rng.random_range(-5..=5)).collect(),
            y: (0..=n).map(|_| rng.random_range(-5..=5)).collect(),
            demand: (0..n).map(|_| rng.random_range(1..=5)).collect(),
            k,
            capacity: rng.random_range(4..=12),
        };
        check_vrp(&p);
    }
}

/// The bundled timetable's rules, counted by brute force: lessons (course
/// of each) placed in 9 slots (day = (slot - 1) / 3), all different, a
/// course's lessons in increasing slots on different days, and no lesson of
/// a teacher in a slot where the teacher is away.
fn timetable_count() -> u64 {
    // maths ×3 (Ada), physics ×2 (Ada), french ×2 (Marie), art ×1 (Frida).
    let of = [0, 0, 0, 1, 1, 2, 2, 3];
    let away = |course: usize, slot: usize| match course {
        0 | 1 => slot == 1,
        2 => slot == 9,
        _ => false,
    };
    fn go(l: usize, of: &[usize], at: &mut Vec<usize>, away: &dyn Fn(usize, usize) -> bool) -> u64 {
        if l == of.len() {
            return 1;
        }
        let mut count = 0;
        for s in 1..=9 {
            let clash = at.iter().enumerate().any(|(m, &t)| {
                t == s || (of[m] == of[l] && (t >= s || (t - 1) / 3 == (s - 1) / 3))
            });
            if !clash && !away(of[l], s) {
                at.push(s);
                count += go(l + 1, of, at, away);
                at.pop();
            }
        }
        count
    }
    go(0, &of, &mut Vec::new(), &away)
}

#[test]
fn the_timetable_counts_as_the_brute_force_and_draws_its_solution() {
    let r = cspi(&["solve", "models/timetable.csp", "--count"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        format!("{} solutions (ALL_SOLUTIONS)\n", timetable_count())
    );
    // The grid names the course of each placed lesson, and "-" elsewhere.
    let json = cspi(&["solve", "models/timetable.csp", "--format", "json"]);
    let line = json.stdout.lines().next().expect("a solution");
    let values = crate::common::json::parse(line).expect("JSON");
    let at: Vec<i64> = values["values"]["at"]
        .arr()
        .iter()
        .map(|v| v.int())
        .collect();
    let names = [
        "maths", "maths", "maths", "physics", "physics", "french", "french", "art",
    ];
    let mut grid = ["-"; 9];
    for (l, &s) in at.iter().enumerate() {
        grid[(s - 1) as usize] = names[l];
    }
    let human = cspi(&["solve", "models/timetable.csp"]);
    let lines: Vec<&str> = human.stdout.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["first", "second", "third"]
    );
    for (d, day) in ["mon", "tue", "wed"].iter().enumerate() {
        let cells: Vec<&str> = lines[1 + d].split_whitespace().collect();
        assert_eq!(cells[0], *day);
        assert_eq!(cells[1..], grid[d * 3..d * 3 + 3], "{}", human.stdout);
    }
}

#[test]
fn json_text_carries_the_printed_routes_and_the_values_stay() {
    let human = cspi(&["solve", "models/vrp.csp", "-n", "1"]);
    let plain = cspi(&["solve", "models/vrp.csp", "-n", "1", "--format", "json"]);
    let with = cspi(&[
        "solve",
        "models/vrp.csp",
        "-n",
        "1",
        "--format",
        "json",
        "--json-text",
    ]);
    assert_eq!(with.code, 0, "{}", with.stderr);
    let first = |r: &crate::common::Run| r.stdout.lines().next().expect("a record").to_string();
    let record = crate::common::json::parse(&first(&with)).expect("JSON");
    let values = crate::common::json::parse(&first(&plain)).expect("JSON");
    assert!(values["values"].is_object(), "{values}");
    assert_eq!(record["values"], values["values"]);
    let text = record["text"].str();
    assert!(text.starts_with("vehicle 1: "), "{text}");
    // The human run prints the same text (then the objective and the status).
    assert!(human.stdout.contains(text), "{}\n{text}", human.stdout);
}

/// An error of the output that no solution can cure (`concat` of an
/// integer) is the model's, reported when it loads with its span and exit 1;
/// one that depends on the values stays with the solutions that meet it,
/// so a model whose solutions avoid it prints them.
#[test]
fn output_errors_no_solution_cures_are_reported_at_load() {
    let dir = crate::common::scratch("output_errors_at_load");
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write("always.csp", "var x in 1..3;\noutput concat(x);\n");
    let r = crate::common::cspi_in(&dir, &["solve", "always.csp"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("concat takes a list of strings, not an integer")
    );
    assert!(r.stderr.contains("always.csp:2:15"), "{}", r.stderr);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    let r = crate::common::cspi_in(&dir, &["check", "always.csp"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    // Wrong only when x is 0 (the least value): no solution has it.
    let sometimes = "let names = [\"a\", \"b\"];\nvar x in 0..2;\nconstraint x > 0;\n\
                     output concat(if x == 0 then 5 else [names[x]] end);\n";
    write("sometimes.csp", sometimes);
    let r = crate::common::cspi_in(&dir, &["solve", "sometimes.csp", "--all"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "--- solution ---\na\n--- solution ---\nb\n2 solutions, search complete\n"
    );
    // The same error met by a solution is printed in its place.
    write("met.csp", &sometimes.replace("x > 0", "x < 2"));
    let r = crate::common::cspi_in(&dir, &["solve", "met.csp", "--all"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("output error: concat takes a list of strings, not an integer"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("\na\n"), "{}", r.stdout);
}
