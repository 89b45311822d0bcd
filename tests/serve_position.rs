//! `serve --from FILE` (docs/serve.md): a table started from a position
//! file, as `play --from` plays it; a bad file is refused at the start
//! with its problems at their line and column.

use serde_json::json;
use tabula::serve::NewTable;

use crate::common::{self, Test};
use crate::web::{self, Client, Running};

fn reference() -> std::path::PathBuf {
    web::root().join("tests/reference/games")
}

/// Breakthrough 5x4 with Black one step from the far row.
const BLACK_WINS: &str = common::BREAKTHROUGH_BLACK_WINS;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_starts_from_a_position() {
    let state = tempfile::tempdir().unwrap();
    let r = Running::start(&reference(), &[], state.path()).await;
    // As `--from` opens it: the file's game, a bot on the seat asked.
    let t = NewTable {
        save: Some(BLACK_WINS.into()),
        save_name: Some("win.yaml".into()),
        seats: vec![("white".into(), "random".into())],
        ..NewTable::default()
    };
    let o = tokio::task::block_in_place(|| r.server.open(&t)).unwrap();
    assert_eq!(o.game, "breakthrough");
    assert_eq!(o.seats["white"], None, "white is the bot's");
    let mut black = Client::connect(&r.ws(o.seats["black"].as_ref().unwrap())).await;
    let first = black
        .state_where(|v| v.to_string().contains("a2b1"))
        .await
        .to_string();
    assert!(first.contains("\"turn\":9"), "{first}");
    black.send(json!({"type": "move", "choice": "a2b1"})).await;
    let end = black
        .state_where(|v| v.to_string().contains("You win"))
        .await;
    assert!(end.to_string().contains("You win"), "{end}");
    black.close().await;
    // And through the lobby's form, as an uploaded save.
    let v = r.open(json!({ "save": BLACK_WINS })).await;
    assert_eq!(v["game"], "breakthrough");
    r.stop().await;
}

/// The flag reaches the server, and a bad file stops it at the start,
/// each problem at its place in the file.
#[test]
fn serve_from_a_bad_position_says_where() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("bad.yaml");
    std::fs::write(&path, BLACK_WINS.replace("active: black", "active: blak")).unwrap();
    Test::new()
        .games_dir(reference())
        .args(["serve", "--port", "0", "--no-lobby", "--from"])
        .arg(&path)
        .arg("--state")
        .arg(tmp.path().join("state"))
        .status(1)
        .stderr_has("bad.yaml:5:11: no player `blak`: did you mean `black`?")
        .run();
}
