//! `tabula serve` against the network's strangers: a page of another site
//! that points its name at this machine (DNS rebinding), lobby requests
//! at once racing past `--max-tables`, and spectators filling a table so
//! that its players cannot get in.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::time::Duration;

use crate::common::Test;
use crate::web::{self, Client, Running, post, root};
use futures_util::future::join_all;
use serde_json::{Value, json};
use tabula::serve::Limits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn games() -> std::path::PathBuf {
    root().join("games")
}

/// A GET of `path` with this Host header (none: no Host at all).
fn get_as(path: &str, host: Option<&str>) -> String {
    let host = host.map(|h| format!("Host: {h}\r\n")).unwrap_or_default();
    format!("GET {path} HTTP/1.1\r\n{host}Connection: close\r\n\r\n")
}

/// A WebSocket's opening request for `token`, with this Host header.
fn upgrade_as(token: &str, host: &str) -> String {
    format!(
        "GET /ws/{token} HTTP/1.1\r\nHost: {host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    )
}

/// Write `request` on a new connection: the answer, its head and as
/// much of its body as its Content-Length says.
async fn raw(addr: SocketAddr, request: &str) -> String {
    let mut c = tokio::net::TcpStream::connect(addr).await.unwrap();
    c.write_all(request.as_bytes()).await.unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let text = String::from_utf8_lossy(&got).into_owned();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head.lines().find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case("content-length")
                    .then(|| v.trim().parse::<usize>().ok())?
            });
            if body.len() >= length.unwrap_or(0) {
                return text;
            }
        }
        let n = tokio::time::timeout(Duration::from_secs(30), c.read(&mut buf))
            .await
            .expect("an answer within 30 s")
            .unwrap();
        if n == 0 {
            return text;
        }
        got.extend_from_slice(&buf[..n]);
    }
}

fn status(answer: &str) -> &str {
    answer.split(' ').nth(1).unwrap_or(answer)
}

fn token(link: &Value) -> &str {
    link.as_str().unwrap().trim_start_matches("/t/")
}

/// DNS rebinding: a page of evil.example whose name now leads to
/// 127.0.0.1 is, to the browser, of the same origin as the server. Its
/// requests name evil.example in their Host, and every route refuses
/// them, the WebSocket's upgrade, the downloads and the lobby's form
/// among them; the names the server was started for are answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_naming_another_site_is_refused_on_every_route() {
    let state = tempfile::tempdir().unwrap();
    let r = Running::start(&games(), &["braverats"], state.path()).await;
    let t = r.open(json!({"game": "braverats", "seed": 11})).await;
    let port = r.addr.port();
    let (host, red) = (token(&t["host"]), token(&t["seats"]["red"]));
    let evil = format!("evil.example:{port}");
    let form = "{\"game\": \"braverats\"}";
    let requests = [
        get_as("/", Some(&evil)),
        get_as(&format!("/t/{host}"), Some(&evil)),
        get_as(&format!("/t/{host}/save.yaml"), Some(&evil)),
        get_as(&format!("/t/{red}/log.txt"), Some(&evil)),
        get_as("/api/games", Some(&evil)),
        get_as("/assets/app.js", Some(&evil)),
        get_as("/no/such/page", Some(&evil)),
        upgrade_as(host, &evil),
        upgrade_as(red, &evil),
        format!(
            "POST /api/tables HTTP/1.1\r\nHost: {evil}\r\nOrigin: http://{evil}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{form}",
            form.len()
        ),
        // The server's own name at another port, or at none.
        get_as("/", Some(&format!("localhost:{}", port.wrapping_add(1)))),
        get_as("/", Some("localhost")),
        get_as("/", Some(&format!("127.0.0.1.evil.example:{port}"))),
        // No Host, on HTTP/1.1 and on 1.0: no name to check.
        get_as("/", None),
        "GET / HTTP/1.0\r\n\r\n".to_string(),
        // Two Hosts, or a whole address naming another site.
        format!("GET / HTTP/1.1\r\nHost: {}\r\nHost: {evil}\r\n\r\n", r.addr),
        format!(
            "GET http://{evil}/t/{host} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            r.addr
        ),
    ];
    for request in &requests {
        let answer = raw(r.addr, request).await;
        assert_eq!(status(&answer), "421", "{request}\n->\n{answer}");
        assert!(!answer.contains("seed"), "{answer}");
        assert!(!answer.contains(red), "{answer}");
    }
    let answer = raw(r.addr, &get_as("/", Some(&evil))).await;
    assert!(
        answer.contains("This server does not answer to the name `evil.example"),
        "{answer}"
    );
    assert!(answer.contains(&format!("localhost:{port}")), "{answer}");
    assert!(answer.contains("--public-name"), "{answer}");
    let answer = raw(r.addr, &get_as("/", None)).await;
    assert!(answer.contains("must name the server"), "{answer}");
    // The names it was started for: its address, and this machine's
    // names at its port (any case).
    for name in [
        r.addr.to_string(),
        format!("localhost:{port}"),
        format!("LOCALHOST:{port}"),
        format!("[::1]:{port}"),
    ] {
        let answer = raw(r.addr, &get_as("/", Some(&name))).await;
        assert_eq!(status(&answer), "200", "{name}: {answer}");
        let answer = raw(r.addr, &get_as(&format!("/t/{host}"), Some(&name))).await;
        assert_eq!(status(&answer), "200", "{name}: {answer}");
        let answer = raw(r.addr, &upgrade_as(red, &name)).await;
        assert_eq!(status(&answer), "101", "{name}: {answer}");
    }
    // The refused form opened no table: the next one is table 2.
    let t2 = r.open(json!({"game": "braverats"})).await;
    assert_eq!(t2["table"], "2");
    r.stop().await;
}

/// Names given with --public-name are answered: NAME at any port,
/// NAME:PORT at that port alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn public_names_are_answered_and_no_other() {
    let state = tempfile::tempdir().unwrap();
    let mut config = web::config(&games(), &["braverats"], state.path());
    config.public_names = ["Tables.example.org", "proxy.example:443"]
        .iter()
        .map(|n| n.parse().unwrap())
        .collect();
    let r = Running::with(config).await;
    let port = r.addr.port();
    let answers = [
        (format!("tables.example.org:{port}"), "200"),
        ("tables.example.org".to_string(), "200"),
        ("tables.example.org:8080".to_string(), "200"),
        ("proxy.example:443".to_string(), "200"),
        (format!("localhost:{port}"), "200"),
        (format!("proxy.example:{port}"), "421"),
        ("proxy.example".to_string(), "421"),
        (format!("evil.tables.example.org:{port}"), "421"),
        (format!("evil.example:{port}"), "421"),
    ];
    for (name, code) in answers {
        let answer = raw(r.addr, &get_as("/api/games", Some(&name))).await;
        assert_eq!(status(&answer), code, "{name}: {answer}");
    }
    r.stop().await;
}

/// The binary passes --public-name to the server, and refuses one that is
/// not a name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_answers_to_its_public_names_alone() {
    Test::new()
        .args(["serve", "--public-name", "http://tables.example.org/"])
        .status(2)
        .stderr_has("--public-name")
        .stderr_has("is not a host name")
        .run();
    let state = tempfile::tempdir().unwrap();
    let mut running = Test::new()
        .arg("serve")
        .args(["--port", "0", "--public-name", "tables.example.org"])
        .arg("--state")
        .arg(state.path())
        .spawn();
    let out = running.child.stdout.take().unwrap();
    let addr: SocketAddr = tokio::task::spawn_blocking(move || {
        let lines = BufReader::new(out).lines();
        for line in lines {
            let line = line.unwrap();
            if let Some(rest) = line.strip_prefix("lobby: http://") {
                return rest.split('/').next().unwrap().parse().unwrap();
            }
        }
        panic!("no lobby line");
    })
    .await
    .unwrap();
    let port = addr.port();
    for (name, code) in [
        (format!("tables.example.org:{port}"), "200"),
        (format!("localhost:{port}"), "200"),
        (format!("evil.example:{port}"), "421"),
    ] {
        let answer = raw(addr, &get_as("/", Some(&name))).await;
        assert_eq!(status(&answer), code, "{name}: {answer}");
    }
    running.child.kill().unwrap();
    running.child.wait().unwrap();
}

/// Lobby requests at once: the limit holds, and a refused opening gives
/// its place back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_opened_at_once_never_pass_the_limit() {
    let state = tempfile::tempdir().unwrap();
    let mut config = web::config(&games(), &[], state.path());
    config.limits = Limits {
        tables: 3,
        ..Limits::default()
    };
    let r = Running::with(config).await;
    let url = r.url("/api/tables");
    // Refused after a place is taken (the game is read first): each gives
    // it back.
    for _ in 0..4 {
        let form = json!({"game": "braverats", "seats": {"red": "wizard"}});
        let (code, v) = post(&url, &form.to_string()).await;
        assert_eq!(code, 400, "{v}");
        assert!(v["error"].as_str().unwrap().contains("wizard"), "{v}");
    }
    let forms: Vec<String> = (0..12)
        .map(|i| {
            let game = ["braverats", "experior", "the-path"][i % 3];
            json!({ "game": game }).to_string()
        })
        .collect();
    let answers = join_all(forms.iter().map(|f| post(&url, f))).await;
    let opened = answers.iter().filter(|(code, _)| *code == 200).count();
    assert_eq!(opened, 3, "{answers:?}");
    for (code, v) in answers.iter().filter(|(code, _)| *code != 200) {
        assert_eq!(*code, 400);
        assert!(v["error"].as_str().unwrap().contains("--max-tables"), "{v}");
    }
    let (code, v) = post(&url, &json!({"game": "braverats"}).to_string()).await;
    assert_eq!(code, 400, "{v}");
    r.stop().await;
}

/// Opened, and sent the table's state.
async fn joined(url: &str) -> Client {
    let mut c = Client::connect(url).await;
    c.state_where(|v| v["type"] == "state").await;
    c
}

/// Opened, once the server has seen the pages that close meanwhile close.
async fn eventually(url: &str) -> Client {
    let start = std::time::Instant::now();
    loop {
        match Client::try_connect(url).await {
            Ok(mut c) => {
                c.state_where(|v| v["type"] == "state").await;
                return c;
            }
            Err(e) if start.elapsed().as_secs() > 20 => panic!("{url}: no place given back: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

/// Spectators fill every place they may: the seats and the host still
/// get in, and a seat's page reconnecting while the server still counts
/// its old one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_cannot_lock_the_players_out() {
    let state = tempfile::tempdir().unwrap();
    let mut config = web::config(&games(), &["braverats"], state.path());
    config.limits = Limits {
        per_table: 5,
        ..Limits::default()
    };
    let r = Running::with(config).await;
    let t = r.open(json!({"game": "braverats", "seed": 4})).await;
    let link = |v: &Value| r.ws(v.as_str().unwrap());
    let (spectator, host) = (link(&t["spectator"]), link(&t["host"]));
    let (red, blue) = (link(&t["seats"]["red"]), link(&t["seats"]["blue"]));
    let me = r.addr.to_string();
    let refused = async |v: &Value| raw(r.addr, &upgrade_as(token(v), &me)).await;
    // Five places, three kept (host, red, blue): two spectators.
    let mut watching = vec![joined(&spectator).await, joined(&spectator).await];
    let said = refused(&t["spectator"]).await;
    assert_eq!(status(&said), "503", "{said}");
    assert!(said.contains("kept for the players"), "{said}");
    // Every owner link still gets in, and a spectator still does not.
    let host_page = joined(&host).await;
    let red_page = joined(&red).await;
    let blue_page = joined(&blue).await;
    assert_eq!(status(&refused(&t["spectator"]).await), "503");
    // Red's page reconnects while the server still counts the old one:
    // it gets in, past the five; a third page of red's does not.
    let mut red_again = joined(&red).await;
    let said = refused(&t["seats"]["red"]).await;
    assert_eq!(status(&said), "503", "{said}");
    assert!(said.contains("close one"), "{said}");
    // The new page plays.
    let v = red_again
        .state_where(|v| !v["options"].as_array().unwrap().is_empty())
        .await;
    let o = web::first_option(&v).unwrap();
    red_again.send(json!({"type": "move", "choice": o})).await;
    red_again.state_where(|x| !x["chosen"].is_null()).await;
    // Red's old page closes and a spectator leaves: once the server has
    // seen both go, the spectator's place is a spectator's again (five
    // pages: two spectators, red's, blue's, the host's).
    red_page.close().await;
    watching.pop().unwrap().close().await;
    let back = eventually(&spectator).await;
    assert_eq!(status(&refused(&t["spectator"]).await), "503");
    // Red's page reconnecting still gets in.
    let red_back = joined(&red).await;
    drop((host_page, blue_page, red_again, red_back, back, watching));
    r.stop().await;
}

/// An installed binary's built-in game reloads the binary's own rules:
/// the host's reload says an edit to the written-out copy is not read,
/// and how to make a copy that is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hosts_reload_of_a_built_in_game_says_its_copy_is_not_read() {
    let state = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let mut running = Test::new()
        .args(["serve", "braverats", "--port", "0", "--state"])
        .arg(state.path())
        .current_dir(empty.path())
        .cache(empty.path().join("cache"))
        .env("TABULA_LIBRARY", "embedded")
        .spawn();
    /// The server, stopped however the test ends.
    struct Stopped(std::process::Child);
    impl Drop for Stopped {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let out = running.child.stdout.take().unwrap();
    let _server = Stopped(running.child);
    let (tx, rx) = std::sync::mpsc::channel();
    // Read to the end: a closed pipe would stop the server.
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if let Some(rest) = line.trim_start().strip_prefix("host ") {
                let link = rest.split_whitespace().next().unwrap_or_default();
                let _ = tx.send(
                    link.replacen("http://", "ws://", 1)
                        .replacen("/t/", "/ws/", 1),
                );
            }
        }
    });
    let host = tokio::task::spawn_blocking(move || rx.recv_timeout(Duration::from_secs(60)))
        .await
        .unwrap()
        .expect("a host link");
    let mut c = web::Client::connect(&host).await;
    c.send(serde_json::json!({"type": "reload"})).await;
    let v = c
        .state_where(|x| {
            x["notice"]["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("Rules reloaded"))
        })
        .await;
    let said = v["notice"]["text"].as_str().unwrap();
    assert!(
        said.contains("braverats is a built-in game")
            && said.contains("`tabula copy braverats DIR`")
            && !said.contains(".cache"),
        "{said}"
    );
}
