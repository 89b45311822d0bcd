//! Playouts replay recorded hook runs (memo.rs). A replay must leave the
//! state exactly as running the script would: tests/every_game.rs plays
//! every game quietly (memo) and loudly (script every time) and with and
//! without the memo; here, that it is used, that every API function
//! replays as the script runs it, and that chance in a hook replays.

use crate::common;

use tabula::{Game, State};

/// The memo replays in every shipped game and variant: after a few quiet
/// games it has been used. (That its replays end as the script's runs do
/// is tests/every_game.rs's, for every game.)
#[test]
fn the_memo_is_used_in_every_shipped_game_and_variant() {
    for id in ["experior", "braverats", "imperio", "the-path"] {
        let base = common::load(id, &[], &[]);
        let mut variants: Vec<Vec<&str>> = vec![vec![]];
        let ids: Vec<String> = base.def().variants.iter().map(|v| v.id.clone()).collect();
        variants.extend(ids.iter().map(|v| vec![v.as_str()]));
        for vs in variants {
            let game = common::load(id, &vs, &[]);
            for seed in 0..20 {
                common::play_random(&game, seed, true);
            }
            let hits = game.memo_stats().map_or(0, |m| m.hits);
            assert!(hits > 0, "{id} {vs:?}: the memo was never used");
        }
    }
}

/// A small position of tests/games/probe.yaml, as ids.
#[derive(Clone)]
struct Probe {
    zones: [Vec<&'static str>; 5],
    down: Vec<bool>,
    stats: [i64; 4],
    m: i64,
}

const PROBE_ZONES: [(&str, &str); 5] = [
    ("", "pile"),
    ("a", "hand"),
    ("b", "hand"),
    ("", "table"),
    ("", "row"),
];

impl Probe {
    /// Few cards and small numbers, so that two positions often agree on
    /// what a hook reads.
    fn random(rng: &mut impl FnMut(u64) -> u64) -> Probe {
        let mut pick = |n: u64| -> Vec<&'static str> {
            (0..rng(n + 1))
                .map(|_| ["x", "y", "z"][rng(3) as usize])
                .collect()
        };
        let zones = [pick(6), pick(3), pick(3), pick(2), pick(3)];
        let down = zones[4].iter().map(|_| rng(2) == 0).collect();
        let stats = [rng(3) as i64, rng(3) as i64, rng(3) as i64, rng(3) as i64];
        Probe {
            zones,
            down,
            stats,
            m: rng(3) as i64,
        }
    }

    /// The same position but for one thing: a card under a zone's bottom
    /// or taken from it, a stat, the var `m` or a card's face.
    fn nudge(&self, rng: &mut impl FnMut(u64) -> u64) -> Probe {
        let mut p = self.clone();
        match rng(5) {
            0 | 1 => {
                let z = rng(5) as usize;
                if z == 4 {
                    p.down.insert(0, rng(2) == 0);
                }
                p.zones[z].insert(0, ["x", "y", "z"][rng(3) as usize]);
            }
            2 => {
                let z = rng(4) as usize;
                if !p.zones[z].is_empty() {
                    p.zones[z].remove(0);
                }
            }
            3 => p.stats[rng(4) as usize] = rng(3) as i64,
            _ if !p.down.is_empty() => p.down[0] = !p.down[0],
            _ => p.m = rng(3) as i64,
        }
        p
    }

    fn state(&self, game: &Game, case: i64) -> State {
        let mut st = State::new_quiet(game, 3).unwrap();
        for (i, (owner, zone)) in PROBE_ZONES.iter().enumerate() {
            if *zone == "table" {
                st.set_zone_from(game, owner, zone, &self.zones[i], "b")
                    .unwrap();
            } else {
                st.set_zone(game, owner, zone, &self.zones[i]).unwrap();
            }
        }
        st.set_faces(game, "", "row", &self.down).unwrap();
        for (k, (p, s)) in [("a", "s"), ("a", "t"), ("b", "s"), ("b", "t")]
            .iter()
            .enumerate()
        {
            st.set_stat(game, p, s, self.stats[k]).unwrap();
        }
        st.set_var(game, "m", self.m).unwrap();
        st.set_var(game, "case", case).unwrap();
        st
    }
}

/// A differential test per script API function: the hooks of
/// tests/games/probe.yaml, one case each, run on pairs of positions that
/// differ in one thing, by a game with the memo (the first position
/// records, the second replays where its reads agree) and by one without
/// it. Any part of the state a function looks at outside the traced reads
/// shows up as a second position the memo gets wrong.
#[test]
fn every_api_function_replays_as_the_script_runs_it() {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::{Rng, SeedableRng};
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/games");
    let none = tabula::Settings::default();
    let plain = Game::load(
        "probe",
        &dir,
        &none,
        tabula::Build {
            memo: false,
            ..Default::default()
        },
    )
    .unwrap();
    let mut chacha = ChaCha8Rng::seed_from_u64(7);
    let mut rng = move |n: u64| chacha.next_u64() % n.max(1);
    let go = |game: &Game, mut st: State| -> String {
        let c = st.legal(0)[0].clone();
        match st.apply_unchecked(game, 0, c) {
            Ok(_) => format!(
                "{:x} {}",
                st.key(game),
                serde_json::to_string(&tabula::view::view(game, &st, None).unwrap()).unwrap()
            ),
            Err(e) => format!("error: {e}"),
        }
    };
    const PAIRS: u64 = 300;
    for case in 1..=20 {
        // A fresh memo per case, so that its counts are this case's.
        let memo = tabula::load("probe", &dir, &none).unwrap();
        for pair in 0..PAIRS {
            let a = Probe::random(&mut rng);
            let b = a.nudge(&mut rng);
            go(&memo, a.state(&memo, case));
            let with = go(&memo, b.state(&memo, case));
            let without = go(&plain, b.state(&plain, case));
            assert_eq!(with, without, "case {case}, pair {pair}");
        }
        // `went` ran as a script on some calls; the others were replays.
        let stats = memo.memo_stats().unwrap();
        let ran = stats
            .runs
            .iter()
            .find(|(h, _)| h == "went")
            .map_or(0, |r| r.1);
        // Case 18 draws from the RNG: never recorded, never replayed.
        if case == 18 {
            assert_eq!(ran, 2 * PAIRS, "case 18 was replayed");
        } else {
            assert!(
                ran < 2 * PAIRS,
                "case {case}: the memo never replayed a run"
            );
        }
    }
}

/// Chance drawn inside a hook replays too: in Pig each decision calls
/// `moved`, which rolls the die on a roll, and most calls replay (a script
/// run each only when a roll was not recorded). (That the replays end as
/// the script's runs do is tests/every_game.rs's, for every game.)
#[test]
fn a_hook_that_draws_chance_mostly_replays() {
    let dir = common::root().join("tests/reference/games");
    let with = load_file(&dir.join("pig.yaml"), &dir, true);
    // Games played on this thread, whose memo is read here.
    let bots = vec!["random".to_string(); 2];
    let decisions: u64 = (0..300)
        .map(|seed| u64::from(tabula::sim::play_one(&with, seed, &bots, 100_000).decisions))
        .sum();
    let m = with.memo_stats().unwrap();
    let runs = m.runs.iter().find(|(h, _)| h == "moved").map_or(0, |r| r.1);
    assert!(
        runs * 3 < decisions,
        "pig: `moved` ran {runs} times in {decisions} calls"
    );
}

/// A game file, built with the memo or without it.
fn load_file(path: &std::path::Path, dir: &std::path::Path, memo: bool) -> Game {
    let build = tabula::Build {
        memo,
        ..Default::default()
    };
    Game::load_path(path, dir, &Default::default(), build).unwrap()
}
