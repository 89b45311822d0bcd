//! Rules are read at run time: editing a copy of the games folder changes the
//! next run of the same binary, with no rebuild.

use crate::common::Test;
use std::path::{Path, PathBuf};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

fn replay_json(games: &Path, replay: &Path) -> serde_json::Value {
    let o = Test::new()
        .args([
            "--games-dir",
            games.to_str().unwrap(),
            "replay",
            replay.to_str().unwrap(),
            "--json",
        ])
        .run()
        .output;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_str(&String::from_utf8_lossy(&o.stdout)).unwrap()
}

#[test]
fn editing_experior_yaml_changes_the_next_run() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    copy_dir(&root.join("games"), &games);
    copy_dir(&root.join("scripts"), &tmp.path().join("scripts"));
    let replay = tmp.path().join("r.yaml");
    std::fs::write(
        &replay,
        "game: experior\nmoves:\n  - {human: strong-sword, elf: strong-bow}\n",
    )
    .unwrap();

    let before = replay_json(&games, &replay);
    assert_eq!(before["players"]["elf"]["wounds"], 9);
    assert_eq!(before["over"], false);

    // A designer doubles the human's sword and lowers the wound limit.
    let yaml = games.join("experior.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    let edited = text
        .replace(
            "sword: {name: Sword, start: {human: 3, elf: 2}",
            "sword: {name: Sword, start: {human: 6, elf: 2}",
        )
        .replace("wound_limit: {default: 100,", "wound_limit: {default: 10,");
    assert_ne!(text, edited, "the edit must hit the file");
    std::fs::write(&yaml, edited).unwrap();

    let after = replay_json(&games, &replay);
    // 3 x 6 = 18 >= 10: the game ends; human spread 7-2 = 5 > elf 1: bonus
    // 3 x 7 = 21 -> 39.
    assert_eq!(after["over"], true);
    assert_eq!(after["winner"], "human");
    assert_eq!(after["players"]["elf"]["wounds"], 39);

    // And the script too: a designer makes quick attacks deal double.
    let script = tmp.path().join("scripts/experior.rhai");
    let text = std::fs::read_to_string(&script).unwrap();
    let edited = text.replace("{ 3 * xp } else { xp }", "{ 3 * xp } else { 2 * xp }");
    assert_ne!(text, edited);
    std::fs::write(&script, edited).unwrap();
    std::fs::write(
        &replay,
        "game: experior\nmoves:\n  - {human: quick-sword, elf: strong-bow}\n",
    )
    .unwrap();
    let quick = replay_json(&games, &replay);
    // 2 x sword 6 = 12 (not 6) reaches the limit; then the bonus 3 x 7 = 21.
    assert_eq!(quick["players"]["elf"]["wounds"], 33);
}
