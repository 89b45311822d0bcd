//! The charts in docs/ are what their documented commands draw today:
//! a rules change that moves a figure makes this test fail until the
//! chart is drawn again (`TABULA_UPDATE_DOCS=1 cargo test --test
//! docs_charts`, or the command itself).

use crate::common::Test;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// (chart file, the command after `tabula` that draws it, the document
/// that shows it).
const CHARTS: &[(&str, &str, &str)] = &[
    (
        "docs/charts/wound-limit.svg",
        "sweep experior wound_limit=20..200:20 --games 20000 --chart docs/charts/wound-limit.svg",
        "docs/solve.md",
    ),
    (
        "docs/charts/the-path-decks.svg",
        "sweep the-path dragon_decks=1..4 --variant first-completion --games 1000 --chart docs/charts/the-path-decks.svg",
        "docs/tuning-the-path.md",
    ),
    (
        "docs/charts/the-path-fortuna.svg",
        "sweep the-path fortuna_decks=1..3 --variant first-completion --set dragon_decks=4 --games 1000 --chart docs/charts/the-path-fortuna.svg",
        "docs/tuning-the-path.md",
    ),
];

#[test]
fn the_charts_in_the_docs_are_current() {
    for (file, command, doc) in CHARTS {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        assert!(
            text.contains(&format!("tabula {command}")),
            "{doc} does not show the command that draws {file}: tabula {command}"
        );
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("chart.svg");
        let args: Vec<String> = command
            .split_whitespace()
            .map(|a| {
                if a == *file {
                    out.to_string_lossy().into_owned()
                } else {
                    a.to_string()
                }
            })
            .collect();
        let o = Test::new().args(&args).run().output;
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let fresh = std::fs::read_to_string(&out).unwrap();
        let path = root().join(file);
        if std::env::var_os("TABULA_UPDATE_DOCS").is_some() {
            std::fs::write(&path, &fresh).unwrap();
            continue;
        }
        let kept = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            kept == fresh,
            "{file} is not what `tabula {command}` draws now: run it (or TABULA_UPDATE_DOCS=1 cargo test --test docs_charts) and review the chart"
        );
    }
}
