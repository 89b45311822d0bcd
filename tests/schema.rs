//! The JSON Schema editors use (docs/game.schema.json) is the one the
//! format's own types generate, and every shipped game validates against it.

use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_shipped_schema_is_generated_from_the_format() {
    let shipped = std::fs::read_to_string(root().join("docs/game.schema.json")).unwrap();
    assert_eq!(
        shipped.trim_end(),
        tabula::format::schema().trim_end(),
        "docs/game.schema.json is stale: run `tabula schema > docs/game.schema.json`"
    );
}

#[test]
fn every_shipped_game_validates_against_the_schema() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("docs/game.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let mut n = 0;
    for e in std::fs::read_dir(root().join("games")).unwrap() {
        let path = e.unwrap().path();
        let src = std::fs::read_to_string(&path).unwrap();
        assert!(
            src.starts_with("# yaml-language-server: $schema=../docs/game.schema.json"),
            "{}",
            path.display()
        );
        let doc: serde_json::Value = serde_saphyr::from_str(&src).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&doc)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        n += 1;
    }
    assert_eq!(n, 4);
    // And a broken file does not.
    let bad: serde_json::Value =
        serde_saphyr::from_str("id: x\nplayers: 3\nflow: {turn: []}\n").unwrap();
    assert!(!validator.is_valid(&bad));
}

#[test]
fn the_schema_states_each_numbers_range() {
    use tabula::definition::bounds;
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("docs/game.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let valid = |extra: &str| {
        let flow = if extra.starts_with("flow:") {
            ""
        } else {
            "flow: {turn: [{hook: h}]}\n"
        };
        let doc = format!("players: [{{id: a}}, {{id: b}}]\n{flow}{extra}\n");
        let doc: serde_json::Value = serde_saphyr::from_str(&doc).unwrap();
        validator.is_valid(&doc)
    };
    for bad in [
        "match: {wins: 0}",
        "match: {wins: 1001}",
        "match: {wins: 2, max_games: 0}",
        "player_count: 0",
        "cards: {c: {copies: -1}}",
        "cards: {c: {copies: 100001}}",
        "zones: {b: {grid: {rows: 100, columns: 3}}}",
        "zones: {b: {grid: {rows: 3, columns: 0}}}",
        "dice: {d: {faces: 0}}",
        "dice: {d: {faces: 6, count: 0}}",
        "setup: [{put: {zone: z, cards: all, times: 0}}]",
        "setup: [{put: {zone: z, cards: all, count: -1}}]",
        "board: {size: 0}",
        "board: {size: 5, terrain: {pit: [-1]}}",
        "flow: {turn: [{hook: h}], max_turns: 0}",
        "zones: {b: {grid: {rows: {expr: \"\"}, columns: 3}}}",
        "zones: {b: {grid: {rows: {expr: \"2 * n\", param: n}, columns: 3}}}",
        "cards: {c: {copies: {expr: 2}}}",
    ] {
        assert!(!valid(bad), "the schema takes `{bad}`");
    }
    for good in [
        "match: {wins: 1, max_games: 10000}",
        "player_count: {param: size}",
        "cards: {c: {copies: 0}}",
        "cards: {c: {copies: {param: size}}}",
        "zones: {b: {grid: {rows: 99, columns: {param: size}}}}",
        "dice: {d: {faces: [1, 1, 2]}}",
        "dice: {d: {faces: {param: size}, count: 1000}}",
        "setup: [{put: {zone: z, cards: all, times: 100, count: 0}}]",
        "board: {size: 100000, terrain: {pit: [0, {param: size}]}}",
        "flow: {turn: [{hook: h}], max_turns: 1000000}",
        "stats: {s: {start: -5, limit: -1}}",
        "zones: {b: {grid: {rows: {expr: \"2 * size + 1\"}, columns: 3}}}",
        "stats: {s: {start: {expr: \"size - 1\"}}}",
        "vars: {v: {start: {expr: \"size - 1\"}}}",
        "match: {wins: {expr: \"size\"}}",
        "dice: {d: {faces: {expr: \"size * 2\"}}}",
    ] {
        assert!(valid(good), "the schema refuses `{good}`");
    }
    // The numbers are the analyzer's own.
    let wins = &schema["$defs"]["MatchDef"]["properties"]["wins"]["anyOf"][0];
    assert_eq!(wins["minimum"], bounds::WINS.min);
    assert_eq!(wins["maximum"], bounds::WINS.max);
}
