//! A hint names only what works for the command that prints it: the
//! solver's refusal, which `solve`, `sweep --solve` and the best bot of
//! `play` all print, names no flag; each command adds its own hint
//! (src/cli/hints.rs checks every hint against the commands' flags).

use crate::common::Test;

#[test]
fn solve_names_its_own_budget_flag() {
    Test::new()
        .args(["solve", "braverats", "--max-states", "100"])
        .status(3)
        .stderr_has("it needs more than 100 positions")
        .stderr_has("--max-states N lets it keep more than 100 positions")
        .run();
}

#[test]
fn sweep_names_its_own_budget_flag_not_solves() {
    let out = Test::new()
        .args([
            "sweep",
            "braverats",
            "victories_to_win=4..4",
            "--games",
            "2",
        ])
        .args(["--solve", "--solve-states", "100"])
        .stdout_has("not solved at victories_to_win=4: solve cannot handle braverats")
        .stdout_has("(--solve-states N lets each solve keep more than 100 positions)")
        .ok();
    assert!(!out.contains("--max-states"), "{out}");
}
