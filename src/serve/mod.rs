//! `tabula serve`: tables played in the browser. Each table is a
//! [`Session`](crate::play::session::Session) on a thread of its own
//! ([`table`]); each link is a token naming a table and a role
//! ([`screen::Role`]); the browser gets only what that role may see
//! ([`screen`]), over a WebSocket ([`http`]) to a request that calls the
//! server by a name it answers to ([`host`]). Tables are saved after
//! every change and come back when the server starts again ([`store`]).

mod accept;
pub mod host;
pub mod http;
mod lobby;
pub mod places;
pub mod screen;
pub mod store;
pub mod table;
pub mod thinking;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::analysis::bot;
use crate::definition::Settings;
use crate::definition::source;
use crate::error::{Error, Result, did_you_mean};
use crate::play::replay::Replay;
use crate::play::session::{Seat, Session};
use host::{Hosts, PublicName};
use screen::Role;
use store::Meta;
use table::Handle;
use thinking::Thinking;

/// What a server may hold at once.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub tables: usize,
    /// Pages open at a table; one of them is kept for each seat's link
    /// and the host's, and each of those may always have two open (see
    /// `places.rs`).
    pub per_table: usize,
    pub connections: usize,
    /// Bytes in one message from a browser.
    pub message: usize,
    /// Bytes in one request's body (an uploaded save).
    pub body: usize,
    /// A request's headers (and an uploaded body) must arrive within
    /// this; a connection kept alive with no new request is closed after
    /// as long (`--header-timeout`).
    pub header: Duration,
    /// A connection whose other end takes nothing written for this long
    /// is closed, and an open page's WebSocket that answers no ping for
    /// this long (`--idle-timeout`; pinged every third of it).
    pub idle: Duration,
    /// Connections open from one address, WebSockets included
    /// (`--max-per-address`).
    pub per_address: usize,
    /// Bots thinking at once, over every table (`--bot-threads`).
    pub thinking: usize,
    /// Bytes one bot's search may hold (`--bot-memory`).
    pub bot_memory: usize,
}

/// Bots thinking at once by default: a core is left for the pages.
pub fn default_thinking() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.saturating_sub(1).max(1)
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            tables: 64,
            per_table: 16,
            connections: 256,
            message: 4096,
            body: 1 << 20,
            header: Duration::from_secs(10),
            idle: Duration::from_secs(60),
            per_address: 128,
            thinking: default_thinking(),
            bot_memory: 256 << 20,
        }
    }
}

pub struct Config {
    /// Where games are looked for by id, as for `play`.
    pub games_dir: PathBuf,
    /// The games a table may be opened for (ids or paths); empty: every
    /// game in the folder and the built-in library.
    pub games: Vec<String>,
    /// Where tables are saved.
    pub state_dir: PathBuf,
    pub limits: Limits,
    /// Names the server answers to besides its address (and `localhost`
    /// on this machine): `--public-name`.
    pub public_names: Vec<PublicName>,
    /// Who may open tables from the lobby (`--lobby`).
    pub lobby: Lobby,
    /// The bot kinds the lobby may seat (`--lobby-bots`), as written.
    pub lobby_bots: Vec<String>,
}

/// Who may open tables from the lobby.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lobby {
    /// Anyone who can reach the server.
    #[default]
    Open,
    /// Only with the lobby's key, printed at the start (`--lobby host`).
    Host,
    /// No one: only the tables opened at the start (`--no-lobby`).
    Off,
}

/// The bot kinds the lobby offers unless `--lobby-bots` says.
pub const LOBBY_BOTS: &[&str] = &["random", "mcts:100", "mcts:1000", "mcts:1s", "best"];

/// A table to open.
#[derive(Debug, Clone, Default)]
pub struct NewTable {
    pub game: String,
    pub settings: Settings,
    pub seed: Option<u64>,
    /// Player id -> `person` or a bot kind; seats not named are people.
    pub seats: Vec<(String, String)>,
    /// A save to start from instead (its game, settings, seed and moves),
    /// or a position file (docs/positions.md).
    pub save: Option<String>,
    /// The save's file, to name in its errors (default: `the save`).
    pub save_name: Option<String>,
    /// Asked from the lobby: its bots must be ones `--lobby-bots` allows.
    pub lobby: bool,
}

/// A table just opened: its links (paths, `/t/TOKEN`).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Opened {
    pub table: String,
    pub game: String,
    pub host: String,
    pub spectator: String,
    pub seats: indexmap::IndexMap<String, Option<String>>,
}

pub struct Server {
    pub config: Config,
    /// Game id -> how to load it (an id in the folder, or a path).
    offered: Vec<(String, String)>,
    tables: Mutex<Vec<Arc<Handle>>>,
    tokens: Mutex<HashMap<String, (Arc<Handle>, Role)>>,
    /// Tables open and tables being opened: a place is taken before the
    /// rules are read, so that openings at once cannot pass the limit.
    places: AtomicUsize,
    next_id: AtomicU64,
    pub connections: AtomicUsize,
    /// Bots thinking now, under `Limits::thinking`.
    pub thinking: Arc<Thinking>,
    /// The lobby's key with `Lobby::Host`: asked of every lobby request.
    pub lobby_key: Option<String>,
}

impl Server {
    /// A server for these games (each must load), with no table yet.
    pub fn new(config: Config) -> Result<Server> {
        let dir = &config.games_dir;
        let mut offered = Vec::new();
        if config.games.is_empty() {
            let mut ids = source::list_ids(dir);
            if let Some(b) = source::built_in() {
                ids.extend(source::list_ids(b));
            }
            ids.sort();
            ids.dedup();
            offered = ids.into_iter().map(|id| (id.clone(), id)).collect();
        }
        for g in &config.games {
            let path = source::find(g, dir)?;
            let game =
                crate::game::Game::load_path(&path, dir, &Settings::default(), Default::default())?;
            // A file is kept by its whole path: the server may be started
            // again from another folder.
            let reference = match Path::new(g).components().count() == 1 && !g.ends_with(".yaml") {
                true => g.clone(),
                false => std::fs::canonicalize(&path)
                    .unwrap_or(path)
                    .to_string_lossy()
                    .into_owned(),
            };
            offered.push((game.def().id.clone(), reference));
        }
        for k in &config.lobby_bots {
            if !bot::valid(k) {
                return Err(Error::usage(format!(
                    "--lobby-bots: {}",
                    bot::kind_problem(k)
                )));
            }
            bounded(k)?;
        }
        std::fs::create_dir_all(&config.state_dir).map_err(|e| Error::io(&config.state_dir, e))?;
        private(&config.state_dir)?;
        let lobby_key = match config.lobby {
            Lobby::Host => Some(store::token()?),
            Lobby::Open | Lobby::Off => None,
        };
        Ok(Server {
            thinking: Arc::new(Thinking::new(config.limits.thinking)),
            lobby_key,
            config,
            offered,
            tables: Mutex::new(Vec::new()),
            tokens: Mutex::new(HashMap::new()),
            places: AtomicUsize::new(0),
            next_id: AtomicU64::new(1),
            connections: AtomicUsize::new(0),
        })
    }

    /// The games a table may be opened for: (id, reference).
    pub fn offered(&self) -> &[(String, String)] {
        &self.offered
    }

    /// How to load an offered game: by its id or its reference. A game
    /// not offered is refused, so a browser names no file of its own.
    fn reference(&self, game: &str) -> Result<&str> {
        let found = self.offered.iter().find(|(id, r)| id == game || r == game);
        match found {
            Some((_, r)) => Ok(r),
            None => {
                let ids = self.offered.iter().map(|(id, _)| id.as_str());
                let mut e = Error::usage(format!(
                    "no game `{}` is offered here",
                    crate::text::clip(game)
                ));
                if let Some(h) = did_you_mean(game, ids.clone()) {
                    e = e.note(h);
                }
                Err(e.note(format!("games: {}", ids.collect::<Vec<_>>().join(", "))))
            }
        }
    }

    /// The table and role a token names.
    pub fn lookup(&self, token: &str) -> Option<(Arc<Handle>, Role)> {
        let tokens = self.tokens.lock().ok()?;
        tokens.get(token).map(|(h, r)| (h.clone(), *r))
    }

    pub fn tables(&self) -> Vec<Arc<Handle>> {
        self.tables.lock().map(|t| t.clone()).unwrap_or_default()
    }

    /// Load a game and open a table for it. Blocking: it reads and
    /// compiles the rules.
    pub fn open(&self, t: &NewTable) -> Result<Opened> {
        let place = self.place()?;
        let opened = self.make(t)?;
        place.keep();
        Ok(opened)
    }

    /// A place for one more table, under the limit, or the refusal.
    fn place(&self) -> Result<Place<'_>> {
        let most = self.config.limits.tables;
        let taken = self
            .places
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < most).then_some(n + 1)
            });
        match taken {
            Ok(_) => Ok(Place(&self.places)),
            Err(_) => {
                let dir = crate::error::path_text(&self.config.state_dir);
                Err(Error::usage(format!(
                    "this server holds {most} tables already, its most (--max-tables); they are kept in {dir}"
                ))
                .note(format!(
                    "close tables from their host's page (\"Close the table\"), or with the server stopped `tabula serve --state {dir} --list-tables` and `--close N`, or remove their files from {dir}; or raise --max-tables, or give --state another folder"
                )))
            }
        }
    }

    /// Make a table, in a place taken for it.
    fn make(&self, t: &NewTable) -> Result<Opened> {
        let dir = &self.config.games_dir;
        let mut s = match &t.save {
            Some(text) => {
                let name = t.save_name.as_deref().unwrap_or("the save");
                let mut r = Replay::parse(Path::new(name), text)?;
                r.game = self.reference(&r.game)?.to_string();
                let people = r.seats.is_empty();
                let mut s = Session::from_replay(dir, r, None, Vec::new())?;
                if people {
                    s.seats = vec![Seat::Person; s.seats.len()];
                }
                s
            }
            None => {
                let seed = match t.seed {
                    Some(s) => s,
                    None => random_seed()?,
                };
                let reference = self.reference(&t.game)?;
                let mut s = Session::new(dir, reference, t.settings.clone(), seed, Vec::new())?;
                s.seats = vec![Seat::Person; s.seats.len()];
                s
            }
        };
        seat(&mut s, &t.seats)?;
        for k in s.seats.iter().filter_map(|x| match x {
            Seat::Bot(k) => Some(k),
            Seat::Person => None,
        }) {
            bounded(k)?;
        }
        if t.lobby {
            self.lobby_allows(&s)?;
        }
        let id = store::claim_id(&self.config.state_dir, &self.next_id)?;
        let meta = Meta {
            id,
            game: s.game.def().id.clone(),
            host: store::token()?,
            spectator: store::token()?,
            seats: (0..s.seats.len())
                .map(|p| match s.is_person(p) {
                    true => store::token().map(Some),
                    false => Ok(None),
                })
                .collect::<Result<_>>()?,
            over: s.state.is_over(),
        };
        store::save(&self.config.state_dir, &meta, &s)?;
        self.install(meta, s)
    }

    /// A table asked from the lobby seats only the bots it allows.
    fn lobby_allows(&self, s: &Session) -> Result<()> {
        let allowed = &self.config.lobby_bots;
        for seat in &s.seats {
            if let Seat::Bot(k) = seat
                && !lobby::allows(allowed, k)
            {
                let kinds = match allowed.is_empty() {
                    true => "none: every seat is a person's".to_string(),
                    false => allowed.join(", "),
                };
                return Err(Error::usage(format!(
                    "the lobby here seats no `{}` bot (this server's --lobby-bots: {kinds}, or weaker of the same kind)",
                    crate::text::clip(k)
                ))
                .note("the host may seat any bot on a table opened with `tabula serve GAME --bot P=KIND`"));
            }
        }
        Ok(())
    }

    /// Start a table's thread and make its tokens live.
    fn install(&self, meta: Meta, mut s: Session) -> Result<Opened> {
        let players: Vec<String> = s.game.def().players.iter().map(|p| p.id.clone()).collect();
        s.bot_memory = Some(self.config.limits.bot_memory);
        let h = table::start(
            meta.clone(),
            s,
            self.config.state_dir.clone(),
            self.thinking.clone(),
        )
        .map_err(|e| Error::usage(format!("could not start the table's thread: {e}")))?;
        if let Ok(mut tokens) = self.tokens.lock() {
            tokens.insert(meta.host.clone(), (h.clone(), Role::Host));
            tokens.insert(meta.spectator.clone(), (h.clone(), Role::Spectator));
            for (p, t) in meta.seats.iter().enumerate() {
                if let Some(t) = t {
                    tokens.insert(t.clone(), (h.clone(), Role::Seat(p)));
                }
            }
        }
        if let Ok(mut tables) = self.tables.lock() {
            tables.push(h);
        }
        Ok(Opened {
            table: meta.id.clone(),
            game: meta.game.clone(),
            host: format!("/t/{}", meta.host),
            spectator: format!("/t/{}", meta.spectator),
            seats: players
                .into_iter()
                .zip(&meta.seats)
                .map(|(p, t)| (p, t.as_ref().map(|t| format!("/t/{t}"))))
                .collect(),
        })
    }

    /// Bring back the tables saved in the state folder; what could not be
    /// brought back, one sentence each (its files are left as they are).
    pub fn restore(&self) -> (Vec<Opened>, Vec<String>) {
        let cleaned = store::clean(&self.config.state_dir);
        let (found, mut problems) = store::saved(&self.config.state_dir);
        problems.extend(cleaned);
        // New tables are numbered past every file here, read or not: a
        // table's kept files are never taken over by a new one.
        self.next_id.fetch_max(
            store::highest_id(&self.config.state_dir) + 1,
            Ordering::Relaxed,
        );
        let mut opened = Vec::new();
        for (meta, replay, path) in found {
            match self.bring_back(meta.clone(), replay, &path) {
                Ok(o) => {
                    // A table kept holds a place, even past the limit.
                    self.places.fetch_add(1, Ordering::AcqRel);
                    opened.push(o)
                }
                Err(e) => problems.push(format!(
                    "table {} ({}) not restored, its files kept in {}: {}",
                    meta.id,
                    meta.game,
                    crate::error::path_text(&self.config.state_dir),
                    e.render(false)
                )),
            }
        }
        (opened, problems)
    }

    /// One table read back from the state folder, started again.
    fn bring_back(&self, mut meta: Meta, mut replay: Replay, path: &Path) -> Result<Opened> {
        // Only a game offered here, as a table opened now would be: a
        // save's `game:` naming a file elsewhere is not followed.
        replay.game = self.reference(&replay.game)?.to_string();
        let was = Replay {
            rules: replay.rules,
            seats: replay.seats.clone(),
            seat_positions: replay.seat_positions.clone(),
            ..Replay::default()
        };
        let s = Session::from_replay(&self.config.games_dir, replay, Some(path), Vec::new())?;
        let players: Vec<String> = s.game.def().players.iter().map(|p| p.id.clone()).collect();
        store::check_seats(&self.config.state_dir, &meta, &was, &players)?;
        // Rules edited since the last save: the game is played on under
        // them as the host's reload would, or not at all.
        let edited = was.rules_changed(&s.game) || (meta.over && !s.state.is_over());
        if edited {
            table::rules_may_change(meta.over).map_err(|e| {
                Error::usage(format!(
                    "its rules were edited since its last save, and {e} ({})",
                    crate::error::path_text(path)
                ))
            })?;
        }
        if s.state.is_over() && !meta.over {
            meta.over = true;
            store::write_links(&self.config.state_dir, &meta)?;
        }
        self.install(meta, s)
    }

    /// Close a table for its host: no link leads to it from now on, its
    /// place is free, its files are removed and its pages told.
    pub async fn close(&self, h: &Arc<Handle>) -> std::result::Result<(), String> {
        let was = self.tables.lock().is_ok_and(|mut t| {
            let n = t.len();
            t.retain(|x| !Arc::ptr_eq(x, h));
            n != t.len()
        });
        if !was {
            return Err("the table is closed".into());
        }
        if let Ok(mut tokens) = self.tokens.lock() {
            tokens.retain(|_, (x, _)| !Arc::ptr_eq(x, h));
        }
        self.places.fetch_sub(1, Ordering::AcqRel);
        let (tx, rx) = tokio::sync::oneshot::channel();
        let closed = || "the table is closed".to_string();
        let cmd = table::Command::Close { reply: tx };
        h.tx.send(cmd).await.map_err(|_| closed())?;
        println!("table {} ({}) closed by its host", h.meta.id, h.meta.game);
        rx.await.map_err(|_| closed())?
    }

    /// Stop every table's thread (their saves are already written).
    pub fn stop(&self) {
        for h in self.tables() {
            let _ = h.tx.try_send(table::Command::Stop);
        }
    }
}

/// The state folder is this user's alone (its files hold every table's
/// links and seeds): made so, or refused where it cannot be (another's
/// folder, a shared one), rather than used with the links readable.
fn private(dir: &Path) -> Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
        let m = std::fs::metadata(dir).map_err(|e| Error::io(dir, e))?;
        // SAFETY: geteuid has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        if m.uid() != me || m.mode() & 0o077 != 0 {
            return Err(Error::usage(format!(
                "the state folder {} is not yours alone (owner uid {}, mode {:o}): its files hold every table's links",
                crate::error::path_text(dir),
                m.uid(),
                m.mode() & 0o7777
            ))
            .note("give --state a folder of your own"));
        }
    }
    Ok(())
}

/// A place taken for a table being opened: given back when dropped, as
/// when the opening fails, unless kept once the table is open.
struct Place<'a>(&'a AtomicUsize);

impl Place<'_> {
    /// The table is open: it holds the place from now on.
    fn keep(self) {
        std::mem::forget(self);
    }
}

impl Drop for Place<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A seed from the operating system (a table's game is not one the
/// clock could tell).
fn random_seed() -> Result<u64> {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b)
        .map_err(|e| Error::usage(format!("no random numbers for a seed: {e}")))?;
    Ok(u64::from_le_bytes(b))
}

/// The most a bot at a table may think: a kind past it would hold the
/// table's thread (and every command to it) for as long as it asks.
const MOST_ITERATIONS: f64 = 100_000.0;
const MOST_SECONDS: f64 = 60.0;

fn bounded(kind: &str) -> Result<()> {
    let Some((_, n)) = kind.split_once(':') else {
        return Ok(());
    };
    let (x, most, unit) = match n.strip_suffix('s') {
        Some(t) => (t.parse::<f64>().ok(), MOST_SECONDS, "seconds"),
        None => (n.parse::<f64>().ok(), MOST_ITERATIONS, "iterations"),
    };
    match x {
        Some(x) if x <= most => Ok(()),
        _ => Err(Error::usage(format!(
            "a bot at a table thinks at most {most} {unit} a move: `{}` asks for more",
            crate::text::clip(kind)
        ))),
    }
}

/// Set the seats a table was asked for: `person` or a bot kind.
fn seat(s: &mut Session, seats: &[(String, String)]) -> Result<()> {
    for (id, kind) in seats {
        let p = crate::play::session::player_of(s.game.def(), id)?;
        s.seats[p] = Seat::parse(kind)?.ok_or_else(|| {
            Error::usage(format!(
                "unknown seat kind `{}` (kinds: person, {})",
                crate::text::clip(kind),
                bot::KINDS.join(", ")
            ))
        })?;
    }
    Ok(())
}

/// Serve until `stop` resolves; then the tables stop (every change is
/// already saved) and their connections close. The server answers to the
/// names of the address `listener` is bound to, and its public names.
pub async fn listen(
    server: Arc<Server>,
    listener: tokio::net::TcpListener,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let hosts = Hosts::new(listener.local_addr()?, server.config.public_names.clone());
    let app = http::router(server.clone(), hosts);
    let s2 = server.clone();
    let stop = async move {
        stop.await;
        s2.stop();
    };
    accept::serve(listener, app, server.config.limits, stop).await
}
