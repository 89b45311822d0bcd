//! What a player may type for an option: its whole text, its own prefix, a
//! card's id or name for the option that plays it first, or the aliases a
//! structured option declares; never an inner word of another option.

use crate::common;

use tabula::State;

const GAME: &str = "\
id: typing
players: [{id: red, name: Red}, {id: blue, name: Blue}]
cards:
  guard: {name: Guard}
  baron: {name: Baron}
flow:
  turn:
    - hook: play_turn
";

const SCRIPT: &str = "\
fn play_turn() {
    let options = [
        #{text: \"guard baron\", aliases: [\"gb\", \"accuse the baron\"]},
        #{text: \"baron\"},
        #{text: \"call\", aliases: [\"liar\"]},
    ];
    ask(\"red\", \"move\", options, \"moved\", #{labels: #{\"call\": \"say it is a lie\", pass: \"not offered\"}});
}
fn moved(choice) {
    log(`red: ${choice.red.text}`);
}
";

fn typed(text: &str) -> Result<String, String> {
    let (_tmp, game) = common::load_folder("typing", GAME, SCRIPT);
    let (st, _) = State::new(&game, 1).map_err(|e| e.render(false))?;
    st.parse(&game, 0, text)
        .map(|c| c.text(&game).to_string())
        .map_err(|e| e.message.clone())
}

#[test]
fn a_structured_option_answers_to_its_text_its_prefix_and_its_aliases() {
    assert_eq!(typed("guard baron").unwrap(), "guard baron");
    assert_eq!(typed("gb").unwrap(), "guard baron");
    assert_eq!(typed("Accuse the Baron").unwrap(), "guard baron");
    assert_eq!(typed("liar").unwrap(), "call");
    assert_eq!(typed("ca").unwrap(), "call");
    // `baron` is an option of its own, not the inner word of `guard baron`.
    assert_eq!(typed("baron").unwrap(), "baron");
    let e = typed("lie").unwrap_err();
    assert!(e.contains("is not a legal choice"), "{e}");
}

#[test]
fn a_label_map_may_name_options_not_offered_now() {
    let (_tmp, game) = common::load_folder("typing", GAME, SCRIPT);
    let (st, _) = State::new(&game, 1).unwrap();
    let d = st.decision().unwrap();
    let labels: Vec<Option<String>> = st
        .legal(0)
        .iter()
        .map(|c| d.label(c).map(|l| l.to_string()))
        .collect();
    assert_eq!(labels, [None, None, Some("say it is a lie".to_string())]);
}
