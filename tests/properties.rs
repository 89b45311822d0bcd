//! Property tests (proptest): for any seed and any shipped game and variant,
//! a game between random bots (themselves seeded by the property) ends with
//! no script error, never creates or loses a card, replays to the identical
//! final state, and no player's view shows another's hidden cards.

mod common;

use proptest::prelude::*;
use tabula::bot::{Bot, RandomBot};
use tabula::format::Visibility;
use tabula::replay::Replay;
use tabula::view::{ZoneView, view};
use tabula::{Settings, State};

const CASES: &[(&str, &[&str])] = &[
    ("experior", &[]),
    ("experior", &["short"]),
    ("braverats", &[]),
    ("braverats", &["traitor"]),
    ("braverats", &["lucky-draw"]),
    ("braverats", &["fast-rat"]),
    ("braverats", &["draft"]),
    ("braverats", &["random-deal"]),
    ("braverats", &["princess-attack"]),
    ("braverats", &["emperor"]),
    ("braverats", &["draft", "traitor", "lucky-draw"]),
    ("imperio", &["draft"]),
    ("the-path", &[]),
    ("the-path", &["short-path", "hand-limit-3"]),
    ("the-path", &["four-players"]),
];

fn total_cards(game: &tabula::Game, st: &State) -> usize {
    (0..game.def().zones.len())
        .map(|z| {
            game.def()
                .owners(z)
                .map(|p| st.zone(game, z, p).len())
                .sum::<usize>()
        })
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn any_seeded_game_ends_conserves_replays_and_hides(case in 0..CASES.len(), seed in any::<u64>(), bots in any::<u64>()) {
        let (id, variants) = CASES[case];
        let game = common::load(id, variants, &[]);
        let (mut st, _) = State::new(&game, seed).unwrap();
        let cards = total_cards(&game, &st);
        let mut bot = RandomBot::new(bots);
        let mut moves: Vec<Vec<(String, String)>> = Vec::new();
        let mut n = 0;
        while let Some(d) = st.decision() {
            let mut m = Vec::new();
            for _ in 0..d.players.len() {
                let Some(p) = st.first_waiting() else { break };
                // No view shows another player's hand or any hidden pile.
                for viewer in 0..game.def().nplayers() {
                    let v = view(&game, &st, Some(viewer));
                    for zone in &game.def().zones {
                        for (owner, zv) in &v.zones[&zone.id] {
                            let mine = *owner == game.def().players[viewer].id;
                            let secret = zone.visibility == Visibility::Hidden
                                || (zone.visibility == Visibility::Owner && !mine);
                            let counted = matches!(zv, ZoneView::Count { .. });
                            prop_assert!(!secret || counted, "{} sees {}'s {}", viewer, owner, zone.id);
                        }
                    }
                }
                let c = bot.choose(&game, &st, p).unwrap();
                m.push((game.def().players[p].id.clone(), c.text(&game).to_string()));
                let r = st.act(&game, p, c);
                prop_assert!(r.is_ok(), "{}", r.err().map(|e| e.to_string()).unwrap_or_default());
                prop_assert_eq!(total_cards(&game, &st), cards);
                n += 1;
            }
            moves.push(m);
            prop_assert!(n < 50_000, "no end");
        }
        let r = Replay {
            game: id.into(),
            settings: Settings { variants: variants.iter().map(|v| v.to_string()).collect(), sets: vec![] },
            seed,
            moves,
            ..Replay::default()
        };
        let again = tabula::replay::play(&r, None, &common::games_dir()).unwrap();
        prop_assert_eq!(view(&game, &st, None), view(&again.game, &again.state, None));
    }
}
