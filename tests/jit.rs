//! Native code (src/hooks/script/tier/vm/jit, issue 55's first stage)
//! against Rhai. `Compile::CheckJit` runs every hook with native code
//! where a function has it and in Rhai from the same state, and fails on
//! the first difference in result or error (text and position), reads
//! and writes, events or the state after; and again in the VM alone,
//! failing where the result or the operations counted differ.
//! tests/every_game.rs plays every game that way. These tests run functions of numbers, truth
//! values and symbols at each edge the native code checks.

use crate::common;
use crate::every_game::play_random as play;
use crate::tier::{SCRIPT, YAML, fails_alike};

use tabula::{Build, Compile, Game, Settings};

/// Each case calls functions that have native code; the hook, which
/// reads a parameter and ends the game, runs in the VM.
const NUMBERS_SCRIPT: &str = r#"
fn add(a, b) { a + b }
fn sub(a, b) { a - b }
fn mul(a, b) { a * b }
fn div(a, b) { a / b }
fn rem(a, b) { a % b }
fn neg(a) { -a }
fn fib(n) { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }
fn deep(n) { deep(n + 1) }
fn down(n) { if n == 0 { 0 } else { 1 + down(n - 1) } }
fn spin(n) { let i = 0; while true { i += n; } i }
fn sum_to(n) { let t = 0; for i in 0..n { t += i; } t }
fn sum_incl(a, b) { let t = 0; for i in a..=b { t += 1; } t }
fn counted(n) { let t = 0; for (x, k) in 1..n { t += x * k; } t }
fn skip(n) { let t = 0; let i = 0; while i < n { i += 1; if i % 3 == 0 { continue; } if i > 20 { break; } t += i; } t }
fn dos(n) { let i = 0; do { i += 1; } while i < n; let j = 0; do { j += 2; } until j >= n; i * 100 + j }
fn flag(a, b) { a && !b || a == b }
fn pick(c, x, y) { if c { x } else { y } }
fn early(n) { if n > 5 { return n * 2; } n }
fn nothing(n) { let k = n; }
fn loops(n) { let t = 0; for i in 0..n { for j in 0..n { if j > i { break; } t += j; } } t }
fn nested(n) { div(n, n - n) }
fn empty(n) { for i in 0..n { } let k = 0; while k > 100 { } 7 }
fn idle(n) { for i in 0..n { } 0 }
fn hang(n) { do { } while n == n; 0 }
fn docont(n) { let i = 0; do { i += 1; if i < n { continue; } } while false; let j = 0; do { j += 1; if j < n { continue; } } until true; i * 10 + j }
fn side(p) { if p == "a" { -1 } else { 1 } }
fn other(p) { if p != "a" { "a" } else { "b" } }
fn step() {
    let c = param("case");
    let big = 9223372036854775807;
    let small = -9223372036854775807 - 1;
    if c == 0 { end_game("a", `${add(2, 3)} ${sub(2, 3)} ${mul(-4, 3)} ${div(-7, 2)} ${rem(-7, 2)} ${neg(5)}`); return; }
    if c == 1 { add(big, 1); }
    if c == 2 { sub(small, 1); }
    if c == 3 { mul(big, 2); }
    if c == 4 { div(5, 0); }
    if c == 5 { rem(5, 0); }
    if c == 6 { div(small, -1); }
    if c == 7 { rem(small, -1); }
    if c == 8 { neg(small); }
    if c == 9 { end_game("a", `${fib(15)}`); return; }
    if c == 10 { deep(0); }
    if c == 11 { end_game("a", `${down(40)}`); return; }
    if c == 12 { down(60); }
    if c == 13 { spin(1); }
    if c == 14 { spin(big); }
    if c == 15 { end_game("a", `${sum_to(1000)} ${sum_to(0)} ${sum_to(-5)} ${sum_incl(3, 3)} ${sum_incl(4, 3)} ${sum_incl(big - 2, big)} ${counted(6)}`); return; }
    if c == 16 { end_game("a", `${skip(100)} ${dos(7)} ${dos(0)}`); return; }
    if c == 17 { end_game("a", `${flag(true, false)} ${flag(false, false)} ${flag(false, true)} ${pick(true, 1, 2)} ${pick(false, 1, 2)}`); return; }
    if c == 18 { end_game("a", `${early(9)} ${early(2)} ${nothing(3)} ${loops(10)}`); return; }
    if c == 19 { nested(4); }
    if c == 20 { end_game("a", `${add("a", "b")} ${neg(-3)}`); return; }
    if c == 21 { end_game("a", `${empty(3)}`); return; }
    if c == 22 { pick(1, 2, 3); }
    if c == 23 { idle(3000000); }
    if c == 24 { for k in 40..60 { set_var("v", k); down(k); } }
    if c == 26 { hang(1); }
    if c == 27 { end_game("a", `${docont(4)}`); return; }
    if c == 25 { end_game(other("b"), `${side("a")} ${side("b")} ${side(`${c}x`)} ${other(other("b"))} ${side(1)}`); return; }
    end_game("b");
}
"#;

const NUMBERS_YAML: &str = "id: numbers
name: Numbers
players: [{id: a, name: A}, {id: b, name: B}]
params:
  case: {default: 0, min: 0, max: 99}
vars:
  v: {name: V, start: 0}
flow:
  turns: rotate
  turn:
    - hook: step
script: ../scripts/numbers.rhai
";

/// The functions of `game` with no native code, each as `name/arity:
/// why` (or `name/arity` where not `why`).
pub(crate) fn no_native(game: &tabula::Game, why: bool) -> Vec<String> {
    (game.native_fallbacks().unwrap().unwrap().iter())
        .map(|f| match why {
            true => format!("{}/{}: {}", f.name, f.arity, f.why),
            false => format!("{}/{}", f.name, f.arity),
        })
        .collect()
}

/// Every case runs as in Rhai: the same values, and the same errors at
/// the same places (overflow, division by zero, the call levels' limit,
/// the operations' limit, an error in a call wrapped as Rhai wraps it).
#[test]
fn numbers_run_natively_as_in_rhai() {
    let (_tmp, path) = common::game_folder("numbers", NUMBERS_YAML, NUMBERS_SCRIPT);
    let (_t, game) = common::load_folder("numbers", NUMBERS_YAML, NUMBERS_SCRIPT);
    // Every function has native code (the hook's API calls run by the
    // VM in its frame).
    assert_eq!(no_native(&game, true), Vec::<String>::new());
    let cases: Vec<i64> = (0..=27).collect();
    let failed = fails_alike(&path, &cases, Compile::CheckJit);
    // Overflow (1-3, 6-8, 14), division by zero (4, 5, 19), the call
    // levels' limit (10, 12; 24 at the deepest call that passes it, after
    // the shallower ones), the operations' limit (13, 23 and 26: an empty
    // loop's rounds counted) and a truth value wanted (22: the call's
    // arguments are not the native code's types, so the VM runs it and
    // fails as Rhai does).
    assert_eq!(failed, 17, "the failing cases fail");
}

/// The calls of the cases above do go to native code: where the
/// arguments are of its types, and not otherwise.
#[test]
fn calls_of_numbers_go_to_native_code() {
    let (_tmp, path) = common::game_folder("numbers", NUMBERS_YAML, NUMBERS_SCRIPT);
    let dir = path.parent().unwrap().to_path_buf();
    let calls = |case: i64, compile: Compile| {
        let settings = Settings {
            variants: vec![],
            sets: vec![("case".into(), tabula::format::ParamValue::Int(case))],
        };
        let build = Build {
            memo: false,
            compile,
        };
        let game = Game::load_path(&path, &dir, &settings, build).unwrap();
        tabula::hooks::script::native_calls(|| play(&game, 1, false)).1
    };
    // The hook is entered natively; `fib(15)`, called in the text the
    // VM makes (an API call's argument), is one more call from the VM;
    // fib's own calls stay native.
    assert_eq!(calls(9, Compile::Jit), 2);
    assert_eq!(calls(9, Compile::On), 0);
    // The hook, and six calls with numbers (case 0); `add("a", "b")`
    // runs in the VM and `neg(-3)` natively (case 20).
    assert_eq!(calls(0, Compile::Jit), 7);
    assert_eq!(calls(20, Compile::Jit), 2);
    // Symbols: of the seven calls, `side` of a text that is no symbol
    // and of a number run in the VM (case 25).
    assert_eq!(calls(25, Compile::Jit), 6);
}

/// The tier's failing script (tests/tier.rs), whose `helper` and `deep`
/// have native code, fails alike with it.
#[test]
fn the_tiers_failing_cases_fail_alike_with_native_code() {
    let (_tmp, path) = common::game_folder("failing", YAML, SCRIPT);
    let (_t, game) = common::load_folder("failing", YAML, SCRIPT);
    let native: Vec<String> = (game.native_fallbacks().unwrap().unwrap().iter())
        .map(|f| f.name.clone())
        .collect();
    assert!(!native.contains(&"helper".to_string()), "{native:?}");
    assert!(!native.contains(&"deep".to_string()), "{native:?}");
    let cases: Vec<i64> = (0..=81)
        .filter(|case| SCRIPT.contains(&format!("c == {case} ")))
        .collect();
    assert!(fails_alike(&path, &cases, Compile::CheckJit) >= 30);
}

/// `check --compile --jit` lists the functions with no native code and
/// why, and plays every playout with native code against Rhai.
#[test]
fn check_jit_lists_what_has_no_native_code() {
    let (_tmp, path) = common::game_folder("numbers", NUMBERS_YAML, NUMBERS_SCRIPT);
    common::Test::new()
        .args(["check", "--compile", "--jit", "--playouts", "2"])
        .arg(&path)
        .stdout_has("jit numbers: every VM function has native code")
        .stdout_has("ok numbers")
        .run();
}

/// A shipped game with a function of this kind runs it natively: what
/// makes `every_game_plays_alike_with_native_code_and_in_rhai` compare
/// native code, not the VM with itself.
#[test]
fn experior_beats_runs_natively() {
    let path = common::games_dir().join("experior.yaml");
    let dir = common::games_dir();
    let game = |compile| {
        let build = Build {
            memo: false,
            compile,
        };
        Game::load_path(&path, &dir, &Settings::default(), build).unwrap()
    };
    let listed: Vec<String> = (game(Compile::Jit)
        .native_fallbacks()
        .unwrap()
        .unwrap()
        .iter())
    .map(|f| format!("{}/{}", f.name, f.arity))
    .collect();
    assert!(!listed.contains(&"beats/2".to_string()), "{listed:?}");
    let (played, calls) = tabula::hooks::script::native_calls(|| {
        (0..3)
            .map(|seed| play(&game(Compile::CheckJit), seed, false))
            .collect::<Vec<_>>()
    });
    assert!(calls > 0, "no call went to native code");
    let off: Vec<_> = (0..3)
        .map(|seed| play(&game(Compile::Off), seed, false))
        .collect();
    assert_eq!(played, off);
}
