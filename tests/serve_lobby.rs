//! `tabula serve`'s lobby and its bots against a stranger (issue #58): a
//! lobby turned off or kept to its host, the bots the lobby may seat, and
//! a server-wide budget for bots' thinking, so that a flood of tables of
//! bots cannot take every thread and gigabytes.

use std::time::{Duration, Instant};

use crate::common::Test;
use crate::web::{self, Running, post, root};
use serde_json::json;
use tabula::serve::{Limits, Lobby, NewTable};

fn config(state: &std::path::Path) -> tabula::serve::Config {
    web::config(&root().join("games"), &["braverats"], state)
}

/// The host's table, opened as `tabula serve GAME --bot` does.
fn hosts_table(r: &Running, bot: &str) -> String {
    let t = NewTable {
        game: "braverats".into(),
        seats: vec![("blue".into(), bot.into())],
        ..NewTable::default()
    };
    r.server.open(&t).unwrap().host
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lobby_turned_off_opens_nothing_and_the_hosts_tables_play() {
    let state = tempfile::tempdir().unwrap();
    let mut c = config(state.path());
    c.lobby = Lobby::Off;
    let r = Running::with(c).await;
    let host = tokio::task::block_in_place(|| hosts_table(&r, "random"));
    for path in ["/", "/api/games"] {
        let (code, text) = web::get(&r.url(path)).await;
        assert_eq!(code, 404, "{path}: {text}");
        assert!(text.contains("--no-lobby"), "{path}: {text}");
    }
    for path in ["/api/tables", "/api/preview"] {
        let (code, v) = post(&r.url(path), &json!({"game": "braverats"}).to_string()).await;
        assert_eq!(code, 404, "{path}: {v}");
        assert!(v.to_string().contains("--no-lobby"), "{path}: {v}");
    }
    assert_eq!(r.server.tables().len(), 1);
    let (code, _) = web::get(&r.url(&host)).await;
    assert_eq!(code, 200);
    r.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hosts_lobby_opens_tables_only_with_its_key() {
    let state = tempfile::tempdir().unwrap();
    let mut c = config(state.path());
    c.lobby = Lobby::Host;
    let r = Running::with(c).await;
    let key = r.server.lobby_key.clone().unwrap();
    let form = json!({"game": "braverats"}).to_string();
    for query in ["", "?key=", "?key=0123456789abcdef0123456789abcdef"] {
        let (code, text) = web::get(&r.url(&format!("/{query}"))).await;
        assert_eq!(code, 403, "{query}: {text}");
        assert!(text.contains("--lobby host"), "{text}");
        let (code, v) = post(&r.url(&format!("/api/tables{query}")), &form).await;
        assert_eq!(code, 403, "{query}: {v}");
    }
    assert!(r.server.tables().is_empty());
    let (code, _) = web::get(&r.url(&format!("/?key={key}"))).await;
    assert_eq!(code, 200);
    let (code, v) = web::get(&r.url(&format!("/api/games?key={key}"))).await;
    assert_eq!(code, 200, "{v}");
    let (code, v) = post(&r.url(&format!("/api/tables?key={key}")), &form).await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(r.server.tables().len(), 1);
    r.stop().await;
}

/// The lobby seats only the bots `--lobby-bots` names, asked on a seat or
/// in an uploaded save; the host's own tables seat any.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_seats_only_the_bots_the_host_allows() {
    let state = tempfile::tempdir().unwrap();
    let mut c = config(state.path());
    c.lobby_bots = vec!["random".into(), "mcts:100".into()];
    let r = Running::with(c).await;
    let (_, games) = web::get(&r.url("/api/games")).await;
    let games: serde_json::Value = serde_json::from_str(&games).unwrap();
    assert_eq!(games["bots"], json!(["random", "mcts:100"]));
    let url = r.url("/api/tables");
    let strong = json!({"game": "braverats", "seats": {"blue": "mcts:100000"}});
    let (code, v) = post(&url, &strong.to_string()).await;
    assert_eq!(code, 400, "{v}");
    let said = v["error"].as_str().unwrap();
    assert!(said.contains("--lobby-bots: random, mcts:100"), "{said}");
    let save = "game: braverats\nseed: 1\nseats:\n  red: person\n  blue: best\nmoves: []\n";
    let (code, v) = post(&url, &json!({ "save": save }).to_string()).await;
    assert_eq!(code, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("`best`"), "{v}");
    let weak = json!({"game": "braverats", "seats": {"blue": "mcts:100"}});
    let (code, v) = post(&url, &weak.to_string()).await;
    assert_eq!(code, 200, "{v}");
    tokio::task::block_in_place(|| hosts_table(&r, "mcts:100000"));
    assert_eq!(r.server.tables().len(), 2);
    r.stop().await;
}

/// Tables of bots playing each other: no more bots think at once than
/// the budget, and every table still plays on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_more_bots_think_at_once_than_the_budget() {
    let state = tempfile::tempdir().unwrap();
    let mut c = config(state.path());
    c.limits = Limits {
        thinking: 1,
        ..Limits::default()
    };
    let r = Running::with(c).await;
    let form = json!({"game": "braverats", "seats": {"red": "mcts:1000", "blue": "mcts:1000"}});
    let mut hosts = Vec::new();
    for _ in 0..4 {
        hosts.push(
            r.open(form.clone()).await["host"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    // Each table gets two rounds in (four bot moves), or to its end: a
    // BraveRats game may end in its first round (the Princess takes the
    // Prince).
    let start = Instant::now();
    let over = |h: &str| {
        let table = r
            .server
            .tables()
            .into_iter()
            .find(|t| h.ends_with(&*t.meta.host));
        table.is_some_and(|t| {
            let p = t.published.borrow().clone();
            p.screens.iter().any(|s| s.json.contains("\"over\":true"))
        })
    };
    for h in &hosts {
        loop {
            let (_, log) = web::get(&r.url(&format!("{h}/log.txt"))).await;
            if log.lines().filter(|l| l.starts_with("revealed:")).count() >= 2 || over(h) {
                break;
            }
            assert!(start.elapsed() < Duration::from_secs(120), "{h}: {log}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    assert_eq!(r.server.thinking.most_at_once(), 1);
    r.stop().await;
}

/// The binary's flags reach the server: a lobby kind it does not know is
/// refused at the start, and `--lobby host` prints the lobby's key.
#[test]
fn the_binary_takes_the_lobby_and_budget_flags() {
    let state = tempfile::tempdir().unwrap();
    Test::new()
        .args(["serve", "--port", "0", "--lobby-bots", "random,wizard"])
        .arg("--state")
        .arg(state.path())
        .status(1)
        .stderr_has("--lobby-bots")
        .stderr_has("wizard")
        .run();
    Test::new()
        .args(["serve", "--no-lobby", "--lobby", "host"])
        .status(2)
        .stderr_has("cannot be used with")
        .run();
}
