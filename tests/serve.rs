//! `tabula serve` over HTTP and WebSocket, as browsers use it: tables
//! opened, seats joined, whole games played, what each socket was sent,
//! reconnecting, reload, undo by agreement, a restart, and hostile input.

use crate::web;

use crate::web::{Client, Running, get, play_out, post, root};
use serde_json::{Value, json};

fn games() -> std::path::PathBuf {
    root().join("games")
}

async fn seat(r: &Running, t: &Value, p: &str) -> Client {
    Client::connect(&r.ws(t["seats"][p].as_str().unwrap())).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_play_a_whole_game_and_each_is_told_the_result() {
    let state = tempfile::tempdir().unwrap();
    let r = Running::start(&games(), &[], state.path()).await;
    let t = r
        .open(json!({"game": "braverats", "seed": 7, "seats": {"red": "person", "blue": "person"}}))
        .await;
    assert!(t["seats"]["red"].as_str().unwrap().starts_with("/t/"));
    assert_ne!(t["seats"]["red"], t["seats"]["blue"]);
    assert_eq!(t["host"].as_str().unwrap().len(), "/t/".len() + 32);
    let mut watch = Client::connect(&r.ws(t["spectator"].as_str().unwrap())).await;
    let (mut red, mut blue) = (seat(&r, &t, "red").await, seat(&r, &t, "blue").await);
    let first = red
        .state_where(|v| v["options"].as_array().unwrap().len() == 8)
        .await;
    assert_eq!(first["you"], "red");
    assert!(
        first["status"].as_str().unwrap().starts_with("Your turn"),
        "{first}"
    );
    let end = play_out(&mut watch, &mut [("red", &mut red), ("blue", &mut blue)]).await;
    // The same game replayed alone: the same winner.
    let save = get(&r.url(&format!("{}/save.yaml", t["host"].as_str().unwrap()))).await;
    assert_eq!(save.0, 200);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.yaml");
    std::fs::write(&file, &save.1).unwrap();
    let replayed = tabula::replay::play(
        &tabula::replay::Replay::read(&file).unwrap(),
        Some(&file),
        &games(),
    )
    .unwrap();
    let winner = match replayed.state.outcome() {
        Some(tabula::Outcome::Win(p)) => json!(["red", "blue"][p]),
        _ => json!(null),
    };
    assert_eq!(end["view"]["winner"], winner);
    let r_end = red.state_where(|v| v["over"] == true).await;
    // Over, the save is everyone's: nothing is taken back now.
    red.send(json!({"type": "undo"})).await;
    assert!(red.error().await.contains("the game is over"));
    let b_end = blue.state_where(|v| v["over"] == true).await;
    let said = |v: &Value| v["result"].as_str().unwrap().to_string();
    match winner.as_str() {
        Some("red") => {
            assert!(said(&r_end).starts_with("You win"), "{}", said(&r_end));
            assert!(
                said(&b_end).starts_with("You lose: Red wins"),
                "{}",
                said(&b_end)
            );
            assert!(said(&end).starts_with("Red wins"));
        }
        Some(_) => {
            assert!(said(&b_end).starts_with("You win"), "{}", said(&b_end));
            assert!(said(&r_end).starts_with("You lose: Blue wins"));
        }
        None => assert!(said(&r_end).starts_with("A draw")),
    }
    // Each page's log is the game's log as that seat may read it.
    let seen_by = |p: Option<usize>| -> Vec<String> {
        (replayed.log.iter())
            .filter(|e| e.to().is_none() || e.to() == p)
            .map(|e| tabula::phrase(&replayed.game, e))
            .collect()
    };
    assert_eq!(red.log, seen_by(Some(0)));
    assert_eq!(blue.log, seen_by(Some(1)));
    assert_eq!(watch.log, seen_by(None));
    assert!(watch.log.iter().any(|l| l.starts_with("revealed:")));
    r.stop().await;
}

/// Liar's dice with cups: each die rolled is seen by its roller alone,
/// in the view and in the log, and a spectator sees neither.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_socket_is_sent_another_seats_hidden_dice_or_private_lines() {
    let state = tempfile::tempdir().unwrap();
    let dir = root().join("examples/liars-dice/games");
    let r = Running::start(&dir, &["liars-dice"], state.path()).await;
    let t = r
        .open(json!({"game": "liars-dice", "seed": 3, "sets": {"dice": 2}}))
        .await;
    let mut watch = Client::connect(&r.ws(t["spectator"].as_str().unwrap())).await;
    let mut first = seat(&r, &t, "first").await;
    let mut second = seat(&r, &t, "second").await;
    let f = first
        .state_where(|v| !v["options"].as_array().unwrap().is_empty())
        .await;
    let at = |v: &Value| v["version"].as_u64().unwrap();
    let s = second.state_where(|v| at(v) >= at(&f)).await;
    let _ = watch.state_where(|v| at(v) >= at(&f)).await;
    let mine = |c: &Client| -> String {
        c.log
            .iter()
            .find(|l| l.starts_with("You rolled"))
            .cloned()
            .expect("a roll line")
    };
    let (f_line, s_line) = (mine(&first), mine(&second));
    // Each cup's contents, as its owner sees them.
    let cup = |v: &Value, p: &str| v["view"]["zones"]["cup"][p].clone();
    assert!(cup(&f, "first").is_array(), "{}", cup(&f, "first"));
    assert_eq!(cup(&f, "second"), json!({"count": 2}));
    assert_eq!(cup(&s, "first"), json!({"count": 2}));
    let other = &f["players"][1]["zones"];
    assert!(
        other
            .as_array()
            .unwrap()
            .iter()
            .all(|z| z["hidden"] == true || z["count"] == 0)
    );
    // Until the dice are shown, no text sent to a socket holds the other's.
    let end = play_out(
        &mut watch,
        &mut [("first", &mut first), ("second", &mut second)],
    )
    .await;
    assert_eq!(end["over"], true);
    let before_end = |c: &Client| -> Vec<String> {
        c.got
            .iter()
            .take_while(|m| !m.contains("\"over\":true"))
            .cloned()
            .collect()
    };
    if f_line != s_line {
        assert!(before_end(&first).iter().all(|m| !m.contains(&s_line)));
        assert!(before_end(&second).iter().all(|m| !m.contains(&f_line)));
    }
    assert!(watch.got.iter().all(|m| !m.contains("You rolled")));
    assert!(watch.log.iter().all(|l| !l.starts_with("You rolled")));
    // The spectator's log download holds no private line either; the
    // first seat's holds its own.
    let log = get(&r.url(&format!("{}/log.txt", t["spectator"].as_str().unwrap()))).await;
    assert!(!log.1.contains("You rolled"), "{}", log.1);
    let log = get(&r.url(&format!(
        "{}/log.txt",
        t["seats"]["first"].as_str().unwrap()
    )))
    .await;
    assert!(log.1.contains(&f_line));
    r.stop().await;
}

/// In a simultaneous decision a choice made is the chooser's secret.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_choice_is_chosen_to_the_other_seat_and_a_save_is_the_hosts() {
    let state = tempfile::tempdir().unwrap();
    let r = Running::start(&games(), &["braverats"], state.path()).await;
    let t = r.open(json!({"game": "braverats", "seed": 1})).await;
    let (mut red, mut blue) = (seat(&r, &t, "red").await, seat(&r, &t, "blue").await);
    let v = red
        .state_where(|v| !v["options"].as_array().unwrap().is_empty())
        .await;
    red.send(json!({"type": "move", "choice": "prince"})).await;
    let rv = red.state_where(|x| !x["chosen"].is_null()).await;
    assert!(rv["version"].as_u64() > v["version"].as_u64());
    assert_eq!(rv["chosen"], "Prince");
    assert_eq!(rv["view"]["decision"]["chosen"]["red"], "prince");
    assert!(rv["options"].as_array().unwrap().is_empty());
    // That version or a later one: blue's page may first be sent a state
    // past it (its own arrival counted after red's move).
    let bv = blue
        .state_where(|v| v["version"].as_u64() >= rv["version"].as_u64())
        .await;
    assert_eq!(bv["view"]["decision"]["chosen"]["red"], "(chosen)");
    assert_eq!(bv["chosen"], Value::Null);
    assert!(
        blue.got
            .iter()
            .all(|m| !m.contains("\"red\":\"prince\"") && !m.contains("\"chosen\":\"Prince\""))
    );
    // A save tells the seed: the host's to download, not a player's mid-game.
    let seat_save = get(&r.url(&format!(
        "{}/save.yaml",
        t["seats"]["blue"].as_str().unwrap()
    )))
    .await;
    assert_eq!(seat_save.0, 403, "{}", seat_save.1);
    assert!(seat_save.1.contains("once the game is over"));
    let host_save = get(&r.url(&format!("{}/save.yaml", t["host"].as_str().unwrap()))).await;
    assert_eq!(host_save.0, 200);
    assert!(
        host_save.1.contains("seed: 1\n") && host_save.1.contains("red: prince"),
        "{}",
        host_save.1
    );
    // The replay holds the finished decisions only: none yet.
    let replay = get(&r.url(&format!("{}/replay.yaml", t["host"].as_str().unwrap()))).await;
    assert!(replay.1.contains("moves: []"), "{}", replay.1);
    r.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_reconnects_sees_the_game_where_it_is_and_bots_play_on() {
    let state = tempfile::tempdir().unwrap();
    let r = Running::start(&games(), &[], state.path()).await;
    let t = r
        .open(json!({"game": "experior", "seed": 4, "seats": {"elf": "random"}}))
        .await;
    assert_eq!(t["seats"]["elf"], Value::Null);
    let mut human = seat(&r, &t, "human").await;
    let v = human
        .state_where(|v| !v["options"].as_array().unwrap().is_empty())
        .await;
    let o = web::first_option(&v).unwrap();
    human.send(json!({"type": "move", "choice": o})).await;
    // The bot answers: a new round with the human to choose again.
    let v2 = human
        .state_where(|x| x["view"]["turn"].as_u64() > v["view"]["turn"].as_u64())
        .await;
    let log_before = human.log.clone();
    human.close().await;
    let mut again = seat(&r, &t, "human").await;
    let v3 = again.state_where(|x| x["view"] == v2["view"]).await;
    assert_eq!(v3["log"]["reset"], true);
    assert_eq!(again.log, log_before);
    assert_eq!(v3["players"][0]["seat"], "person");
    assert_eq!(v3["players"][1]["seat"], "random");
    r.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_needs_every_person_to_agree() {
    let state = tempfile::tempdir().unwrap();
    let r = Running::start(&games(), &[], state.path()).await;
    let t = r.open(json!({"game": "braverats", "seed": 2})).await;
    let (mut red, mut blue) = (seat(&r, &t, "red").await, seat(&r, &t, "blue").await);
    red.send(json!({"type": "undo"})).await;
    assert_eq!(red.error().await, "nothing to undo");
    let v = red
        .state_where(|v| !v["options"].as_array().unwrap().is_empty())
        .await;
    red.send(json!({"type": "move", "choice": "musician"}))
        .await;
    blue.state_where(|x| x["version"].as_u64() > v["version"].as_u64())
        .await;
    blue.send(json!({"type": "move", "choice": "spy"})).await;
    let round2 = red.state_where(|x| x["view"]["turn"] == 2).await;
    red.send(json!({"type": "undo"})).await;
    let asked = blue.state_where(|x| !x["undo"].is_null()).await;
    assert_eq!(
        asked["undo"],
        json!({"by": "red", "waiting": ["blue"], "you_agree": null})
    );
    assert_eq!(
        asked["view"]["turn"], 2,
        "nothing is undone before blue agrees"
    );
    blue.send(json!({"type": "undo", "agree": false})).await;
    let declined = red
        .state_where(|x| x["undo"].is_null() && !x["notice"].is_null())
        .await;
    assert_eq!(declined["notice"]["text"], "Blue declined the undo.");
    assert_eq!(declined["view"]["turn"], 2);
    red.send(json!({"type": "undo"})).await;
    let dv = declined["version"].as_u64();
    blue.state_where(|x| !x["undo"].is_null() && x["version"].as_u64() > dv)
        .await;
    blue.send(json!({"type": "undo", "agree": true})).await;
    let back = red.state_where(|x| x["view"]["turn"] == 1).await;
    assert_eq!(back["log"]["reset"], true, "the log was rewritten");
    assert_eq!(back["options"].as_array().unwrap().len(), 8);
    assert!(
        back["notice"]["text"]
            .as_str()
            .unwrap()
            .starts_with("Undone")
    );
    assert!(round2["view"]["turn"] == 2);
    r.stop().await;
}

/// The designer's loop: edit the rules, reload the table; a broken file
/// keeps the game as it was and says why, at its line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reload_takes_the_edited_rules_and_keeps_the_game_on_an_error() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("games");
    std::fs::create_dir_all(&game).unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::copy(games().join("experior.yaml"), game.join("experior.yaml")).unwrap();
    std::fs::copy(
        root().join("scripts/experior.rhai"),
        dir.path().join("scripts/experior.rhai"),
    )
    .unwrap();
    let r = Running::start(&game, &["experior"], state.path()).await;
    let t = r.open(json!({"game": "experior", "seed": 5})).await;
    let mut host = Client::connect(&r.ws(t["host"].as_str().unwrap())).await;
    let mut human = seat(&r, &t, "human").await;
    let v = human
        .state_where(|v| !v["options"].as_array().unwrap().is_empty())
        .await;
    human
        .send(json!({"type": "move", "choice": web::first_option(&v).unwrap()}))
        .await;
    let played = host
        .state_where(|x| x["view"]["decision"]["chosen"]["human"] == "(chosen)")
        .await;
    // The human's seat is not the host's: the host cannot move.
    host.send(json!({"type": "move", "choice": "x"})).await;
    assert!(host.error().await.contains("a host link cannot move"));
    human.send(json!({"type": "reload"})).await;
    assert!(human.error().await.contains("only the host"));
    // A broken file: the game is kept, the error says where.
    let path = game.join("experior.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replacen("players:", "players: [", 1)).unwrap();
    host.send(json!({"type": "reload"})).await;
    // The host is told why, at the file; the table only that it failed
    // (an error may quote a move of the open decision).
    let why = host.error().await;
    assert!(why.starts_with("Reload failed, the game is kept"), "{why}");
    assert!(why.contains("experior.yaml"), "{why}");
    let kept = human.state_where(|x| x["notice"]["error"] == true).await;
    let said = kept["notice"]["text"].as_str().unwrap();
    assert!(
        said.starts_with("Reload failed: the game is kept"),
        "{said}"
    );
    assert!(!said.contains("experior.yaml"), "{said}");
    let kept = host.state_where(|x| x["notice"]["error"] == true).await;
    assert_eq!(kept["view"], played["view"]);
    // A rule changed: the table plays on under it, and says what changed.
    std::fs::write(&path, text.replace("name: Experior", "name: Experior Two")).unwrap();
    host.send(json!({"type": "reload"})).await;
    let after = host
        .state_where(|x| x["notice"]["error"] == false && x["title"] == "Experior Two")
        .await;
    assert!(
        after["notice"]["text"]
            .as_str()
            .unwrap()
            .starts_with("Rules reloaded")
    );
    assert_eq!(after["view"]["turn"], played["view"]["turn"]);
    r.stop().await;
}

/// Stopped and started again, a server has its tables back, with the same
/// links and the game where it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_restores_its_tables_from_their_saves() {
    let state = tempfile::tempdir().unwrap();
    let r = Running::start(&games(), &[], state.path()).await;
    let t = r
        .open(json!({"game": "experior", "seed": 9, "seats": {"elf": "mcts:20"}}))
        .await;
    let mut human = seat(&r, &t, "human").await;
    let v = human
        .state_where(|v| !v["options"].as_array().unwrap().is_empty())
        .await;
    human
        .send(json!({"type": "move", "choice": web::first_option(&v).unwrap()}))
        .await;
    let v2 = human
        .state_where(|x| {
            x["view"]["turn"].as_u64() > v["view"]["turn"].as_u64()
                && !x["options"].as_array().unwrap().is_empty()
        })
        .await;
    let log = human.log.clone();
    human.close().await;
    r.stop().await;
    let r2 = Running::start(&games(), &[], state.path()).await;
    let mut again = seat(&r2, &t, "human").await;
    let v3 = again
        .state_where(|x| x["view"]["turn"] == v2["view"]["turn"])
        .await;
    assert_eq!(v3["view"], v2["view"]);
    assert_eq!(again.log, log);
    assert_eq!(v3["players"][1]["seat"], "mcts:20");
    // A new table gets the next number, not one in use.
    let t2 = r2.open(json!({"game": "braverats"})).await;
    assert_eq!(t2["table"], "2");
    r2.stop().await;
}

/// Every input from a browser is a stranger's: refused in words, and the
/// game goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_messages_and_requests_are_refused_and_nothing_is_lost() {
    let state = tempfile::tempdir().unwrap();
    let r = Running::start(&games(), &["braverats"], state.path()).await;
    let t = r.open(json!({"game": "braverats", "seed": 3})).await;
    let mut red = seat(&r, &t, "red").await;
    let v = red
        .state_where(|v| !v["options"].as_array().unwrap().is_empty())
        .await;
    let cases: &[(&str, &str)] = &[
        (
            "{\"type\":\"move\",\"choice\":\"dragon\"}",
            "`dragon` is not a legal choice",
        ),
        ("not json", "not a message this table takes"),
        ("{\"type\":\"fly\"}", "unknown variant `fly`"),
        ("{\"type\":\"move\"}", "missing field `choice`"),
        (
            "{\"type\":\"move\",\"choice\":\"prince\",\"seat\":\"blue\"}",
            "unknown field `seat`",
        ),
        (
            "{\"type\":\"move\",\"choice\":7}",
            "not a message this table takes",
        ),
        ("[1,2,3]", "not a message this table takes"),
    ];
    for (msg, said) in cases {
        red.send_text(msg).await;
        let e = red.error().await;
        assert!(e.contains(said), "{msg}: {e}");
    }
    let big = format!("{{\"type\":\"move\",\"choice\":\"{}\"}}", "x".repeat(5000));
    red.send_text(&big).await;
    assert!(red.error().await.contains("at most 4096 bytes"));
    // The spectator's link cannot move, even naming a seat.
    let mut watch = Client::connect(&r.ws(t["spectator"].as_str().unwrap())).await;
    watch
        .send(json!({"type": "move", "choice": "prince"}))
        .await;
    assert!(watch.error().await.contains("a spectator link cannot move"));
    // After all that, the game is where it was, and a move plays.
    red.send(json!({"type": "move", "choice": "prince"})).await;
    let after = red.state_where(|x| x["chosen"] == "Prince").await;
    assert_eq!(after["view"]["turn"], v["view"]["turn"]);
    red.send(json!({"type": "move", "choice": "spy"})).await;
    assert!(red.error().await.contains("not your turn"));
    // A forged token gets no page and no socket.
    assert_eq!(
        get(&r.url("/t/00000000000000000000000000000000")).await.0,
        404
    );
    assert_eq!(
        get(&r.url("/ws/forged")).await.0,
        400,
        "not a WebSocket request"
    );
    assert!(
        tokio_tungstenite::connect_async(r.ws("/t/forged"))
            .await
            .is_err()
    );
    // Forms refused with 400, and what the refusal says: a game the server
    // does not offer, a save naming a path, seats of no kind or player, and
    // bots that would hold the table's thread for hours.
    let save = "game: ../../etc/passwd\nseed: 1\nmoves: []\n";
    let forms = [
        (json!({"game": "/etc/passwd"}), "is offered here"),
        (json!({"save": save}), ""),
        (
            json!({"game": "braverats", "seats": {"red": "wizard"}}),
            "unknown seat kind `wizard`",
        ),
        (
            json!({"game": "braverats", "seats": {"green": "person"}}),
            "no player `green`",
        ),
        (
            json!({"game": "braverats", "seats": {"blue": "mcts:4000000000"}}),
            "thinks at most",
        ),
        (
            json!({"game": "braverats", "seats": {"blue": "mcts:100000s"}}),
            "thinks at most",
        ),
        (
            json!({"game": "braverats", "seats": {"blue": "best:1000000"}}),
            "thinks at most",
        ),
    ];
    for (form, said) in forms {
        let (code, v) = post(&r.url("/api/tables"), &form.to_string()).await;
        assert_eq!(code, 400, "{form}: {v}");
        assert!(v["error"].as_str().unwrap().contains(said), "{form}: {v}");
    }
    let (code, v) = post(&r.url("/api/tables"), "{\"game\": ").await;
    assert_eq!(code, 400);
    let said = v["error"].as_str().unwrap();
    assert!(said.starts_with("not a table's form"), "{v}");
    // A body past the limit is refused on its declared length, unread.
    let head = format!(
        "POST /api/tables HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{{",
        r.addr,
        2 << 20
    );
    let answer = web::raw(r.addr, &head).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    // Nothing of it reached the table's save.
    let s = get(&r.url(&format!("{}/save.yaml", t["host"].as_str().unwrap()))).await;
    assert!(s.1.contains("red: prince"), "{}", s.1);
    r.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_games_previews_seats_and_opens_a_table_from_a_save() {
    let state = tempfile::tempdir().unwrap();
    let r = Running::start(&games(), &[], state.path()).await;
    let (code, page) = get(&r.url("/")).await;
    assert_eq!(code, 200);
    assert!(page.contains("/assets/app.js"));
    let (code, list) = get(&r.url("/api/games")).await;
    assert_eq!(code, 200);
    let list: Value = serde_json::from_str(&list).unwrap();
    let path = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "the-path")
        .unwrap()
        .clone();
    assert!(
        path["params"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["id"] == "players")
    );
    let (code, v) = post(
        &r.url("/api/preview"),
        &json!({"game": "the-path", "sets": {"players": 3}}).to_string(),
    )
    .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["players"].as_array().unwrap().len(), 3);
    let (code, v) = post(
        &r.url("/api/preview"),
        &json!({"game": "the-path", "sets": {"players": 9}}).to_string(),
    )
    .await;
    assert_eq!(code, 400);
    assert!(v["error"].as_str().unwrap().contains("players"), "{v}");
    // A save from the REPL opens a table where it was.
    let save = "game: braverats\nseed: 5\nmoves:\n  - {red: prince, blue: spy}\n";
    let t = r.open(json!({"save": save})).await;
    let mut red = seat(&r, &t, "red").await;
    let v = red.state_where(|v| v["view"]["turn"] == 2).await;
    assert_eq!(v["options"].as_array().unwrap().len(), 7);
    r.stop().await;
}

/// A friend who joins by link can learn the game: the first screen (and
/// the first after a reload) carries the rules as `tabula rules` prints
/// them, every card's text among them; the screens between do not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_is_sent_the_rules_and_every_cards_text() {
    let state = tempfile::tempdir().unwrap();
    let r = Running::start(&games(), &[], state.path()).await;
    let t = r
        .open(json!({"game": "braverats", "seed": 1, "seats": {"blue": "random"}}))
        .await;
    let mut red = seat(&r, &t, "red").await;
    let first = red.next().await;
    let game = tabula::load("braverats", &games(), &Default::default()).unwrap();
    let expected = tabula::text::rules_text(game.def(), "Parameters", "Variants");
    assert_eq!(first["rules"], json!(expected));
    for c in &game.def().cards {
        assert!(expected.contains(&c.text), "{}", c.id);
    }
    assert!(expected.contains("Cards:") && expected.contains("Parameters"));
    // Later screens leave the rules out.
    let choice = crate::web::first_option(&first).unwrap();
    red.send(json!({"type": "move", "choice": choice})).await;
    let later = red.after(first["version"].as_u64().unwrap()).await;
    assert!(later.get("rules").is_none(), "{later}");
    r.stop().await;
}

/// A pick of several at once is told to the page as what it is: how
/// many, whether the order counts, and the cards to pick from (each with
/// its name), beside the legal sets the page maps a selection to.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pick_is_sent_to_the_page_as_its_count_and_its_cards() {
    let state = tempfile::tempdir().unwrap();
    let r = Running::start(
        &root().join("tests/reference/games"),
        &["hearts"],
        state.path(),
    )
    .await;
    let t = r
        .open(json!({"game": "hearts", "seed": 1,
            "seats": {"east": "random", "south": "random", "west": "random"}}))
        .await;
    let mut north = seat(&r, &t, "north").await;
    let s = north
        .state_where(|v| !v["options"].as_array().unwrap().is_empty())
        .await;
    let pick = &s["pick"];
    assert_eq!(pick["count"], 3, "{s}");
    assert_eq!(pick["ordered"], false);
    let from: Vec<&str> = (pick["from"].as_array().unwrap().iter())
        .map(|o| o["text"].as_str().unwrap())
        .collect();
    assert_eq!(from.len(), 13, "{pick}");
    assert_eq!(pick["from"][0]["name"], "3♣", "{pick}");
    assert_eq!(s["options"].as_array().unwrap().len(), 286);
    // Each option is three of them with spaces between.
    for o in s["options"].as_array().unwrap() {
        let parts: Vec<&str> = o["text"].as_str().unwrap().split(' ').collect();
        assert_eq!(parts.len(), 3);
        assert!(parts.iter().all(|p| from.contains(p)), "{o}");
    }
    // An ordinary ask has none.
    north
        .send(json!({"type": "move", "choice": "3s qh ks"}))
        .await;
    let next = north
        .state_where(|v| v["pick"].is_null() && !v["options"].as_array().unwrap().is_empty())
        .await;
    assert!(
        next["options"][0]["text"].as_str().unwrap().len() <= 3,
        "{next}"
    );
    r.stop().await;
}
