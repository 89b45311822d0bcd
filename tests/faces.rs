//! Cards that lie face up or face down in one zone (tests/games/lanterns.yaml):
//! who sees a face-down card, turning cards over, secret asks, what a bot
//! may guess (resampling), the position key, and memo replays.

use crate::common;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use tabula::view::{ZoneView, render, view};
use tabula::{Game, State};

use crate::common::play_move as play;

fn lanterns() -> Game {
    common::test_game("lanterns")
}

/// `owner`'s row as `viewer` (a player index, or None) sees it.
fn row(game: &Game, st: &State, owner: &str, viewer: Option<usize>) -> Vec<Option<String>> {
    match &view(game, st, viewer).unwrap().zones["row"][owner] {
        ZoneView::Faces(f) => f.clone(),
        other => panic!("row is not shown by faces: {other:?}"),
    }
}

fn ids(list: &[&str]) -> Vec<Option<String>> {
    list.iter()
        .map(|s| (!s.is_empty()).then(|| s.to_string()))
        .collect()
}

#[test]
fn a_face_down_card_is_seen_by_its_owner_only_until_turned_up() {
    let game = lanterns();
    let (mut st, _) = State::new(&game, 1).unwrap();
    let (red, blue) = (Some(0), Some(1));
    let said = play(&game, &mut st, &[("red", "lamp-2"), ("blue", "lamp-3")]);
    // A secret ask reveals nothing when all have chosen.
    assert!(said.iter().all(|l| !l.contains("Lamp")), "{said:?}");
    assert_eq!(row(&game, &st, "red", red), ids(&["lamp-2"]));
    assert_eq!(row(&game, &st, "red", blue), ids(&[""]));
    assert_eq!(row(&game, &st, "red", None), ids(&[""]));
    let board = render(&game, &st, blue).unwrap();
    assert!(board.contains("row: a face-down card"), "{board}");
    assert!(!board.contains("Lamp 2 (face down)"), "{board}");
    assert!(
        render(&game, &st, red)
            .unwrap()
            .contains("row: Lamp 2 (face down)")
    );
    // The places to turn up are offered, not the cards there.
    let opts: Vec<String> = st
        .legal(1)
        .iter()
        .map(|c| c.text(&game).to_string())
        .collect();
    assert_eq!(opts, ["place 1"]);

    let said = play(&game, &mut st, &[("red", "place 1"), ("blue", "place 1")]);
    assert!(
        said.iter().any(|l| l == "Blue turns up Lamp 2."),
        "{said:?}"
    );
    assert_eq!(row(&game, &st, "red", blue), ids(&["lamp-2"]));
    assert_eq!(row(&game, &st, "blue", None), ids(&["lamp-3"]));
    assert_eq!(st.stat(&game, 1, 0), 2);
}

#[test]
fn a_card_turned_back_down_is_hidden_again() {
    let game = lanterns();
    let (mut st, _) = State::new(&game, 1).unwrap();
    play(&game, &mut st, &[("red", "lamp-1"), ("blue", "lamp-2")]);
    let said = play(&game, &mut st, &[("red", "place 1"), ("blue", "place 1")]);
    assert!(
        said.iter().any(|l| l.contains("Blue finds a dud")),
        "{said:?}"
    );
    assert_eq!(row(&game, &st, "red", Some(1)), ids(&[""]));
    assert_eq!(row(&game, &st, "red", Some(0)), ids(&["lamp-1"]));
    assert_eq!(st.stat(&game, 1, 0), 0);
    // Red's dud may be turned up again next round.
    play(&game, &mut st, &[("red", "lamp-3"), ("blue", "lamp-3")]);
    let opts: Vec<String> = st
        .legal(1)
        .iter()
        .map(|c| c.text(&game).to_string())
        .collect();
    assert_eq!(opts, ["place 1", "place 2"]);
}

#[test]
fn a_guess_keeps_face_up_cards_and_deals_again_only_unseen_ones() {
    let game = lanterns();
    let (mut st, _) = State::new(&game, 1).unwrap();
    play(&game, &mut st, &[("red", "lamp-2"), ("blue", "lamp-3")]);
    play(&game, &mut st, &[("red", "place 1"), ("blue", "place 1")]);
    play(&game, &mut st, &[("red", "lamp-3"), ("blue", "lamp-1")]);
    // Blue sees red's lamp-2 up and one card down; red's hand holds the other.
    let z = |st: &State, zone: &str, p: usize| {
        let def = game.def();
        let cards = st.zone(&game, def.zone(zone).unwrap(), p);
        cards
            .iter()
            .map(|&c| def.cards[c as usize].id.clone())
            .collect::<Vec<_>>()
    };
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..64 {
        let g = st.resample(&game, 1, &mut ChaCha8Rng::seed_from_u64(seed));
        let (row, hand) = (z(&g, "row", 0), z(&g, "hand", 0));
        assert_eq!(row[0], "lamp-2", "a face-up card stays where it lies");
        let mut unseen = vec![row[1].clone(), hand[0].clone()];
        unseen.sort();
        assert_eq!(unseen, ["lamp-1", "lamp-3"]);
        assert_eq!(z(&g, "row", 1), z(&st, "row", 1), "blue's own cards stay");
        assert_eq!(
            g.face_down(game.def().slot(1, 0)).collect::<Vec<_>>(),
            [false, true]
        );
        seen.insert(row[1].clone());
    }
    assert_eq!(seen.len(), 2, "the face-down card is guessed both ways");
}

#[test]
fn the_position_key_tells_faces_apart() {
    let game = lanterns();
    let (mut st, _) = State::new(&game, 1).unwrap();
    play(&game, &mut st, &[("red", "lamp-2"), ("blue", "lamp-3")]);
    let mut up = st.clone();
    up.set_faces(&game, "red", "row", &[false]).unwrap();
    assert_ne!(st.key(&game), up.key(&game));
    up.set_faces(&game, "red", "row", &[true]).unwrap();
    assert_eq!(st.key(&game), up.key(&game));
    let e = up
        .set_faces(&game, "red", "hand", &[true, true])
        .unwrap_err();
    assert!(e.to_string().contains("keeps faces"), "{e}");
}

#[test]
fn memo_replays_equal_script_runs_with_faces() {
    let game = lanterns();
    for seed in 0..300 {
        let mut ends = Vec::new();
        for quiet in [false, true] {
            let st = common::play_random(&game, seed, quiet);
            ends.push(serde_json::to_string(&view(&game, &st, None).unwrap()).unwrap());
        }
        assert_eq!(ends[0], ends[1], "seed {seed}");
    }
    assert!(game.memo_stats().is_some_and(|m| m.hits > 0));
}

#[test]
fn writes_taken_back_restore_records_faces_and_order() {
    use tabula::core::ops::{Stash, TurnAt, Write};
    let game = lanterns();
    let def = game.def();
    let (mut st, _) = State::new(&game, 1).unwrap();
    play(&game, &mut st, &[("red", "lamp-1"), ("blue", "lamp-2")]);
    play(&game, &mut st, &[("red", "place 1"), ("blue", "place 1")]);
    play(&game, &mut st, &[("red", "lamp-3"), ("blue", "lamp-3")]);
    let row = def.zone("row").unwrap();
    let (red_row, blue_row) = (def.slot(row, 0), def.slot(row, 1));
    let before = (st.key(&game), st.order().to_vec());
    let faces = |st: &State, slot| st.face_down(slot).collect::<Vec<_>>();
    let red_faces = faces(&st, red_row);
    assert_eq!(red_faces, [true, true], "the dud went back down");
    let writes = [
        Write::Turn {
            at: TurnAt::Index(1),
            slot: red_row,
            down: false,
        },
        Write::MoveAll {
            from: red_row,
            to: blue_row,
            by: Some(0x80),
        },
        Write::SetOrder(vec![1, 0]),
        Write::TurnAll {
            slot: blue_row,
            down: false,
        },
    ];
    let mut stash = Stash::new();
    let mut undos = Vec::new();
    for w in &writes {
        undos.push(
            st.write_undoable(w, &mut stash)
                .unwrap_or_else(|| panic!("{w:?}")),
        );
    }
    assert_eq!(faces(&st, blue_row), [false; 4]);
    assert_eq!(st.order(), [1, 0]);
    assert!(
        st.write_undoable(&writes[0], &mut stash).is_none(),
        "red's row is empty now"
    );
    while let Some(u) = undos.pop() {
        st.undo(u, &mut stash);
    }
    assert!(stash.is_empty());
    assert_eq!((st.key(&game), st.order().to_vec()), before);
    assert_eq!(faces(&st, red_row), red_faces);
}

/// A hand with a known (face-up) Guard and a drawn (face-down) one: which
/// leaves is said by place, never picked silently (the leak an
/// independent model of Love Letter caught).
const TWO_GUARDS: &str = r#"
id: guards
script: ../scripts/guards.rhai
players: [{id: red}, {id: blue}]
cards:
  guard: {copies: 2}
zones:
  deck: {per: game, visibility: hidden}
  hand: {per: player, visibility: public, faces: down}
  pile: {per: game}
setup:
  - put: {zone: deck, cards: all}
  - hook: deal
flow:
  turn:
    - decide: go
      who: red
      options: [go]
      then: play_one
"#;

fn guards(play: &str) -> (tempfile::TempDir, Game) {
    let script = format!(
        "fn deal() {{\n    draw(\"\", \"deck\", \"red\", \"hand\");\n    reveal(\"red\", \"hand\", 0);\n    draw(\"\", \"deck\", \"red\", \"hand\");\n}}\nfn play_one(c) {{\n    {play};\n    end_game();\n}}\n"
    );
    common::load_folder("guards", TWO_GUARDS, &script)
}

#[test]
fn a_card_whose_copies_lie_both_ways_is_moved_by_place() {
    // move_card cannot tell which Guard is meant: an error that says how.
    let err = fails(&guards("move_card(\"guard\", \"red\", \"hand\", \"\", \"pile\")").1);
    assert!(
        err.contains("copies of `guard` in red hand lie face up and face down"),
        "{err}"
    );
    assert!(err.contains("move_at(place, ...)"), "{err}");
    // move_at(1, ...) plays the drawn, face-down one: the known one stays
    // face up, the other leaves.
    let (_tmp, game) =
        guards("let g = move_at(1, \"red\", \"hand\", \"\", \"pile\"); log(`moved ${g}`)");
    let (mut st, _) = State::new(&game, 1).unwrap();
    let said = common::play_move(&game, &mut st, &[("red", "go")]);
    assert!(said.iter().any(|l| l == "moved guard"), "{said:?}");
    assert_eq!(
        row_of(&game, &st, "hand", "red", Some(1)),
        ids(&["guard"]),
        "the face-up Guard stays, seen by all"
    );
    // A place past the end is an error with the count.
    let err = fails(&guards("move_at(2, \"red\", \"hand\", \"\", \"pile\")").1);
    assert!(
        err.contains("red hand has no card at place 2 (it holds 2"),
        "{err}"
    );
}

fn row_of(
    game: &Game,
    st: &State,
    zone: &str,
    owner: &str,
    viewer: Option<usize>,
) -> Vec<Option<String>> {
    match &view(game, st, viewer).unwrap().zones[zone][owner] {
        ZoneView::Faces(f) => f.clone(),
        other => panic!("{zone} is not shown by faces: {other:?}"),
    }
}

/// Red's one move, which must fail: its error. (The game's folder lives
/// as long as the game is loaded; the text is read when it loads.)
fn fails(game: &Game) -> String {
    let (mut st, _) = State::new(game, 1).unwrap();
    let c = st.legal(0)[0].clone();
    st.act(game, 0, c).unwrap_err().render(false)
}
