//! Who knows which card (issue 57): Hearts' pass checked against
//! OpenSpiel's information states (tests/reference/knowledge.json, from
//! tests/reference/knowledge.py), and Love Letter's Priest and King
//! (tests/games/love-letter.yaml) by what each player's view shows.

use std::collections::BTreeSet;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use tabula::view::{ZoneView, view};
use tabula::{Game, State};

use crate::common::{self, play_move as play};

const SEATS: [&str; 4] = ["north", "east", "south", "west"];

fn hearts() -> Game {
    let dir = common::games_dir()
        .parent()
        .unwrap()
        .join("tests/reference/games");
    tabula::load("hearts", &dir, &tabula::Settings::default()).unwrap()
}

/// Each deal of knowledge.json: its seed, and after the pass (its moves)
/// each viewer's knowledge as OpenSpiel's information state has it:
/// viewer -> receiver -> the cards passed to them.
struct Deal {
    seed: u64,
    moves: Vec<(String, String)>,
    knows: Vec<(String, String, BTreeSet<String>)>,
}

fn deals() -> Vec<Deal> {
    let path = common::games_dir()
        .parent()
        .unwrap()
        .join("tests/reference/knowledge.json");
    let data: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let text = |v: &serde_json::Value| v.as_str().unwrap().to_string();
    (data["deals"].as_array().unwrap().iter())
        .map(|d| Deal {
            seed: d["seed"].as_u64().unwrap(),
            moves: (d["moves"].as_array().unwrap().iter())
                .map(|m| {
                    let (p, c) = m.as_object().unwrap().iter().next().unwrap();
                    (p.clone(), text(c))
                })
                .collect(),
            knows: (d["knows"].as_object().unwrap().iter())
                .flat_map(|(v, to)| {
                    to.as_object().unwrap().iter().map(|(o, cards)| {
                        let set = cards.as_array().unwrap().iter().map(text).collect();
                        (v.clone(), o.clone(), set)
                    })
                })
                .collect(),
        })
        .collect()
}

/// The deal after its pass: each player's cards (one by one in the file)
/// passed as the game asks them, in one pick of three per player.
fn after_pass(game: &Game, d: &Deal) -> State {
    let (mut st, _) = State::new(game, d.seed).unwrap();
    let mut picks: Vec<(String, Vec<String>)> = Vec::new();
    for (p, c) in &d.moves {
        match picks.iter_mut().find(|(q, _)| q == p) {
            Some((_, cs)) => cs.push(c.clone()),
            None => picks.push((p.clone(), vec![c.clone()])),
        }
    }
    for (p, cs) in &picks {
        play(game, &mut st, &[(p.as_str(), cs.join(" ").as_str())]);
    }
    st
}

/// What OpenSpiel says `viewer` knows of `owner`'s hand.
fn known_of(d: &Deal, viewer: &str, owner: &str) -> BTreeSet<String> {
    (d.knows.iter())
        .find(|(v, o, _)| v == viewer && o == owner)
        .map(|(_, _, s)| s.clone())
        .unwrap_or_default()
}

#[test]
fn after_hearts_pass_each_view_shows_what_openspiel_says_its_player_knows() {
    let game = hearts();
    let all = deals();
    assert!(
        all.iter().any(|d| d.moves.is_empty()),
        "a deal without a pass"
    );
    for d in &all {
        let st = after_pass(&game, d);
        for (v, viewer) in SEATS.iter().enumerate() {
            let shown = view(&game, &st, Some(v)).unwrap();
            for owner in SEATS.iter().filter(|o| *o != viewer) {
                let want = known_of(d, viewer, owner);
                let got: BTreeSet<String> = match &shown.zones["hand"][*owner] {
                    ZoneView::Count { count: 13 } => BTreeSet::new(),
                    ZoneView::Known { count: 13, known } => known.iter().cloned().collect(),
                    other => panic!("seed {}: {viewer} sees {owner}'s hand as {other:?}", d.seed),
                };
                assert_eq!(got, want, "seed {}: {viewer} of {owner}'s hand", d.seed);
            }
        }
        // A spectator knows no hand.
        let watcher = view(&game, &st, None).unwrap();
        for owner in SEATS {
            assert!(matches!(
                watcher.zones["hand"][owner],
                ZoneView::Count { .. }
            ));
        }
    }
}

#[test]
fn resampling_after_hearts_pass_leaves_the_passed_cards_with_the_receiver() {
    let game = hearts();
    for d in deals().iter().filter(|d| !d.moves.is_empty()) {
        let st = after_pass(&game, d);
        for (v, viewer) in SEATS.iter().enumerate() {
            let look = st.seen_and_unseen(&game, v).0;
            let mut rng = ChaCha8Rng::seed_from_u64(d.seed);
            let mut moved = 0;
            for _ in 0..20 {
                let s = st.resample(&game, v, &mut rng);
                // The sample is one the viewer cannot tell from the state.
                assert_eq!(s.seen_and_unseen(&game, v).0, look, "seed {}", d.seed);
                for (_, owner, cards) in d.knows.iter().filter(|(w, _, _)| w == viewer) {
                    let hand = s.zone_ids(&game, owner, "hand");
                    for c in cards {
                        assert!(
                            hand.contains(c),
                            "seed {}: {viewer} passed {c} to {owner}, resampled into {hand:?}",
                            d.seed
                        );
                    }
                }
                moved += usize::from(
                    s.zone_ids(&game, "south", "hand") != st.zone_ids(&game, "south", "hand"),
                );
            }
            if *viewer != "south" {
                assert!(
                    moved > 0,
                    "seed {}: the unknown cards were dealt again",
                    d.seed
                );
            }
        }
    }
}

#[test]
fn the_passers_information_state_tells_where_the_passed_cards_went() {
    // North passed three cards to the receiver; a state where one of them
    // lies with another player instead (who holds one of the receiver's
    // cards) is another information state for North, as it is in
    // OpenSpiel (whose information state lists the cards passed and the
    // direction), and the same one for the player who sees neither hand.
    let game = hearts();
    let d = deals().into_iter().find(|d| d.seed == 1).unwrap();
    let st = after_pass(&game, &d);
    let (to, third) = ("east", "south");
    let passed = known_of(&d, "north", to);
    let x = passed.iter().next().unwrap().clone();
    let mut recv = st.zone_ids(&game, to, "hand");
    let mut other = st.zone_ids(&game, third, "hand");
    let y = other
        .iter()
        .find(|c| !known_of(&d, "east", third).contains(*c))
        .unwrap()
        .clone();
    let i = recv.iter().position(|c| *c == x).unwrap();
    let j = other.iter().position(|c| *c == y).unwrap();
    recv[i] = y.clone();
    other[j] = x.clone();
    let mut alt = st.clone();
    let ids = |v: &[String]| v.to_vec();
    let (r, o) = (ids(&recv), ids(&other));
    alt.set_zone(
        &game,
        to,
        "hand",
        &r.iter().map(String::as_str).collect::<Vec<_>>(),
    )
    .unwrap();
    alt.set_zone(
        &game,
        third,
        "hand",
        &o.iter().map(String::as_str).collect::<Vec<_>>(),
    )
    .unwrap();
    // What each player knew of those hands, as it was, but North's card
    // now with the third player.
    for c in &passed {
        let at = if *c == x { third } else { to };
        alt.show_card(&game, "north", at, "hand", c).unwrap();
    }
    for c in known_of(&d, "east", third) {
        alt.show_card(&game, "east", third, "hand", &c).unwrap();
    }
    let north = 0;
    assert_ne!(
        st.seen_and_unseen(&game, north).0,
        alt.seen_and_unseen(&game, north).0,
        "North cannot tell where the card they passed went"
    );
    let west = 3;
    assert_eq!(
        st.seen_and_unseen(&game, west).0,
        alt.seen_and_unseen(&game, west).0,
        "West sees a difference they cannot know"
    );
    assert_ne!(st.key(&game), alt.key(&game));
}

fn love_letter() -> Game {
    common::test_game("love-letter")
}

/// The first seed whose first player (red) may play `card` at once.
fn red_holding(game: &Game, card: &str) -> State {
    (1..500)
        .map(|seed| State::new(game, seed).unwrap().0)
        .find(|st| st.legal(0).iter().any(|c| c.text(game) == card))
        .unwrap()
}

fn hand_of(game: &Game, st: &State, owner: &str, viewer: Option<usize>) -> ZoneView {
    view(game, st, viewer).unwrap().zones["hand"][owner].clone()
}

#[test]
fn love_letters_priest_shows_the_rivals_hand_to_the_one_who_played_it() {
    let game = love_letter();
    let (red, blue) = (Some(0), Some(1));
    let mut st = red_holding(&game, "priest");
    assert!(matches!(
        hand_of(&game, &st, "blue", red),
        ZoneView::Count { count: 1 }
    ));
    play(&game, &mut st, &[("red", "priest")]);
    let theirs = st.zone_ids(&game, "blue", "hand");
    // Red knows Blue's card; Blue does not know Red's; nor does a watcher.
    let seen = hand_of(&game, &st, "blue", red);
    assert_eq!(
        seen,
        ZoneView::Known {
            count: 2,
            known: vec![theirs[0].clone()]
        },
        "{seen:?}"
    );
    assert!(matches!(
        hand_of(&game, &st, "red", blue),
        ZoneView::Count { count: 1 }
    ));
    assert!(matches!(
        hand_of(&game, &st, "blue", None),
        ZoneView::Count { count: 2 }
    ));
    let text = tabula::view::render(&game, &st, red).unwrap();
    let name = &game.def().cards[game.def().card(&theirs[0]).unwrap() as usize].name;
    assert!(
        text.contains(&format!("2 card(s), hidden; you know {name} among them")),
        "{text}"
    );
    // Red's guesses keep that card where it is.
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..20 {
        let s = st.resample(&game, 0, &mut rng);
        assert!(s.zone_ids(&game, "blue", "hand").contains(&theirs[0]));
    }
    // Blue plays the other card: Red still knows the one left.
    let kept = theirs[0].clone();
    let other = st.zone_ids(&game, "blue", "hand")[1].clone();
    if other != kept
        && other != "guard"
        && other != "priest"
        && other != "baron"
        && other != "princess"
        && other != "king"
    {
        play(&game, &mut st, &[("blue", other.as_str())]);
        assert_eq!(
            hand_of(&game, &st, "blue", red),
            ZoneView::Known {
                count: 1,
                known: vec![kept]
            }
        );
    }
}

#[test]
fn love_letters_king_leaves_each_knowing_the_card_they_gave() {
    let game = love_letter();
    let (red, blue) = (Some(0), Some(1));
    let mut st = red_holding(&game, "king");
    let mine: Vec<String> = st.zone_ids(&game, "red", "hand");
    let kept = mine.iter().find(|c| *c != "king").unwrap().clone();
    let theirs = st.zone_ids(&game, "blue", "hand")[0].clone();
    play(&game, &mut st, &[("red", "king")]);
    // Blue has drawn for their turn.
    assert_eq!(st.zone_ids(&game, "blue", "hand")[0], kept);
    assert_eq!(
        hand_of(&game, &st, "blue", red),
        ZoneView::Known {
            count: 2,
            known: vec![kept]
        }
    );
    assert_eq!(
        hand_of(&game, &st, "red", blue),
        ZoneView::Known {
            count: 1,
            known: vec![theirs]
        }
    );
    assert!(matches!(
        hand_of(&game, &st, "red", None),
        ZoneView::Count { count: 1 }
    ));
}

const SHOWN: &str = "id: shown
script: ../scripts/shown.rhai
players: [{id: red}, {id: blue}]
cards: {a: {}, b: {}}
zones:
  deck: {per: game, visibility: hidden}
  hand: {per: player, visibility: owner}
setup:
  - put: {zone: deck, cards: all}
  - hook: start
flow:
  turn:
    - hook: play_turn
";

/// The game above whose `start` hook runs `body`: its error, if any.
fn shown(body: &str) -> Option<String> {
    let script = format!("fn start() {{\n{body}\n}}\nfn play_turn() {{ end_game(); }}\n");
    let (_tmp, game) = common::load_folder("shown", SHOWN, &script);
    State::new(&game, 1).err().map(|e| e.render(false))
}

#[test]
fn show_to_says_what_is_wrong() {
    let err = shown(r#"show_to("green", "", "deck");"#).unwrap();
    assert!(err.contains("unknown player `green`"), "{err}");
    let err = shown(r#"show_to("red", "", "deck", "c");"#).unwrap();
    assert!(err.contains("unknown card `c`"), "{err}");
    let err = shown(r#"draw("", "deck", "red", "hand"); show_to("blue", "", "deck", "b");"#);
    let err = err.unwrap();
    assert!(
        err.contains("show_to: no `b` in  deck") || err.contains("show_to: no `b` in "),
        "{err}"
    );
    let err = shown(r#"show_to("blue", "", "deck", 5);"#).unwrap();
    assert!(err.contains("has no card at place 5 (it holds 2"), "{err}");
    let err = shown(r#"show_to([1], "", "deck");"#).unwrap();
    assert!(err.contains("players are named by id"), "{err}");
    assert_eq!(
        shown(r#"show_to(["red", "blue"], "", "deck", ["a", "b"]);"#),
        None
    );
}

#[test]
fn a_shuffle_forgets_who_knew_the_pile() {
    let body =
        r#"show_to("red", "", "deck"); draw("", "deck", "blue", "hand"); shuffle("", "deck");"#;
    let script = format!("fn start() {{\n{body}\n}}\nfn play_turn() {{ end_game(); }}\n");
    let (_tmp, game) = common::load_folder("shown", SHOWN, &script);
    let (st, _) = State::new(&game, 1).unwrap();
    // The card drawn is still known; the one shuffled is not.
    assert!(matches!(
        hand_of(&game, &st, "blue", Some(0)),
        ZoneView::Known { count: 1, .. }
    ));
    assert!(matches!(
        view(&game, &st, Some(0)).unwrap().zones["deck"][""],
        ZoneView::Count { count: 1 }
    ));
}
