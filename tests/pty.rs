//! `tabula play` in a pseudo-terminal, as a person sees it: tab completion
//! (a second Tab lists the choices), the hidden hot-seat choice, and the
//! questions before a game with unsaved moves is dropped.
#![cfg(unix)]

use std::time::Duration;

use expectrl::Expect;
use expectrl::session::OsSession as Session;

// The builder the other tests use, shared by path: this binary is apart
// (see tests/lib.rs).
#[path = "common/test.rs"]
#[allow(dead_code)]
mod test;

use test::Test;

fn spawn(args: &[&str], history: &std::path::Path) -> Session {
    spawn_in("games", args, history)
}

/// `spawn` with the games of `games` (a folder of the repository).
fn spawn_in(games: &str, args: &[&str], history: &std::path::Path) -> Session {
    let (cmd, _) = Test::new()
        .games_dir(test::root().join(games))
        .arg("play")
        .args(args)
        .env("TERM", "xterm")
        .env("TABULA_BOT", "mcts")
        .env("TABULA_HISTORY", history)
        // The test's own folder, which outlives the session.
        .home(history.parent().unwrap())
        .command();
    let mut s = Session::spawn(cmd).expect("spawn in a pty");
    s.set_expect_timeout(Some(Duration::from_secs(20)));
    s
}

fn text(c: &expectrl::Captures) -> String {
    String::from_utf8_lossy(c.before()).into_owned()
}

#[test]
fn tab_completes_legal_actions_and_commands() {
    let tmp = tempfile::tempdir().unwrap();
    let mut s = spawn(
        &[
            "braverats",
            "--seed",
            "1",
            "--as",
            "red",
            "--bot",
            "blue=random",
        ],
        &tmp.path().join("h"),
    );
    s.expect("red> ").unwrap();
    // "sp" + Tab -> "spy", the only legal choice starting so.
    s.send("sp\t").unwrap();
    s.expect("spy").unwrap();
    s.send("\r").unwrap();
    s.expect("revealed: Red Spy").unwrap();
    s.expect("red> ").unwrap();
    // A command: "und" + Tab -> "undo".
    s.send("und\t").unwrap();
    s.expect("undo").unwrap();
    s.send("\r").unwrap();
    s.expect("Took back 1 of your decision(s): Red spy")
        .unwrap();
    s.expect("red> ").unwrap();
    s.send("prince\r").unwrap();
    s.expect("revealed: Red Prince").unwrap();
    s.expect("red> ").unwrap();
    s.send("quit\r").unwrap();
    // Unsaved moves: leaving offers a save. A name taken by another file,
    // not replaced, and a save that cannot be written ask again; Enter
    // declines.
    let taken = tmp.path().join("taken.yaml");
    std::fs::write(&taken, "mine").unwrap();
    s.expect("Save the game before leaving?").unwrap();
    s.send(format!("{}\r", taken.display())).unwrap();
    s.expect("exists. Replace it? (y/N)").unwrap();
    s.send("n\r").unwrap();
    s.expect("Save the game before leaving?").unwrap();
    s.send(format!("{}\r", tmp.path().join("no/such/g.yaml").display()))
        .unwrap();
    s.expect("Save the game before leaving?").unwrap();
    s.send("\r").unwrap();
    s.expect(expectrl::Eof).unwrap();
    assert_eq!(std::fs::read_to_string(&taken).unwrap(), "mine");
    // History was kept for the next session.
    let h = std::fs::read_to_string(tmp.path().join("h")).unwrap();
    assert!(
        h.contains("spy") && h.contains("undo") && h.contains("prince"),
        "{h}"
    );
}

#[test]
fn hot_seat_choices_are_hidden() {
    let tmp = tempfile::tempdir().unwrap();
    let mut s = spawn(
        &["braverats", "--seed", "1", "--hot-seat"],
        &tmp.path().join("h"),
    );
    s.expect("Pass the keyboard to Red").unwrap();
    s.expect("press Enter when ready").unwrap();
    s.send("\r").unwrap();
    // Red sees their own hand.
    s.expect("Hand: Musician, Princess").unwrap();
    s.expect("red> ").unwrap();
    s.send("prince\r").unwrap();
    let typed = s.expect("Choice made (hidden)").unwrap();
    let echoed = text(&typed);
    assert!(
        !echoed.contains("prince"),
        "the choice was echoed: {echoed:?}"
    );
    // A fixed-width mask: 16 stars for the 6 letters typed.
    assert!(echoed.contains(&"*".repeat(16)), "masked: {echoed:?}");
    // Blue is asked after a hand-off that clears the screen.
    let handoff = s.expect("Pass the keyboard to Blue").unwrap();
    assert!(!text(&handoff).contains("prince"));
    s.expect("press Enter when ready").unwrap();
    s.send("\r").unwrap();
    let blue = s.expect("blue> ").unwrap();
    let screen = text(&blue);
    assert!(screen.contains("\x1b[2J"), "the screen was cleared");
    assert!(screen.contains("\x1b[3J"), "and the scrollback");
    // Blue's view: red's hand is hidden, and nothing says what red chose.
    let after_clear = screen.rsplit("\x1b[2J").next().unwrap_or("");
    assert!(
        after_clear.contains("Hand: 8 card(s), hidden"),
        "{after_clear:?}"
    );
    assert!(
        !after_clear.contains("Red Prince") && !after_clear.contains("revealed"),
        "{after_clear:?}"
    );
    s.send("wizard\r").unwrap();
    s.expect("revealed: Red Prince, Blue Wizard").unwrap();
    s.expect("Pass the keyboard to Red").unwrap();
    s.expect("press Enter when ready").unwrap();
    s.send("\r").unwrap();
    s.expect("red> ").unwrap();
    // Secret choices stay out of the history.
    s.send("quit\r").unwrap();
    s.expect("Save the game before leaving?").unwrap();
    s.send("\r").unwrap();
    s.expect(expectrl::Eof).unwrap();
    let h = std::fs::read_to_string(tmp.path().join("h")).unwrap_or_default();
    assert!(!h.contains("prince") && !h.contains("wizard"), "{h}");
}

#[test]
fn ctrl_c_while_a_bot_thinks_pauses_it_and_keeps_the_game() {
    let tmp = tempfile::tempdir().unwrap();
    let mut s = spawn(
        &[
            "braverats",
            "--seed",
            "1",
            "--as",
            "red",
            "--bot",
            "blue=mcts:4s",
        ],
        &tmp.path().join("h"),
    );
    s.expect("red> ").unwrap();
    s.send("spy\r").unwrap();
    s.expect("(Blue is thinking...)").unwrap();
    // The terminal turns Ctrl-C into SIGINT while no line is being read.
    s.send([3u8]).unwrap();
    // The bot finishes the decision it was making, then stops.
    s.expect("revealed: Red Spy").unwrap();
    // Red's Spy makes Blue reveal first next round: the bots wait at "> ",
    // and Enter lets Blue go on.
    s.expect("Ctrl-C never ends a game").unwrap();
    s.expect("> ").unwrap();
    s.send("\r").unwrap();
    s.expect("red> ").unwrap();
    s.send("prince\r").unwrap();
    s.expect("revealed: Red Prince").unwrap();
    // Blue searches for a time, so its card varies: a Princess against
    // the Prince wins it the game. Either way a prompt follows.
    s.expect("> ").unwrap();
    s.send("quit\r").unwrap();
    if s.expect("Save the game before leaving?").is_ok() {
        s.send("\r").unwrap();
    }
    s.expect(expectrl::Eof).unwrap();
}

#[test]
fn a_second_tab_lists_the_choices_rather_than_cycling_through_them() {
    let tmp = tempfile::tempdir().unwrap();
    let mut s = spawn(
        &[
            "braverats",
            "--seed",
            "1",
            "--as",
            "red",
            "--bot",
            "blue=random",
        ],
        &tmp.path().join("h"),
    );
    s.expect("red> ").unwrap();
    // "pri" + Tab: "prince", what Prince and Princess share; Tab again
    // lists both under the line and leaves it as it was (cycling would
    // have made it "princess").
    s.send("pri\t").unwrap();
    s.expect("prince").unwrap();
    s.send("\t").unwrap();
    s.expect("princess").unwrap();
    s.expect("red> prince").unwrap();
    s.send("\r").unwrap();
    s.expect("revealed: Red Prince").unwrap();
    s.expect("red> ").unwrap();
    s.send("quit\r").unwrap();
    s.expect("Save the game before leaving?").unwrap();
    s.send("\r").unwrap();
    s.expect(expectrl::Eof).unwrap();
}

#[test]
fn a_finished_game_with_unsaved_moves_is_dropped_only_when_asked() {
    let tmp = tempfile::tempdir().unwrap();
    let save = tmp.path().join("start.yaml");
    let save = save.to_str().unwrap();
    let mut s = spawn_in(
        "tests/games",
        &["commands", "--seed", "1", "--as", "a", "--bot", "b=random"],
        &tmp.path().join("h"),
    );
    s.expect("a> ").unwrap();
    s.send(format!("save {save}\r")).unwrap();
    s.expect("(0 moves)").unwrap();
    s.send("pass\r").unwrap();
    s.expect("Game over").unwrap();
    s.expect("> ").unwrap();
    // `load` and `new` ask first, as for a game in progress; No keeps it.
    s.send(format!("load {save}\r")).unwrap();
    s.expect("The finished game (1 moves) is not saved. Load anyway? (y/N)")
        .unwrap();
    s.send("n\r").unwrap();
    s.expect("Nothing done.").unwrap();
    s.send("new\r").unwrap();
    s.expect("The finished game (1 moves) is not saved. Start a new one anyway? (y/N)")
        .unwrap();
    s.send("\r").unwrap();
    s.expect("Nothing done.").unwrap();
    // Leaving offers to save it, and it is saved.
    s.send("quit\r").unwrap();
    s.expect("Save the game before leaving?").unwrap();
    let end = tmp.path().join("end.yaml");
    s.send(format!("{}\r", end.display())).unwrap();
    s.expect("(1 moves).").unwrap();
    s.expect(expectrl::Eof).unwrap();
    let saved = std::fs::read_to_string(&end).unwrap();
    assert!(saved.contains("a: pass"), "{saved}");
}

/// A pick of two cards: Tab completes each card from those not typed yet,
/// in any order (`six` and then `one`, though `one` is listed first).
#[test]
fn tab_completes_a_pick_card_by_card_in_any_order() {
    let tmp = tempfile::tempdir().unwrap();
    let mut s = spawn_in(
        "tests/games",
        &["swap", "--seed", "3", "--as", "red", "--bot", "blue=random"],
        &tmp.path().join("h"),
    );
    s.expect("pick 2 cards, in any order").unwrap();
    s.expect("red> ").unwrap();
    s.send("si\t").unwrap();
    s.expect("six").unwrap();
    s.send("o\t").unwrap();
    s.expect("six one").unwrap();
    s.send("\r").unwrap();
    s.expect("Two cards change hands each way.").unwrap();
    s.expect("you know 1, 6 among them").unwrap();
    s.expect("red> ").unwrap();
    s.send("quit\r").unwrap();
    s.expect("Save the game before leaving?").unwrap();
    s.send("\r").unwrap();
    s.expect(expectrl::Eof).unwrap();
}
