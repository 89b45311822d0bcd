//! `tabula sim`: many seeded bot games, balance figures, speed.

use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;

use super::GameArgs;
use tabula::bot;
use tabula::definition::source::{self, Settings};
use tabula::error::{Error, Result};
use tabula::sim::{self, Report, SimConfig};
use tabula::{Build, Game};

#[derive(clap::Args, Debug)]
pub struct SimArgs {
    #[arg(add = clap_complete::ArgValueCandidates::new(super::complete::games))]
    pub game: String,
    #[command(flatten)]
    pub args: GameArgs,
    /// How many games.
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
    /// Another column to compare: variants joined by `+` (`base` for none),
    /// e.g. --compare fast-rat --compare draft+fast-rat. Repeatable.
    #[arg(long, value_name = "VARIANTS")]
    pub compare: Vec<String>,
    /// A game still going after this many decisions counts as unfinished.
    #[arg(long, default_value_t = 100_000)]
    pub max_decisions: u32,
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    #[arg(long)]
    pub csv: bool,
    /// Run every hook through the script, without the memo of hook runs
    /// (the same report, slower: a check on the memo).
    #[arg(long)]
    pub no_memo: bool,
}

pub fn run(dir: &Path, a: SimArgs) -> Result<i32> {
    let path = source::find(&a.game, dir)?;
    let base = a.args.settings();
    let build = Build { memo: !a.no_memo };
    let game = Game::load_path(&path, dir, &base, build)?;
    let def = game.def();
    let mut bots = vec!["random".to_string(); def.nplayers()];
    for (p, k) in &a.bots {
        let Some(i) = def.player(p) else {
            return Err(Error::usage(format!("no player `{p}` in {}", def.id)));
        };
        if !bot::valid(k) {
            return Err(Error::usage(bot::kind_problem(k)));
        }
        bots[i] = k.clone();
    }
    let jobs = super::threads(a.jobs, a.games);
    let cfg = SimConfig {
        games: a.games,
        seed: a.seed,
        bots,
        jobs,
        max_decisions: a.max_decisions,
    };
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
        let bar = Progress::new(a.games, &label(settings));
        let records = sim::run(g, &cfg, &|n| bar.set(n))?;
        bar.finish();
        let secs = started.elapsed().as_secs_f64();
        let r = sim::report(g, &cfg, &records);
        eprintln!(
            "{}: {} games in {secs:.2} s ({:.0} games/s, {jobs} thread(s))",
            label(settings),
            a.games,
            a.games as f64 / secs.max(1e-9)
        );
        reports.push(r);
    }
    if a.json {
        let text = if reports.len() == 1 {
            serde_json::to_string_pretty(&reports[0])
        } else {
            serde_json::to_string_pretty(&reports)
        };
        println!("{}", text.unwrap_or_default());
    } else if a.csv {
        print_csv(&reports);
    } else if reports.len() == 1 {
        print_report(&reports[0]);
    } else {
        print_compare(&reports);
    }
    // A rules error is the designer's to fix: on stderr, and a failed run.
    let failed: u64 = reports.iter().map(|r| r.failed).sum();
    for r in &reports {
        for e in &r.errors {
            super::print_error_text(e);
        }
    }
    if failed > 0 {
        eprintln!(
            "tabula: {failed} of {} games stopped on a rules error (the first ones above)",
            a.games * reports.len() as u64
        );
        return Ok(1);
    }
    Ok(0)
}

fn label(s: &Settings) -> String {
    if s.variants.is_empty() {
        "base".into()
    } else {
        s.variants.join("+")
    }
}

/// A progress bar on stderr, only on a terminal and only once a run has
/// taken more than a second.
struct Progress {
    bar: indicatif::ProgressBar,
}

impl Progress {
    fn new(total: u64, label: &str) -> Progress {
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
        Progress { bar }
    }
    fn set(&self, n: u64) {
        if self.bar.is_hidden()
            && self.bar.elapsed().as_secs_f64() > 1.0
            && std::io::stderr().is_terminal()
        {
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
        self.bar.set_position(n);
    }
    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

fn pct(r: &sim::Rate) -> String {
    format!("{:5.1}% [{:4.1}, {:4.1}]", r.percent, r.low, r.high)
}

fn print_report(r: &Report) {
    let variants = if r.variants.is_empty() {
        "-".to_string()
    } else {
        r.variants.join(", ")
    };
    println!(
        "{} - {} games, seed {}, variants {variants}",
        r.game, r.games, r.seed
    );
    println!();
    println!(
        "{:<14} {:<8} {:>8}  win rate (95% CI)",
        "seat", "bot", "wins"
    );
    for s in &r.seats {
        println!(
            "{:<14} {:<8} {:>8}  {}",
            s.player,
            s.bot,
            s.wins.count,
            pct(&s.wins)
        );
    }
    println!(
        "{:<14} {:<8} {:>8}  {}",
        "draws",
        "",
        r.draws.count,
        pct(&r.draws)
    );
    if r.unfinished > 0 {
        println!("{:<14} {:<8} {:>8}", "unfinished", "", r.unfinished);
    }
    if r.failed > 0 {
        println!("{:<14} {:<8} {:>8}", "rules error", "", r.failed);
    }
    if let Some((d, ci)) = r.first_seat_advantage {
        println!("\nfirst seat advantage: {d:+.1} points (95% CI +/- {ci:.1})");
    }
    for s in &r.seats {
        if let Some((m, ci)) = s.payoff {
            println!("mean payoff of {}: {m:+.3} (95% CI +/- {ci:.3})", s.player);
        }
    }
    println!(
        "length: turns mean {:.1}, median {}, p95 {}; decisions mean {:.1}, median {}, p95 {}",
        r.turns.mean,
        r.turns.median,
        r.turns.p95,
        r.decisions.mean,
        r.decisions.median,
        r.decisions.p95
    );
    if r.end_reasons.iter().any(|e| !e.reason.is_empty()) {
        println!(
            "\n{:<24} {:>8}  share of games (95% CI)",
            "how games ended", "games"
        );
        for e in &r.end_reasons {
            let k = if e.reason.is_empty() {
                "(no reason given)"
            } else {
                &e.reason
            };
            println!("{k:<24} {:>8}  {}", e.share.count, pct(&e.share));
        }
    }
    if !r.cards.is_empty() {
        println!(
            "\n{:<18} {:>9}  player won the game (95% CI)",
            "card", "played"
        );
        for c in &r.cards {
            println!("{:<18} {:>9}  {}", c.card, c.played, pct(&c.won_game));
        }
    }
}

fn print_compare(reports: &[Report]) {
    let head: Vec<String> = reports
        .iter()
        .map(|r| {
            if r.variants.is_empty() {
                "base".into()
            } else {
                r.variants.join("+")
            }
        })
        .collect();
    print!("{:<22}", "");
    for h in &head {
        print!(" {h:>24}");
    }
    println!();
    let row = |name: &str, f: &dyn Fn(&Report) -> String| {
        print!("{name:<22}");
        for r in reports {
            print!(" {:>24}", f(r));
        }
        println!();
    };
    for (i, s) in reports[0].seats.iter().enumerate() {
        row(&format!("{} wins", s.player), &|r| pct(&r.seats[i].wins));
    }
    row("draws", &|r| pct(&r.draws));
    row("first seat advantage", &|r| {
        r.first_seat_advantage
            .map_or("-".into(), |(d, ci)| format!("{d:+.1} +/- {ci:.1}"))
    });
    row("turns (mean)", &|r| format!("{:.1}", r.turns.mean));
    row("turns (median, p95)", &|r| {
        format!("{}, {}", r.turns.median, r.turns.p95)
    });
}

fn print_csv(reports: &[Report]) {
    println!(
        "variants,seat,bot,games,wins,win_rate,ci_low,ci_high,draws,turns_mean,turns_median,turns_p95"
    );
    for r in reports {
        let v = r.variants.join("+");
        for s in &r.seats {
            println!(
                "{v},{},{},{},{},{:.4},{:.4},{:.4},{},{:.3},{},{}",
                s.player,
                s.bot,
                r.games,
                s.wins.count,
                s.wins.percent / 100.0,
                s.wins.low / 100.0,
                s.wins.high / 100.0,
                r.draws.count,
                r.turns.mean,
                r.turns.median,
                r.turns.p95
            );
        }
    }
}
