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
