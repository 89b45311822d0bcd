//! Mistakes `check` finds in a script without a playout reaching them: a
//! function that exists nowhere (with the nearest name), a wrong number of
//! arguments, an attribute no card has; and none where the script is
//! right (function pointers, methods, closures, Rhai's own keywords).

use crate::common;

const GAME: &str = r#"
id: slips
script: ../scripts/slips.rhai
players: [{id: red}, {id: blue}]
stats:
  score: {start: 0}
cards:
  sword: {attrs: {power: 3, kind: blade}}
  bow: {attrs: {power: 2, kind: arrow}}
zones:
  hand: {}
setup:
  - put: {zone: hand, cards: all}
flow:
  turn:
    - decide: play
      from: hand
      then: played
"#;

fn problems(script: &str) -> Vec<(String, u32, u32)> {
    let (_tmp, game) = common::load_folder("slips", GAME, script);
    game.call_problems()
        .unwrap()
        .iter()
        .map(|e| {
            let at = e.at.as_ref().expect("a position");
            (e.render(false), at.line, at.col)
        })
        .collect()
}

#[test]
fn a_misspelt_call_never_reached_is_found_with_the_nearest_name() {
    let script = "fn played(c) {\n    if turn() > 1000 {\n        add_stats(\"red\", \"score\", 1);\n    }\n    end_game();\n}\n";
    let found = problems(script);
    assert_eq!(found.len(), 1, "{found:#?}");
    let (text, line, col) = &found[0];
    assert!(
        text.contains("no function `add_stats` in the script or the API"),
        "{text}"
    );
    assert!(text.contains("did you mean `add_stat`"), "{text}");
    assert_eq!((*line, *col), (3, 9), "{text}");
}

#[test]
fn a_script_function_called_with_the_wrong_count_is_found() {
    let script =
        "fn bonus(p) { 1 }\nfn played(c) {\n    let b = bonus(\"red\", 2);\n    end_game();\n}\n";
    let found = problems(script);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0]
            .0
            .contains("`bonus` is called with 2 argument(s); it takes 1"),
        "{}",
        found[0].0
    );
    assert_eq!(found[0].1, 3);
}

#[test]
fn an_attribute_no_card_has_is_found() {
    let script = "fn played(c) {\n    if attr(c.red, \"powr\") == 3 { end_game(\"red\"); }\n    if attr(c.red, \"kind\") == \"blade\" { end_game(); }\n}\n";
    let found = problems(script);
    assert_eq!(found.len(), 1, "{found:#?}");
    let text = &found[0].0;
    assert!(text.contains("no card has an attribute `powr`"), "{text}");
    assert!(
        text.contains("(the cards' attributes: kind, power)"),
        "{text}"
    );
    assert!(text.contains("did you mean `power`"), "{text}");
}

#[test]
fn a_right_script_gives_no_warning() {
    // Methods, closures, function pointers held in variables, Rhai's
    // keywords, API functions, functions given to an ask by name.
    let script = r#"
fn double(x) { x * 2 }
fn played(c) {
    let f = Fn("double");
    let g = |x| x + 1;
    let list = [3, 1, 2];
    list.sort();
    list.push(f.call(2));
    let h = list.map(|x| g.call(x));
    let k = f(4);
    print(type_of(h));
    if is_def_fn("double", 1) { add_stat("red", "score", double(k)); }
    ask("red", "again", ["yes", "no"], "again");
}
fn again(c) {
    end_game();
}
"#;
    assert_eq!(problems(script), Vec::<(String, u32, u32)>::new());
}

fn load_error(script: &str) -> String {
    let (tmp, path) = common::game_folder("slips", GAME, script);
    let dir = tmp.path().join("games");
    let loaded =
        tabula::Game::load_path(&path, &dir, &Default::default(), tabula::Build::default());
    match loaded.and_then(|g| tabula::State::new(&g, 0).map(|_| ())) {
        Err(e) => e.render(false),
        Ok(()) => panic!("the script ran"),
    }
}

#[test]
fn a_brace_left_open_is_pointed_at_where_it_opens() {
    // The `if` lacks its `}`: Rhai stops at `fn again`, five lines on.
    let script = "fn played(c) {\n    if turn() > 1 {\n        end_game();\n\n}\n\nfn again(c) {\n    end_game();\n}\n";
    let err = load_error(script);
    assert!(
        err.contains("the `{` at line 1, column 14 is never closed"),
        "{err}"
    );
    let err = load_error("fn played(c) {\n    end_game();\n}\n}\n");
    assert!(
        err.contains("the `}` at line 4, column 1 closes nothing"),
        "{err}"
    );
}

#[test]
fn a_top_level_const_unseen_in_a_function_says_why() {
    let script = "const GOAL = 3;\nfn played(c) {\n    if turn() >= GOAL { end_game(); }\n}\n";
    let (_tmp, game) = common::load_folder("slips", GAME, script);
    let (mut st, _) = tabula::State::new(&game, 0).unwrap();
    // Every player chooses until the continuation runs and fails.
    let err = loop {
        let p = st.first_waiting().expect("GOAL was found");
        let c = st.legal(p)[0].clone();
        if let Err(e) = st.act(&game, p, c) {
            break e.render(false);
        }
    };
    assert!(err.contains("slips.rhai:3:"), "{err}");
    assert!(
        err.contains("`GOAL` is set at the top level of the script, which a function does not see"),
        "{err}"
    );
}

#[test]
fn a_function_named_like_an_api_function_is_refused_at_its_name() {
    // Mancala's `fn turn()` made every `turn()` call the hook: the turn
    // cap `turn() >= 1001` was `() >= 1001`, quietly false.
    let script = "fn played(c) {\n    if turn() > 3 { end_game(); }\n}\n\nfn turn() {\n    1\n}\n";
    let text = load_error(script);
    assert!(
        text.contains(
            "slips.rhai:5:4: function `turn()` has the name and arity of the API function `turn()`"
        ),
        "{text}"
    );
    assert!(text.contains("rename it (`fn play_turn`, say)"), "{text}");
    // The same name with another arity replaces nothing: it loads.
    let (_tmp, game) = common::load_folder(
        "slips",
        GAME,
        "fn played(c) { end_game(); }\nfn turn(x) { x }\n",
    );
    assert!(tabula::State::new(&game, 0).is_ok());
}

#[test]
fn lint_warns_of_a_function_one_letter_from_an_api_function() {
    let (tmp, _) = common::game_folder(
        "slips",
        GAME,
        "fn played(c) { end_game(); }\n\nfn turns() { played(1) }\nfn spot() { turns() }\nfn x() { spot() }\n",
    );
    let o = crate::common::Test::new()
        .args(["check", "--lint", "--playouts", "1", "--games-dir"])
        .arg(tmp.path().join("games"))
        .run()
        .output;
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("slips.rhai:3:4: function `turns` is one letter from the API function `turn`"),
        "{err}"
    );
    assert!(!err.contains("`spot` is one letter"), "{err}");
}
