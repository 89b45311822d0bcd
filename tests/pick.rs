//! Several options chosen at once (an ask's `pick: K`): every set of K
//! (or, ordered, every arrangement) is one legal choice with a text form,
//! typed in any order when the order does not count; the continuation
//! gets the list. And `secret` on a flow `decide:` step.

use crate::common;
use tabula::{Choice, Event};

const GAME: &str = r#"
id: passing
script: ../scripts/passing.rhai
players: [{id: red}, {id: blue}]
cards:
  ace: {}
  king: {}
  queen: {}
  jack: {}
zones:
  hand: {per: player, visibility: owner}
  given: {per: player}
setup:
  - put: {zone: hand, cards: all}
flow:
  turns: rotate
  turn: [{hook: play_turn}]
"#;

fn script(details: &str) -> String {
    format!(
        "fn play_turn() {{\n    ask(\"red\", \"pass\", cards(\"red\", \"hand\"), \"passed\", #{{{details}}});\n}}\n\
         fn passed(choice) {{\n    let n = 0;\n    for c in choice.red {{\n        move_card(c, \"red\", \"hand\", \"blue\", \"given\");\n        n += 1;\n    }}\n    end_game(\"\", `${{n}} passed`);\n}}\n"
    )
}

fn texts(game: &tabula::Game, st: &tabula::State) -> Vec<String> {
    st.legal(0)
        .iter()
        .map(|c| c.text(game).to_string())
        .collect()
}

#[test]
fn a_pick_of_two_offers_every_pair_once_and_hands_on_the_list() {
    let (_tmp, game) = common::load_folder("passing", GAME, &script("pick: 2, secret: true"));
    let (mut st, _) = tabula::State::new(&game, 0).unwrap();
    let options = texts(&game, &st);
    assert_eq!(
        options,
        [
            "ace king",
            "ace queen",
            "ace jack",
            "king queen",
            "king jack",
            "queen jack"
        ]
    );
    // Typed in another order, it is the same choice.
    let c = st.parse(&game, 0, "jack  KING").unwrap();
    assert_eq!(c.text(&game), "king jack");
    st.act(&game, 0, c).unwrap();
    let v = serde_json::to_value(tabula::view::view(&game, &st, None).unwrap()).unwrap();
    assert_eq!(
        v["zones"]["given"]["blue"],
        serde_json::json!(["king", "jack"])
    );
    assert!(st.is_over());
}

#[test]
fn an_ordered_pick_offers_every_arrangement_and_keeps_the_order_typed() {
    let (_tmp, game) = common::load_folder("passing", GAME, &script("pick: 2, ordered: true"));
    let (mut st, _) = tabula::State::new(&game, 0).unwrap();
    assert_eq!(texts(&game, &st).len(), 12);
    let c = st.parse(&game, 0, "jack king").unwrap();
    assert!(matches!(c, Choice::Data(_)));
    assert_eq!(c.text(&game), "jack king");
    st.act(&game, 0, c).unwrap();
    let v = serde_json::to_value(tabula::view::view(&game, &st, None).unwrap()).unwrap();
    assert_eq!(
        v["zones"]["given"]["blue"],
        serde_json::json!(["jack", "king"])
    );
}

#[test]
fn a_pick_of_more_than_there_are_is_an_error_that_says_so() {
    let (_tmp, game) = common::load_folder("passing", GAME, &script("pick: 5"));
    let e = tabula::State::new(&game, 0).map(|_| ()).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("ask `pass`: `pick: 5` of 4 options: no choice can be made (pick at most 4)"),
        "{text}"
    );
    let (_tmp, game) = common::load_folder("passing", GAME, &script("ordered: true"));
    let e = tabula::State::new(&game, 0).map(|_| ()).unwrap_err();
    assert!(
        e.to_string().contains("`ordered` goes with `pick: K`"),
        "{e}"
    );
}

#[test]
fn a_pick_replays_from_its_text_in_any_order() {
    let (tmp, path) = common::game_folder("passing", GAME, &script("pick: 3"));
    let save = tmp.path().join("save.yaml");
    std::fs::write(
        &save,
        format!(
            "game: {}\nseed: 0\nmoves:\n  - {{red: queen ace king}}\n",
            path.display()
        ),
    )
    .unwrap();
    let out = common::Test::new()
        .args(["replay", "--json"])
        .arg(&save)
        .run()
        .stdout;
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["over"], true, "{out}");
    assert_eq!(
        v["zones"]["given"]["blue"],
        serde_json::json!(["ace", "king", "queen"]),
        "{out}"
    );
}

const DECIDE: &str = r#"
id: sealed
script: ../scripts/sealed.rhai
players: [{id: red}, {id: blue}]
cards:
  high: {}
  low: {}
zones:
  hand: {per: player, visibility: owner}
setup:
  - put: {zone: hand, cards: all}
flow:
  turn:
    - decide: bid
      who: all
      simultaneous: true
      secret: SECRET
      from: hand
      then: bid
"#;

fn revealed(secret: bool) -> bool {
    let yaml = DECIDE.replace("SECRET", if secret { "true" } else { "false" });
    let (_tmp, game) = common::load_folder("sealed", &yaml, "fn bid(c) { end_game(); }\n");
    let (mut st, _) = tabula::State::new(&game, 0).unwrap();
    let c = st.parse(&game, 0, "high").unwrap();
    st.act(&game, 0, c).unwrap();
    let c = st.parse(&game, 1, "low").unwrap();
    let events = st.act(&game, 1, c).unwrap();
    events.iter().any(|e| matches!(e, Event::Revealed { .. }))
}

#[test]
fn a_secret_flow_decision_is_never_revealed() {
    assert!(revealed(false), "an open simultaneous decision is revealed");
    assert!(!revealed(true), "a secret one is not");
}
