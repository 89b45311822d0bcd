//! The command line. `main.rs` only calls `main()`; each command has a file.

mod chart;
mod check;
mod complete;
mod copy;
mod env;
#[cfg(test)]
mod hints;
mod library;
mod line;
mod list;
mod merge;
mod play;
mod position;
mod replay;
mod report;
mod rules;
mod serve;
mod sim;
mod solve;
mod sweep;
mod ticker;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use tabula::definition::format::ParamValue;

use clap::{Parser, Subcommand};
use clap_complete::ArgValueCandidates;

use tabula::Settings;
use tabula::definition::source;
use tabula::error::{Error, Result};

#[derive(Parser, Debug)]
#[command(
    name = "tabula",
    version,
    about = "Play and design tabletop games whose rules are data",
    after_help = "Start here:\n  tabula list                      the games, built in and in ./games\n  tabula play GAME                 a game against the bot\n  tabula rules GAME                its rules\n  tabula sim GAME --games 10000    balance figures\n  tabula sweep GAME P=1..9 --chart c.svg   balance against a parameter\n\nShell completion (games, variants, parameters too): source <(COMPLETE=bash tabula)"
)]
pub struct Cli {
    /// Folder of game files (default: $TABULA_GAMES, else ./games, else the
    /// built-in games; a game not found there is looked for among them).
    #[arg(long, global = true, value_name = "DIR")]
    pub games_dir: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

/// Variants and parameter settings, shared by the commands that load a game.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct GameArgs {
    /// Apply a named variant (repeatable, applied in order).
    #[arg(long = "variant", value_name = "V", add = ArgValueCandidates::new(complete::variants))]
    pub variants: Vec<String>,
    /// Set a parameter, e.g. --set wound_limit=50 (repeatable).
    #[arg(long = "set", value_name = "K=V", value_parser = parse_set, add = ArgValueCandidates::new(complete::sets))]
    pub sets: Vec<(String, ParamValue)>,
}

impl GameArgs {
    pub fn settings(&self) -> Settings {
        Settings {
            variants: self.variants.clone(),
            sets: self.sets.clone(),
        }
    }
}

/// `K=V`: a number, or a word (a named value, checked with the game).
fn parse_set(s: &str) -> std::result::Result<(String, ParamValue), String> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}`: expected KEY=VALUE"))?;
    let v = v.trim();
    let looks_numeric = v
        .trim_start_matches(['-', '+'])
        .starts_with(|c: char| c.is_ascii_digit());
    let v = match v.parse::<i64>() {
        Ok(i) => ParamValue::Int(i),
        Err(e) if looks_numeric => {
            return Err(match e.kind() {
                std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => {
                    format!(
                        "`{s}`: the value is outside the integer range ({}..={})",
                        i64::MIN,
                        i64::MAX
                    )
                }
                _ => format!("`{s}`: the value must be an integer or a name"),
            });
        }
        Err(_) if v.is_empty() => return Err(format!("`{s}`: no value after `=`")),
        Err(_) => ParamValue::Word(v.to_string()),
    };
    Ok((k.trim().to_string(), v))
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the games and their variants.
    List,
    /// Show a game's rules text, cards, parameters and variants.
    Rules {
        #[arg(add = ArgValueCandidates::new(complete::games))]
        game: String,
        #[command(flatten)]
        args: GameArgs,
    },
    /// Copy a game's files (its YAML, what it extends, its scripts) to a
    /// folder of your own, to edit and play with --games-dir: the way to
    /// change a built-in game.
    Copy(copy::CopyArgs),
    /// Play in the terminal against bots or hot-seat.
    Play(play::PlayArgs),
    /// Play in the browser: tables that friends join by a link
    /// (`serve braverats`), with the REPL's rules, views and bots.
    Serve(serve::ServeArgs),
    /// Simulate many seeded games between bots: balance figures and speed.
    Sim(sim::SimArgs),
    /// Sim (and solve) at every setting of some parameters: one table,
    /// one chart, e.g. `sweep experior wound_limit=20..200:20 --chart w.svg`.
    Sweep(sweep::SweepArgs),
    /// Add up the shards of a sim or a solve split across machines
    /// (`sim --shard K/N --json`, `solve --shard K/N --json`) into the
    /// report of the whole run.
    Merge(merge::MergeArgs),
    /// Solve a two-player zero-sum game: exactly, or by CFR where cards are hidden.
    Solve(solve::SolveArgs),
    /// Re-run a saved game and print the final state.
    Replay {
        file: PathBuf,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Show the game as this player saw it: their hidden cards, the
        /// lines only they read, and their options if it is their turn.
        #[arg(long = "as", value_name = "PLAYER")]
        viewer: Option<String>,
    },
    /// Write a save or replay as a position file: the game as it stands
    /// (zones, cards, stats, vars, turn), to start from with `tabula play --from FILE` (or sim, solve).
    SavePosition {
        file: PathBuf,
        /// Write to this file (default: print it).
        #[arg(long, short, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Print the JSON Schema of a game file (for editors; docs/game.schema.json),
    /// or with `save`, of a save, replay or position file (docs/save.schema.json).
    Schema {
        /// Which file's schema: `game` or `save`.
        #[arg(value_enum, default_value_t = SchemaOf::Game)]
        of: SchemaOf,
    },
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions { shell: clap_complete::Shell },
    /// Validate games: schema, references, scripts, and seeded smoke playouts.
    Check {
        /// Game files or ids (default: every game in the games folder).
        paths: Vec<String>,
        /// Random playouts per game and variant.
        #[arg(long, default_value_t = 20)]
        playouts: u32,
        /// Set a parameter in every run, e.g. --set players=4 (repeatable).
        #[arg(long = "set", value_name = "K=V", value_parser = parse_set, add = ArgValueCandidates::new(complete::sets))]
        sets: Vec<(String, ParamValue)>,
        /// Also play the playouts as bots do (quietly, through the hook
        /// memo) and report, per hook, how often its script ran and why.
        #[arg(long)]
        memo: bool,
        /// Also warn about what runs but is likely a mistake: a script
        /// function named like a built-in one, a function nothing calls.
        #[arg(long)]
        lint: bool,
        /// Also list the script functions the typed VM leaves to the tree
        /// tier and those the tree tier leaves to Rhai (and why), and play
        /// every playout both compiled and in Rhai, reporting the first
        /// difference.
        #[arg(long)]
        compile: bool,
        /// Run script functions in the tree tier, not the typed VM (with
        /// `--compile`: compare the tree tier alone with Rhai, its
        /// operations too).
        #[arg(long)]
        no_vm: bool,
        /// Also compile script functions to machine code where they can
        /// be (issue 55's first stage: functions of numbers, truth values
        /// and symbols); with `--compile`, list those that are not and why.
        #[arg(long, conflicts_with = "no_vm")]
        jit: bool,
    },
}

/// A player by id, or an error that lists the players.
pub fn player_of(def: &tabula::definition::Def, id: &str) -> tabula::Result<usize> {
    tabula::session::player_of(def, id)
}

/// Whether to colour output on stderr.
pub fn color_err() -> bool {
    std::env::var_os("NO_COLOR").is_none() && std::io::stderr().is_terminal()
}

/// An error already written out as text (a sim's game error), as
/// `print_error` prints one.
pub fn print_error_text(e: &str) {
    let head = if color_err() {
        "\x1b[31merror\x1b[0m"
    } else {
        "error"
    };
    // A script's error text may hold a terminal's escape sequences.
    eprintln!("{head}: {}", tabula::error::printable(e));
}

pub fn print_error(e: &Error) {
    eprintln!("{}", e.render(color_err()));
}

/// The games folder: `--games-dir`, else `TABULA_GAMES`, else `./games`
/// when there is one, else the built-in library, which is also where a game
/// not in the chosen folder is looked for.
fn games_dir(flag: Option<&Path>) -> (PathBuf, Option<library::Library>) {
    let library = match library::games_folder() {
        Ok(l) => {
            for r in &l.said {
                eprintln!("tabula: {r}");
            }
            source::set_built_in(l.games.clone(), l.ids.clone());
            Some(l)
        }
        Err(e) => {
            eprintln!("tabula: the built-in games are not available: {e}");
            None
        }
    };
    let dir = match (env::named_games_dir(flag), &library) {
        (Some(d), _) => d,
        (None, Some(l)) if Path::new("games").is_dir() => {
            let here = PathBuf::from("games");
            say_shadowed(&here, l);
            here
        }
        (None, _) if Path::new("games").is_dir() => PathBuf::from("games"),
        (None, Some(l)) => l.games.clone(),
        (None, None) => PathBuf::from("games"),
    };
    (dir, library)
}

/// Say which built-in games a ./games folder found by chance (not named by
/// `--games-dir`) holds with other rules: those ids play its files. Other
/// rules are a game file that differs, or a script beside it (in
/// ../scripts) that differs from the built-in one of that name.
fn say_shadowed(here: &Path, library: &library::Library) {
    let (ids, library) = (&library.ids, &library.games);
    let text = |p: &Path| tabula::files::read_text(p).ok();
    let differ = |a: &Path, b: &Path| a.is_file() && text(a) != text(b);
    let scripts = |games: &Path| games.join("../scripts");
    let mut shadowed: Vec<String> = Vec::new();
    for id in ids {
        let ours = library.join(format!("{id}.yaml"));
        let game = ["yaml", "yml"]
            .iter()
            .map(|x| here.join(format!("{id}.{x}")))
            .find(|a| a.is_file());
        let Some(game) = game else { continue };
        let mut files: Vec<String> = Vec::new();
        if differ(&game, &ours) {
            files.push(tabula::error::path_text(&game));
        } else {
            // The same file: it runs the scripts of this folder.
            let built_in = text(&ours).unwrap_or_default();
            for e in std::fs::read_dir(scripts(library))
                .into_iter()
                .flatten()
                .flatten()
            {
                let name = e.file_name().to_string_lossy().into_owned();
                let used = name == format!("{id}.rhai") || built_in.contains(&name);
                let local = scripts(here).join(&name);
                if used && differ(&local, &e.path()) {
                    files.push(tabula::error::path_text(&tabula::files::normalize(&local)));
                }
            }
        }
        if !files.is_empty() {
            shadowed.push(format!("{id} ({})", files.join(", ")));
        }
    }
    if !shadowed.is_empty() {
        eprintln!(
            "tabula: ./games here holds {} with rules of its own, played instead of the built-in game(s) of that id (--games-dir names the folder to play from)",
            shadowed.join(", ")
        );
    }
}

/// Threads for a run of `work` independent pieces: `--jobs` (default: every
/// core), capped at the cores and the pieces, since more only thrash; a
/// cap asked for explicitly is said on stderr.
pub fn threads(requested: Option<u16>, work: u64) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let want = requested.map_or(cores, usize::from);
    let cap = cores
        .min(usize::try_from(work).unwrap_or(usize::MAX))
        .max(1);
    if want > cap && requested.is_some() {
        let why = if cap == cores {
            format!("{cores} core(s) here")
        } else {
            format!("{work} piece(s) of work")
        };
        eprintln!("tabula: using {cap} thread(s), not {want}: more would not help ({why})");
    }
    want.min(cap)
}

/// Run the command line; the process exit code.
pub fn main() -> i32 {
    // `COMPLETE=bash tabula` (from the shell's completion hook) answers
    // and exits here.
    clap_complete::CompleteEnv::with_factory(<Cli as clap::CommandFactory>::command).complete();
    let cli = Cli::parse();
    env::configure();
    // The library lives to the end of the command (a temporary one is
    // removed then).
    let (dir, _library) = games_dir(cli.games_dir.as_deref());
    let result: Result<i32> = match cli.command {
        Command::List => list::run(&dir),
        Command::Rules { game, args } => rules::run(&dir, &game, &args.settings()),
        Command::Play(args) => play::run(&dir, args),
        Command::Copy(args) => copy::run(&dir, &args),
        Command::Serve(args) => serve::run(&dir, args),
        Command::Sim(args) => sim::run(&dir, args),
        Command::Solve(args) => solve::run(&dir, args),
        Command::Sweep(args) => sweep::run(&dir, args),
        Command::Merge(args) => merge::run(args),
        Command::Replay { file, json, viewer } => replay::run(&dir, &file, json, viewer.as_deref()),
        Command::Check {
            paths,
            playouts,
            sets,
            memo,
            lint,
            compile,
            no_vm,
            jit,
        } => check::run(
            &dir,
            &paths,
            &check::Options {
                playouts,
                sets,
                memo,
                lint,
                compile,
                no_vm,
                jit,
            },
        ),
        Command::SavePosition { file, out } => position::run(&dir, &file, out.as_deref()),
        Command::Schema { of } => {
            match of {
                SchemaOf::Game => println!("{}", tabula::format::schema()),
                SchemaOf::Save => println!("{}", tabula::replay::schema()),
            }
            Ok(0)
        }
        Command::Completions { shell } => {
            use clap::CommandFactory;
            clap_complete::generate(shell, &mut Cli::command(), "tabula", &mut std::io::stdout());
            Ok(0)
        }
    };
    // What the best bot found in its cache that was no file.
    for n in tabula::bot::best::cache_notes() {
        eprintln!("tabula: {n}");
    }
    match result {
        Ok(code) => code,
        Err(e) => {
            print_error(&e);
            exit_code(&e)
        }
    }
}

/// 3 for a refusal (a valid game the command cannot handle), else 1.
pub fn exit_code(e: &tabula::Error) -> i32 {
    if e.refusal().is_some() { 3 } else { 1 }
}

/// The files `tabula schema` describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum SchemaOf {
    /// A game's YAML file.
    Game,
    /// A save, replay or position file.
    Save,
}
