//! `tabula sweep GAME PARAM=FROM..TO[:STEP] ...`: sim (and solve) at every
//! setting of some parameters, one table and one chart.

use std::path::Path;

use super::GameArgs;
use super::report::{csv_field, pct};
use tabula::definition::source;
use tabula::error::Result;
use tabula::solve;
use tabula::sweep::{self, Axis, Exact, Sweep, SweepConfig};
use tabula::{Build, Game};

#[derive(clap::Args, Debug)]
pub struct SweepArgs {
    #[arg(add = clap_complete::ArgValueCandidates::new(super::complete::games))]
    pub game: String,
    /// The parameters to vary: PARAM=FROM..TO[:STEP] or PARAM=A,B,C; two
    /// or more make a grid (every combination). The chart's x axis is the
    /// first.
    #[arg(required = true, value_name = "PARAM=FROM..TO[:STEP]", value_parser = Axis::parse, add = clap_complete::ArgValueCandidates::new(super::complete::sets))]
    pub axes: Vec<Axis>,
    #[command(flatten)]
    pub args: GameArgs,
    #[command(flatten)]
    pub run: super::sim::RunArgs,
    /// Also solve every setting exactly where solve applies (two players,
    /// no chance after setup, no hidden cards), within --solve-states.
    #[arg(long)]
    pub solve: bool,
    /// Positions a setting's solve may take before it is given up (its
    /// row then says so).
    #[arg(long, default_value_t = 1_000_000)]
    pub solve_states: usize,
    #[command(flatten)]
    pub out: super::sim::OutputArgs,
}

pub fn run(dir: &Path, a: SweepArgs) -> Result<i32> {
    if let Some(c) = &a.out.chart {
        super::chart::check(c)?;
    }
    let path = source::find(&a.game, dir)?;
    let base = a.args.settings();
    // The base settings load first: a bad --bot or --variant is said
    // before any setting runs.
    let game = Game::load_path(&path, dir, &base, Build::default())?;
    let cfg = SweepConfig {
        path: &path,
        dir,
        base,
        axes: a.axes.clone(),
        sim: a.run.config(game.def(), None)?,
        solve: a.solve.then_some(solve::Limits {
            max_states: a.solve_states,
            ..solve::Limits::default()
        }),
        build: Build::default(),
    };
    let started = std::time::Instant::now();
    // Counted, never built: a billion settings are refused at once.
    let settings = sweep::count(&cfg.axes)? as u64;
    let games = cfg.sim.games;
    let bar = super::sim::Progress::new(games * settings, "sweep");
    let s = sweep::run(&cfg, &|n, _| bar.set(n))?;
    bar.finish();
    eprintln!(
        "{settings} setting(s) x {games} games in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    // The table first: a chart that cannot be written loses no run.
    if a.out.json {
        println!("{}", serde_json::to_string_pretty(&s).unwrap_or_default());
    } else if a.out.csv {
        print_csv(&s);
    } else {
        print_table(&s);
    }
    if let Some(c) = &a.out.chart {
        super::chart::write(c, &tabula::chart::sweep(&s)?)?;
    }
    let reports: Vec<_> = s.rows.iter().map(|r| r.report.clone()).collect();
    Ok(super::sim::failures(&reports))
}

/// Every end reason any setting saw, most frequent overall first.
fn reasons(s: &Sweep) -> Vec<String> {
    let mut all: Vec<(String, u64)> = Vec::new();
    for r in &s.rows {
        for e in &r.report.end_reasons {
            match all.iter_mut().find(|(k, _)| *k == e.reason) {
                Some((_, n)) => *n += e.share.count,
                None => all.push((e.reason.clone(), e.share.count)),
            }
        }
    }
    all.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    all.into_iter().map(|(k, _)| k).collect()
}

fn exact_text(e: &Option<Exact>) -> (String, String) {
    match e {
        Some(Exact::Solved { worth, .. }) => (
            format!("{:+.4}", worth.value),
            format!(
                "{:.1}/{:.1}/{:.1}",
                100.0 * worth.win,
                100.0 * worth.draw,
                100.0 * worth.loss
            ),
        ),
        Some(Exact::NotSolved { .. }) => ("-".into(), "-".into()),
        None => (String::new(), String::new()),
    }
}

fn print_table(s: &Sweep) {
    let Some(first) = s.rows.first() else {
        return;
    };
    let bots: Vec<String> = (first.report.seats.iter())
        .map(|seat| format!("{} {}", seat.player, seat.bot))
        .collect();
    let variants = if s.variants.is_empty() {
        String::new()
    } else {
        format!(", variants {}", s.variants.join(", "))
    };
    println!(
        "{} - {} games per setting, seed {}{variants}; bots: {}",
        s.game,
        s.games,
        s.seed,
        bots.join(", ")
    );
    println!();
    let reasons = reasons(s);
    let named = reasons.iter().any(|k| !k.is_empty());
    let solved = first.exact.is_some();
    let mut head: Vec<String> = s.axes.iter().map(|a| a.param.clone()).collect();
    head.extend(
        first
            .report
            .seats
            .iter()
            .map(|x| format!("{} wins", x.player)),
    );
    head.extend([
        "draws".into(),
        "1st seat adv".into(),
        "turns mean/med/p95".into(),
    ]);
    if named {
        head.extend(reasons.iter().map(|k| format!("ended: {k}")));
    }
    if solved {
        head.extend(["exact value".into(), "exact W/D/L %".into()]);
    }
    let mut lines = vec![head];
    for r in &s.rows {
        let rep = &r.report;
        let mut cells: Vec<String> = r.setting.iter().map(|(_, v)| v.to_string()).collect();
        cells.extend(rep.seats.iter().map(|x| pct(&x.wins)));
        cells.push(pct(&rep.draws));
        cells.push(
            rep.first_seat_advantage
                .map_or("-".into(), |(d, ci)| format!("{d:+.1} +/- {ci:.1}")),
        );
        cells.push(format!(
            "{:.1}/{}/{}",
            rep.turns.mean, rep.turns.median, rep.turns.p95
        ));
        if named {
            for k in &reasons {
                let e = rep.end_reasons.iter().find(|e| e.reason == *k);
                cells.push(e.map_or("-".into(), |e| format!("{:.1}%", e.share.percent)));
            }
        }
        if solved {
            let (v, wdl) = exact_text(&r.exact);
            cells.extend([v, wdl]);
        }
        lines.push(cells);
    }
    let widths: Vec<usize> = (0..lines[0].len())
        .map(|i| lines.iter().map(|l| l[i].len()).max().unwrap_or(0))
        .collect();
    for l in &lines {
        let cells: Vec<String> = (l.iter().zip(&widths))
            .map(|(c, w)| format!("{c:>w$}"))
            .collect();
        println!("{}", cells.join("  ").trim_end());
    }
    // Why some settings have no exact value, each reason once, with
    // sweep's own hint where it has one.
    let mut notes: Vec<(String, Vec<String>)> = Vec::new();
    for r in &s.rows {
        if let Some(Exact::NotSolved {
            not_solved,
            refusal,
        }) = &r.exact
        {
            let why = match hint(*refusal) {
                Some(h) => format!("{not_solved} ({h})"),
                None => not_solved.clone(),
            };
            let at: Vec<String> = r.setting.iter().map(|(k, v)| format!("{k}={v}")).collect();
            match notes.iter_mut().find(|(w, _)| *w == why) {
                Some((_, ats)) => ats.push(at.join(" ")),
                None => notes.push((why, vec![at.join(" ")])),
            }
        }
    }
    for (why, ats) in notes {
        println!("\nnot solved at {}: {why}", ats.join(", "));
    }
}

/// `sweep --solve`'s hint for a setting not solved, if it has one (the
/// library's message names no flag: `solve` and `play` print it too).
fn hint(refusal: Option<tabula::error::Refusal>) -> Option<String> {
    match refusal? {
        tabula::error::Refusal::TooManyPositions { limit } => Some(format!(
            "--solve-states N lets each solve keep more than {limit} positions"
        )),
        _ => None,
    }
}

/// One line per setting: the parameters, then each seat's figures, then
/// the run's.
fn print_csv(s: &Sweep) {
    let Some(first) = s.rows.first() else {
        return;
    };
    let reasons = reasons(s);
    let mut head: Vec<String> = s.axes.iter().map(|a| a.param.clone()).collect();
    head.push("games".into());
    for seat in &first.report.seats {
        for f in ["bot", "wins", "win_rate", "ci_low", "ci_high"] {
            head.push(format!("{}_{f}", seat.player));
        }
    }
    head.extend(
        [
            "draws",
            "draw_rate",
            "first_seat_advantage",
            "turns_mean",
            "turns_median",
            "turns_p95",
        ]
        .map(String::from),
    );
    head.extend(reasons.iter().map(|k| format!("ended:{k}")));
    head.extend(["exact_value", "exact_win", "exact_draw", "exact_loss"].map(String::from));
    println!(
        "{}",
        head.iter()
            .map(|h| csv_field(h))
            .collect::<Vec<_>>()
            .join(",")
    );
    for r in &s.rows {
        let rep = &r.report;
        let mut cells: Vec<String> = r
            .setting
            .iter()
            .map(|(_, v)| csv_field(&v.to_string()))
            .collect();
        cells.push(rep.games.to_string());
        for seat in &rep.seats {
            cells.extend([
                csv_field(&seat.bot),
                seat.wins.count.to_string(),
                format!("{:.4}", seat.wins.percent / 100.0),
                format!("{:.4}", seat.wins.low / 100.0),
                format!("{:.4}", seat.wins.high / 100.0),
            ]);
        }
        cells.extend([
            rep.draws.count.to_string(),
            format!("{:.4}", rep.draws.percent / 100.0),
            rep.first_seat_advantage
                .map_or(String::new(), |(d, _)| format!("{:.4}", d / 100.0)),
            format!("{:.3}", rep.turns.mean),
            rep.turns.median.to_string(),
            rep.turns.p95.to_string(),
        ]);
        for k in &reasons {
            let e = rep.end_reasons.iter().find(|e| e.reason == *k);
            cells.push(e.map_or("0".into(), |e| format!("{:.4}", e.share.percent / 100.0)));
        }
        match &r.exact {
            Some(Exact::Solved { worth, .. }) => cells.extend(
                [worth.value, worth.win, worth.draw, worth.loss].map(|x| format!("{x:.6}")),
            ),
            _ => cells.extend(std::iter::repeat_n(String::new(), 4)),
        }
        println!("{}", cells.join(","));
    }
}
