//! The server's routes: the page and its assets from the binary, the
//! lobby's API, downloads, and one WebSocket per open page. Every request
//! is a stranger's: it must call the server by a name it answers to
//! ([`super::host`]), tokens are looked up, bodies and messages bounded
//! and parsed as data, and a refusal is answered with a sentence.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Router;
use axum::body::Body;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::json;

use super::host::Hosts;
use super::screen::Role;
use super::table::{Command, Handle, Published};
use super::{Lobby, NewTable, Server};
use crate::definition::Settings;
use crate::definition::format::ParamValue;

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// The routes of `server`, answering to the names `hosts` allows.
pub fn router(server: Arc<Server>, hosts: Hosts) -> Router {
    let body = server.config.limits.body;
    Router::new()
        .route("/", get(page))
        .route("/t/{token}", get(table_page))
        .route("/t/{token}/save.yaml", get(save))
        .route("/t/{token}/replay.yaml", get(replay))
        .route("/t/{token}/log.txt", get(log))
        .route("/ws/{token}", get(socket))
        .route(
            "/assets/app.js",
            get(|| async { asset(SCRIPT, "text/javascript") }),
        )
        .route(
            "/assets/style.css",
            get(|| async { asset(STYLE, "text/css") }),
        )
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/api/games", get(games))
        .route("/api/preview", post(preview))
        .route("/api/tables", post(create))
        .fallback(|| async { refuse(StatusCode::NOT_FOUND, "no such page here") })
        .layer(DefaultBodyLimit::max(body))
        .layer(middleware::from_fn_with_state(Arc::new(hosts), named))
        .with_state(server)
}

/// Every request, the WebSocket's upgrade among them, must call the
/// server by a name it answers to; any other is refused with 421
/// Misdirected Request, before its route sees it.
async fn named(State(hosts): State<Arc<Hosts>>, request: Request, next: Next) -> Response {
    match hosts.refusal(request.headers(), request.uri()) {
        None => next.run(request).await,
        Some(text) => {
            let mut r = (StatusCode::MISDIRECTED_REQUEST, text).into_response();
            r.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            );
            r
        }
    }
}

fn asset(text: &'static str, kind: &'static str) -> Response {
    let mut r = text.into_response();
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    r.headers_mut().insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    r
}

/// The page: the lobby or a table, which its script tells by the address.
fn html() -> Response {
    let mut r = asset(PAGE, "text/html; charset=utf-8");
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; frame-ancestors 'none'",
        ),
    );
    // A table's address is its secret: never sent on, never cached.
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

fn refuse(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}

async fn page(State(s): State<Arc<Server>>, uri: Uri) -> Response {
    match closed(&s, &uri) {
        Some(r) => r,
        None => html(),
    }
}

/// The lobby's refusal of this request, if it has one: a lobby turned
/// off (`--no-lobby`), or kept to its host (`--lobby host`) and asked
/// without its key (`?key=`, which the page passes on to the API).
fn closed(s: &Server, uri: &Uri) -> Option<Response> {
    let text = |status, text: &str| {
        let mut r = (status, text.to_string()).into_response();
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
        Some(r)
    };
    match s.config.lobby {
        Lobby::Open => None,
        Lobby::Off => text(
            StatusCode::NOT_FOUND,
            "This server has no lobby (--no-lobby): open a table's link, which its host has.",
        ),
        Lobby::Host => {
            let given = (uri.query().unwrap_or_default().split('&'))
                .find_map(|kv| kv.strip_prefix("key="))
                .unwrap_or_default();
            match s.lobby_key.as_deref().is_some_and(|k| same(k, given)) {
                true => None,
                false => text(
                    StatusCode::FORBIDDEN,
                    "This server's lobby is its host's (--lobby host): open the lobby link the server printed when it started, or a table's link.",
                ),
            }
        }
    }
}

/// Two keys equal, in a time that does not tell how much of one matched.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0, |d, (x, y)| d | (x ^ y)) == 0
}

async fn table_page(State(s): State<Arc<Server>>, Path(token): Path<String>) -> Response {
    match s.lookup(&token) {
        Some(_) => html(),
        None => unknown_link(),
    }
}

fn unknown_link() -> Response {
    let text = "This link is not a table's here: check it, or ask the table's host for yours.";
    (StatusCode::NOT_FOUND, text).into_response()
}

/// A browser's request from another site (a page that found the server
/// on localhost) is refused: the Origin, when sent, must be this host.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin_host = origin.split_once("://").map(|(_, h)| h);
    host.is_some() && origin_host == host
}

async fn games(State(s): State<Arc<Server>>, uri: Uri) -> Response {
    if let Some(r) = closed(&s, &uri) {
        return r;
    }
    let s2 = s.clone();
    let list = tokio::task::spawn_blocking(move || super::lobby::games(&s2)).await;
    match list {
        Ok(v) => axum::Json(v).into_response(),
        Err(_) => refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the games could not be listed",
        ),
    }
}

/// The lobby's form, as sent.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Form {
    #[serde(default)]
    game: String,
    #[serde(default)]
    variants: Vec<String>,
    #[serde(default)]
    sets: indexmap::IndexMap<String, SetValue>,
    /// A number, or its digits (a page's numbers lose digits past 2^53).
    seed: Option<SetValue>,
    #[serde(default)]
    seats: indexmap::IndexMap<String, String>,
    save: Option<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum SetValue {
    Int(i64),
    Text(String),
}

impl Form {
    fn seed(&self) -> Result<Option<u64>, &'static str> {
        let bad = || "a seed is a whole number from 0 to 2^64-1";
        match &self.seed {
            None => Ok(None),
            Some(SetValue::Int(i)) => u64::try_from(*i).map(Some).map_err(|_| bad()),
            Some(SetValue::Text(t)) if t.trim().is_empty() => Ok(None),
            Some(SetValue::Text(t)) => t.trim().parse().map(Some).map_err(|_| bad()),
        }
    }

    fn settings(&self) -> Settings {
        Settings {
            variants: self.variants.clone(),
            sets: (self.sets.iter())
                .map(|(k, v)| {
                    let v = match v {
                        SetValue::Int(i) => ParamValue::Int(*i),
                        SetValue::Text(t) => match t.trim().parse::<i64>() {
                            Ok(i) => ParamValue::Int(i),
                            Err(_) => ParamValue::Word(t.trim().to_string()),
                        },
                    };
                    (k.clone(), v)
                })
                .collect(),
        }
    }
}

/// The form a request holds: refused from another site, past the size
/// limit (on its declared length, before reading it), or malformed.
async fn form(s: &Server, headers: &HeaderMap, body: Body) -> Result<Form, Response> {
    if !same_origin(headers) {
        return Err(refuse(StatusCode::FORBIDDEN, "a request from another site"));
    }
    let most = s.config.limits.body;
    let too_big = || {
        refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!("a request may hold at most {most} bytes"),
        )
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<usize>().ok());
    if declared.is_some_and(|n| n > most) {
        return Err(too_big());
    }
    // A body trickled in is a slow client's, as headers are.
    let wait = s.config.limits.header;
    let bytes = tokio::time::timeout(wait, axum::body::to_bytes(body, most))
        .await
        .map_err(|_| {
            refuse(
                StatusCode::REQUEST_TIMEOUT,
                &format!(
                    "the request's body did not arrive within {} s (--header-timeout)",
                    wait.as_secs_f64()
                ),
            )
        })?
        .map_err(|_| too_big())?;
    serde_json::from_slice(&bytes)
        .map_err(|e| refuse(StatusCode::BAD_REQUEST, &format!("not a table's form: {e}")))
}

async fn preview(
    State(s): State<Arc<Server>>,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Response {
    if let Some(r) = closed(&s, &uri) {
        return r;
    }
    let f = match form(&s, &headers, body).await {
        Ok(f) => f,
        Err(r) => return r,
    };
    let done =
        tokio::task::spawn_blocking(move || super::lobby::preview(&s, &f.game, &f.settings()))
            .await;
    match done {
        Ok(Ok(v)) => axum::Json(v).into_response(),
        Ok(Err(e)) => refuse(StatusCode::BAD_REQUEST, &e.render(false)),
        Err(_) => refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the game could not be read",
        ),
    }
}

async fn create(
    State(s): State<Arc<Server>>,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Response {
    if let Some(r) = closed(&s, &uri) {
        return r;
    }
    let f = match form(&s, &headers, body).await {
        Ok(f) => f,
        Err(r) => return r,
    };
    let seed = match f.seed() {
        Ok(s) => s,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, e),
    };
    let t = NewTable {
        game: f.game.clone(),
        settings: f.settings(),
        seed,
        seats: f.seats.clone().into_iter().collect(),
        save: f.save,
        save_name: None,
        lobby: true,
    };
    let done = tokio::task::spawn_blocking(move || s.open(&t)).await;
    match done {
        Ok(Ok(o)) => {
            println!("table {} opened ({}): host {}", o.table, o.game, o.host);
            axum::Json(o).into_response()
        }
        Ok(Err(e)) => refuse(StatusCode::BAD_REQUEST, &e.render(false)),
        Err(_) => refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the table could not be opened",
        ),
    }
}

/// The screen the role sees now, from what its table published.
fn published(h: &Handle) -> Arc<Published> {
    h.published.borrow().clone()
}

async fn download(s: &Server, token: &str, full: bool) -> Response {
    let Some((h, role)) = s.lookup(token) else {
        return unknown_link();
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    let cmd = Command::Download {
        role,
        full,
        reply: tx,
    };
    if h.tx.send(cmd).await.is_err() {
        return refuse(StatusCode::SERVICE_UNAVAILABLE, "the table is closed");
    }
    match rx.await {
        Ok(None) => {
            let text = "a save tells the seed, so every hidden card: the host may download it at any time, the others once the game is over";
            (StatusCode::FORBIDDEN, text).into_response()
        }
        Ok(Some(yaml)) => {
            let name = format!(
                "attachment; filename=\"{}-table{}{}.yaml\"",
                h.meta.game,
                h.meta.id,
                if full { "" } else { "-replay" }
            );
            let mut r = yaml.into_response();
            r.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/yaml; charset=utf-8"),
            );
            if let Ok(v) = HeaderValue::from_str(&name) {
                r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
            }
            r
        }
        Err(_) => refuse(StatusCode::SERVICE_UNAVAILABLE, "the table is closed"),
    }
}

async fn save(State(s): State<Arc<Server>>, Path(token): Path<String>) -> Response {
    download(&s, &token, true).await
}

async fn replay(State(s): State<Arc<Server>>, Path(token): Path<String>) -> Response {
    download(&s, &token, false).await
}

async fn log(State(s): State<Arc<Server>>, Path(token): Path<String>) -> Response {
    let Some((h, role)) = s.lookup(&token) else {
        return unknown_link();
    };
    let p = published(&h);
    let lines = p
        .for_role(role)
        .map(|r| r.log.join("\n"))
        .unwrap_or_default();
    let mut r = (lines + "\n").into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    r
}

/// One connection counted against the limits, given back when dropped.
struct Counted {
    server: Arc<Server>,
    table: Arc<Handle>,
    role: Role,
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.server.connections.fetch_sub(1, Ordering::Relaxed);
        self.table.places.give_back(self.role);
    }
}

/// Take a place under `limit`, or say no.
fn take(n: &std::sync::atomic::AtomicUsize, limit: usize) -> bool {
    n.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |c| {
        (c < limit).then_some(c + 1)
    })
    .is_ok()
}

async fn socket(
    State(s): State<Arc<Server>>,
    Path(token): Path<String>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let Some((h, role)) = s.lookup(&token) else {
        return unknown_link();
    };
    if !same_origin(&headers) {
        return refuse(StatusCode::FORBIDDEN, "a connection from another site");
    }
    let limits = s.config.limits;
    if !take(&s.connections, limits.connections) {
        return refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server has all the connections it takes",
        );
    }
    // Spectators cannot take the places kept for the seats and the host.
    if let Err(why) = h.places.take(role, limits.per_table) {
        s.connections.fetch_sub(1, Ordering::Relaxed);
        return refuse(StatusCode::SERVICE_UNAVAILABLE, &why);
    }
    let counted = Counted {
        server: s.clone(),
        table: h.clone(),
        role,
    };
    // Frames past the limit are cut off by the protocol itself; a message
    // up to 16 times the limit is read and refused in words.
    ws.max_message_size(limits.message * 16)
        .max_frame_size(limits.message * 16)
        .on_upgrade(move |ws| async move {
            connection(ws, &s, h, role, limits).await;
            drop(counted);
        })
}

/// What a browser may send.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
enum Incoming {
    Move { choice: String },
    Undo { agree: Option<bool> },
    Reload {},
    Close {},
}

/// The log lines sent on this connection so far, to send only the new.
struct Sent {
    epoch: u64,
    lines: usize,
}

/// One open page. It is pinged every third of the idle timeout (a
/// browser answers by itself, even from a tab in the background); one
/// that sends nothing, not even the answer, for the whole timeout is
/// gone, and its connection is closed.
async fn connection(
    mut ws: WebSocket,
    s: &Server,
    h: Arc<Handle>,
    role: Role,
    limits: super::Limits,
) {
    let most = limits.message;
    let mut ping = tokio::time::interval(limits.idle / 3);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ping.tick().await;
    let mut heard = tokio::time::Instant::now();
    let _ = h.tx.send(Command::Connected { role, open: true }).await;
    let mut rx = h.published.clone();
    // No table reaches this epoch: the first screen sends the whole log.
    let mut sent = Sent {
        epoch: u64::MAX,
        lines: 0,
    };
    // The first screen: whatever is published now.
    rx.mark_changed();
    loop {
        tokio::select! {
            changed = rx.changed() => {
                if changed.is_err() {
                    break;
                }
                let p = rx.borrow_and_update().clone();
                let Some(text) = state_message(&p, role, &mut sent) else { continue };
                if ws.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
            _ = ping.tick() => {
                if heard.elapsed() >= limits.idle {
                    break;
                }
                if ws.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
            }
            msg = ws.recv() => {
                heard = tokio::time::Instant::now();
                let text = match msg {
                    Some(Ok(Message::Text(t))) => t.to_string(),
                    Some(Ok(Message::Binary(_))) => {
                        let _ = ws.send(error("messages are JSON text, not binary")).await;
                        continue;
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                };
                if let Err(e) = incoming(s, &h, role, &text, most).await
                    && ws.send(error(&e)).await.is_err()
                {
                    break;
                }
            }
        }
    }
    let _ = h.tx.send(Command::Connected { role, open: false }).await;
}

fn error(message: &str) -> Message {
    Message::Text(
        json!({"type": "error", "message": message})
            .to_string()
            .into(),
    )
}

/// The screen with the log lines this connection has not had.
fn state_message(p: &Published, role: Role, sent: &mut Sent) -> Option<String> {
    let r = p.for_role(role)?;
    let lines = &r.log;
    let reset = sent.epoch != p.epoch || lines.len() < sent.lines;
    let from = if reset { 0 } else { sent.lines };
    let log = json!({ "reset": reset, "from": from, "lines": &lines[from..] });
    *sent = Sent {
        epoch: p.epoch,
        lines: lines.len(),
    };
    // The rules, with the whole log: the first screen, and after a reload.
    let rules = match reset {
        true => format!(",\"rules\":{}", json!(p.rules.as_str())),
        false => String::new(),
    };
    // The screen's object, closed after the log: `{...,"log":{...}}`.
    let open = r.json.strip_suffix('}')?;
    Some(format!("{open}{rules},\"log\":{log}}}"))
}

/// Check a browser's message and hand it to the table; the refusal, in
/// words, for the sender alone.
async fn incoming(
    s: &Server,
    h: &Arc<Handle>,
    role: Role,
    text: &str,
    most: usize,
) -> Result<(), String> {
    if text.len() > most {
        return Err(format!(
            "a message may hold at most {most} bytes; this one holds {}",
            text.len()
        ));
    }
    let msg: Incoming = serde_json::from_str(text)
        .map_err(|e| format!("not a message this table takes ({e}); see docs/serve.md"))?;
    let (tx, rx) = tokio::sync::oneshot::channel();
    let cmd = match (msg, role) {
        (Incoming::Move { choice }, Role::Seat(seat)) => Command::Move {
            seat,
            choice,
            reply: tx,
        },
        (Incoming::Move { .. }, _) => {
            return Err(format!(
                "a {} link cannot move: only a seat's link can",
                role.word()
            ));
        }
        (Incoming::Undo { agree }, Role::Seat(seat)) => Command::Undo {
            seat,
            agree,
            reply: tx,
        },
        (Incoming::Undo { .. }, _) => {
            return Err("only a player at the table may ask for an undo or answer one".into());
        }
        (Incoming::Reload {}, Role::Host) => Command::Reload { reply: tx },
        (Incoming::Reload {}, _) => return Err("only the host's link may reload the rules".into()),
        (Incoming::Close {}, Role::Host) => return s.close(h).await,
        (Incoming::Close {}, _) => return Err("only the host's link may close the table".into()),
    };
    h.tx.send(cmd)
        .await
        .map_err(|_| "the table is closed".to_string())?;
    rx.await.map_err(|_| "the table is closed".to_string())?
}
