//! `tabula check [PATH]...`: load every game and variant, then run seeded
//! random playouts through the real scripts; with `--memo`, also how the
//! hook memo fares on them.

use std::path::{Path, PathBuf};

use tabula::bot;
use tabula::core::State;
use tabula::definition::source::{self, Settings};
use tabula::error::Result;
use tabula::{Build, Game};

/// Decisions after which a smoke playout counts as endless.
const MAX_DECISIONS: usize = 100_000;

pub struct Options {
    pub playouts: u32,
    /// Parameters set in every run (after each variant's).
    pub sets: Vec<(String, tabula::definition::format::ParamValue)>,
    pub memo: bool,
    pub lint: bool,
    /// List what runs outside the VM and in Rhai; play every playout
    /// both compiled and in Rhai.
    pub compile: bool,
    /// The tree tier alone, no VM.
    pub no_vm: bool,
    /// Native code where the VM's functions compile to it.
    pub jit: bool,
}

pub fn run(dir: &Path, paths: &[String], opts: &Options) -> Result<i32> {
    let targets: Vec<String> = if paths.is_empty() {
        source::list_ids(dir)
    } else {
        paths.to_vec()
    };
    let mut failed = 0;
    for t in &targets {
        let problems = check_one(dir, t, opts);
        if problems.is_empty() {
            continue;
        }
        failed += 1;
        for p in problems {
            eprintln!("{}", p.render(super::color_err()));
        }
    }
    if failed > 0 {
        eprintln!("{failed} of {} game(s) have problems", targets.len());
        return Ok(1);
    }
    Ok(0)
}

fn check_one(dir: &Path, target: &str, opts: &Options) -> Vec<tabula::Error> {
    let playouts = opts.playouts;
    let path: PathBuf = match source::find(target, dir) {
        Ok(p) => p,
        Err(e) => return vec![e],
    };
    let plain = Settings {
        variants: Vec::new(),
        sets: opts.sets.clone(),
    };
    let base = match Game::load_path(&path, dir, &plain, Build::default()) {
        Ok(g) => g,
        Err(e) => return vec![e],
    };
    // Calls that cannot work, whether or not a playout reaches them.
    match base.call_problems() {
        Ok(found) => {
            for w in &found {
                eprintln!("{}", w.render(super::color_err()));
            }
        }
        Err(e) => return vec![e],
    }
    if opts.lint {
        match base.lint() {
            Ok(mut warnings) => {
                warnings.extend(tabula::play::commands::shadowed(base.def()));
                for w in &warnings {
                    eprintln!("{}", w.render(super::color_err()));
                }
                if warnings.is_empty() {
                    println!("lint {}: no warnings", base.def().id);
                }
            }
            Err(e) => return vec![e],
        }
    }
    let build = Build {
        compile: match (opts.compile, opts.no_vm, opts.jit) {
            (true, false, false) => tabula::Compile::Check,
            (true, false, true) => tabula::Compile::CheckJit,
            (true, true, _) => tabula::Compile::CheckTree,
            (false, false, false) => tabula::Compile::On,
            (false, false, true) => tabula::Compile::Jit,
            (false, true, _) => tabula::Compile::Tree,
        },
        ..Build::default()
    };
    if opts.compile
        && let Err(e) = list_fallbacks(&base, opts)
    {
        return vec![e];
    }
    let mut problems = Vec::new();
    let mut runs = vec![Vec::new()];
    runs.extend(base.def().variants.iter().map(|v| vec![v.id.clone()]));
    let mut summary = Vec::new();
    for variants in runs {
        let label = if variants.is_empty() {
            "base".to_string()
        } else {
            variants.join("+")
        };
        let settings = Settings {
            variants,
            sets: opts.sets.clone(),
        };
        let game = match Game::load_path(&path, dir, &settings, build) {
            Ok(g) => g,
            Err(e) => {
                problems.push(e.note(format!("with variant {label}")));
                continue;
            }
        };
        let mut decisions = 0;
        for seed in 0..playouts as u64 {
            let r = State::new(&game, seed).and_then(|(mut s, _)| {
                let n = bot::random_playout(&game, &mut s, seed, MAX_DECISIONS)?;
                if !s.is_over() {
                    return Err(tabula::Error::new(
                        tabula::ErrorKind::Runtime,
                        format!("a random game did not end within {MAX_DECISIONS} decisions"),
                    ));
                }
                Ok(n)
            });
            match r {
                Ok(n) => decisions += n,
                Err(e) => {
                    problems.push(e.note(format!("{label}, seed {seed}")));
                    break;
                }
            }
        }
        summary.push(format!(
            "{label} {:.1}",
            decisions as f64 / playouts.max(1) as f64
        ));
        if opts.memo && problems.is_empty() {
            memo_report(&game, &label, playouts);
        }
        if problems.is_empty() {
            balance_warnings(&game, &label, playouts);
        }
    }
    if problems.is_empty() {
        println!(
            "ok {} ({} playouts each; mean decisions: {})",
            base.def().id,
            playouts,
            summary.join(", ")
        );
    }
    problems
}

/// What the playouts say of the game's balance (drawish, decided by the
/// seat, stopped by the turn limit), on stderr: the same random games as a
/// `sim` with random bots, judged by `sim::warnings`.
fn balance_warnings(game: &Game, label: &str, playouts: u32) {
    use tabula::sim::{self, SimConfig};
    let cfg = SimConfig {
        games: u64::from(playouts),
        seed: 0,
        bots: vec!["random".to_string(); game.def().nplayers()],
        jobs: 1,
        max_decisions: MAX_DECISIONS as u32,
        shard: None,
    };
    let Ok(tally) = sim::run(game, &cfg, &|_| {}) else {
        return;
    };
    let mut report = sim::report(game, &cfg, &tally);
    // When the playouts' results are settled (a few random playouts each).
    report.decided = sim::decided(game, &cfg);
    for w in sim::warnings(&report) {
        eprintln!(
            "warning: {} ({label}): {w} ({playouts} random games; `tabula sim` says more)",
            game.def().id
        );
    }
}

/// The playouts again, quietly as bots play them, then the memo's account:
/// per hook, how many calls ran the script and why.
fn memo_report(game: &Game, label: &str, playouts: u32) {
    let before = game.memo_stats().unwrap_or_default();
    for seed in 0..playouts as u64 {
        if let Ok(mut s) = State::new_quiet(game, seed) {
            let _ = bot::random_playout(game, &mut s, seed, MAX_DECISIONS);
        }
    }
    let Some(after) = game.memo_stats() else {
        println!("memo {} ({label}): off", game.def().id);
        return;
    };
    let hits = after.hits - before.hits;
    let runs = after.misses - before.misses;
    let calls = (hits + runs).max(1);
    println!(
        "memo {} ({label}): {} hook calls, {:.1}% replayed, {runs} script runs, {} record steps",
        game.def().id,
        hits + runs,
        100.0 * hits as f64 / calls as f64,
        after.nodes
    );
    let earlier = |hook: &str, why: &tabula::core::Miss| {
        before
            .why
            .iter()
            .find(|(h, w, _)| h == hook && w == why)
            .map_or(0, |x| x.2)
    };
    // Per hook (most runs first), its reasons with players folded together.
    let mut by_hook: Vec<HookRuns> = Vec::new();
    for (hook, why, n) in &after.why {
        let n = n - earlier(hook, why);
        if n == 0 {
            continue;
        }
        let text = miss_text(game, why);
        let at = match by_hook.iter().position(|(h, _, _)| h == hook) {
            Some(i) => i,
            None => {
                by_hook.push((hook.clone(), 0, Vec::new()));
                by_hook.len() - 1
            }
        };
        let (_, total, reasons) = &mut by_hook[at];
        *total += n;
        match reasons.iter_mut().find(|(t, _)| *t == text) {
            Some((_, m)) => *m += n,
            None => reasons.push((text, n)),
        }
    }
    by_hook.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    for (hook, total, mut reasons) in by_hook {
        println!("  {hook}: {total} script runs");
        reasons.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        for (text, n) in reasons.iter().take(4) {
            println!("    {n:>7}  {text}");
        }
        if reasons.len() > 4 {
            let rest: u64 = reasons[4..].iter().map(|r| r.1).sum();
            println!("    {rest:>7}  ({} other reasons)", reasons.len() - 4);
        }
    }
}

/// A hook, its script runs, and their reasons with counts.
type HookRuns = (String, u64, Vec<(String, u64)>);

/// Why a hook's script ran, in the designer's terms.
fn miss_text(game: &Game, why: &tabula::core::Miss) -> String {
    use tabula::core::Miss;
    match why {
        Miss::NewArguments => "first call with these choices (or data)".into(),
        Miss::NewValue(r) => format!("a value not seen before: {}", read_text(game, r)),
        Miss::Chance => "shuffled a zone (or dealt from a shuffled one): never replayed".into(),
        Miss::Off => "memo off: two runs read the same and changed the state differently".into(),
        Miss::Unpaid => "run plainly: recording cost more than replays saved".into(),
        Miss::Full => "the memo's records are full: run as a script, not recorded".into(),
        Miss::Other => "a record that could not be followed".into(),
        Miss::Unrecorded => {
            "run as a script, not recorded: replays seldom hit (many positions)".into()
        }
    }
}

/// A read as the script wrote it, roughly, any player as `*`:
/// `stat(*, "wounds")`.
fn read_text(game: &Game, r: &tabula::core::ops::Read) -> String {
    use tabula::core::ops::Read;
    let def = game.def();
    let stat = |i: u32| {
        // A flat index: player * stats + stat; any player shows as `*`.
        let s = i as usize % def.stats.len().max(1);
        format!("stat(*, \"{}\")", def.stats[s].id)
    };
    let zone = |slot: u32| {
        for (z, zone) in def.zones.iter().enumerate() {
            for p in def.owners(z) {
                if def.slot(z, p) == slot as usize {
                    let owner = match (zone.per, &def.grid) {
                        (tabula::definition::format::Per::Player, _) => "*".into(),
                        (tabula::definition::format::Per::Cell, Some(g)) => {
                            format!("\"{}\"", g.names[p])
                        }
                        _ => "\"\"".into(),
                    };
                    return format!("{owner}, \"{}\"", zone.id);
                }
            }
        }
        format!("slot {slot}")
    };
    match r {
        Read::Stat(i) => stat(*i),
        Read::Var(i) => format!(
            "get_var(\"{}\")",
            def.vars.get(*i as usize).map_or("?", |v| v.id.as_str())
        ),
        Read::Cards(s) => format!("cards({})", zone(*s)),
        Read::Distinct(s) => format!("card_types({})", zone(*s)),
        Read::Count(s) => format!("count({})", zone(*s)),
        Read::Entries(s) => format!("entries({})", zone(*s)),
        Read::Empties { first, .. } => format!("empty_cells() (from {})", zone(*first)),
        Read::Has(s, c) => format!("has({}, \"{}\")", zone(*s), def.cards[*c as usize].id),
        Read::Turn => "turn()".into(),
        Read::GameNo => "game_no()".into(),
        Read::MatchWins(p) => format!(
            "match_wins(\"{}\")",
            def.players.get(*p as usize).map_or("?", |x| x.id.as_str())
        ),
        Read::Active => "active()".into(),
        Read::Order => "order()".into(),
        Read::IsOver => "is_over()".into(),
        Read::Random(n) => format!("a random draw of 0..{n}"),
        Read::AnyAtLeast { stat: s, .. } => format!(
            "any_at_least(\"{}\", ..)",
            def.stats.get(*s as usize).map_or("?", |x| x.id.as_str())
        ),
        Read::Extreme { max, .. } => if *max { "max_stat(..)" } else { "min_stat(..)" }.into(),
        Read::Compare(a, b) => format!("compare_stats: {} vs {}", stat(*a), stat(*b)),
        Read::Draw { from, .. } => format!("draw({}, ..)", zone(*from)),
        Read::TakeAt { from, pos, .. } => format!("move_at({pos}, {}, ..)", zone(*from)),
    }
}

/// `--compile`: what runs in Rhai, outside the VM and (with `--jit`)
/// with no native code, and why.
fn list_fallbacks(base: &Game, opts: &Options) -> Result<()> {
    let id = &base.def().id;
    let lists = [
        (
            "compile",
            "every script function compiled",
            "script function(s) run in Rhai",
            true,
        ),
        (
            "vm",
            "every script function runs in the VM",
            "script function(s) run outside the VM",
            !opts.no_vm,
        ),
        (
            "jit",
            "every VM function has native code",
            "VM function(s) have no native code",
            opts.jit,
        ),
    ];
    for (kind, all, some, asked) in lists {
        if !asked {
            continue;
        }
        let list = match kind {
            "compile" => base.fallbacks().map(Some),
            "vm" => base.vm_fallbacks().map(Some),
            _ => base.native_fallbacks(),
        };
        match list {
            Ok(None) => println!("{kind} {id}: native code is not built in"),
            Ok(Some(list)) if list.is_empty() => println!("{kind} {id}: {all}"),
            Ok(Some(list)) => {
                println!("{kind} {id}: {} {some}:", list.len());
                for f in list {
                    println!("  {}/{}: {}", f.name, f.arity, f.why);
                }
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
