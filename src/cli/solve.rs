//! `tabula solve GAME`: the exact value and first-move strategies of a
//! two-player zero-sum game with simultaneous moves.

use std::io::IsTerminal;
use std::path::Path;

use indicatif::ProgressDrawTarget;

use super::GameArgs;
use tabula::analysis::{method, response};
use tabula::definition::source;
use tabula::error::Result;
use tabula::{Build, Game};
use tabula::{cfr, mccfr, solve};

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    #[arg(
        add = clap_complete::ArgValueCandidates::new(super::complete::games),
        required_unless_present = "from"
    )]
    pub game: Option<String>,
    /// Solve from a saved position (a game saved in the REPL with `save`,
    /// or a replay file) rather than the start; the game, variants and
    /// parameters are the save's.
    #[arg(long, value_name = "SAVE", conflicts_with_all = ["game", "exploit"])]
    pub from: Option<std::path::PathBuf>,
    /// Also print the first decision's payoff matrix: the exact value of
    /// each pair of choices (which opening beats which).
    #[arg(long)]
    pub matrix: bool,
    #[command(flatten)]
    pub args: GameArgs,
    /// Solve the one setup this seed makes (a deal). Without it, a setup
    /// that draws at random is solved over every setup it can make, each
    /// weighted by its chance.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Estimate the value over this many sampled setups (seeds from
    /// --seed, default 0), where the setup's chance makes too many to
    /// list: each solved exactly, the mean with its 95% interval.
    #[arg(long, value_name = "N", conflicts_with = "from", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub deals: Option<u64>,
    /// Threads, 1 to 256 (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: Option<u16>,
    #[arg(long)]
    pub json: bool,
    /// Also measure how much a best response wins against this bot kind
    /// (its exploitability), e.g. --exploit random --exploit mcts:100.
    #[arg(long, value_name = "KIND")]
    pub exploit: Vec<String>,
    /// Decisions sampled per state to estimate a search bot's policy.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..))]
    pub samples: u32,
    /// Hidden information (CFR+): stop at this exploitability (how much a
    /// best response gains, in payoff units).
    #[arg(long, default_value_t = 0.001)]
    pub target: f64,
    /// Hidden information (CFR+ or MCCFR): stop after this many iterations.
    #[arg(long, default_value_t = 100_000)]
    pub iterations: u64,
    /// Hidden information: stop CFR+ or MCCFR after this many seconds.
    #[arg(long, default_value_t = 600.0, value_parser = positive_seconds)]
    pub seconds: f64,
    /// Hidden information: learn by Monte Carlo CFR with this sampling of
    /// the players' choices (`external`: the learner tries each; `outcome`:
    /// one line a time), even where CFR+ over the whole tree would fit.
    /// Without it MCCFR is used where the tree is too big or its chance
    /// too much to list, external sampling unless a traversal is too wide.
    #[arg(long, value_enum)]
    pub sampling: Option<SamplingArg>,
    /// MCCFR: games in each seat of the search bot against the strategy,
    /// a lower bound of its exploitability where the tree is too big for
    /// an exact one.
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub probe_games: u64,
    /// MCCFR: games of the average strategy against itself that estimate
    /// its value where the tree is too big to walk.
    #[arg(long, default_value_t = 20_000, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub eval_games: u64,
    /// Solve only every N-th setup, from the K-th (1 <= K <= N), for a
    /// solve over many setups split across machines: with --json, `tabula
    /// merge` adds the shares up into the whole solve's answer.
    #[arg(long, value_name = "K/N", value_parser = tabula::sim::Shard::parse, conflicts_with_all = ["from", "exploit"])]
    pub shard: Option<tabula::sim::Shard>,
    /// Stop with a message past this many positions (each about 130 bytes).
    #[arg(long, default_value_t = solve::MAX_STATES)]
    pub max_states: usize,
}

#[derive(clap::ValueEnum, Debug, Clone, Copy)]
pub enum SamplingArg {
    External,
    Outcome,
}

fn positive_seconds(s: &str) -> std::result::Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("`{s}` is not a number of seconds above 0")),
    }
}

pub fn run(dir: &Path, a: SolveArgs) -> Result<i32> {
    let (game, roots) = match (&a.from, &a.game) {
        (Some(save), _) => {
            let r = tabula::replay::Replay::read(save)?;
            let played = tabula::replay::play(&r, Some(save), dir)?;
            if let Some(note) = r.game_by_path_note(save, &played.game, dir) {
                eprintln!("tabula: {note}");
            }
            (played.game, Ok(vec![(1.0, played.state)]))
        }
        (None, Some(id)) => {
            let path = source::find(id, dir)?;
            let game = Game::load_path(&path, dir, &a.args.settings(), Build::default())?;
            let roots = match a.deals {
                Some(n) => tabula::tree::sampled_roots(&game, n, a.seed.unwrap_or(0)),
                None => tabula::tree::roots(&game, a.seed),
            };
            (game, roots)
        }
        (None, None) => return Err(tabula::Error::usage("name a game, or a save with --from")),
    };
    // Every method solves two-player games: a game of more is refused
    // once, before any of them starts or is announced.
    if let Some(e) = solve::refusal(&game) {
        return failed(e, &a);
    }
    if a.sampling.is_some() {
        return run_mccfr(&game, &a);
    }
    // The first decision's outcomes are what runs in parallel.
    let none = Vec::new();
    let firsts = roots
        .as_ref()
        .unwrap_or(&none)
        .first()
        .map_or(1, |(_, root)| {
            root.waiting()
                .iter()
                .map(|&p| root.legal(p).len() as u64)
                .product::<u64>()
        });
    let jobs = super::threads(a.jobs, firsts);
    let limits = solve::Limits {
        max_states: a.max_states,
        ..solve::Limits::default()
    };
    let many = roots.as_ref().map_or(0, Vec::len);
    let spinner = if many > 1 {
        Spinner::with("solving setup {msg}: {human_pos} positions ({per_sec})")
    } else {
        Spinner::new()
    };
    if let Some(shard) = a.shard {
        let mine = (0..many).filter(|&i| shard.takes(i)).count();
        let part = roots.as_ref().map_err(Clone::clone).and_then(|roots| {
            solve::solve_shard(
                &game,
                roots,
                shard,
                jobs,
                limits,
                &|n| spinner.show(n),
                &|k| spinner.say(format!("{k} of {mine} (share {}/{})", shard.k, shard.n)),
            )
        });
        spinner.finish();
        return print_share(part, &a);
    }
    let told = say_estimate(&game, jobs, many);
    let s = roots.as_ref().map_err(Clone::clone).and_then(|roots| {
        let show = &|n| spinner.show(n);
        let setup = &|k| spinner.say(format!("{k} of {many}"));
        solve::solve_roots_told(&game, roots, jobs, limits, show, setup, &told)
    });
    let roots = roots.unwrap_or_default();
    spinner.finish();
    match s {
        Ok(s) => print_exact(&game, &roots, &s, &a),
        Err(e) => {
            let asked = method::Asked {
                from_position: a.from.is_some(),
                chosen_setups: a.seed.is_some() || a.deals.is_some(),
            };
            match method::after_exact(&game, &e, asked) {
                Some(next) => turn_to(&game, &a, next),
                None => failed(e, &a),
            }
        }
    }
}

/// Say which method comes next, and why (not under --json), and run it.
fn turn_to(game: &Game, a: &SolveArgs, next: method::Next) -> Result<i32> {
    match next {
        method::Next::Cfr { why } => {
            if !a.json {
                println!("hidden information ({why}): exact solving does not apply, so CFR+:");
            }
            run_cfr(game, a)
        }
        method::Next::Mccfr { why } => {
            if !a.json {
                println!("{why}, so Monte Carlo CFR:");
            }
            run_mccfr(game, a)
        }
    }
}

/// The exact solution: JSON, or the value, strategies and figures asked.
fn print_exact(
    game: &Game,
    roots: &[(f64, tabula::State)],
    s: &solve::Solution,
    a: &SolveArgs,
) -> Result<i32> {
    if a.json {
        // The solution's fields, and each bot's exploitability.
        let mut v = serde_json::to_value(s).unwrap_or_default();
        if let Some(n) = a.deals {
            v["sampled_deals"] = n.into();
            v["interval95"] = (1.96 * s.setup_spread / (n as f64).sqrt()).into();
        }
        if !a.exploit.is_empty() {
            let mut list = Vec::new();
            for kind in &a.exploit {
                list.push(
                    response::exploit_exact(game, roots, s.worth.value, kind, a.samples)?
                        .json(&s.head.players),
                );
            }
            v["exploit"] = serde_json::Value::Array(list);
        }
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        return Ok(0);
    }
    print_head(&s.head, &s.worth);
    if let Some(n) = a.deals {
        println!(
            "  estimated over {n} sampled deals: 95% interval +/- {:.4} (the deals' values spread {:.4} around it)",
            1.96 * s.setup_spread / (n as f64).sqrt(),
            s.setup_spread
        );
    }
    if s.setups > 1 {
        println!(
            "\nover {} setups (each weighted by its chance; the value's spread across them, how much the deal decides: {:.4}; --seed S solves one and shows its first decision)",
            s.setups, s.setup_spread
        );
    } else if s.strategies.is_empty() {
        println!("\nthe game ends before any decision");
    } else {
        println!(
            "\nfirst decision `{}`, optimal strategies:",
            s.first_decision
        );
    }
    for st in &s.strategies {
        println!("  {}:", st.player);
        for (c, p) in &st.mix {
            if *p > 1e-9 {
                println!("    {c:<18} {:6.2}%", 100.0 * p);
            }
        }
    }
    if a.matrix
        && let Some(m) = &s.matrix
    {
        print_matrix(m, &s.head.players[0]);
    }
    println!(
        "\n{} states in {:.2} s ({} thread(s))",
        s.states, s.seconds, s.threads
    );
    for kind in &a.exploit {
        let e = response::exploit_exact(game, roots, s.worth.value, kind, a.samples)?;
        println!(
            "exploitability of {kind}: {:.4} (best response as {}: {:+.4}, as {}: {:+.4}; {:.1} s)",
            e.gain, s.head.players[0], e.best[0], s.head.players[1], e.best[1], e.seconds
        );
    }
    Ok(0)
}

/// The payoff matrix as a table: a row per choice of the row player, a
/// column per choice of the other (or one column of values).
fn print_matrix(m: &solve::Matrix, first: &str) {
    match &m.col_player {
        Some(c) => println!(
            "\npayoff matrix of the first decision (value for {first}; rows {}, columns {c}):",
            m.row_player
        ),
        None => println!("\nvalue for {first} after each choice of {}:", m.row_player),
    }
    // Columns as wide as their widest text (at least a value's width).
    let widest = |texts: &[String], least: usize| {
        (texts.iter().map(|t| t.chars().count())).fold(least, usize::max)
    };
    let (w, cw) = (widest(&m.rows, 4), widest(&m.cols, 7));
    let head: Vec<String> = m.cols.iter().map(|c| format!("{c:>cw$}")).collect();
    println!("  {:w$}  {}", "", head.join(" "));
    for (r, vals) in m.rows.iter().zip(&m.values) {
        let cells: Vec<String> = vals.iter().map(|v| format!("{v:>+cw$.4}")).collect();
        println!("  {r:w$}  {}", cells.join(" "));
    }
}

/// A share of a solve: its JSON for `tabula merge`, or a summary.
fn print_share(part: Result<solve::SolvePart>, a: &SolveArgs) -> Result<i32> {
    let part = match part {
        Ok(p) => p,
        Err(e) => return failed(e, a),
    };
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&part).unwrap_or_default()
        );
        return Ok(0);
    }
    let (k, n) = (part.solve_shard.k, part.solve_shard.n);
    println!(
        "share {k}/{n} of {}: {} of {} setups solved, {} positions, in {:.2} s (run it with --json and add the shares up with `tabula merge`)",
        part.head.game,
        part.parts.len(),
        part.setups,
        part.states,
        part.seconds
    );
    for s in &part.parts {
        println!(
            "  setup {}: chance {:.6}, value {:+.6}",
            s.setup + 1,
            s.chance,
            s.worth.value
        );
    }
    Ok(0)
}

/// A merged solve's answer, as `solve` prints one over many setups.
pub(super) fn print_merged(s: &solve::Solution, json: bool) {
    if json {
        println!("{}", serde_json::to_string_pretty(s).unwrap_or_default());
        return;
    }
    print_head(&s.head, &s.worth);
    println!(
        "over {} setups (the setup decides {:.4} of it, as a standard deviation); {} positions in {:.2} s of all the shares",
        s.setups, s.setup_spread, s.states, s.seconds
    );
}

/// Positions solved so far, on stderr: a line redrawn on a terminal once
/// a solve has taken more than a second, elsewhere (piped) a plain line
/// every few seconds (`ticker`).
struct Spinner {
    bar: indicatif::ProgressBar,
    ticker: super::ticker::Ticker,
    /// The message is the whole line (no count of positions).
    message_only: bool,
}

impl Spinner {
    fn new() -> Spinner {
        Spinner::with("solving: {human_pos} positions ({per_sec})")
    }
    fn with(template: &str) -> Spinner {
        let bar = indicatif::ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        Spinner {
            bar,
            ticker: super::ticker::Ticker::new(),
            message_only: template == "{msg}",
        }
    }
    fn reveal(&self) {
        if self.bar.is_hidden()
            && self.bar.elapsed().as_secs_f64() > 1.0
            && std::io::stderr().is_terminal()
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
    fn show(&self, n: usize) {
        self.reveal();
        self.bar.set_position(n as u64);
        self.ticker.tick(|| {
            let msg = self.bar.message();
            if msg.is_empty() {
                format!("solving: {n} positions")
            } else {
                format!("solving: {n} positions (setup {msg})")
            }
        });
    }
    fn say(&self, msg: String) {
        self.reveal();
        if self.message_only {
            self.ticker.tick(|| msg.clone());
        }
        self.bar.set_message(msg);
    }
    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Before a solve expected to be long (over 10 s by default), what it is
/// expected to take, on stderr: said once, for the first setup's table.
fn say_estimate(game: &Game, jobs: usize, setups: usize) -> impl Fn(&solve::Estimate) + Sync {
    let told = std::sync::Once::new();
    let id = game.id().to_string();
    move |e: &solve::Estimate| {
        if !super::ticker::long(e.seconds) {
            return;
        }
        told.call_once(|| {
            let of = if setups > 1 {
                format!(" for the first of {setups} setups")
            } else {
                String::new()
            };
            eprintln!(
                "solving {id}: expect at least {}{of} on {jobs} thread(s) ({:.1e} positions or more, {}); progress on stderr every {}",
                super::ticker::duration_text(e.seconds),
                e.positions,
                tabula::analysis::estimate::how(e.listed, e.lines),
                super::ticker::duration_text(super::ticker::every().as_secs_f64()),
            );
        });
    }
}

/// CFR+ for a game with hidden information: the value of the average
/// strategy, its exploitability, and the strategy at each information set.
fn run_cfr(game: &Game, a: &SolveArgs) -> Result<i32> {
    if a.deals.is_some() {
        return Err(tabula::Error::usage(
            "--deals: with hidden cards CFR+ is over every deal; leave out --deals",
        ));
    }
    if let Some(seed) = a.seed {
        return Err(tabula::Error::usage(format!(
            "--seed {seed}: with hidden cards the value is over every deal (one deal fixed would be a deal both players know); leave out --seed"
        )));
    }
    let limits = cfr::CfrLimits {
        target: a.target,
        max_iterations: a.iterations,
        max_nodes: a.max_states,
        max_seconds: a.seconds,
    };
    let spinner = Spinner::with("{msg}");
    let s = cfr::solve(game, a.seed, limits, &|t, e| {
        spinner.say(format!("CFR+: {t} iterations, exploitability {e:.5}"))
    });
    spinner.finish();
    let s = match s {
        Ok(s) => s,
        Err(e) => {
            return match method::after_cfr(&e) {
                Some(next) => turn_to(game, a, next),
                None => failed(e, a),
            };
        }
    };
    // Each bot's policy measured on the same tree.
    let mut exploits = Vec::new();
    for kind in &a.exploit {
        match response::exploit_evaluated(game, kind, a.samples, a.max_states) {
            Ok(e) => exploits.push(e),
            Err(e) => return failed(e, a),
        }
    }
    if a.json {
        let mut v = serde_json::to_value(&s).unwrap_or_default();
        if !exploits.is_empty() {
            let players = &s.head.players;
            let list = exploits.iter().map(|x| x.json(players)).collect();
            v["exploit"] = serde_json::Value::Array(list);
        }
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        return Ok(0);
    }
    print_head(&s.head, &s.worth);
    for x in &exploits {
        println!(
            "{} bot: exploitability {:.6} (a best response gets {:+.6} as {}, {:+.6} as {})",
            x.kind, x.gain, x.best[0], s.head.players[0], x.best[1], s.head.players[1]
        );
    }
    println!(
        "exploitability {:.6} after {} iterations of CFR+ (a best response gets {:+.6} as {}, {:+.6} as {}); the value is the average strategy's, within it",
        s.exploitability,
        s.iterations,
        s.best_response[0],
        s.head.players[0],
        s.best_response[1],
        s.head.players[1]
    );
    const SHOWN: usize = 40;
    println!(
        "\naverage strategy at each information set ([cards only they see] (what all see) moves so far):"
    );
    print_mixes(s.strategies.iter().take(SHOWN));
    if s.strategies.len() > SHOWN {
        println!(
            "  ... {} more (all under --json)",
            s.strategies.len() - SHOWN
        );
    }
    println!(
        "\n{} information sets, {} nodes, {} setup(s), in {:.2} s",
        s.infosets, s.nodes, s.setups, s.seconds
    );
    Ok(0)
}

/// Monte Carlo CFR where the tree is too big to walk whole: the average
/// strategy's value (estimated by play, or exact where the tree fits),
/// its exploitability (exact, or a lower bound from a search bot's play
/// against it), and its openings.
fn run_mccfr(game: &Game, a: &SolveArgs) -> Result<i32> {
    if a.deals.is_some() || a.seed.is_some() || a.from.is_some() {
        return Err(tabula::Error::usage(
            "--deals, --seed and --from do not apply to MCCFR, which samples every deal from the start",
        ));
    }
    let limits = mccfr::McLimits {
        iterations: a.iterations,
        max_seconds: a.seconds,
        sampling: a.sampling.map(|s| match s {
            SamplingArg::External => mccfr::Sampling::External,
            SamplingArg::Outcome => mccfr::Sampling::Outcome,
        }),
        probe_games: a.probe_games,
        eval_games: a.eval_games,
        ..mccfr::McLimits::default()
    };
    let spinner = Spinner::with("{msg}");
    let s = mccfr::solve(game, limits, &|t, n| {
        spinner.say(format!("MCCFR: {t} iterations, {n} information sets"))
    });
    spinner.finish();
    let s = match s {
        Ok(s) => s,
        Err(e) => return failed(e, a),
    };
    // Each bot measured as the average strategy is: a best response where
    // the tree fits, else the search bot's play against it (a lower bound).
    let mut exploits = Vec::new();
    for kind in &a.exploit {
        let started = std::time::Instant::now();
        match response::measure_bot(game, kind, a.samples, limits, s.exploitability.exact) {
            Ok(x) => exploits.push((kind.clone(), x, started.elapsed().as_secs_f64())),
            Err(e) => return failed(e, a),
        }
    }
    if a.json {
        let mut v = serde_json::to_value(&s).unwrap_or_default();
        if !exploits.is_empty() {
            let list = exploits
                .iter()
                .map(|(kind, x, secs)| {
                    let mut e = serde_json::to_value(x).unwrap_or_default();
                    e["bot"] = kind.clone().into();
                    e["seconds"] = (*secs).into();
                    e
                })
                .collect();
            v["exploit"] = serde_json::Value::Array(list);
        }
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        return Ok(0);
    }
    print_head(&s.head, &s.worth);
    let [first, second] = &s.head.players;
    for (kind, x, _) in &exploits {
        if x.exact {
            println!(
                "{kind} bot: exploitability {:.6} (a best response gets {:+.6} as {first}, {:+.6} as {second})",
                x.value, x.best_response[0], x.best_response[1]
            );
        } else {
            println!(
                "{kind} bot: exploitability at least {:.4} +/- {:.4} ({} against it gets {:+.4} as {first}, {:+.4} as {second})",
                x.value.max(0.0),
                x.interval95,
                x.by,
                x.best_response[0],
                x.best_response[1]
            );
        }
    }
    let x = &s.exploitability;
    if x.exact {
        println!("  exact for the average strategy (the whole tree, walked once)");
        println!(
            "exploitability {:.6} (a best response gets {:+.6} as {}, {:+.6} as {})",
            x.value, x.best_response[0], s.head.players[0], x.best_response[1], s.head.players[1]
        );
    } else {
        println!(
            "  estimated from {} games of the average strategy against itself: 95% interval +/- {:.4}",
            s.eval_games, s.interval95
        );
        println!(
            "exploitability at least {:.4} +/- {:.4}: {} against it gets {:+.4} as {}, {:+.4} as {} ({} games a seat; a best response gets at least as much, the tree is too big to find it)",
            x.value.max(0.0),
            x.interval95,
            x.by,
            x.best_response[0],
            s.head.players[0],
            x.best_response[1],
            s.head.players[1],
            a.probe_games
        );
    }
    println!(
        "\naverage strategy at each player's first decision of a sampled deal ([cards only they see]):"
    );
    print_mixes(s.openings.iter());
    let how = s.sampling.name();
    println!(
        "\n{} iterations of MCCFR ({how} sampling), {} information sets, in {:.1} s",
        s.iterations, s.infosets, s.seconds
    );
    Ok(0)
}

/// The game, its value for the first player with the result's chances,
/// and what the value measures.
fn print_head(h: &solve::Header, worth: &solve::Worth) {
    let variants = if h.variants.is_empty() {
        "-".into()
    } else {
        h.variants.join(", ")
    };
    let [first, second] = &h.players;
    println!("{} (variants {variants})", h.game);
    println!(
        "value for {first}: {:+.6}  ({first} wins {:.4}, draws {:.4}, {second} wins {:.4})",
        worth.value, worth.win, worth.draw, worth.loss
    );
    match &h.payoff {
        Some(stat) => println!(
            "  payoff: half of {first}'s {stat} minus {second}'s at the end ({first}'s return when they sum to 0)"
        ),
        None => println!(
            "  payoff: +1 a win of {first}, -1 a win of {second}, 0 a draw (half a win each)"
        ),
    }
}

/// Each information set's mix, a line each: `player [cards] ...: a 40.0%, b 60.0%`.
fn print_mixes<'a>(strategies: impl Iterator<Item = &'a cfr::InfoStrategy>) {
    for st in strategies {
        let mix: Vec<String> = (st.mix.iter())
            .map(|(c, p)| format!("{c} {:.1}%", 100.0 * p))
            .collect();
        println!("  {} {}: {}", st.player, st.knows, mix.join(", "));
    }
}

/// `solve`'s hints for a refusal: the flag that gives the solver room,
/// and, where no setup was chosen, those that choose fewer. (The
/// library's message names no flag: `sweep` and `play` print it too.)
fn hints(e: tabula::Error, chose_setups: bool) -> tabula::Error {
    use tabula::error::Refusal;
    match e.refusal() {
        Some(Refusal::TooManyPositions { limit }) => e.note(format!(
            "--max-states N lets it keep more than {limit} positions (each about 130 bytes)"
        )),
        Some(Refusal::TooMuchChance { .. }) if !chose_setups => e.note(
            "--seed S solves the one deal seed S makes; --deals N estimates the value over N sampled deals",
        ),
        _ => e,
    }
}

/// A refusal or any error of the search, with solve's hints: under --json
/// an object too, for the tool that reads it (stderr says it as well),
/// with its exit code.
fn failed(e: tabula::Error, a: &SolveArgs) -> Result<i32> {
    let chose_setups = a.seed.is_some() || a.deals.is_some() || a.from.is_some();
    let e = hints(e, chose_setups);
    if !a.json {
        return Err(e);
    }
    println!("{:#}", e.to_json());
    super::print_error(&e);
    Ok(super::exit_code(&e))
}
