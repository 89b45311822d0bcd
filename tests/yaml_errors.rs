//! A YAML mistake is answered in a designer's words, at the line and
//! column of the offending item: indentation, a list item without `- `, a
//! tab, a second `:`, a `{` never closed, a card typo in a setup list.

use crate::common;

use tabula::Game;

fn error_of(yaml: &str) -> tabula::Error {
    let script =
        std::fs::read_to_string(common::test_games_dir().join("../scripts/tokens.rhai")).unwrap();
    let (tmp, path) = common::game_folder("tokens", yaml, &script);
    let dir = tmp.path().join("games");
    Game::load_path(&path, &dir, &Default::default(), tabula::Build::default())
        .err()
        .expect("the file loaded")
}

#[test]
fn yaml_mistakes_are_said_in_a_designers_words_where_they_are() {
    let base = std::fs::read_to_string(common::test_games_dir().join("tokens.yaml")).unwrap();
    let line_of = |s: &str| base.lines().position(|l| l.contains(s)).unwrap() + 1;
    let trophy = line_of("trophy: {name: Trophy}");
    let put = line_of("- put:");
    let points = line_of("points: {name");
    for (from, to, says, at) in [
        (
            "  trophy: {name: Trophy}",
            "   trophy: {name: Trophy}\n  cup: {name: Cup}",
            "`cup` is 2 spaces in, which lines it up with no key above it (`trophy` on line 7 is 3 spaces in, `cards` on line 6 starts at the margin)",
            (trophy + 1, 3),
        ),
        (
            "  - hook: begin",
            "  - hook: begin\n  hook: again",
            "this line is inside a list (an item starts with `- `, as on line 20) but is no item of it",
            (put + 2, 3),
        ),
        (
            "  trophy: {name: Trophy}",
            "\ttrophy: {name: Trophy}",
            "a tab in the indentation",
            (trophy, 2),
        ),
        (
            "id: tokens",
            "id: tokens\nname: The: game",
            "a second `:` on this line: text that holds `: ` is quoted (`name: \"The: game\"`)",
            (5, 10),
        ),
        (
            "  trophy: {name: Trophy}",
            "  trophy:\n    name: Trophy\n     text: shiny",
            "`text` is 5 spaces in, deeper than `name` on line 8",
            (trophy + 2, 10),
        ),
        (
            "[trophy]}",
            "[trophy}",
            "a `[` closed by the wrong bracket: `[` closes with `]`",
            (put, 32),
        ),
        (
            "[trophy]",
            "[trophy, tropy]",
            "unknown card `tropy`",
            (put, 41),
        ),
    ] {
        let yaml = base.replacen(from, to, 1);
        assert_ne!(yaml, base, "{from}");
        let e = error_of(&yaml);
        assert!(e.message.contains(says), "{to}: {}", e.render(false));
        let got = e.at.as_ref().map(|p| (p.line as usize, p.col as usize));
        assert_eq!(got, Some(at), "{to}: {}", e.render(false));
    }
    // A `{` left open is pointed at, whatever the parser then says.
    let yaml = base.replacen("start: 0}", "start: 0", 1);
    let e = error_of(&yaml);
    let text = e.render(false);
    assert!(
        text.contains(&format!(
            "the `{{` at line {points}, column 11 is not closed on its line"
        )),
        "{text}"
    );
}

#[test]
fn a_number_too_large_to_read_is_said_as_one_out_of_its_range() {
    // What the parser refuses before the analyzer sees it (beyond a
    // 64-bit integer, or not whole) reads as the analyzer's words do: the
    // field, the value as written and the range, at the value.
    let base = std::fs::read_to_string(common::test_games_dir().join("tokens.yaml")).unwrap();
    let huge = "99999999999999999999";
    for (from, to, says, value) in [
        (
            "match: {wins: 3, keep: [points, trophies], starts: winner}",
            format!("match: {{wins: {huge}, keep: [points, trophies], starts: winner}}"),
            format!("`match: wins` is {huge}: give 1 to 1000"),
            huge,
        ),
        (
            "match: {wins: 3, keep: [points, trophies], starts: winner}",
            "match: {wins: 1.5, keep: [points, trophies], starts: winner}".to_string(),
            "`match: wins` is 1.5: give a whole number, 1 to 1000".to_string(),
            "1.5",
        ),
        (
            "match: {wins: 3, keep: [points, trophies], starts: winner}",
            "match:\n  wins: 3\n  max_games: lots\n".to_string(),
            "`match: max_games` is lots: give a whole number (1 to 10000), `{param: NAME}` or `{expr: TEXT}`".to_string(),
            "lots",
        ),
        (
            "trophy: {name: Trophy}",
            format!("trophy: {{name: Trophy, copies: {huge}}}"),
            format!("card `trophy`: `copies` is {huge}: give 0 to 100000"),
            huge,
        ),
        (
            "game: {start: 0}",
            format!("game: {{start: -{huge}}}"),
            format!(
                "var `game`: `start` is -{huge}: give a whole number from -9223372036854775808 to 9223372036854775807"
            ),
            huge,
        ),
    ] {
        let yaml = base.replacen(from, &to, 1);
        assert_ne!(yaml, base, "{from}");
        let e = error_of(&yaml);
        assert_eq!(e.message, says, "{}", e.render(false));
        let (line, text) = yaml
            .lines()
            .enumerate()
            .find(|(_, l)| l.contains(value))
            .unwrap();
        let col = text.find(value).unwrap() + 1;
        let col = if text[..col - 1].ends_with('-') {
            col - 1
        } else {
            col
        };
        let got = e.at.as_ref().map(|p| (p.line as usize, p.col as usize));
        assert_eq!(got, Some((line + 1, col)), "{}", e.render(false));
    }
}
