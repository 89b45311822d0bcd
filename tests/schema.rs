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
