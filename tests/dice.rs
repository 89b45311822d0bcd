//! Dice: numeric faces, dice rolled into zones (`count:`), a private roll
//! under a cup, dice kept aside and re-rolled (tests/games/three-dice.yaml,
//! examples/liars-dice).

use crate::common;
use crate::common::Test;

use std::path::PathBuf;

use tabula::view::{ZoneView, render, view};
use tabula::{Game, State};

use crate::common::play_move as play;

const TOSS: &str = "\
id: toss
players: [{id: red, name: Red}, {id: blue, name: Blue}]
dice:
  d6: {faces: 6}
  odd: {faces: [1, 1, 2, 3]}
  coin: {faces: [heads, tails]}
vars:
  face: {start: 0}
  sum: {start: 0}
  coin: {start: 0}
flow:
  turn:
    - roll: d6
      set: face
    - roll: coin
      set: coin
    - roll: odd
      then: added
    - decide: go_on
      who: red
      options: [again]
      then: again
";

const TOSS_SCRIPT: &str = "\
fn added(face) {
    // A die of numbers hands its hook an integer.
    add_var(\"sum\", face + roll(\"d6\") * 0 + die_face(\"d6\", 0) - 1);
}
fn again(choice) {}
";

fn var(game: &Game, st: &State, id: &str) -> i64 {
    st.var(game.def().var(id).unwrap())
}

#[test]
fn a_die_of_numbers_gives_numbers_and_a_die_of_words_gives_words() {
    let (_tmp, game) = common::load_folder("toss", TOSS, TOSS_SCRIPT);
    let mut seen = std::collections::BTreeSet::new();
    let mut coins = std::collections::BTreeSet::new();
    let (mut st, _) = State::new(&game, 3).unwrap();
    let mut sum = 0;
    for _ in 0..200 {
        let face = var(&game, &st, "face");
        assert!(
            (1..=6).contains(&face),
            "a numeric die's `set:` keeps its face: {face}"
        );
        seen.insert(face);
        coins.insert(var(&game, &st, "coin"));
        let before = var(&game, &st, "sum");
        assert!(
            before - sum >= 1 && before - sum <= 3 || before == 0,
            "{before} after {sum}"
        );
        sum = before;
        play(&game, &mut st, &[("red", "again")]);
    }
    assert_eq!(seen.len(), 6, "every face comes up: {seen:?}");
    // A word die's `set:` keeps the index, as before.
    assert_eq!(coins.into_iter().collect::<Vec<_>>(), [0, 1]);
}

#[test]
fn a_die_the_file_gets_wrong_is_refused_where_it_is_written() {
    for (from, to, says) in [
        (
            "{faces: [1, 1, 2, 3], count: 2}",
            "{faces: [1, two]}",
            "mixes numbers and words",
        ),
        ("{faces: 6}", "{faces: 0}", "`faces` is 0: give 1 to 1000"),
        ("{faces: 6}", "{faces: []}", "has no faces"),
        (
            "{faces: 6}",
            "{faces: 6, count: 0}",
            "`count` is 0: give 1 to 1000",
        ),
        ("{faces: 6}", "{faces: {param: sides}}", "sides"),
        (
            "vars:",
            "zones:\n  odd-box: {per: game}\nvars:",
            "keeps its dice in a zone `odd-box`",
        ),
        (
            "vars:",
            "cards:\n  odd-2: {name: Two}\nvars:",
            "makes a card `odd-2`",
        ),
    ] {
        // The odd die has dice to roll into zones.
        let base = TOSS.replace("{faces: [1, 1, 2, 3]}", "{faces: [1, 1, 2, 3], count: 2}");
        let yaml = base.replacen(from, to, 1);
        assert_ne!(yaml, base, "{from}");
        common::refused("toss", &yaml, TOSS_SCRIPT, says, 3);
    }
}

fn three_dice() -> Game {
    common::test_game("three-dice")
}

fn faces(game: &Game, st: &State, owner: &str, zone: &str) -> Vec<i64> {
    match &view(game, st, None).unwrap().zones[zone][owner] {
        ZoneView::Cards(c) => c
            .iter()
            .map(|id| id.strip_prefix("d6-").unwrap().parse().unwrap())
            .collect(),
        other => panic!("{zone} is not public: {other:?}"),
    }
}

#[test]
fn dice_kept_aside_stay_and_the_others_are_rolled_again() {
    let game = three_dice();
    for seed in 0..20 {
        let (mut st, _) = State::new(&game, seed).unwrap();
        let rolled = faces(&game, &st, "red", "rolled");
        assert_eq!(rolled.len(), 3);
        let keep = rolled[0];
        play(&game, &mut st, &[("red", &format!("keep {keep}"))]);
        assert_eq!(faces(&game, &st, "red", "kept"), [keep]);
        let said = play(&game, &mut st, &[("red", "reroll")]);
        let again = faces(&game, &st, "red", "rolled");
        assert_eq!(again.len(), 2);
        assert_eq!(faces(&game, &st, "red", "kept"), [keep]);
        // What the script was handed is what lies in the zone.
        let line = said.iter().find(|l| l.starts_with("Red re-rolls")).unwrap();
        let mut told: Vec<i64> = line
            .trim_start_matches("Red re-rolls: [")
            .trim_end_matches("].")
            .split(", ")
            .map(|n| n.parse().unwrap())
            .collect();
        told.sort();
        let mut lying = again.clone();
        lying.sort();
        assert_eq!(told, lying, "{line}");
        play(&game, &mut st, &[("red", "stop")]);
        let d = game.def();
        let total = st.stat(&game, d.player("red").unwrap(), d.stat("total").unwrap());
        assert_eq!(total, keep + again.iter().sum::<i64>());
        // Red's dice went back to the box, and Blue rolled three.
        assert_eq!(faces(&game, &st, "red", "rolled"), Vec::<i64>::new());
        assert_eq!(faces(&game, &st, "blue", "rolled").len(), 3);
        assert!(legal(&game, &st, "blue").contains(&"reroll".to_string()));
    }
}

fn legal(game: &Game, st: &State, p: &str) -> Vec<String> {
    st.legal(game.def().player(p).unwrap())
        .iter()
        .map(|c| c.text(game).to_string())
        .collect()
}

#[test]
fn every_face_comes_up_about_as_often_when_rolled_into_a_zone() {
    let game = three_dice();
    let mut by_face = [0u32; 7];
    for seed in 0..600 {
        let (st, _) = State::new(&game, seed).unwrap();
        for f in faces(&game, &st, "red", "rolled") {
            by_face[f as usize] += 1;
        }
    }
    // 1,800 dice: each face 300 expected, sd about 16.
    for (f, &n) in by_face.iter().enumerate().skip(1) {
        assert!(
            (230..=370).contains(&n),
            "face {f}: {n} of 1800 ({by_face:?})"
        );
    }
}

#[test]
fn more_dice_than_the_game_has_is_an_error_that_says_so() {
    let script = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/three-dice.rhai"),
    )
    .unwrap()
    .replace(
        "roll_into(active(), \"rolled\", \"d6\", 3);",
        "roll_into(active(), \"rolled\", \"d6\", 3);\n    roll_into(active(), \"kept\", \"d6\", 1);",
    );
    let yaml = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/games/three-dice.yaml"),
    )
    .unwrap();
    let (tmp, path) = common::game_folder("three-dice", &yaml, &script);
    let dir = tmp.path().join("games");
    let g = Game::load_path(&path, &dir, &Default::default(), tabula::Build::default()).unwrap();
    let err = State::new(&g, 1).map(|_| ()).unwrap_err().render(false);
    assert!(
        err.contains("1 dice `d6` asked for, and 3 of the game's 3 are out of their box"),
        "{err}"
    );
    assert!(err.contains("three-dice.rhai:3:"), "{err}");
}

fn liars_dice(dice: i64) -> Game {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/liars-dice/games");
    let settings = common::settings(&[], &[("dice", dice)]);
    Game::load_path(
        &root.join("liars-dice.yaml"),
        &root,
        &settings,
        tabula::Build::default(),
    )
    .unwrap()
}

#[test]
fn a_roll_under_a_cup_is_seen_by_its_roller_only() {
    let game = liars_dice(2);
    let (st, events) = State::new(&game, 5).unwrap();
    let (first, second) = (Some(0), Some(1));
    let ZoneView::Cards(mine) = &view(&game, &st, first).unwrap().zones["cup"]["first"] else {
        panic!("the roller does not see their cup")
    };
    assert_eq!(mine.len(), 2);
    assert!(mine.iter().all(|c| c.starts_with("die-")), "{mine:?}");
    assert_eq!(
        view(&game, &st, second).unwrap().zones["cup"]["first"],
        ZoneView::Count { count: 2 }
    );
    assert_eq!(
        view(&game, &st, None).unwrap().zones["cup"]["first"],
        ZoneView::Count { count: 2 }
    );
    let board = render(&game, &st, second).unwrap();
    assert!(board.contains("Under the cup: 2 dice, hidden"), "{board}");
    // The roll is told to the roller alone.
    let told: Vec<(Option<usize>, &str)> = events
        .iter()
        .filter_map(|e| match e {
            tabula::Event::Log { to, text } => Some((*to, text.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(told.len(), 2, "{told:?}");
    assert!(
        told.iter()
            .all(|(to, l)| to.is_some() && l.starts_with("You rolled")),
        "{told:?}"
    );
}

#[test]
fn the_rules_list_dice_under_dice_not_cards() {
    let out = Test::new()
        .args(["rules", "three-dice", "--games-dir"])
        .arg(common::test_games_dir())
        .run()
        .output;
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\nDice:\n"), "{text}");
    assert!(
        text.contains("d6               d6 x3: 1, 2, 3, 4, 5, 6"),
        "{text}"
    );
    assert!(
        text.contains("coin             coin: heads, tails"),
        "{text}"
    );
    assert!(!text.contains("Cards:"), "{text}");
}
