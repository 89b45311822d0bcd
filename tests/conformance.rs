//! What every game and variant must do, checked the same way for all of
//! them (in the manner of OpenSpiel's generic tests): seeded random games
//! end without a script error, cards are never created or lost, replays
//! reproduce the game exactly, and no view shows what its player may not see.

mod common;

use std::collections::BTreeMap;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use tabula::bot::{Bot, RandomBot};
use tabula::format::Visibility;
use tabula::replay::Replay;
use tabula::view::{ZoneView, view};
use tabula::{Game, Settings, State};

/// A game id, its variants and parameter settings.
type Case = (String, Vec<String>, Vec<(String, i64)>);

/// Every shipped game with every variant, and The Path for 2, 3, 4 players.
fn all() -> Vec<Case> {
    let mut out = Vec::new();
    for id in ["experior", "braverats", "imperio", "the-path"] {
        let base = common::load(id, &[], &[]);
        let sets: Vec<(String, i64)> = if id == "experior" {
            vec![("wound_limit".into(), 40)]
        } else {
            vec![]
        };
        out.push((id.to_string(), vec![], sets.clone()));
        for v in &base.def().variants {
            out.push((id.to_string(), vec![v.id.clone()], sets.clone()));
        }
    }
    out
}

fn load(id: &str, vs: &[String], sets: &[(String, i64)]) -> Game {
    let v: Vec<&str> = vs.iter().map(String::as_str).collect();
    let s: Vec<(&str, i64)> = sets.iter().map(|(k, x)| (k.as_str(), *x)).collect();
    common::load(id, &v, &s)
}

/// Every card in every zone, counted.
fn census(game: &Game, st: &State) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for (z, zone) in game.def().zones.iter().enumerate() {
        for p in game.def().owners(z) {
            for &c in st.zone(game, z, p) {
                *m.entry(game.def().cards[c as usize].id.clone())
                    .or_default() += 1;
            }
        }
        let _ = zone;
    }
    m
}

/// No view shows another player's owner-only zone or any hidden zone, and
/// a state whose hidden cards are dealt otherwise looks the same.
fn check_views(game: &Game, st: &State, seed: u64) {
    for viewer in 0..game.def().nplayers() {
        let v = view(game, st, Some(viewer));
        for zone in &game.def().zones {
            for (owner, zv) in &v.zones[&zone.id] {
                let mine = owner == &game.def().players[viewer].id;
                let may_see = match zone.visibility {
                    Visibility::Public => true,
                    Visibility::Owner => mine,
                    Visibility::Hidden => false,
                };
                if !may_see {
                    assert!(
                        matches!(zv, ZoneView::Count { .. }),
                        "{} shows {owner}'s {} to {}",
                        game.def().id,
                        zone.id,
                        game.def().players[viewer].id
                    );
                }
            }
        }
        let other = st.resample(game, viewer, &mut ChaCha8Rng::seed_from_u64(seed));
        let mut a = v;
        let mut b = view(game, &other, Some(viewer));
        // A secret choice already made shows as "(chosen)" only in `a`.
        if let (Some(da), Some(db)) = (&mut a.decision, &mut b.decision) {
            da.chosen.clear();
            db.chosen.clear();
            da.waiting.clear();
            db.waiting.clear();
            da.options.clear();
            db.options.clear();
        }
        assert_eq!(a, b, "{}: a view depends on hidden cards", game.def().id);
    }
}

#[test]
fn random_games_end_conserve_cards_replay_and_hide() {
    for (id, vs, sets) in all() {
        let game = load(&id, &vs, &sets);
        let games = if id == "the-path" { 40 } else { 80 };
        for seed in 0..games {
            let (mut st, _) = State::new(&game, seed).unwrap();
            let start = census(&game, &st);
            let mut bot = RandomBot::new(seed + 1000);
            let mut moves: Vec<Vec<(String, String)>> = Vec::new();
            let mut n = 0;
            while let Some(d) = st.decision() {
                let players = d.players.len();
                let mut m = Vec::new();
                for _ in 0..players {
                    let Some(p) = st.first_waiting() else { break };
                    if n % 7 == 0 {
                        check_views(&game, &st, seed);
                    }
                    let c = bot.choose(&game, &st, p).unwrap();
                    m.push((game.def().players[p].id.clone(), c.text(&game).to_string()));
                    if let Err(e) = st.act(&game, p, c) {
                        panic!("{id} {vs:?} seed {seed}: {}", e.render(false));
                    }
                    assert_eq!(
                        census(&game, &st),
                        start,
                        "{id} {vs:?} seed {seed}: cards changed"
                    );
                    n += 1;
                }
                moves.push(m);
                assert!(n < 20_000, "{id} {vs:?} seed {seed}: no end");
            }
            assert!(st.is_over());
            // The replay of the moves reproduces the game exactly.
            let r = Replay {
                game: id.clone(),
                settings: Settings {
                    variants: vs.clone(),
                    sets: sets.iter().map(|(k, v)| (k.clone(), (*v).into())).collect(),
                },
                seed,
                moves,
                ..Replay::default()
            };
            let again = tabula::replay::play(&r, None, &common::games_dir()).unwrap();
            assert_eq!(
                view(&game, &st, None),
                view(&again.game, &again.state, None),
                "{id} {vs:?} seed {seed}"
            );
            // And through the save format.
            let parsed = Replay::parse(std::path::Path::new("x.yaml"), &r.to_yaml()).unwrap();
            assert_eq!(parsed.moves, r.moves);
        }
    }
}
