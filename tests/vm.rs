//! The typed VM (src/hooks/script/tier/vm) against Rhai. `Compile::CheckVm`
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
    let cases: Vec<i64> = (0..=78)
        .filter(|case| script.contains(&format!("c == {case} ")))
        .collect();
    let failed = fails_alike(&path, &cases, Compile::CheckVm);
    // The cases that throw do throw (the check compares their errors).
    assert!(failed >= 30, "only {failed} cases failed");
}

/// `check --vm` names what the VM leaves to the tree tier and why, and
/// plays the rest in the VM against Rhai.
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
        .args(["check", "--vm", "--playouts", "3"])
        .arg(&path)
        .stdout_has("vm failing: 2 script function(s) run outside the VM:")
        .stdout_has("  winner/1: uses `switch`")
        .stdout_has("ok failing")
        .run();
}
