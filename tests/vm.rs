//! The typed VM (src/hooks/script/tier/vm) against Rhai. `Compile::Check`
//! runs every hook in the VM and in Rhai from the same state and fails on
//! the first difference in result or error (text and position), reads and
//! writes, events or the state after (not the operations: the VM counts
//! its own). tests/every_game.rs plays every game that way; these tests
//! run the tier's failing cases (tests/tier.rs) through the VM.

use crate::common;
use crate::tier::{SCRIPT, YAML, fails_alike};

use tabula::Compile;

/// The tier's failing script without its `switch` cases (the VM leaves a
/// function with `switch` to the tree tier: the check would then compare
/// the tree tier with Rhai).
fn script() -> String {
    SCRIPT
        .lines()
        .filter(|l| !l.contains("switch"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_failing_hook_fails_alike_in_the_vm_and_in_rhai() {
    let script = script();
    let (_tmp, path) = common::game_folder("failing", YAML, &script);
    let (_t, game) = common::load_folder("failing", YAML, &script);
    // Every function runs in the VM: the check compares the VM with Rhai.
    assert_eq!(game.vm_fallbacks().unwrap(), []);
    // The cases written with `switch` are gone from this script.
    let cases: Vec<i64> = (0..=80)
        .filter(|case| script.contains(&format!("c == {case} ")))
        .collect();
    let failed = fails_alike(&path, &cases, Compile::Check);
    // The cases that throw do throw (the check compares their errors).
    assert!(failed >= 30, "only {failed} cases failed");
}

/// `check --compile` names what the VM leaves to the tree tier and why,
/// and plays the rest in the VM against Rhai; `--no-vm` leaves the VM
/// out.
#[test]
fn check_vm_lists_what_runs_outside_the_vm() {
    let script = r#"
fn step() { end_game(winner(param("case"))); }
fn winner(n) { switch n { 0 => "a", _ => "b" } }
fn unused() { let t = 0; for i in 0..3 { t += i; } t }
"#;
    let (_tmp, path) = common::game_folder("failing", YAML, script);
    let (_t, game) = common::load_folder("failing", YAML, script);
    let list: Vec<String> = (game.vm_fallbacks().unwrap().iter())
        .map(|f| format!("{}/{}: {}", f.name, f.arity, f.why))
        .collect();
    assert_eq!(
        list,
        [
            "step/0: calls `winner`, which the VM does not run",
            "winner/1: uses `switch`"
        ]
    );
    common::Test::new()
        .args(["check", "--compile", "--playouts", "3"])
        .arg(&path)
        .stdout_has("compile failing: every script function compiled")
        .stdout_has("vm failing: 2 script function(s) run outside the VM:")
        .stdout_has("  winner/1: uses `switch`")
        .stdout_has("ok failing")
        .run();
    let ran = common::Test::new()
        .args(["check", "--compile", "--no-vm", "--playouts", "3"])
        .arg(&path)
        .stdout_has("compile failing: every script function compiled")
        .stdout_has("ok failing")
        .run();
    assert!(!ran.stdout.contains("outside the VM"), "{}", ran.stdout);
}

/// A game whose cases call `ask` and `move_card` (the VM's typed forms)
/// and use maps (the VM's own), well and badly.
const TYPED_YAML: &str = "id: typed
name: Typed
players: [{id: a, name: A}, {id: b, name: B}]
params:
  case: {default: 0, min: 0, max: 99}
cards:
  token: {name: Token}
  coin: {name: Coin}
zones:
  pile: {per: game}
  hand: {per: player}
setup:
  - put: {zone: pile, cards: all}
flow:
  turns: rotate
  turn:
    - hook: step
script: ../scripts/typed.rhai
";

const TYPED_SCRIPT: &str = r#"
fn step() {
    let c = param("case");
    let m = #{b: "two", a: 1};
    if c == 0 { ask(active(), "pick", ["token", "coin", "pass"], "got", #{prompt: "choose"}); return; }
    if c == 1 { ask(active(), "n", [3, 1, 2], "got"); return; }
    if c == 2 { ask(active(), "n", [1, 1], "got"); return; }
    if c == 3 { ask(active(), "n", [], "got"); return; }
    if c == 4 { ask(active(), "w", ["ok", "bad\u0007"], "got"); return; }
    if c == 5 { ask(active(), "w", ["x"], "got", #{promt: "typo"}); return; }
    if c == 6 { ask("nobody", "w", ["x"], "got"); return; }
    if c == 7 { ask(active(), "w", ["x"], "got", #{secret: "yes"}); return; }
    if c == 8 { ask(active(), "w", ["x", "y"], "got", #{prompt: || "p", secret: true}); return; }
    if c == 19 { ask(active(), "w", ["x"], "got", #{prompt: |x| `p${x}`}); return; }
    if c == 9 { ask(active(), "w", ["x"], 7); return; }
    if c == 10 { move_card("nothing", "", "pile", "a", "hand"); return; }
    if c == 11 { move_card("token", "b", "hand", "a", "hand"); return; }
    if c == 12 { move_card("token", "", "pile", active(), "hand"); end_game(active(), `${count(active(), "hand")}`); return; }
    if c == 13 { end_game("a", `${m.a} ${m["b"]} ${m.keys()} ${m.values()} ${m.len()} ${m["zz"]} ${m}`); return; }
    if c == 14 { m.c = 3; m["a"] += 1; end_game("a", `${m} ${m == #{a: 2, b: "two", c: 3}}`); return; }
    if c == 15 { m.a.x; return; }
    if c == 16 { ask(active(), "n", [0, 1, 2], "got", #{prompt: "how many", secret: false}); return; }
    if c == 17 { ask([active()], "w", ["x", "y"], "got"); return; }
    if c == 18 { ask(active(), "w", ["x", 2, "y", 1], "got"); return; }
    if c == 20 { ask(active(), "m", [#{text: `go ${c}`, to: "token", n: 2, ok: true}, "pass", 3], "got", #{prompt: `pick ${c}`}); return; }
    if c == 21 { ask(active(), "m", [#{text: "x"}, #{to: "token"}], "got"); return; }
    if c == 22 { ask(active(), "m", [#{text: 7, to: "token"}], "got"); return; }
    if c == 23 { ask(active(), "m", [#{text: "x", a: 1}, #{text: `x`, a: 2}], "got"); return; }
    if c == 24 { ask(active(), "m", [#{text: "in", at: #{row: 2, col: "b", l: [1, "token", #{z: ()}]}}], "got"); return; }
    if c == 25 { ask(active(), "m", [#{text: "f", f: |x| x}], "got"); return; }
    if c == 26 { ask(active(), "m", [#{text: "take {to} {n} {ok} {u} {l}", to: "token", n: 2, ok: false, u: (), l: [1, "a"]}], "got"); return; }
    if c == 27 { ask(active(), "m", [#{text: "take {nope}", to: "token"}], "got"); return; }
    if c == 28 { ask(active(), "m", [#{text: "take {label}", label: "L"}], "got"); return; }
    if c == 29 { ask(active(), "m", [#{text: "bad\u0007", a: 1}], "got"); return; }
    if c == 30 { ask(active(), "m", [#{text: "3"}, 3], "got"); return; }
    if c == 31 { ask(active(), "m", [#{text: "token"}, "token"], "got"); return; }
    if c == 32 { ask(active(), "m", [#{text: "open {to"}], "got"); return; }
    if c == 33 { ask(active(), "m", [#{text: "x", label: "the x"}, #{text: "y"}], "got"); return; }
    if c == 34 { ask(active(), "m", [#{text: "x"}, [1]], "got"); return; }
    end_game("", "no case");
}
fn got(choice) {
    let p = choice.keys()[0];
    end_game(p, `${choice[p]} ${choice.len()} ${choice}`);
}
"#;

#[test]
fn typed_asks_moves_and_maps_go_as_in_rhai() {
    let (_tmp, path) = common::game_folder("typed", TYPED_YAML, TYPED_SCRIPT);
    let (_t, game) = common::load_folder("typed", TYPED_YAML, TYPED_SCRIPT);
    assert_eq!(game.vm_fallbacks().unwrap(), []);
    let cases: Vec<i64> = (0..=34).collect();
    let failed = fails_alike(&path, &cases, Compile::Check);
    // 2-7, 9-11, 15 and 19 (a prompt's function takes no argument) fail;
    // of the map options (20-34), those with no text (21), a text not a
    // string (22), two alike (23, 30), a value not kept (25), a missing
    // or unclosed field (27, 28, 32), a control character (29) and a
    // list (34); the rest end the game.
    assert_eq!(failed, 21, "the failing cases fail");
}

/// A list's and a map's own operations, which the VM does on its values
/// (tier/vm/lists.rs), and their edges: what it leaves to Rhai (a text
/// that is no symbol, mixed lists, a missing key) and their errors.
const LISTS_SCRIPT: &str = r#"
fn step() {
    let c = param("case");
    if c == 0 { let a = [1, 2]; a += [3, 4]; a += 5; a += "token"; a += #{k: 1}; a += (); a += [[6]]; end_game("a", `${a}`); return; }
    if c == 1 { let a = ["a"]; a += "no symbol"; a += 'c'; end_game("a", `${a}`); return; }
    if c == 2 { let a = [0]; for i in 0..20 { a += a; } end_game("a", `${a.len()}`); return; }
    if c == 3 { let a = [1]; a += a; a += [a]; end_game("a", `${a}`); return; }
    if c == 4 { let m = #{}; m["token"] = true; m.coin = 1; end_game("a", `${"token" in m} ${"coin" in m} ${"pile" in m} ${m.contains("token")} ${m}`); return; }
    if c == 5 { end_game("a", `${3 in [1, 2, 3]} ${"a" in ["a", "b"]} ${4 in [1, "a"]} ${"b" in []} ${() in [()]} ${true in [false, true]}`); return; }
    if c == 6 { let l = [1, 2, 3]; let x = l.pop(); let y = l.shift(); let e = []; end_game("a", `${x} ${y} ${l} ${e.pop()} ${e.shift()} ${e}`); return; }
    if c == 7 { let l = ["a", "b", "a"]; end_game("a", `${l.index_of("a")} ${l.index_of("b")} ${l.index_of("z")} ${[1, 2].index_of(2)} ${[1, "a"].index_of("a")} ${l.contains("b")}`); return; }
    if c == 8 { let m = #{a: 1}; m["a"] += 2; m.a *= 3; m["b"] = "x"; m.token = [1]; end_game("a", `${m}`); return; }
    if c == 9 { let m = #{a: 1}; m["zz"] += 1; return; }
    if c == 10 { let m = #{a: 9223372036854775807}; m.a += 1; return; }
    if c == 11 { let m = #{a: "x"}; m.a += 1; end_game("a", `${m}`); return; }
    if c == 12 { let m = #{a: 1}; m.a /= 0; return; }
    if c == 13 { let s = []; for i in 0..9999 { s += i; } s += [1, 2]; end_game("a", "appended"); return; }
    if c == 14 { let m = #{}; let k = "token"; m[k] = 1; end_game("a", `${k in m} ${"coin" in m}`); return; }
    end_game("", "no case");
}
"#;

#[test]
fn list_and_map_operations_go_as_in_rhai() {
    let (_tmp, path) = common::game_folder("typed", TYPED_YAML, LISTS_SCRIPT);
    let (_t, game) = common::load_folder("typed", TYPED_YAML, LISTS_SCRIPT);
    assert_eq!(game.vm_fallbacks().unwrap(), []);
    let cases: Vec<i64> = (0..=14).collect();
    let failed = fails_alike(&path, &cases, Compile::Check);
    // A list past Rhai's limit (2), a missing key's `+=` (9), overflow
    // (10) and division by zero (12) fail; a text plus a number (11)
    // concatenates, and a list appended to (13) is checked before, as
    // Rhai checks it: 10,001 items pass.
    assert_eq!(failed, 4, "the failing cases fail");
}
