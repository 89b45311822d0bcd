//! Calls native code makes through the VM's call (issue 55): of a
//! function with a frame, of one with no native code, of one on
//! arguments not of its types. Each case runs under `Compile::CheckJit`
//! (against Rhai, and against the VM alone with the same operations
//! counted) and with Rhai alone.

use crate::common;
use crate::tier::fails_alike;

const CALLS_SCRIPT: &str = r#"
fn listed(n) { let l = []; for i in 0..n { l.push(i); } l }
fn sum_of(xs) { let t = 0; for x in xs { t += x; } t }
fn label(n) { let k = n + 1; let s = `<${k}>`; s }
fn joined(n) { let all = []; for d in [[1, 2], [3]] { all += listed(n + d[0]); } all }
fn moved(n) { let l = listed(n); sum_of(l) * 10 }
fn size(xs) { xs.len() }
fn texts(n) { let s = label(n); s += label(n + 1); s += size([n, n]); s }
fn deep(n) { let l = [n]; if n > 0 { deep(n - 1) } else { l } }
fn far(xs, i) { let k = i + 1; xs[k] }
fn spin(xs) { let k = 0; for x in xs { while true { k += 1; } } k }
fn twice(n) { n * 2 }
fn retyped(x) { let v = if x > 0 { x } else { "t" }; twice(v) }
fn maybe(n) { let l = [n]; if n > 1 { 3 } }
fn units(n) { let a = maybe(n); let b = maybe(n + 5); [a == (), b == 3] }
fn size2(k) { let l = [k, k]; l.len() }
fn inc(n) { n + 1 }
fn inc_framed(n) { let l = [n]; n + 1 }
fn same_as(p) { let l = [p]; let me = active(); me == p }
fn step() {
    let c = param("case");
    if c == 0 {
        let a = listed(3);
        let b = sum_of(listed(4));
        let d = label(5);
        let e = joined(1);
        let f = moved(3);
        let g = texts(7);
        let h = sum_of(a);
        end_game("a", `${a} ${b} ${d} ${e} ${f} ${g} ${h}`);
        return;
    }
    if c == 1 { deep(1000); }
    if c == 2 { let x = far([1, 2], 4); }
    if c == 3 { let n = spin([1]) + 1; }
    if c == 5 { let r = retyped(4) + 1; end_game("a", `${r}`); return; }
    if c == 6 { let r = retyped(0); }
    if c == 7 { let u = units(1); end_game("a", `${u}`); return; }
    if c == 8 { let n = 1; set_var("v", size2({ n = 5; 1 })); end_game("a", `${n}`); return; }
    if c == 10 { let s = same_as("a"); end_game("a", `${s}`); return; }
    if c == 9 { let s = 0; s = inc(s); s = inc(s); s = inc_framed(s); end_game("a", `${s}`); return; }
    end_game("b");
}
"#;

const CALLS_YAML: &str = "id: calls
name: Calls
players: [{id: a, name: A}, {id: b, name: B}]
vars:
  v: {name: V, start: 0}
params:
  case: {default: 0, min: 0, max: 99}
flow:
  turns: rotate
  turn:
    - hook: step
script: ../scripts/calls.rhai
";

/// Every case runs as in Rhai: a function's list, number and text
/// values; a call's value as an argument, a local moved into a call, a
/// list `+=` a call's value, a text `+=` the value of a function with no
/// native code (0); call levels past the limit (1); an error in a call,
/// wrapped (2); the operations' limit in a call (3); a function of
/// numbers called on a value the VM holds, a number (5) or a text (6,
/// Rhai's error); a function that gives a number or `()` (7); a call the
/// API helper makes whole, whose argument writes a local (8: the local is
/// then the VM's).
#[test]
fn calls_through_the_vm_run_as_in_rhai() {
    let (_tmp, path) = common::game_folder("calls", CALLS_YAML, CALLS_SCRIPT);
    let (_t, game) = common::load_folder("calls", CALLS_YAML, CALLS_SCRIPT);
    assert_eq!(crate::jit::no_native(&game, false), ["size/1", "size2/1"]);
    let cases: Vec<i64> = [0, 1, 2, 3, 5, 6, 7, 8, 9, 10].into();
    // 1, 2, 3 and 6 fail.
    assert_eq!(fails_alike(&path, &cases, tabula::Compile::CheckJit), 4);
}

/// Case 0's calls of functions with frames run their native code from
/// native code, without the VM: `listed` (5 times), `label` (3),
/// `joined`, `moved` and `texts` (once each), `sum_of` twice (not in
/// `sum_of(l) * 10`, a product the VM makes, as `sum_of`'s value is one
/// it holds); never `size`, which has no native code.
#[test]
fn calls_of_functions_with_frames_stay_in_native_code() {
    let (_tmp, path) = common::game_folder("calls", CALLS_YAML, CALLS_SCRIPT);
    let n = crate::jit_values::counted(&path, 0, |play| {
        tabula::hooks::script::framed_native_calls(play)
    });
    assert_eq!(n, 13);
}

/// Case 0's calls through the VM's call whose arguments are each where
/// the callee's native code takes them go the short way (calls.rs
/// `exact`): 11 of the 13. Not the two of `listed`, whose parameter is
/// a number, on a value the VM holds (`n + d[0]` in `joined`). `moved`'s
/// parameter, which no other use there types, is typed a number by its
/// call `listed(n)`. The test builds with debug assertions, where the
/// short way counts.
#[test]
fn calls_on_arguments_of_the_callees_types_take_the_short_way() {
    let (_tmp, path) = common::game_folder("calls", CALLS_YAML, CALLS_SCRIPT);
    let n = crate::jit_values::counted(&path, 0, |play| {
        tabula::hooks::script::exact_native_calls(play)
    });
    assert_eq!(n, 11);
}

/// Case 9's `s` is a number in a register, though its first pass reads it
/// before a callee's value is typed (`s = inc(s)`): `inc`, which has no
/// frame, is called directly (not through the VM's call), and
/// `inc_framed` through it by the short way, once.
#[test]
fn a_local_set_from_a_call_of_itself_stays_in_a_register() {
    let (_tmp, path) = common::game_folder("calls", CALLS_YAML, CALLS_SCRIPT);
    let framed = crate::jit_values::counted(&path, 9, |play| {
        tabula::hooks::script::framed_native_calls(play)
    });
    assert_eq!(framed, 1);
    let exact = crate::jit_values::counted(&path, 9, |play| {
        tabula::hooks::script::exact_native_calls(play)
    });
    assert_eq!(exact, 1);
}

/// Case 10's `same_as(p)` compares `p` with a local (`me == p`) that its
/// first pass reads before any type is known: `p` is then typed by the
/// pass that knows `me` (a symbol), not taken for a number, and the call
/// on a symbol takes the short way.
#[test]
fn a_parameter_compared_with_a_local_takes_the_locals_type() {
    let (_tmp, path) = common::game_folder("calls", CALLS_YAML, CALLS_SCRIPT);
    let exact = crate::jit_values::counted(&path, 10, |play| {
        tabula::hooks::script::exact_native_calls(play)
    });
    assert_eq!(exact, 1);
}
