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
