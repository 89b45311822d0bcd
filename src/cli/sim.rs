//! `tabula sim`: many seeded bot games, balance figures, speed.

use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;

use super::GameArgs;
use super::report;
use tabula::bot;
use tabula::definition::source::{self, Settings};
use tabula::error::{Error, Result};
use tabula::sim::{self, Report, SimConfig};
use tabula::{Build, Game};

#[derive(clap::Args, Debug)]
pub struct SimArgs {
    #[arg(
        add = clap_complete::ArgValueCandidates::new(super::complete::games),
        required_unless_present = "from"
    )]
    pub game: Option<String>,
    /// Play every game from this position (a position file, or a save or
    /// replay: where it stands) rather than the start, each with chance of
    /// its own; the game, variants and parameters are the file's.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "variants", "sets", "compare", "decided"])]
    pub from: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub args: GameArgs,
    #[command(flatten)]
    pub run: RunArgs,
    /// Another column to compare: variants joined by `+` (`base` for none),
    /// e.g. --compare fast-rat --compare draft+fast-rat. Repeatable.
    #[arg(long, value_name = "VARIANTS")]
    pub compare: Vec<String>,
    /// Play only the K-th of N equal shares of the games (1 <= K <= N),
    /// for a run split across machines: with --json, `tabula merge` adds
    /// the shares up into the report of the whole run.
    #[arg(long, value_name = "K/N", value_parser = sim::Shard::parse)]
    pub shard: Option<sim::Shard>,
    #[command(flatten)]
    pub out: OutputArgs,
    /// Run every hook through the script, without the memo of hook runs
    /// (the same report, slower: a check on the memo).
    #[arg(long)]
    pub no_memo: bool,
    /// Run every script function in Rhai's interpreter, none compiled
    /// (the same report, slower: a check on the compiled tier).
    #[arg(long)]
    pub no_compile: bool,
    /// Run every hook both compiled and in Rhai and stop at the first
    /// difference (a check on the compiled tier; slower than either).
    #[arg(long, conflicts_with = "no_compile")]
    pub compare_compiled: bool,
    /// Run script functions in the tree tier, not the typed VM (the same
    /// report, slower: a check on the VM; with `--compare-compiled`, the
    /// tree tier alone against Rhai).
    #[arg(long, conflicts_with = "no_compile")]
    pub no_vm: bool,
    /// Also compile script functions to machine code where they can be
    /// (issue 55's first stage: functions of numbers, truth values and
    /// symbols); the rest run in the VM.
    #[arg(long, conflicts_with_all = ["no_compile", "no_vm"])]
    pub jit: bool,
    /// Also measure when games are decided: in the first 100 games, the
    /// first decision from which 8 random continuations all reach the
    /// game's own result, as a share of the game (Ludii's decisiveness).
    #[arg(long)]
    pub decided: bool,
}

/// The bots' games of `sim` and `sweep`: how many, who plays, the seed,
/// the threads.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// How many games (in a sweep: per setting).
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Bot per seat, P=KIND (default: random everywhere).
    #[arg(long = "bot", value_name = "P=KIND", value_parser = super::play::parse_bot)]
    pub bots: Vec<(String, String)>,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Threads, 1 to 256 (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: Option<u16>,
    /// A game still going after this many decisions counts as unfinished.
    #[arg(long, default_value_t = 100_000)]
    pub max_decisions: u32,
}

impl RunArgs {
    /// The run's configuration for a game (its seats).
    pub fn config(&self, def: &tabula::Def, shard: Option<sim::Shard>) -> Result<SimConfig> {
        Ok(SimConfig {
            games: self.games,
            seed: self.seed,
            bots: seat_bots(def, &self.bots)?,
            jobs: super::threads(self.jobs, self.games),
            max_decisions: self.max_decisions,
            shard,
        })
    }
}

/// How `sim`, `sweep` and `merge` write their report.
#[derive(clap::Args, Debug)]
pub struct OutputArgs {
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    #[arg(long)]
    pub csv: bool,
    /// Also draw the figures into FILE.svg (or FILE.html, the SVG in a
    /// page): win rates with 95% intervals, draws, lengths.
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<std::path::PathBuf>,
}

pub fn run(dir: &Path, a: SimArgs) -> Result<i32> {
    if let Some(c) = &a.out.chart {
        super::chart::check(c)?;
    }
    let build = Build {
        memo: !a.no_memo,
        compile: match (a.no_compile, a.compare_compiled, a.no_vm, a.jit) {
            (true, ..) => tabula::Compile::Off,
            (false, true, false, false) => tabula::Compile::Check,
            (false, true, false, true) => tabula::Compile::CheckJit,
            (false, true, true, _) => tabula::Compile::CheckTree,
            (false, false, false, false) => tabula::Compile::On,
            (false, false, false, true) => tabula::Compile::Jit,
            (false, false, true, _) => tabula::Compile::Tree,
        },
    };
    let (path, base, start) = match (&a.from, &a.game) {
        (Some(file), _) => {
            let (path, settings, pos) = start_of(dir, file)?;
            (path, settings, Some(pos))
        }
        (None, Some(id)) => (source::find(id, dir)?, a.args.settings(), None),
        (None, None) => {
            return Err(Error::usage(
                "name a game, or a position file with `tabula sim --from FILE`",
            ));
        }
    };
    let game = Game::load_path(&path, dir, &base, build)?;
    let cfg = a.run.config(game.def(), a.shard)?;
    let (total, jobs) = (cfg.games, cfg.jobs);
    let played = cfg.range().end - cfg.range().start;
    let mut columns = vec![base.clone()];
    for c in &a.compare {
        let variants = c
            .split('+')
            .map(str::trim)
            .filter(|v| !v.is_empty() && *v != "base")
            .map(str::to_string)
            .collect();
        columns.push(Settings {
            variants,
            sets: base.sets.clone(),
        });
    }
    let mut reports = Vec::new();
    // Every column's rules are read and compiled before any runs (a typo in
    // --compare is reported at once), then shared by the threads.
    let mut games = vec![game];
    for settings in &columns[1..] {
        games.push(Game::load_path(&path, dir, settings, build)?);
    }
    for (g, settings) in games.iter().zip(&columns) {
        let started = Instant::now();
        let bar = Progress::new(played, &sim::column_label(&settings.variants));
        let tally = sim::run_from(g, &cfg, start.as_ref(), &|n| bar.set(n))?;
        bar.finish();
        let secs = started.elapsed().as_secs_f64();
        let mut r = sim::report(g, &cfg, &tally);
        if a.decided {
            r.decided = sim::decided(g, &cfg);
        }
        eprintln!(
            "{}: {played} games in {secs:.2} s ({:.0} games/s, {jobs} thread(s))",
            sim::column_label(&settings.variants),
            played as f64 / secs.max(1e-9)
        );
        if let Some(shard) = a.shard {
            r.part = Some(sim::Part {
                shard,
                total_games: total,
                run: sim::RunInfo::of(g, &cfg),
                tally,
            });
        }
        reports.push(r);
    }
    // The report first: a chart that cannot be written loses no run.
    print(&reports, &a.out);
    if let Some(file) = &a.out.chart {
        super::chart::write(file, &tabula::chart::sim(&reports))?;
    }
    Ok(failures(&reports))
}

/// The game file, settings and position a `--from` file starts from: its
/// position, or the position where a save stands (`save-position`).
fn start_of(dir: &Path, file: &Path) -> Result<(std::path::PathBuf, Settings, tabula::Position)> {
    let r = tabula::replay::Replay::read(file)?;
    let game = r.load_game(Some(file), dir)?;
    let p = if r.position.is_some() && r.moves.is_empty() {
        r
    } else {
        tabula::rest::as_position(&game, &r)?
    };
    if !p.moves.is_empty() {
        return Err(Error::usage(format!(
            "{}: the game is in the middle of a move's resolution (its decision was asked by the last move's hook, not by a flow step), so no position holds it; save one a move earlier or later",
            tabula::error::path_text(file)
        )));
    }
    let pos = p.resolve_position(&game, p.seed)?;
    Ok((game.def().path.clone(), p.settings, pos))
}

/// Reports on stdout as JSON (one object, or a list of columns), CSV or
/// text.
pub fn print(reports: &[Report], out: &OutputArgs) {
    if out.json {
        let text = if reports.len() == 1 {
            serde_json::to_string_pretty(&reports[0])
        } else {
            serde_json::to_string_pretty(&reports)
        };
        println!("{}", text.unwrap_or_default());
    } else if out.csv {
        report::print_csv(reports);
    } else if reports.len() == 1 {
        report::print_report(&reports[0]);
    } else {
        report::print_compare(reports);
    }
}

/// A rules error is the designer's to fix: the errors on stderr, and the
/// exit code of a failed run.
pub fn failures(reports: &[Report]) -> i32 {
    let failed: u64 = reports.iter().map(|r| r.failed).sum();
    for r in reports {
        for e in &r.errors {
            super::print_error_text(e);
        }
    }
    if failed > 0 {
        let games: u64 = reports.iter().map(|r| r.games).sum();
        eprintln!(
            "tabula: {failed} of {games} games stopped on a rules error (the first ones above)"
        );
        return 1;
    }
    0
}

/// The bot kind of every seat: random, except where `--bot P=KIND` says.
pub fn seat_bots(def: &tabula::Def, asked: &[(String, String)]) -> Result<Vec<String>> {
    let mut bots = vec!["random".to_string(); def.nplayers()];
    for (p, k) in asked {
        let i = super::player_of(def, p)?;
        if !bot::valid(k) {
            return Err(Error::usage(bot::kind_problem(k)));
        }
        bots[i] = k.clone();
    }
    Ok(bots)
}

/// A progress bar on stderr, only on a terminal and only once a run has
/// taken more than a second; elsewhere (piped) a plain line every few
/// seconds (`ticker`).
pub struct Progress {
    bar: indicatif::ProgressBar,
    ticker: super::ticker::Ticker,
    label: String,
    total: u64,
}

impl Progress {
    pub fn new(total: u64, label: &str) -> Progress {
        let bar = if std::io::stderr().is_terminal() {
            let b = indicatif::ProgressBar::with_draw_target(
                Some(total),
                indicatif::ProgressDrawTarget::hidden(),
            );
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{prefix} {bar:40} {pos}/{len} games ({per_sec}, eta {eta})",
            ) {
                b.set_style(style);
            }
            b.set_prefix(label.to_string());
            b
        } else {
            indicatif::ProgressBar::hidden()
        };
        Progress {
            bar,
            ticker: super::ticker::Ticker::new(),
            label: label.to_string(),
            total,
        }
    }
    pub fn set(&self, n: u64) {
        if self.bar.is_hidden()
            && self.bar.elapsed().as_secs_f64() > 1.0
            && std::io::stderr().is_terminal()
        {
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
        self.bar.set_position(n);
        self.ticker
            .tick(|| format!("{}: {n}/{} games", self.label, self.total));
    }
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
