//! A `tabula serve` in the test's process on a free port, and clients that
//! speak to it as a browser does: HTTP for the lobby, one WebSocket per
//! link, every message received kept so a test can read what a socket
//! was sent.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tabula::serve::{Config, Limits, Server};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The configuration `Running::start` uses: the default limits, no
/// public name.
pub fn config(games_dir: &Path, games: &[&str], state: &Path) -> Config {
    Config {
        games_dir: games_dir.to_path_buf(),
        games: games.iter().map(|g| g.to_string()).collect(),
        state_dir: state.to_path_buf(),
        limits: Limits::default(),
        public_names: Vec::new(),
        lobby: tabula::serve::Lobby::Open,
        lobby_bots: tabula::serve::LOBBY_BOTS
            .iter()
            .map(|k| k.to_string())
            .collect(),
    }
}

pub struct Running {
    pub addr: SocketAddr,
    /// Kept alive while the test runs (its tasks hold clones too).
    pub server: Arc<Server>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl Running {
    /// A server offering `games` (all in `games_dir` when empty), saving
    /// its tables in `state`.
    pub async fn start(games_dir: &Path, games: &[&str], state: &Path) -> Running {
        Running::with(config(games_dir, games, state)).await
    }

    pub async fn with(config: Config) -> Running {
        let server = Arc::new(
            tokio::task::spawn_blocking(move || Server::new(config).unwrap())
                .await
                .unwrap(),
        );
        let s2 = server.clone();
        tokio::task::spawn_blocking(move || {
            let (_, problems) = s2.restore();
            assert!(problems.is_empty(), "{problems:?}");
        })
        .await
        .unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let s3 = server.clone();
        let task = tokio::spawn(async move {
            tabula::serve::listen(s3, listener, async {
                let _ = rx.await;
            })
            .await
            .unwrap();
        });
        Running {
            addr,
            server,
            stop: Some(tx),
            task,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn ws(&self, link: &str) -> String {
        let token = link.trim_start_matches("/t/");
        format!("ws://{}/ws/{token}", self.addr)
    }

    /// Stop it as Ctrl-C does, and wait until it has.
    pub async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        let _ = tokio::time::timeout(Duration::from_secs(20), self.task).await;
    }

    /// Open a table: the answer's JSON (panics on a refusal).
    pub async fn open(&self, form: Value) -> Value {
        let (status, v) = post(&self.url("/api/tables"), &form.to_string()).await;
        assert_eq!(status, 200, "{v}");
        v
    }
}

fn agent() -> ureq::Agent {
    let config = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build();
    ureq::Agent::new_with_config(config)
}

/// POST a body: the status and the answer as JSON.
pub async fn post(url: &str, body: &str) -> (u16, Value) {
    let (url, body) = (url.to_string(), body.to_string());
    tokio::task::spawn_blocking(move || {
        let mut r = agent()
            .post(&url)
            .content_type("application/json")
            .send(&body)
            .unwrap();
        let text = r.body_mut().read_to_string().unwrap();
        (
            r.status().as_u16(),
            serde_json::from_str(&text).unwrap_or(json!(text)),
        )
    })
    .await
    .unwrap()
}

/// GET: the status and the body.
pub async fn get(url: &str) -> (u16, String) {
    let url = url.to_string();
    tokio::task::spawn_blocking(move || {
        let mut r = agent().get(&url).call().unwrap();
        let text = r.body_mut().read_to_string().unwrap_or_default();
        (r.status().as_u16(), text)
    })
    .await
    .unwrap()
}

/// Write `request` on a new connection: the first bytes of the answer.
pub async fn raw(addr: SocketAddr, request: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut c = TcpStream::connect(addr).await.unwrap();
    c.write_all(request.as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 4096];
    let n = tokio::time::timeout(WAIT, c.read(&mut buf))
        .await
        .unwrap()
        .unwrap();
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

/// One open page's socket.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every text message received, as sent.
    pub got: Vec<String>,
    /// The last state received.
    pub last: Option<Value>,
    /// The log as this page holds it (resets applied).
    pub log: Vec<String>,
}

const WAIT: Duration = Duration::from_secs(30);

impl Client {
    pub async fn connect(url: &str) -> Client {
        Client::try_connect(url).await.unwrap()
    }

    /// Connect, or the server's refusal.
    pub async fn try_connect(url: &str) -> Result<Client, tokio_tungstenite::tungstenite::Error> {
        let (ws, _) = tokio_tungstenite::connect_async(url).await?;
        Ok(Client {
            ws,
            got: Vec::new(),
            last: None,
            log: Vec::new(),
        })
    }

    /// The next message, whatever it is.
    pub async fn next(&mut self) -> Value {
        loop {
            let m = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("a message within 30 s")
                .expect("the socket open")
                .unwrap();
            let Message::Text(t) = m else { continue };
            return self.take(&t);
        }
    }

    /// A message received: kept, and a state's log applied.
    fn take(&mut self, t: &str) -> Value {
        self.got.push(t.to_string());
        let v: Value = serde_json::from_str(t).unwrap();
        if v["type"] == "state" {
            let log = &v["log"];
            if log["reset"] == true {
                self.log.clear();
            }
            assert_eq!(
                log["from"].as_u64().unwrap() as usize,
                self.log.len(),
                "{v}"
            );
            for l in log["lines"].as_array().unwrap() {
                self.log.push(l.as_str().unwrap().to_string());
            }
            self.last = Some(v.clone());
        }
        v
    }

    /// The first state (the last one held, or one to come) that `f` holds of.
    pub async fn state_where(&mut self, f: impl Fn(&Value) -> bool) -> Value {
        if let Some(v) = self.last.as_ref().filter(|v| f(v)) {
            return v.clone();
        }
        loop {
            let v = self.next().await;
            if v["type"] == "state" && f(&v) {
                return v;
            }
        }
    }

    /// A state newer than `version`.
    pub async fn after(&mut self, version: u64) -> Value {
        self.state_where(|v| v["version"].as_u64().unwrap() > version)
            .await
    }

    /// The newest state newer than `version`: the first, then whatever
    /// else has come meanwhile.
    pub async fn newest_after(&mut self, version: u64) -> Value {
        let mut v = self.after(version).await;
        while let Ok(Some(Ok(m))) =
            tokio::time::timeout(Duration::from_millis(30), self.ws.next()).await
        {
            if let Message::Text(t) = m {
                self.take(&t);
                if let Some(l) = &self.last {
                    v = l.clone();
                }
            }
        }
        v
    }

    pub async fn send(&mut self, v: Value) {
        self.send_text(&v.to_string()).await;
    }

    pub async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    /// The next error message (states before it are taken in).
    pub async fn error(&mut self) -> String {
        loop {
            let v = self.next().await;
            if v["type"] == "error" {
                return v["message"].as_str().unwrap().to_string();
            }
        }
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// The first of a state's options, as sent back.
pub fn first_option(v: &Value) -> Option<String> {
    Some(
        v["options"].as_array()?.first()?["text"]
            .as_str()?
            .to_string(),
    )
}

/// Play a table to its end: one move at a time, the first waiting
/// person takes their first option. `seats` are the people's clients by
/// player id; `watch` (connected before) sees every change.
pub async fn play_out(watch: &mut Client, seats: &mut [(&str, &mut Client)]) -> Value {
    let mut seen = 0;
    for _ in 0..10_000 {
        let s = watch.newest_after(seen).await;
        seen = s["version"].as_u64().unwrap();
        if s["over"] == true {
            return s;
        }
        let waiting = s["view"]["decision"]["waiting"].as_array().unwrap().clone();
        let Some((_, c)) = seats
            .iter_mut()
            .find(|(id, _)| waiting.iter().any(|w| w == id))
        else {
            continue; // a bot's turn
        };
        let mine = c
            .state_where(|v| v["version"].as_u64().unwrap() >= seen)
            .await;
        let o = first_option(&mine).expect("a waiting seat has options");
        c.send(json!({"type": "move", "choice": o})).await;
    }
    panic!("the game did not end");
}
