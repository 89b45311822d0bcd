//! Which typed paths the VM takes: API calls whose typed form gave None
//! (and went the Rhai form's way) are listed by `run::rhai_forms`,
//! operations on a VM list or map handed to Rhai by `run::HANDED`. (tests/vm.rs compares what each path does with Rhai.)

#![allow(clippy::unwrap_used)]

use super::run::{HANDED, rhai_forms};
use crate::core::State;
use crate::hooks::script::{Compile, RhaiHooks};
use crate::hooks::test_game::{Game, load};

/// The reference game `id` (tests/reference) with its script.
macro_rules! reference {
    ($id:literal) => {
        reference(
            include_str!(concat!(
                "../../../../../tests/reference/games/",
                $id,
                ".yaml"
            )),
            include_str!(concat!(
                "../../../../../tests/reference/scripts/",
                $id,
                ".rhai"
            )),
            $id,
        )
    };
}

fn reference(yaml: &str, script: &str, id: &str) -> Game<RhaiHooks> {
    let yaml = yaml.replace(
        &format!("script: ../scripts/{id}.rhai"),
        "script: game.rhai",
    );
    assert!(yaml.contains("script: game.rhai"), "{id}'s script");
    let (def, mut s) = load(&yaml, script, 1);
    Game(def.clone(), RhaiHooks::new(def, s.remove(0), Compile::On))
}

/// A game played to its end by taking each decision's first option: the
/// decisions made and the API calls that went the Rhai form's way.
fn play(game: &Game<RhaiHooks>) -> (usize, Vec<String>) {
    HANDED.with(|f| f.borrow_mut().clear());
    rhai_forms(|| {
        let mut st = State::new_quiet(game, 1).unwrap();
        let mut n = 0;
        while let Some(p) = st.first_waiting() {
            let c = st.legal(p)[0].clone();
            st.apply_unchecked(game, p, c).unwrap();
            n += 1;
        }
        n
    })
}

#[test]
fn breakthrough_asks_its_map_options_in_the_vm() {
    let game = reference!("breakthrough");
    let (decisions, rhai) = play(&game);
    assert!(decisions > 10, "{decisions} decisions");
    assert_eq!(rhai, Vec::<String>::new(), "calls the Rhai form made");
    // Each move a map option: its text filled in, its fields as data.
    let st = State::new_quiet(&game, 1).unwrap();
    let d = st.decision().unwrap();
    let crate::core::Choice::Data(m) = &d.options[0][0] else {
        panic!("{:?}", d.options[0][0])
    };
    assert_eq!(&*m.text, "a7a6");
    assert_eq!(
        format!("{:?}", m.value),
        format!(
            "{:?}",
            crate::core::Value::Map(
                vec![
                    ("from".into(), crate::core::Value::Text("a7".into())),
                    ("takes".into(), crate::core::Value::Bool(false)),
                    ("text".into(), crate::core::Value::Text("a7a6".into())),
                    ("to".into(), crate::core::Value::Text("a6".into())),
                ]
                .into()
            )
        )
    );
}

#[test]
fn liars_dice_bids_are_asked_in_the_vm() {
    let game = reference!("liars-dice");
    let (decisions, rhai) = play(&game);
    assert!(decisions > 1, "{decisions} decisions");
    assert_eq!(rhai, Vec::<String>::new(), "calls the Rhai form made");
}

/// The board games whose lists and maps of cells Rhai's own functions
/// used to take (Othello's `all += run`, Hex's `n in seen` and
/// `todo.pop()`, Dots and Boxes' `columns().index_of(..)`): the VM does
/// them on its own values, handing nothing to Rhai.
#[test]
fn board_games_keep_their_lists_and_maps_in_the_vm() {
    for game in [
        reference!("othello"),
        reference!("hex"),
        reference!("dots-and-boxes"),
    ] {
        let (decisions, _) = play(&game);
        assert!(decisions > 10, "{decisions} decisions");
        let handed = HANDED.with(|h| h.take());
        let first = &handed[..handed.len().min(4)];
        assert!(
            handed.is_empty(),
            "{} handed to Rhai: {first:?}...",
            handed.len()
        );
    }
}

/// The card, board and game functions of the script API (`cards`,
/// `attr`, `count`, `card_name`, `neighbours`, `row_of`, `draw`, `deal`,
/// `random`, `end_game`...) take their typed forms: a whole game of each
/// of these goes the Rhai form's way only for what has no typed form yet
/// (`ask` with labels, `entries`). (tests/vm.rs plays the shipped games.)
#[test]
fn card_board_and_game_calls_take_their_typed_forms() {
    for (id, game, left) in [
        ("hearts", reference!("hearts"), &["ask", "entries"][..]),
        ("leduc-poker", reference!("leduc-poker"), &[]),
        ("liars-dice", reference!("liars-dice"), &[]),
        ("goofspiel", reference!("goofspiel"), &[]),
        ("hex", reference!("hex"), &[]),
        ("dots-and-boxes", reference!("dots-and-boxes"), &[]),
    ] {
        let (decisions, mut rhai) = play(&game);
        assert!(decisions > 3, "{id}: {decisions} decisions");
        rhai.retain(|name| !left.contains(&name.as_str()));
        let first = &rhai[..rhai.len().min(6)];
        assert!(
            rhai.is_empty(),
            "{id}: {} calls the Rhai form made: {first:?}...",
            rhai.len()
        );
    }
}

/// A template that names an id (`${p}-disc`, `pit-${i}`) is its symbol
/// from the table made at load: a game played builds no text (its logs
/// are not made when nothing reads them).
#[test]
fn templates_that_name_ids_build_no_text() {
    use super::templates::BUILT;
    for game in [
        reference!("othello"),
        reference!("mancala"),
        reference!("tic-tac-toe"),
        reference!("dots-and-boxes"),
    ] {
        BUILT.with(|b| b.set(0));
        let (decisions, _) = play(&game);
        assert!(decisions > 5, "{decisions} decisions");
        assert_eq!(BUILT.with(std::cell::Cell::get), 0, "texts built");
    }
}
