//! Playouts replay recorded hook runs (memo.rs). A replay must leave the
//! state exactly as running the script would: for every shipped game and
//! variant, the same seeded random games played quietly (memo) and loudly
//! (script every time) end in identical states.

mod common;

use tabula::bot::{Bot, RandomBot};
use tabula::{Game, State};

fn play(game: &Game, seed: u64, quiet: bool) -> (String, u32) {
    let mut st = if quiet {
        State::new_quiet(game, seed).unwrap()
    } else {
        State::new(game, seed).unwrap().0
    };
    let mut bot = RandomBot::new(seed ^ 0xABCD);
    let mut n = 0;
    while let Some(p) = st.first_waiting() {
        let c = bot.choose(game, &st, p).unwrap();
        if quiet {
            st.apply_unchecked(game, p, c).unwrap();
        } else {
            st.act(game, p, c).unwrap();
        }
        n += 1;
        assert!(n < 100_000, "endless");
    }
    let v = serde_json::to_string(&tabula::view::view(game, &st, None)).unwrap();
    (v, st.turn())
}

#[test]
fn memo_replays_equal_script_runs_in_every_game_and_variant() {
    for id in ["experior", "braverats", "imperio"] {
        let base = common::load(id, &[], &[]);
        let mut variants: Vec<Vec<&str>> = vec![vec![]];
        let ids: Vec<String> = base.def().variants.iter().map(|v| v.id.clone()).collect();
        for v in &ids {
            variants.push(vec![v.as_str()]);
        }
        for vs in variants {
            let game = common::load(
                id,
                &vs,
                &[("wound_limit", 30)]
                    .iter()
                    .filter(|_| id == "experior")
                    .copied()
                    .collect::<Vec<_>>(),
            );
            for seed in 0..300 {
                let loud = play(&game, seed, false);
                let quiet = play(&game, seed, true);
                assert_eq!(loud, quiet, "{id} {vs:?} seed {seed}");
            }
            let hits = game.memo_stats().map_or(0, |m| m.hits);
            assert!(hits > 0, "{id} {vs:?}: the memo was never used");
        }
    }
}

/// The memo is a decorator: a game built without it plays the same games.
/// For every shipped game, a simulation with and without it gives the same
/// tally (wins, lengths, cards played, errors).
#[test]
fn a_game_without_the_memo_simulates_the_same() {
    use tabula::sim::{self, SimConfig};
    let cases: &[(&str, &[(&str, i64)])] = &[
        ("braverats", &[]),
        ("imperio", &[]),
        ("experior", &[("wound_limit", 40)]),
        ("the-path", &[("players", 4)]),
    ];
    for (id, sets) in cases {
        let settings = tabula::Settings {
            variants: vec![],
            sets: sets
                .iter()
                .map(|(k, v)| (k.to_string(), (*v).into()))
                .collect(),
        };
        let dir = common::games_dir();
        let with = tabula::load(id, &dir, &settings).unwrap();
        let without = Game::load(id, &dir, &settings, tabula::Build { memo: false }).unwrap();
        let cfg = SimConfig {
            games: if *id == "the-path" { 40 } else { 300 },
            seed: 5,
            bots: vec!["random".into(); with.def().nplayers()],
            jobs: 2,
            max_decisions: 100_000,
            shard: None,
        };
        let a = sim::run(&with, &cfg, &|_| {}).unwrap();
        let b = sim::run(&without, &cfg, &|_| {}).unwrap();
        assert_eq!(a, b, "{id}");
        assert!(without.memo_stats().is_none(), "{id}: no memo");
        assert!(a.errors.is_empty(), "{id}: {:?}", a.errors);
    }
}
