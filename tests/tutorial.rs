//! docs/tutorial.md stays true: every `$ tabula ...` command in it runs
//! (against the files in examples/), and every output line it shows is
//! printed. `play` is run with a bid and `quit` piped in, under four seeds
//! (what it shows holds whatever seat is drawn). The example
//! games pass `check`.

use crate::common::Test;

use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Each console command of the tutorial with the output lines shown under it.
fn commands() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(root().join("docs/tutorial.md")).unwrap();
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    let mut in_console = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_console = line == "```console";
            continue;
        }
        if !in_console {
            continue;
        }
        match line.strip_prefix("$ ") {
            Some(cmd) => out.push((cmd.to_string(), Vec::new())),
            None => {
                if let Some(last) = out.last_mut() {
                    last.1.push(line.to_string());
                }
            }
        }
    }
    out
}

#[test]
fn every_tutorial_command_runs_and_prints_what_the_tutorial_shows() {
    let cmds = commands();
    assert!(cmds.len() >= 6, "{cmds:?}");
    for (cmd, shown) in cmds {
        let words: Vec<&str> = cmd.split_whitespace().collect();
        assert_eq!(words[0], "tabula", "{cmd}");
        // `play` draws with the clock's seed: what the tutorial shows
        // must hold whatever the seed (the seat drawn, the first prize),
        // and it shows whose seat is the reader's.
        if words[1] == "play" {
            assert!(
                shown.iter().any(|l| l.contains("(you)")),
                "{cmd}: the tutorial shows no seat"
            );
        }
        let seeds: &[&str] = if words[1] == "play" {
            &["1", "2", "3", "4"]
        } else {
            &[""]
        };
        for seed in seeds {
            let mut t = Test::new().args(&words[1..]);
            if words[1] == "play" {
                t = t.args(["--seed", seed]).stdin("13\nquit\nn\n");
            }
            let o = t.run().output;
            let stdout = String::from_utf8_lossy(&o.stdout);
            let stderr = String::from_utf8_lossy(&o.stderr);
            if words[1] != "play" {
                assert!(o.status.success(), "{cmd}: {stderr}");
            }
            for line in &shown {
                assert!(
                    stdout.contains(line),
                    "{cmd} (seed {seed}): `{line}` not in\n{stdout}"
                );
            }
            if words[1] == "play" {
                assert!(
                    stdout.contains("your bid for the prize: 1, 2, 3"),
                    "{stdout}"
                );
            }
        }
    }
}

#[test]
fn the_example_games_pass_check() {
    for dir in ["examples/goofspiel/games", "examples/oshi-zumo/games"] {
        let o = Test::new()
            .args(["check", "--games-dir", dir, "--playouts", "30"])
            .run()
            .output;
        assert!(
            o.status.success(),
            "{dir}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(String::from_utf8_lossy(&o.stdout).starts_with("ok "));
    }
}

#[test]
fn named_parameters_are_set_and_read_by_name() {
    let dir = root().join("examples/goofspiel/games");
    let settings = |order: &str| tabula::Settings {
        variants: vec![],
        sets: vec![
            ("cards".into(), 4.into()),
            (
                "points_order".into(),
                tabula::format::ParamValue::Word(order.into()),
            ),
        ],
    };
    let prizes = |order: &str| {
        let game = tabula::load("goofspiel", &dir, &settings(order)).unwrap();
        let (st, _) = tabula::State::new(&game, 3).unwrap();
        let mut ids = st.zone_ids(&game, "", "prizes");
        ids.extend(st.zone_ids(&game, "", "prize"));
        ids
    };
    // The top of a pile is its end; one prize is already up.
    assert_eq!(
        prizes("descending"),
        ["prize-1", "prize-2", "prize-3", "prize-4"]
    );
    assert_eq!(
        prizes("ascending"),
        ["prize-4", "prize-3", "prize-2", "prize-1"]
    );
    let e = tabula::load("goofspiel", &dir, &settings("ascnding"))
        .err()
        .unwrap();
    assert!(
        e.to_string()
            .contains("has no value `ascnding` (values: random, descending, ascending)"),
        "{e}"
    );
    let e = tabula::load(
        "goofspiel",
        &dir,
        &tabula::Settings {
            variants: vec![],
            sets: vec![(
                "cards".into(),
                tabula::format::ParamValue::Word("many".into()),
            )],
        },
    )
    .err()
    .unwrap();
    assert!(
        e.to_string().contains("`cards` takes a number, not `many`"),
        "{e}"
    );
}
