//! The compiled tier (src/hooks/script/tier) against Rhai. `Compile::CheckTree`
//! runs every hook both ways from the same state and fails on the first
//! difference in result or error (text and position), reads and writes,
//! events, the state after, or the operations counted; tests/every_game.rs
//! plays every game that way, and these tests scripts written to fail in
//! each way a hook can.

use crate::common;
use crate::every_game::play_random as play;

use tabula::{Build, Compile, Game, Settings};

pub(crate) const YAML: &str = "id: failing
name: Failing
players: [{id: a, name: A}, {id: b, name: B}]
params:
  case: {default: 0, min: 0, max: 99}
vars:
  v: {name: V, start: 0}
flow:
  turns: rotate
  turn:
    - hook: step
script: ../scripts/failing.rhai
";

/// Each case fails (or not) in its own way; the check compares the two
/// errors' texts and positions.
pub(crate) const SCRIPT: &str = r#"
fn helper(x) { if x > 2 { x / (x - x) } else { helper(x + 1) } }
fn deep(n) { deep(n + 1) }
fn step() {
    let c = param("case");
    let xs = [1, 2, 3];
    let m = #{a: 1, b: "two"};
    let s = "text";
    if c == 0 { end_game("a", "fine"); }
    if c == 1 { let y = 9223372036854775807; y + 1; }
    if c == 2 { 1 / 0; }
    if c == 3 { xs[7]; }
    if c == 4 { xs[-9]; }
    if c == 5 { no_such_function(1, 2); }
    if c == 6 { let one = 1; if one { } }
    if c == 7 { helper(0); }
    if c == 8 { deep(0); }
    if c == 9 { loop { } }
    if c == 10 { let n = 0; while true { n += 1; } }
    if c == 11 { stat("nobody", "x"); }
    if c == 12 { get_var("missing"); }
    if c == 13 { s + 1; `${m}`; m.c.d; }
    if c == 14 { let big = "x"; loop { big += big; } }
    if c == 15 { let l = []; loop { l.push(1); } }
    if c == 16 { xs.nothing(); }
    if c == 17 { -(-9223372036854775807 - 1); }
    if c == 18 { m.b + m.a; }
    if c == 19 { for x in m { } }
    if c == 20 { !5; }
    if c == 21 { let t = `${xs} ${m} ${()} ${'c'} ${true}`; log(t); set_var("v", t.len()); }
    if c == 22 { let k = 0; for (x, i) in xs { k += x * i; } set_var("v", k); end_game("b"); }
    if c == 23 { set_var("v", xs.len() + m.len() + s.len()); end_game(); }
    if c == 24 { ask("a", "pick", [1, 2], "missing_hook"); }
    if c == 25 { let i = 0; do { i += 1; } until i > 5; set_var("v", i); end_game(); }
    if c == 26 { set_var("v", xs.contains(2) + 0); }
    if c == 27 { set_var("v", 5 % 0); }
    if c == 28 { set_var("v", if xs.contains(4) { 1 } else { 2 }); end_game(); }
    if c == 29 { let n = 0; for i in 0..10 { if i == 3 { continue; } if i == 6 { break; } n += i; } set_var("v", n); end_game(); }
    if c == 30 { set_var("v", parse_int("12") + "3".len()); end_game(); }
    if c == 31 { xs[1] = 5; xs[-1] = 7; set_var("v", xs[1] + xs[2]); end_game(); }
    if c == 32 { xs[9] = 1; }
    if c == 33 { m.c = 3; m["d"] = 4; set_var("v", m.c + m.d); end_game(); }
    if c == 34 { xs[0] += 10; m.a *= 6; set_var("v", xs[0] + m.a); end_game(); }
    if c == 35 { xs[0] += "x"; }
    if c == 36 { xs[0] = 9223372036854775807; xs[0] += 1; }
    if c == 37 { m.zz += 1; }
    if c == 38 { let i = 0; while i < 3 { xs[i] = i * i; i += 1; } set_var("v", xs[2]); end_game(); }
    if c == 39 { set_var("v", switch s { "text" => 1, "other" => 2, _ => 3 }); end_game(); }
    if c == 40 { let t = 0; for x in [0, 3, 7, 12, 20, -1] { t = t * 10 + switch x { 0 => 1, 3 if xs.len() > 5 => 9, 3 => 2, 5..10 => 3, 10..=12 => 4, _ => 5 }; } set_var("v", t); end_game(); }
    if c == 41 { let t = switch 'c' { 'c' => 1, _ => 0 } + switch true { false => 10, true => 20 } + switch 1.5 { 1.5 => 300, _ => 0 } + switch xs { _ => 4000 }; set_var("v", t); end_game(); }
    if c == 42 { switch 1 { 1 if xs.len() => 1, _ => 2 }; }
    if c == 43 { let r = switch 9 { 1 => 1 }; set_var("v", if r == () { 1 } else { 2 }); end_game(); }
    if c == 44 { switch c { 44 => { let z = 1; z / 0 } } }
    if c == 45 { let n = 0; loop { n += switch n % 3 { 0 => 1, 1 if n > 0 => 2, _ => 3 }; } }
    if c == 46 { let k = s; let n = 7; ask("a", "pick", [1, 2], "picked", #{labels: |o| `${o} ${k} ${n + mark(o)}`}); }
    if c == 48 { ask("a", "pick", [1, 2], "picked", #{labels: |o| `${o} ${mark(o)}`}); }
    if c == 49 { let t = xs.filter(|x| x > 1).len() + xs.map(|x, i| x * i)[2] + xs.find(|x| x == 2) + xs.find_map(|x| if x > 1 { x * 10 } else { () }) + xs.index_of(|x| x == 3) + xs.reduce(|a, x| if a == () { x } else { a + x }) + xs.reduce(|a, x, i| a + x * i, 100); if xs.all(|x| x > 0) && !xs.some(|x| x > 3) && [].all(|x| false) && [].find(|x| true) == () { set_var("v", t); } end_game(); }
    if c == 50 { xs.filter(|x| x / (x - x)); }
    if c == 51 { xs.map(|x| helper(x)); }
    if c == 52 { xs.map(|x| { loop { } }); }
    if c == 53 { xs.filter(|x| deep(x)); }
    if c == 54 { let k = 2; let ys = [5, 6]; set_var("v", xs.filter(|x| x > k).len() + xs.map(|x, i| x + i + k)[2] + xs.map(|x| ys.filter(|y| y > x + 3).len())[1]); end_game(); }
    if c == 56 { xs.filter(|a, b, c| true); }
    if c == 57 { xs.find(|x| x / 0); }
    if c == 58 { xs.reduce(|a, x| a + x); }
    if c == 59 { let u = (); let t = 0; if u == () { t += 1; } if 1 != () { t += 10; } if "a" == () { t += 100; } if () < () { t += 1000; } if xs != () { t += 10000; } if () >= 3 { t += 100000; } set_var("v", t); end_game(); }
    if c == 60 { set_var("v", m.b.len() + [xs, xs].map(|l| l.filter(|x| x != 2).len()).reduce(|a, n| if a == () { n } else { a * 10 + n })); end_game(); }
    if c == 61 { let ys = [3, 1, 2]; ys.sort_by(|x| -x); set_var("v", ys[0] * 1000 + xs.max_by(|x| x % 3) * 100 + [7, 4].min_by(|x| x) * 10 + ys.len()); ys.shuffle(); end_game(); }
    if c == 62 { xs.sort_by(|x| x / 0); }
    if c == 63 { xs.sort_by(5); }
    if c == 64 { xs.max_by(|x| helper(x)); }
    if c == 65 { let y = 1; let t = { y = 3; 1 } + y; let u = y + { y = 5; 10 }; set_var("v", t * 100 + u * 10 + y); end_game(); }
    if c == 66 { let w = "a"; let one = 1; set_var("v", (w + one).len() * 10 + (2 + w).len() + (w + w).len() * 100); end_game(); }
    if c == 67 { let big = 9223372036854775807; let one = 1; big + one; }
    if c == 68 { let a = []; a.push(blob(6000)); a.push(blob(6000)); }
    if c == 69 { let ys = [4, 5]; let f = ys.shift(); let g = ys.shift(); let e = ys.shift(); set_var("v", f * 100 + g * 10 + ys.len() + if e == () { 1000 } else { 0 }); end_game(); }
    if c == 70 { let m2 = #{a: blob(5000), b: blob(4999)}; let w = [m2]; }
    if c == 71 { let z = [#{a: blob(5000), b: blob(4997)}]; let w = [#{a: blob(4000), b: blob(3997)}]; let n = [[1, "ab"], #{k: [2, 3]}]; n.push(w); set_var("v", z.len() + w.len() + n.len()); end_game(); }
    if c == 72 { let a = []; for i in 0..3 { a.push(blob(3000)); } a[0] = blob(3900); a.push(blob(100)); }
    if c == 73 { let a = []; for i in 0..3 { a.push(blob(3000)); } a[0] = blob(3900); let t = a.shift(); a.push(blob(3000)); a.push(grow(5)); a += [blob(10)]; a.push(blob(10)); set_var("v", a.len()); end_game(); }
    if c == 74 { let x = fill([blob(10)], 10); let y = fill([blob(4500), blob(4500)], 1500); }
    if c == 75 { throw "no such thing"; }
    if c == 76 { throw; }
    if c == 77 { set_var("v", thrower(1)); thrower(3); }
    if c == 78 { let t = 1; if t == 1 { throw 41 + t; } }
    if c == 79 { let n = 1; let m = bumped(n); set_var("v", n * 10 + m); end_game(); }
    if c == 80 { let h = #{l: [3, 9, 4]}; set_var("v", h.l.max_by(|x| x) * 10 + h.l.min_by(|x| x) + h.l.len() * 100); end_game(); }
    if c == 81 { let i = 0; do { i += 1; if i < 5 { continue; } } while false; let j = 0; do { j += 1; if j < 3 { continue; } } until true; set_var("v", i * 10 + j); end_game(); }
    add_var("v", 1);
}
fn picked(choice) { end_game(); }
fn mark(o) { if o > 1 { o * 2 } else { o + 10 } }
fn fill(a, n) { a.push(blob(n)); a }
fn grow(n) { let b = []; for i in 0..n { b.push(i); } b }
fn thrower(n) { if n > 2 { throw #{why: `too big: ${n}`}; } n }
fn bumped(x) { x += 1; x }
"#;

#[test]
fn a_failing_hook_fails_alike_compiled_and_in_rhai() {
    let (_tmp, path) = common::game_folder("failing", YAML, SCRIPT);
    // Every case runs compiled (a change to a captured variable, say,
    // would leave `step` to Rhai, and the check would compare Rhai with
    // itself: `fallbacks_are_listed_with_their_reasons` covers those).
    let (_t, game) = common::load_folder("failing", YAML, SCRIPT);
    assert_eq!(game.fallbacks().unwrap(), []);
    let cases: Vec<i64> = (0..=81).collect();
    let failed = fails_alike(&path, &cases, Compile::CheckTree);
    // The cases that throw do throw (the check compares their errors).
    assert!(failed >= 36, "only {failed} cases failed");
}

/// Each of `cases` of the failing game at `path` played checked (`check`
/// compares every hook run with Rhai) and in Rhai alone: no difference,
/// the same end. How many failed.
pub(crate) fn fails_alike(path: &std::path::Path, cases: &[i64], check: Compile) -> usize {
    let dir = path.parent().unwrap().to_path_buf();
    let mut failed = 0;
    for &case in cases {
        let settings = Settings {
            variants: vec![],
            sets: vec![("case".into(), tabula::format::ParamValue::Int(case))],
        };
        let load = |compile| {
            Game::load_path(
                path,
                &dir,
                &settings,
                Build {
                    memo: false,
                    compile,
                },
            )
            .unwrap()
        };
        let (checked_game, off) = (load(check), load(Compile::Off));
        let checked = play(&checked_game, 1, false);
        if let Err(e) = &checked {
            assert!(!e.contains("differs from Rhai"), "case {case}: {e}");
            failed += 1;
        }
        assert_eq!(checked, play(&off, 1, false), "case {case}");
    }
    failed
}

/// `check --compile` names what runs in Rhai and why.
#[test]
fn fallbacks_are_listed_with_their_reasons() {
    let script = r#"
fn step() { try { end_game() } catch { } }
fn other() { step() }
fn keep() { let k = 1; ask("a", "p", [1], "picked", #{labels: |x| x + k}); }
fn bump() { let k = 1; let f = |x| x + k; k += 1; ask("a", "p", [1], "picked", #{labels: f}); }
fn changes(y, x) { x += y; x }
fn hands() { let k = 1; let f = |x| x + k; changes(1, k); }
fn inner() { let k = 1; let f = |x| { k += 1; x }; }
fn nested(k) { let f = |x| { let g = |y| { k += y; y }; x }; k }
fn race() { let xs = [1, 2]; xs.filter(|x| xs.len() > x) }
fn bumped(x) { x += 1; x }
fn named(x) { `${x}-disc` }
fn calm() { let k = 1; let f = |x| named(k) + x; }
fn inside() { let k = 1; let f = |x| bumped(k) + x; }
fn first_set(c) { changes(c, { c = 5; 1 }) }
fn first_popped(xs) { changes(xs, xs.pop()) }
fn first_read(p) { changes(p, if p == 1 { named(p) } else { 2 }) }
fn first_chained(xs) { changes(xs, xs.pop().len()) }
fn first_len(xs) { changes(xs, xs.len() + xs[0]) }
fn picked(c) { }
"#;
    let yaml = YAML.replace("failing", "fallback");
    let (_tmp, game) = common::load_folder("fallback", &yaml, script);
    let list = game.fallbacks().unwrap();
    let text: Vec<String> = list
        .iter()
        .map(|f| format!("{}/{}: {}", f.name, f.arity, f.why))
        .collect();
    assert_eq!(
        text,
        [
            "bump/0: changes a variable that a closure captures",
            "first_chained/1: `xs`, the first argument of `changes`, may change in a later one (Rhai reads it after them)",
            "first_popped/1: `xs`, the first argument of `changes`, may change in a later one (Rhai reads it after them)",
            "first_set/1: `c`, the first argument of `changes`, may change in a later one (Rhai reads it after them)",
            "hands/0: hands a variable a closure captures to a function that may change it",
            "inner/0: makes a closure that may change a variable it captures",
            "inside/0: makes a closure that may change a variable it captures",
            "nested/1: makes a closure that may change a variable it captures",
            "other/0: calls `step`, which runs in Rhai",
            "race/0: calls a method on a variable its closure captures",
            "step/0: uses `try`"
        ],
    );
}

/// Rhai reads a first argument that is a variable after the arguments
/// after it: where one of them may change it (a `{ c = 5; 1 }`, a
/// `xs.pop()`, a `xs.pop().len()`), the function runs in Rhai (listed
/// above), and plays as Rhai plays it with each tier; one that only
/// reads it (`xs.len()`) compiles. Each in a game of its own (a hook
/// that calls a function run in Rhai runs in Rhai itself).
#[test]
fn a_first_argument_changed_by_a_later_one_is_read_after_them() {
    let cases = [
        ("let c = x; two(c, { c = 5; 1 })", "51", 1),
        ("let xs = [x, 2]; two(xs, xs.pop())", "[1]2", 1),
        (
            "let xs = [[x], [2, 3]]; two(xs, xs.pop().len())",
            "[[1]]2",
            1,
        ),
        ("let xs = [x]; two(xs, xs.len())", "[1]1", 0),
    ];
    for (body, made, in_rhai) in cases {
        let script = format!(
            "fn two(a, b) {{ `${{a}}${{b}}` }}\nfn f(x) {{ {body} }}\nfn step() {{ end_game(\"a\", f(1)); }}\n"
        );
        let (_tmp, path) = common::game_folder("failing", YAML, &script);
        for check in [Compile::Check, Compile::CheckTree, Compile::CheckJit] {
            assert_eq!(fails_alike(&path, &[0], check), 0, "{body}");
        }
        let (_t, game) = common::load_folder("failing", YAML, &script);
        let listed = game.fallbacks().unwrap();
        assert_eq!(
            listed.iter().filter(|f| f.name == "f").count(),
            in_rhai,
            "{body}"
        );
        let (view, _) = play(&game, 1, false).unwrap();
        assert!(view.contains(made), "{body}: {view}");
    }
}
