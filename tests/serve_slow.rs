//! `tabula serve` against slow clients (issue #58): connections that
//! never finish their headers, kept-alive connections left idle and pages
//! that stopped answering are closed after their timeouts; one address
//! holds only so many connections; an open page that answers its pings is
//! never cut; and a request from anyone else is answered meanwhile.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use crate::web::{self, Client, Running, root};
use tabula::serve::Limits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn config(state: &std::path::Path, limits: Limits) -> tabula::serve::Config {
    let mut c = web::config(&root().join("games"), &["braverats"], state);
    c.limits = limits;
    c
}

/// A request's first line and Host, and no end to its headers.
async fn slow(addr: SocketAddr) -> TcpStream {
    let mut c = TcpStream::connect(addr).await.unwrap();
    let head = format!("GET / HTTP/1.1\r\nHost: {addr}\r\nX-Slow: ");
    c.write_all(head.as_bytes()).await.unwrap();
    c
}

/// Read until the server closes the connection; how long that took, or
/// None if it was still open after `most`.
async fn closed_within(c: &mut TcpStream, most: Duration) -> Option<Duration> {
    let start = Instant::now();
    let mut buf = [0u8; 4096];
    loop {
        let left = most.checked_sub(start.elapsed())?;
        match tokio::time::timeout(left, c.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0)) | Ok(Err(_)) => return Some(start.elapsed()),
            Ok(Ok(_)) => continue,
        }
    }
}

/// Many connections that never finish their headers: a normal request is
/// answered while they hang, and each is closed once the header timeout
/// has passed. A kept-alive connection with no new request is closed as
/// soon.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_that_never_finish_their_headers_are_closed() {
    let state = tempfile::tempdir().unwrap();
    let limits = Limits {
        header: Duration::from_secs(1),
        ..Limits::default()
    };
    let r = Running::with(config(state.path(), limits)).await;
    let mut hanging = Vec::new();
    for _ in 0..100 {
        hanging.push(slow(r.addr).await);
    }
    let (code, page) = web::get(&r.url("/")).await;
    assert_eq!(code, 200, "{page}");
    for c in &mut hanging {
        let took = closed_within(c, Duration::from_secs(10)).await;
        assert!(
            took.is_some(),
            "a connection that never finished its headers is still open"
        );
    }
    // One whole request, then nothing: closed as soon, not kept forever.
    let mut idle = TcpStream::connect(r.addr).await.unwrap();
    let request = format!("GET /favicon.ico HTTP/1.1\r\nHost: {}\r\n\r\n", r.addr);
    idle.write_all(request.as_bytes()).await.unwrap();
    let took = closed_within(&mut idle, Duration::from_secs(10)).await;
    assert!(
        took.is_some(),
        "an idle kept-alive connection is still open"
    );
    r.stop().await;
}

/// One address holds `per_address` connections; the next is told why and
/// closed, and a place is given back when one closes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_only_so_many_connections() {
    let state = tempfile::tempdir().unwrap();
    let limits = Limits {
        per_address: 6,
        ..Limits::default()
    };
    let r = Running::with(config(state.path(), limits)).await;
    let mut hanging = Vec::new();
    for _ in 0..6 {
        hanging.push(slow(r.addr).await);
    }
    let answer = web::raw(
        r.addr,
        &format!("GET / HTTP/1.1\r\nHost: {}\r\n\r\n", r.addr),
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("--max-per-address"), "{answer}");
    drop(hanging.pop());
    // The server notices the close, then takes a new one.
    let start = Instant::now();
    loop {
        let (code, _) = web::get(&r.url("/favicon.ico")).await;
        if code == 204 {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "{code}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    r.stop().await;
}

/// An open page answers the server's pings and stays past the idle
/// timeout; a page that answers nothing is closed after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_page_stays_and_a_dead_one_is_closed() {
    let state = tempfile::tempdir().unwrap();
    let limits = Limits {
        idle: Duration::from_secs(1),
        ..Limits::default()
    };
    let r = Running::with(config(state.path(), limits)).await;
    let t = r.open(serde_json::json!({"game": "braverats"})).await;
    let spectator = t["spectator"].as_str().unwrap().trim_start_matches("/t/");
    // A dead page: the WebSocket opened, then nothing read or answered.
    let mut dead = TcpStream::connect(r.addr).await.unwrap();
    let upgrade = format!(
        "GET /ws/{spectator} HTTP/1.1\r\nHost: {}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
        r.addr
    );
    dead.write_all(upgrade.as_bytes()).await.unwrap();
    let mut alive = Client::connect(&r.ws(t["host"].as_str().unwrap())).await;
    alive.state_where(|v| v["type"] == "state").await;
    // Three idle timeouts, the live page reading (and so answering pings).
    let until = Instant::now() + Duration::from_secs(3);
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        let _ = tokio::time::timeout(left, alive.next()).await;
    }
    alive.send_text(r#"{"type": "move", "choice": "x"}"#).await;
    let said = alive.error().await;
    assert!(said.contains("cannot move"), "{said}");
    let took = closed_within(&mut dead, Duration::from_secs(10)).await;
    assert!(
        took.is_some(),
        "a page that answers no ping is still connected"
    );
    r.stop().await;
}
