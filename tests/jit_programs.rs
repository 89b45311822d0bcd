//! Native code against Rhai on programs nobody wrote: proptest makes
//! random functions of numbers and truth values (arithmetic at the edges
//! of 64 bits, comparisons, `&&` and `||`, a function giving a truth
//! value, `if`, `for` over constant and computed ranges with a counter
//! and with an empty body, `while`, `loop` and `do` loops (`while` and
//! `until`) with `break` and `continue`, early returns, calls of a second
//! function and of itself, recursion past the call levels' limit,
//! comparisons of numbers with a local the VM holds, a number or a text,
//! and `op=` on it, calls of a function with a frame whose value is a
//! list or a number, and `op=` of their values),
//! and each is played with native code checked against Rhai and the VM
//! (`Compile::CheckJit`): the same value, or the same error at the same
//! place, and the same count. A bounded fuzz run, in every `cargo test`.

use proptest::prelude::*;

use crate::common;
use crate::tier::fails_alike;

use tabula::{Build, Compile, Game, Settings};

const YAML: &str = "id: random
name: Random
players: [{id: a, name: A}, {id: b, name: B}]
params:
  case: {default: 0, min: 0, max: 99}
flow:
  turns: rotate
  turn:
    - hook: step
script: ../scripts/random.rhai
";

/// Numbers the programs start from: the edges of 64 bits among them.
fn number() -> BoxedStrategy<String> {
    prop_oneof![
        (-9i64..10).prop_map(|n| n.to_string()),
        Just("9223372036854775807".to_string()),
        Just("(-9223372036854775807 - 1)".to_string()),
        Just("4611686018427387904".to_string()),
        Just("3037000500".to_string()),
    ]
    .boxed()
}

/// A number made of the locals, the parameters and calls.
fn expr() -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        number(),
        prop_oneof![Just("a"), Just("b"), Just("t")].prop_map(String::from),
    ];
    leaf.prop_recursive(3, 10, 2, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop_oneof![Just("+"), Just("-"), Just("*"), Just("/"), Just("%")],
                inner.clone()
            )
                .prop_map(|(x, op, y)| format!("({x} {op} {y})")),
            inner.clone().prop_map(|x| format!("-({x})")),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("g({x}, {y})")),
            // A function with a frame (a list), called through the VM's
            // call, its value one the VM holds.
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("l({x}, {y})")),
            (cond_of(inner.clone()), inner.clone(), inner)
                .prop_map(|(c, x, y)| format!("if {c} {{ {x} }} else {{ {y} }}")),
        ]
    })
    .boxed()
}

/// A comparison's operator.
fn cmp_op() -> BoxedStrategy<&'static str> {
    prop_oneof![
        Just("<"),
        Just("<="),
        Just(">"),
        Just(">="),
        Just("=="),
        Just("!=")
    ]
    .boxed()
}

/// A truth value of numbers made by `e`.
fn cond_of(e: BoxedStrategy<String>) -> BoxedStrategy<String> {
    let cmp = (e.clone(), cmp_op(), e.clone()).prop_map(|(x, op, y)| format!("{x} {op} {y}"));
    // A truth value a function gives, beside the comparisons.
    let call = (e.clone(), e).prop_map(|(x, y)| format!("p({x}, {y})"));
    let cmp = prop_oneof![3 => cmp, 1 => call];
    cmp.prop_recursive(1, 3, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("({x} && {y})")),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("({x} || {y})")),
            inner.prop_map(|x| format!("!({x})")),
        ]
    })
    .boxed()
}

/// A comparison of a number with `m`, which the VM holds (a number or a
/// text: mixed.rs), on either side.
fn held() -> BoxedStrategy<String> {
    let op = cmp_op();
    // Numbers near `m` (set from `a`) often, so that an answer off by
    // one shows.
    let near = prop_oneof![
        Just("a".to_string()),
        Just("b".to_string()),
        Just("(a + 1)".to_string()),
        Just("(a - 1)".to_string()),
        expr(),
    ];
    (near, op, any::<bool>())
        .prop_map(|(e, op, left)| {
            if left {
                format!("m {op} {e}")
            } else {
                format!("{e} {op} m")
            }
        })
        .boxed()
}

/// Statements on the locals `a`, `b`, `t` and `m`; `in_loop`: `break` and
/// `continue` may be among them.
fn stmts(depth: u32, in_loop: bool) -> BoxedStrategy<String> {
    let var = prop_oneof![Just("a"), Just("b"), Just("t")];
    let simple = prop_oneof![
        (var.clone(), expr()).prop_map(|(v, e)| format!("{v} = {e};")),
        (
            var,
            prop_oneof![Just("+="), Just("-="), Just("*="), Just("/="), Just("%=")],
            expr()
        )
            .prop_map(|(v, op, e)| format!("{v} {op} {e};")),
        expr().prop_map(|e| format!("return {e};")),
        (cond_of(expr()), expr()).prop_map(|(c, e)| format!("if {c} {{ return {e}; }}")),
        held().prop_map(|c| format!("if {c} {{ t += 1; }}")),
        expr().prop_map(|e| format!("m = {e};")),
        (prop_oneof![Just("+="), Just("-="), Just("*=")], expr())
            .prop_map(|(op, e)| format!("m {op} {e};")),
        // `op=` of a call's value the VM holds (a number or a list).
        (prop_oneof![Just("+="), Just("-=")], expr(), expr())
            .prop_map(|(op, x, y)| format!("m {op} l({x}, {y});")),
    ];
    let stmt: BoxedStrategy<String> = if in_loop {
        prop_oneof![
            4 => simple,
            1 => cond_of(expr()).prop_map(|c| format!("if {c} {{ break; }}")),
            1 => cond_of(expr()).prop_map(|c| format!("if {c} {{ continue; }}")),
        ]
        .boxed()
    } else {
        simple.boxed()
    };
    if depth == 0 {
        return prop::collection::vec(stmt, 1..4)
            .prop_map(|v| v.join(" "))
            .boxed();
    }
    let block = move |l| stmts(depth - 1, l);
    let compound = prop_oneof![
        (cond_of(expr()), block(in_loop), block(in_loop))
            .prop_map(|(c, x, y)| format!("if {c} {{ {x} }} else {{ {y} }}")),
        (-2i64..6, -2i64..6, any::<bool>(), block(true)).prop_map(|(x, y, incl, body)| {
            let to = if incl { "..=" } else { ".." };
            format!("for i in {x}{to}{y} {{ t += i; {body} }}")
        }),
        (0i64..6, block(true))
            .prop_map(|(n, body)| format!("let w = {n}; while w > 0 {{ w -= 1; {body} }}")),
        (0i64..4, any::<bool>(), block(true)).prop_map(|(n, until, body)| {
            if until {
                format!("let d = {n}; do {{ d -= 1; {body} }} until d <= 0;")
            } else {
                format!("let d = {n}; do {{ d -= 1; {body} }} while d > 0;")
            }
        }),
        // Ends computed (no range Rhai folds), the counter, an empty body.
        (expr(), 0i64..5, block(true)).prop_map(|(x, n, body)| {
            format!(
                "let s = {x} % 3; for (i, k) in s..s + {n} {{ t += i * k; {body} }} for i in s..{n} {{ }}"
            )
        }),
        (0i64..5, block(true)).prop_map(|(n, body)| {
            format!("let w = {n}; loop {{ w -= 1; if w < 0 {{ break; }} {body} }}")
        }),
        // A constant list (read from a table), with its counter.
        (prop::collection::vec(-3i64..9, 0..4), block(true)).prop_map(|(xs, body)| {
            let xs: Vec<String> = xs.iter().map(i64::to_string).collect();
            format!("for (i, k) in [{}] {{ t += i * k; {body} }}", xs.join(", "))
        }),
    ];
    prop::collection::vec(prop_oneof![3 => stmt, 2 => compound], 1..4)
        .prop_map(|v| v.join(" "))
        .boxed()
}

/// A script: `g` (plain arithmetic), `f` (the statements, then a value,
/// and a call of itself while `n` is above 0), the hook calling `f`.
fn script() -> impl Strategy<Value = String> {
    (expr(), stmts(2, false), expr(), 0i64..60, number(), number()).prop_map(
        |(g, body, value, depth, x, y)| {
            let g = g.replace("g(", "h(").replace("l(", "h(").replace('t', "a");
            format!(
                "fn h(a, b) {{ a - b }}\n\
                 fn l(a, b) {{ let x = [a, b]; if a > b {{ x }} else {{ x.len() + a }} }}\n\
                 fn g(a, b) {{ {g} }}\n\
                 fn p(a, b) {{ let q = a < b; q || a == 0 }}\n\
                 fn f(a, b, n) {{ let t = 0; let m = if a > b {{ a }} else {{ \"t\" }}; {body} if n > 0 {{ t += f(b, a, n - 1); }} {value} }}\n\
                 fn step() {{ let v = f({x}, {y}, {depth}); end_game(\"a\", `${{v}}`); }}\n"
            )
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// Each random program runs alike with native code and in Rhai.
    #[test]
    fn random_programs_run_natively_as_in_rhai(script in script()) {
        let (_tmp, path) = common::game_folder("random", YAML, &script);
        let dir = path.parent().unwrap().to_path_buf();
        let game = Game::load_path(&path, &dir, &Settings::default(), Build::default());
        // Rhai's parser takes expressions up to a depth: deeper ones are
        // not programs.
        if let Err(e) = &game {
            prop_assume!(!e.to_string().contains("exceeds maximum complexity"));
        }
        let game = game.unwrap();
        // Every function has native code, but `f` and the hook where
        // all of them is the VM's (a value passed on that no use typed,
        // the hook's text and `end_game`).
        let native = game.native_fallbacks().unwrap().unwrap();
        let whole = "nothing in it runs in registers (the VM runs it whole)";
        prop_assert!(
            native.iter().all(|f| ["f", "step"].contains(&f.name.as_str()) && f.why == whole),
            "{:?}\n{}",
            native,
            script
        );
        fails_alike(&path, &[0], Compile::CheckJit);
    }
}
