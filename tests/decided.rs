//! When a game is decided (`sim --decided`), on games where the answer is
//! known: one whose first decision settles it, one whose last does, and
//! one that a coin settles at once.

use crate::common;

use tabula::sim::{self, SimConfig};

/// Six decisions by Red: `which` (0-based) of them chooses the winner, the
/// others choose nothing that matters.
fn settled_by(which: usize) -> tabula::Game {
    let yaml = "\
id: six
players: [{id: red, name: Red}, {id: blue, name: Blue}]
vars:
  step: {start: 0}
  winner: {start: 0}
flow:
  turn:
    - decide: move
      who: red
      options: [a, b]
      then: moved
";
    let script = format!(
        "fn moved(choice) {{
    if get_var(\"step\") == {which} {{
        set_var(\"winner\", if choice.red == \"a\" {{ 1 }} else {{ 2 }});
    }}
    add_var(\"step\", 1);
    if get_var(\"step\") == 6 {{
        end_game(if get_var(\"winner\") == 1 {{ \"red\" }} else {{ \"blue\" }}, \"\");
    }}
}}"
    );
    let (tmp, game) = common::load_folder("six", yaml, &script);
    std::mem::forget(tmp);
    game
}

fn cfg(games: u64) -> SimConfig {
    SimConfig {
        games,
        seed: 3,
        bots: vec!["random".into(); 2],
        jobs: 2,
        max_decisions: 1000,
        shard: None,
    }
}

#[test]
fn a_game_is_decided_at_the_decision_that_settles_it() {
    // Settled after decision k of 6: from position k on, every
    // continuation agrees; before it, 8 random continuations disagree
    // but with probability 2^-7 (and the bisection asks a few times).
    for (which, want) in [(0, 100.0 / 6.0), (2, 300.0 / 6.0), (5, 100.0)] {
        let d = sim::decided(&settled_by(which), &cfg(100)).unwrap();
        assert_eq!(d.games, 100);
        assert!(
            (d.percent - want).abs() < 3.0,
            "decision {which}: {d:?}, want {want:.1}"
        );
        assert!(d.low <= d.percent && d.percent <= d.high);
    }
}

#[test]
fn decided_is_said_in_the_report_and_warned_of_when_early() {
    let mut r = sim::report(
        &settled_by(0),
        &cfg(100),
        &sim::run(&settled_by(0), &cfg(100), &|_| {}).unwrap(),
    );
    assert!(
        sim::warnings(&r)
            .iter()
            .all(|w| !w.contains("decided early"))
    );
    r.decided = sim::decided(&settled_by(0), &cfg(100));
    let w = sim::warnings(&r);
    assert!(
        w.iter()
            .any(|w| w.starts_with("games are decided early: from 1")),
        "{w:?}"
    );
    r.decided = sim::decided(&settled_by(5), &cfg(100));
    assert!(
        sim::warnings(&r)
            .iter()
            .all(|w| !w.contains("decided early"))
    );
}
