//! A table closed by its host (issue #58): every page is told, its links
//! and files are gone and its place is free; and a server full of tables
//! says where they are and how to clear them.

use serde_json::{Value, json};
use tabula::serve::Limits;

use crate::web::{Client, Running, config, get, post, root};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_closes_a_table_and_its_place_and_files_are_freed() {
    let state = tempfile::tempdir().unwrap();
    let mut c = config(&root().join("games"), &[], state.path());
    c.limits = Limits {
        tables: 1,
        ..Limits::default()
    };
    let r = Running::with(c).await;
    let form = json!({"game": "braverats", "seed": 1, "seats": {"blue": "random"}});
    let t = r.open(form.clone()).await;
    let link = |k: &str| t[k].as_str().unwrap().to_string();
    let red_link = t["seats"]["red"].as_str().unwrap().to_string();
    // Full: the refusal names the state folder and how to clear it.
    let (status, v) = post(&r.url("/api/tables"), &form.to_string()).await;
    assert_eq!(status, 400);
    let e = v["error"].as_str().unwrap();
    let dir = state.path().display().to_string();
    for said in [
        "its most (--max-tables)",
        &format!("they are kept in {dir}"),
        "Close the table",
        "--close N",
        "--list-tables",
    ] {
        assert!(e.contains(said), "no `{said}` in {e}");
    }
    assert!(state.path().join("1.yaml").exists());
    let mut red = Client::connect(&r.ws(&red_link)).await;
    let mut watch = Client::connect(&r.ws(&link("spectator"))).await;
    let mut host = Client::connect(&r.ws(&link("host"))).await;
    red.state_where(|v| v["closed"] == false).await;
    // Only the host's link closes.
    watch.send(json!({"type": "close"})).await;
    assert!(watch.error().await.contains("only the host's link"));
    host.send(json!({"type": "close"})).await;
    let last: Value = red.state_where(|v| v["closed"] == true).await;
    assert_eq!(last["notice"]["text"], "The host closed this table.");
    assert_eq!(last["downloads"], false);
    watch.state_where(|v| v["closed"] == true).await;
    // Its links lead nowhere, its files are gone, its place is free.
    for l in [&red_link, &link("host"), &link("spectator")] {
        assert_eq!(get(&r.url(l)).await.0, 404, "{l}");
    }
    assert_eq!(
        get(&r.url(&format!("{}/save.yaml", link("host")))).await.0,
        404
    );
    assert!(!state.path().join("1.yaml").exists());
    assert!(!state.path().join("1.table.json").exists());
    let t2 = r.open(form).await;
    assert_eq!(t2["table"], "2");
    r.stop().await;
}

#[test]
fn the_command_line_lists_and_closes_kept_tables() {
    use crate::common::Test;
    let state = tempfile::tempdir().unwrap();
    let s = tabula::serve::Server::new(config(&root().join("games"), &[], state.path())).unwrap();
    let t = tabula::serve::NewTable {
        game: "braverats".into(),
        seed: Some(1),
        ..Default::default()
    };
    s.open(&t).unwrap();
    s.open(&t).unwrap();
    s.stop();
    let dir = state.path().to_str().unwrap();
    Test::new()
        .args(["serve", "--state", dir, "--list-tables"])
        .stdout_has("2 table(s) in")
        .stdout_has("table 1      braverats      0 move(s), in play")
        .stdout_has("--close N")
        .run();
    Test::new()
        .args(["serve", "--state", dir, "--close", "1"])
        .stdout_has("table 1 closed")
        .run();
    assert!(!state.path().join("1.yaml").exists());
    assert!(!state.path().join("1.table.json").exists());
    assert!(state.path().join("2.yaml").exists());
    Test::new()
        .args(["serve", "--state", dir, "--close", "7"])
        .status(1)
        .stderr_has("no table 7 in")
        .run();
}
