//! Template functions (`fn disc(p) { `${p}-disc` }`): the VM makes the
//! call's text without a frame (templates.rs `template_fn`), and native
//! code compares one with a symbol in a register by the `template`
//! helper (mixed.rs `template_cmp`). Each case runs against Rhai with
//! the VM alone (`Compile::Check`) and with native code
//! (`Compile::CheckJit`, also against the VM alone with the same
//! operations counted).

use crate::common;
use crate::tier::fails_alike;

const TEMPLATES_SCRIPT: &str = r#"
fn disc(p) { `${p}-disc` }
fn tagged(p) { return `<${p}>`; }
fn endless(p) { `${endless(p)}-x` }
fn digits(n) { `${if n > 9 { digits(n / 10) } else { "" }}${n % 10}` }
fn owns(p, c) { piece(c) == disc(p) }
fn other(p, c) { disc(p) != piece(c) }
fn numbered(n, c) { disc(n + 1) == piece(c) }
fn deep(n, c) { if n == 0 { piece(c) == disc("a") } else { deep(n - 1, c) } }
fn counted(p) { let n = 0; for c in ["a1", "b1", "a2", "b2"] { if piece(c) == disc(p) { n += 1; } } n }
fn step() {
    let c = param("case");
    if c == 0 {
        let u = ();
        end_game("a", `${disc("a")} ${disc(7)} ${disc(u)} ${disc("zz")} ${disc([1, "b"])} ${tagged("a")} ${digits(407)} ${disc("b") == "b-disc"} ${disc(7) == "7-disc"}`);
        return;
    }
    if c == 1 {
        let p = active();
        let n = 3;
        let k = [numbered(2, "a1"), numbered(2, "b2")];
        end_game("a", `${k} ${owns(p, "a1")} ${owns("b", "a1")} ${owns("a", "b2")} ${other(p, "a1")} ${other("b", "b1")} ${piece("a1") == disc(n)} ${disc(n) != piece("b2")} ${counted("a")} ${counted("b")}`);
        return;
    }
    if c >= 2 && c <= 5 { let x = deep(c + 43, "a1"); end_game("a", `${x}`); return; }
    if c == 6 { let t = "x"; for i in 0..15 { t += t; } let x = disc(t + t); }
    end_game("b");
}
"#;

const TEMPLATES_YAML: &str = "id: templates
name: Templates
players: [{id: a, name: A}, {id: b, name: B}]
params:
  case: {default: 0, min: 0, max: 99}
cards:
  a-disc: {name: A disc, copies: 2}
  b-disc: {name: B disc}
zones:
  box: {per: game}
  board: {grid: {rows: 2, columns: 2}}
setup:
  - put: {zone: box, cards: all}
  - put: {zone: board, cell: a1, cards: [a-disc]}
  - put: {zone: board, cell: b1, cards: [b-disc]}
  - put: {zone: board, cell: a2, cards: [a-disc]}
flow:
  turns: rotate
  turn:
    - hook: step
script: ../scripts/templates.rhai
";

/// Every case runs as in Rhai: a template function's text of a symbol
/// (a card's id), a number, `()`, a text, a list, compared with texts,
/// and a recursive function of templates (0; `endless`, never called, is
/// loaded: its template, which calls itself, is not lowered as one);
/// compared with a cell's piece, the argument a symbol or a number, the
/// call on either side (1); at the call levels' limit, where the call of
/// the template function is the one past it (2-5); its text past Rhai's
/// limit, the error the function's (6). (Case 4's is the template
/// function's call, case 5's the call of `deep` before it.)
#[test]
fn template_functions_run_as_in_rhai() {
    let (_tmp, path) = common::game_folder("templates", TEMPLATES_YAML, TEMPLATES_SCRIPT);
    let cases: Vec<i64> = (0..=6).collect();
    // The deepest two calls and the long text fail.
    for check in [tabula::Compile::Check, tabula::Compile::CheckJit] {
        assert_eq!(fails_alike(&path, &cases, check), 3, "{check:?}");
    }
}

/// Case 1's comparisons of a template function's call with a cell's
/// piece are made natively, each call by the `template` helper: `owns`
/// called three times, `other` twice, `counted`'s four a call (two
/// calls), `numbered`'s on a number twice (once with an empty cell,
/// `()`, which no text equals); none is left to the VM's comparison. (The two on a number in
/// `step` are in a template, which the VM makes whole.)
#[test]
fn template_calls_compared_with_a_symbol_stay_in_native_code() {
    let (_tmp, path) = common::game_folder("templates", TEMPLATES_YAML, TEMPLATES_SCRIPT);
    let made =
        crate::jit_values::counted(&path, 1, |play| tabula::hooks::script::template_calls(play));
    assert_eq!(made, 3 + 2 + 4 * 2 + 2);
    let compared =
        crate::jit_values::counted(&path, 1, |play| tabula::hooks::script::vm_compares(play));
    assert_eq!(compared, 0);
}
