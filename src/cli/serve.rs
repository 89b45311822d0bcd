//! `tabula serve [GAME ...]`: tables in the browser. Opens a table for
//! each game named (seats people unless `--bot` says), brings back the
//! tables saved before, prints their links and serves until Ctrl-C.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::GameArgs;
use tabula::error::{Error, Result};
use tabula::serve::host::PublicName;
use tabula::serve::{Config, LOBBY_BOTS, Limits, Lobby, NewTable, Opened, Server};

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Games to open a table for now (ids or files); the lobby then offers
    /// only these. None: the lobby offers every game.
    #[arg(add = clap_complete::ArgValueCandidates::new(super::complete::games))]
    pub games: Vec<String>,
    /// Open a table from this position file or save (repeatable): the
    /// game, its settings, seed and seats are the file's (`--bot` seats
    /// bots on it too), as `tabula play --from` plays it.
    #[arg(long, value_name = "FILE")]
    pub from: Vec<PathBuf>,
    #[command(flatten)]
    pub args: GameArgs,
    /// Seed of the tables opened now (default: drawn).
    #[arg(long)]
    pub seed: Option<u64>,
    /// A bot on a seat of the tables opened now, e.g. --bot blue=mcts:1000
    /// (repeatable); the other seats are people.
    #[arg(long = "bot", value_name = "P=KIND", value_parser = super::play::parse_bot)]
    pub bots: Vec<(String, String)>,
    /// The port to listen on (0: any free one).
    #[arg(long, default_value_t = 7878)]
    pub port: u16,
    /// The address to listen on: 127.0.0.1 keeps it to this machine;
    /// 0.0.0.0 lets others on the network join.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Another name the server answers to, as NAME (at any port) or
    /// NAME:PORT (repeatable): a name of this machine friends use, or a
    /// proxy's. Without it the server answers only to its address, and to
    /// localhost on this machine (any IP address with --host 0.0.0.0): a
    /// request that names any other site is refused, so that a web page
    /// pointing its own name at this machine cannot reach the tables.
    #[arg(long = "public-name", value_name = "NAME")]
    pub public_names: Vec<PublicName>,
    /// Where tables are saved, to be brought back when the server starts
    /// again (default: ~/.local/state/tabula/serve).
    #[arg(long, value_name = "DIR")]
    pub state: Option<PathBuf>,
    /// The most tables the server holds.
    #[arg(long, default_value_t = 64)]
    pub max_tables: usize,
    /// Who may open tables from the lobby: `open` (anyone who reaches
    /// the server), `host` (only with the lobby link printed at the start,
    /// whose key is new each start), `off` (no lobby: only the tables
    /// opened here, and the ones brought back).
    #[arg(long, value_enum, default_value_t = LobbyArg::Open)]
    pub lobby: LobbyArg,
    /// No lobby: the same as --lobby off.
    #[arg(long, conflicts_with = "lobby")]
    pub no_lobby: bool,
    /// The bot kinds the lobby may seat, by commas (`none`: people only).
    /// Tables opened here with --bot may seat any.
    #[arg(long, value_name = "KINDS", default_value_t = LOBBY_BOTS.join(","))]
    pub lobby_bots: String,
    /// Bots thinking at once, over every table; the others wait their
    /// turn (default: the cores but one, at least 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub bot_threads: Option<u64>,
    /// Memory one bot's search may hold, in MiB: past it the search
    /// stops growing its tree (and plays on what it found).
    #[arg(long, value_name = "MIB", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub bot_memory: u64,
    /// Seconds a request's headers (or an uploaded save) may take to
    /// arrive, and a kept-alive connection may wait for its next request.
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub header_timeout: u64,
    /// Seconds a connection may make no progress: a client that takes
    /// nothing written, or an open page that answers no ping (pages are
    /// pinged every third of it), is closed.
    #[arg(long, value_name = "SECS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86400))]
    pub idle_timeout: u64,
    /// Connections open at once from one address, pages' included (a
    /// browser takes a few per tab); past it a new one is refused.
    #[arg(long, value_name = "N", default_value_t = 128, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_per_address: u64,
    /// List the tables kept in the state folder, and serve nothing.
    #[arg(long)]
    pub list_tables: bool,
    /// Remove table N's files from the state folder (its links stop
    /// working), and serve nothing (repeatable). With the server stopped:
    /// a running server closes a table from its host's page.
    #[arg(long, value_name = "N")]
    pub close: Vec<u64>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LobbyArg {
    Open,
    Host,
    Off,
}

fn state_dir() -> PathBuf {
    std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))
        .unwrap_or_else(std::env::temp_dir)
        .join("tabula/serve")
}

pub fn run(dir: &Path, a: ServeArgs) -> Result<i32> {
    if a.list_tables || !a.close.is_empty() {
        return kept(&a.state.clone().unwrap_or_else(state_dir), &a);
    }
    let addr: SocketAddr = format!("{}:{}", a.host, a.port)
        .parse()
        .or_else(|_| format!("[{}]:{}", a.host, a.port).parse())
        .map_err(|_| {
            Error::usage(format!(
                "--host {}: not an address to listen on (e.g. 127.0.0.1, 0.0.0.0, ::1)",
                a.host
            ))
        })?;
    raise_file_limit();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::usage(format!("could not start the server's threads: {e}")))?;
    // Bind first: a port in use is said before any table is opened.
    let listener = runtime.block_on(tokio::net::TcpListener::bind(addr)).map_err(|e| {
        let mut err = Error::usage(format!("cannot listen on {addr}: {e}"));
        if e.kind() == std::io::ErrorKind::AddrInUse {
            err = err.note("another program (or another tabula serve) has that port: --port P picks another, --port 0 any free one");
        }
        err
    })?;
    let bound = listener.local_addr().unwrap_or(addr);
    let config = Config {
        games_dir: dir.to_path_buf(),
        games: a.games.clone(),
        state_dir: a.state.clone().unwrap_or_else(state_dir),
        limits: Limits {
            tables: a.max_tables,
            header: Duration::from_secs(a.header_timeout),
            idle: Duration::from_secs(a.idle_timeout),
            per_address: a.max_per_address as usize,
            thinking: (a.bot_threads.map(|n| n as usize))
                .unwrap_or_else(tabula::serve::default_thinking),
            bot_memory: (a.bot_memory as usize) << 20,
            ..Limits::default()
        },
        public_names: a.public_names.clone(),
        lobby: match (a.no_lobby, a.lobby) {
            (true, _) | (_, LobbyArg::Off) => Lobby::Off,
            (_, LobbyArg::Host) => Lobby::Host,
            (_, LobbyArg::Open) => Lobby::Open,
        },
        lobby_bots: (a.lobby_bots.split(','))
            .map(str::trim)
            .filter(|k| !k.is_empty() && *k != "none")
            .map(String::from)
            .collect(),
    };
    let server = Arc::new(Server::new(config)?);
    let base = base_url(bound);
    let (restored, problems) = server.restore();
    for p in problems {
        eprintln!("tabula: {p}");
    }
    for o in &restored {
        print_links(&base, o, "restored");
    }
    for g in &a.games {
        let t = NewTable {
            game: g.clone(),
            settings: a.args.settings(),
            seed: a.seed,
            seats: a.bots.clone(),
            save: None,
            save_name: None,
            lobby: false,
        };
        let o = server.open(&t)?;
        print_links(&base, &o, "opened");
    }
    for file in &a.from {
        let text = tabula::files::read_text(file).map_err(|e| Error::io(file, e))?;
        let t = NewTable {
            seats: a.bots.clone(),
            save: Some(text),
            save_name: Some(file.display().to_string()),
            ..NewTable::default()
        };
        let o = server.open(&t)?;
        print_links(&base, &o, "opened");
    }
    match (&server.config.lobby, &server.lobby_key) {
        (Lobby::Off, _) => println!(
            "no lobby (--no-lobby): serving the tables above at {base}/; Ctrl-C stops the server, the tables are kept"
        ),
        (Lobby::Host, Some(key)) => println!(
            "lobby: {base}/?key={key}   (yours alone, a new key each start: open more tables there; Ctrl-C stops the server, the tables are kept)"
        ),
        _ => println!(
            "lobby: {base}/   (open more tables there; Ctrl-C stops the server, the tables are kept)"
        ),
    }
    if bound.ip().is_unspecified() {
        println!(
            "(listening on every address: give friends this machine's address in place of {})",
            bound.ip()
        );
    }
    let stop = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    runtime
        .block_on(tabula::serve::listen(server, listener, stop))
        .map_err(|e| Error::usage(format!("the server stopped: {e}")))?;
    println!("Stopped. The tables are saved; `tabula serve` brings them back.");
    Ok(0)
}

/// As many open files as the system lets this process have: each
/// connection is one, and a soft limit of 1024 (a common default) is
/// reached long before the memory is. Where it cannot be raised, the
/// limit stays and connections past it wait (see serve/accept.rs).
fn raise_file_limit() {
    #[cfg(unix)]
    {
        let mut l = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit read and write the struct given,
        // which lives across the calls.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut l) == 0 && l.rlim_cur < l.rlim_max {
                // macOS refuses more than OPEN_MAX for the soft limit.
                #[cfg(target_os = "macos")]
                let want = l.rlim_max.min(libc::OPEN_MAX as libc::rlim_t);
                #[cfg(not(target_os = "macos"))]
                let want = l.rlim_max;
                l.rlim_cur = want;
                let _ = libc::setrlimit(libc::RLIMIT_NOFILE, &l);
            }
        }
    }
}

fn base_url(a: SocketAddr) -> String {
    match a {
        SocketAddr::V4(v) => format!("http://{}:{}", v.ip(), v.port()),
        SocketAddr::V6(v) => format!("http://[{}]:{}", v.ip(), v.port()),
    }
}

fn print_links(base: &str, o: &Opened, how: &str) {
    println!("table {} ({}), {how}:", o.table, o.game);
    println!(
        "  {:<10} {base}{}   (seat links, reload, saves)",
        "host", o.host
    );
    for (p, link) in &o.seats {
        match link {
            Some(l) => println!("  {p:<10} {base}{l}"),
            None => println!("  {p:<10} (a bot)"),
        }
    }
    println!("  {:<10} {base}{}", "spectator", o.spectator);
}

/// `--list-tables` and `--close N`: the state folder's tables, without
/// serving.
fn kept(state: &Path, a: &ServeArgs) -> Result<i32> {
    use tabula::serve::store;
    let shown = tabula::error::path_text(state);
    for &n in &a.close {
        if !store::remove_table(state, n)? {
            return Err(
                Error::usage(format!("no table {n} in {shown}")).note(format!(
                    "`tabula serve --state {shown} --list-tables` lists the tables there"
                )),
            );
        }
        println!("table {n} closed: its files are removed from {shown}");
    }
    if a.list_tables {
        let (found, problems) = store::saved(state);
        println!("{} table(s) in {shown}:", found.len());
        for (meta, replay, _) in &found {
            let over = if meta.over { "over" } else { "in play" };
            println!(
                "  table {:<6} {:<14} {} move(s), {over}",
                meta.id,
                meta.game,
                replay.moves.len()
            );
        }
        for p in problems {
            println!("  {p}");
        }
        println!("(`tabula serve --state {shown} --close N` removes table N's files)");
    }
    Ok(0)
}
