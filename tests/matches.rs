//! Matches that carry state (tests/games/tokens.yaml): kept stats and
//! zones, who starts each game, and the match score a script reads.

use crate::common;

use tabula::{Game, State};

use crate::common::play_move as play;

fn tokens(variants: &[&str]) -> Game {
    let settings = common::settings(variants, &[]);
    tabula::load("tokens", &common::test_games_dir(), &settings)
        .unwrap_or_else(|e| panic!("{}", e.render(false)))
}

fn stat(g: &Game, st: &State, p: &str, s: &str) -> i64 {
    let d = g.def();
    st.stat(g, d.player(p).unwrap(), d.stat(s).unwrap())
}

fn var(g: &Game, st: &State, v: &str) -> i64 {
    st.var(g.def().var(v).unwrap())
}

fn active(g: &Game, st: &State) -> String {
    g.def().players[st.active()].id.clone()
}

fn trophies(g: &Game, st: &State, p: &str) -> usize {
    let d = g.def();
    st.zone(g, d.zone("trophies").unwrap(), d.player(p).unwrap())
        .len()
}

/// The active player says who wins this game.
fn say(g: &Game, st: &mut State, winner: &str) {
    let me = active(g, st);
    let word = if me == winner { "mine" } else { "yours" };
    play(g, st, &[(&me, word)]);
}

#[test]
fn kept_stats_and_zones_carry_over_and_the_rest_starts_again() {
    let g = tokens(&[]);
    let (mut st, _) = State::new(&g, 1).unwrap();
    assert_eq!((var(&g, &st, "game"), active(&g, &st)), (1, "red".into()));
    say(&g, &mut st, "blue");
    // Game 2: Blue's point and trophy are kept; moves start again.
    assert_eq!(st.game_no(), 2);
    assert_eq!(stat(&g, &st, "blue", "points"), 1);
    assert_eq!(trophies(&g, &st, "blue"), 1);
    assert_eq!(stat(&g, &st, "red", "moves"), 0);
    // Setup ran again, and reads the match as it stands.
    assert_eq!(var(&g, &st, "game"), 2);
    assert_eq!(
        (var(&g, &st, "red_wins"), var(&g, &st, "blue_wins")),
        (0, 1)
    );
    say(&g, &mut st, "red");
    say(&g, &mut st, "blue");
    assert_eq!(stat(&g, &st, "blue", "points"), 2);
    assert_eq!(stat(&g, &st, "red", "points"), 1);
    assert_eq!(trophies(&g, &st, "blue"), 2);
    assert_eq!(
        (var(&g, &st, "red_wins"), var(&g, &st, "blue_wins")),
        (1, 2)
    );
    say(&g, &mut st, "blue");
    assert_eq!(st.outcome(), Some(tabula::Outcome::Win(1)));
}

#[test]
fn the_winner_the_loser_or_the_next_seat_starts_the_next_game() {
    // (variant, who wins each game) -> who starts each game after.
    for (variant, wins, starts) in [
        ("", ["blue", "blue", "red"], ["red", "blue", "blue", "red"]),
        (
            "loser",
            ["blue", "blue", "red"],
            ["red", "red", "red", "blue"],
        ),
        (
            "next",
            ["blue", "blue", "red"],
            ["red", "blue", "red", "blue"],
        ),
    ] {
        let variants: Vec<&str> = [variant].into_iter().filter(|v| !v.is_empty()).collect();
        let g = tokens(&variants);
        let (mut st, _) = State::new(&g, 1).unwrap();
        let mut seen = vec![active(&g, &st)];
        for w in wins {
            say(&g, &mut st, w);
            seen.push(active(&g, &st));
        }
        assert_eq!(seen, starts, "{variant:?}");
    }
    // Without `keep`, nothing carries over.
    let g = tokens(&["next"]);
    let (mut st, _) = State::new(&g, 1).unwrap();
    say(&g, &mut st, "blue");
    assert_eq!(stat(&g, &st, "blue", "points"), 0);
    assert_eq!(trophies(&g, &st, "blue"), 0);
}

#[test]
fn a_kept_id_that_is_nothing_is_refused_with_a_guess() {
    let yaml = std::fs::read_to_string(common::test_games_dir().join("tokens.yaml"))
        .unwrap()
        .replacen(
            "keep: [points, trophies], starts: winner",
            "keep: [point, trophies], starts: winner",
            1,
        );
    let script =
        std::fs::read_to_string(common::test_games_dir().join("../scripts/tokens.rhai")).unwrap();
    let (tmp, path) = common::game_folder("tokens", &yaml, &script);
    let dir = tmp.path().join("games");
    let e = Game::load_path(&path, &dir, &Default::default(), tabula::Build::default())
        .err()
        .expect("loaded");
    let text = e.render(false);
    assert!(
        text.contains("`match: keep` has `point`, which is no stat, var or zone"),
        "{text}"
    );
    assert!(text.contains("did you mean `points`"), "{text}");
    assert!(text.contains("tokens.yaml:28:25"), "{text}");
}
