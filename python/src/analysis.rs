//! `Game.solve` and `Game.exploitability`: the method `tabula solve`
//! chooses (exact, CFR+, Monte Carlo CFR; the library's `method` says
//! which), and the JSON `tabula solve --json` prints, with "method".

use serde_json::Value;
use tabula::analysis::{method, response};
use tabula::error::{Error, Result};
use tabula::{Game, State, cfr, mccfr, solve};

/// What `solve` may be told (the command's flags).
#[derive(Debug, Clone)]
pub struct SolveOptions {
    pub seed: Option<u64>,
    pub deals: Option<u64>,
    pub jobs: usize,
    pub max_states: usize,
    pub exploit: Vec<String>,
    pub samples: u32,
    pub target: f64,
    pub iterations: u64,
    pub seconds: f64,
    pub sampling: Option<mccfr::Sampling>,
    pub probe_games: u64,
    pub eval_games: u64,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        let mc = mccfr::McLimits::default();
        let c = cfr::CfrLimits::default();
        SolveOptions {
            seed: None,
            deals: None,
            jobs: 1,
            max_states: solve::MAX_STATES,
            exploit: Vec::new(),
            samples: 4,
            target: c.target,
            iterations: c.max_iterations,
            seconds: c.max_seconds,
            sampling: None,
            probe_games: mc.probe_games,
            eval_games: mc.eval_games,
        }
    }
}

/// `sampling="external"` or `"outcome"` (None: chosen by the game's size).
pub fn sampling(s: Option<&str>) -> Result<Option<mccfr::Sampling>> {
    match s {
        None => Ok(None),
        Some("external") => Ok(Some(mccfr::Sampling::External)),
        Some("outcome") => Ok(Some(mccfr::Sampling::Outcome)),
        Some(other) => Err(Error::usage(format!(
            "sampling `{other}`: \"external\" or \"outcome\""
        ))),
    }
}

/// The game's solution by the method that applies, as JSON.
pub fn solve(game: &Game, o: &SolveOptions) -> Result<Value> {
    if let Some(e) = solve::refusal(game) {
        return Err(e);
    }
    if o.sampling.is_some() {
        return run_mccfr(game, o);
    }
    let roots = match o.deals {
        Some(n) => tabula::tree::sampled_roots(game, n, o.seed.unwrap_or(0)),
        None => tabula::tree::roots(game, o.seed),
    };
    let limits = solve::Limits {
        max_states: o.max_states,
        ..solve::Limits::default()
    };
    let s = roots
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|roots| solve::solve_roots(game, roots, o.jobs, limits, &|_| {}, &|_| {}));
    match s {
        Ok(s) => exact(game, &roots.unwrap_or_default(), &s, o),
        Err(e) => {
            let asked = method::Asked {
                from_position: false,
                chosen_setups: o.seed.is_some() || o.deals.is_some(),
            };
            match method::after_exact(game, &e, asked) {
                Some(method::Next::Cfr { .. }) => run_cfr(game, o),
                Some(method::Next::Mccfr { .. }) => run_mccfr(game, o),
                None => Err(e),
            }
        }
    }
}

/// How much a best response wins against `kind`, as one entry of
/// `solve`'s "exploit" list.
pub fn exploitability(game: &Game, kind: &str, o: &SolveOptions) -> Result<Value> {
    if let Some(e) = solve::refusal(game) {
        return Err(e);
    }
    if tabula::bot::make(kind, 0).is_none() {
        return Err(Error::usage(tabula::bot::kind_problem(kind)));
    }
    let roots = tabula::tree::roots(game, None);
    let limits = solve::Limits {
        max_states: o.max_states,
        ..solve::Limits::default()
    };
    let s = roots
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|roots| solve::solve_roots(game, roots, o.jobs, limits, &|_| {}, &|_| {}));
    let players = head_players(game);
    match s {
        Ok(s) => response::exploit_exact(
            game,
            &roots.unwrap_or_default(),
            s.worth.value,
            kind,
            o.samples,
        )
        .map(|e| e.json(&players)),
        Err(e) => match method::after_exact(game, &e, method::Asked::default()) {
            Some(_) => Ok(
                response::exploit_evaluated(game, kind, o.samples, o.max_states)?.json(&players),
            ),
            None => Err(e),
        },
    }
}

fn head_players(game: &Game) -> [String; 2] {
    let p = &game.def().players;
    [p[0].id.clone(), p[1].id.clone()]
}

/// Each bot kind asked for measured by `measure`, as `solve --json`'s
/// "exploit" list in `v`.
fn exploits(
    v: &mut Value,
    o: &SolveOptions,
    players: &[String; 2],
    measure: impl Fn(&str) -> Result<response::Exploit>,
) -> Result<()> {
    if !o.exploit.is_empty() {
        let list = (o.exploit.iter())
            .map(|kind| Ok(measure(kind)?.json(players)))
            .collect::<Result<_>>()?;
        v["exploit"] = Value::Array(list);
    }
    Ok(())
}

fn exact(
    game: &Game,
    roots: &[(f64, State)],
    s: &solve::Solution,
    o: &SolveOptions,
) -> Result<Value> {
    let mut v = serde_json::to_value(s).unwrap_or_default();
    v["method"] = "exact".into();
    if let Some(n) = o.deals {
        v["sampled_deals"] = n.into();
        v["interval95"] = (1.96 * s.setup_spread / (n as f64).sqrt()).into();
    }
    exploits(&mut v, o, &s.head.players, |kind| {
        response::exploit_exact(game, roots, s.worth.value, kind, o.samples)
    })?;
    Ok(v)
}

fn run_cfr(game: &Game, o: &SolveOptions) -> Result<Value> {
    if o.deals.is_some() || o.seed.is_some() {
        return Err(Error::usage(
            "deals and seed: with hidden cards CFR+ is over every deal (one deal fixed would be a deal both players know); leave them out",
        ));
    }
    let limits = cfr::CfrLimits {
        target: o.target,
        max_iterations: o.iterations,
        max_nodes: o.max_states,
        max_seconds: o.seconds,
    };
    let s = match cfr::solve(game, None, limits, &|_, _| {}) {
        Ok(s) => s,
        Err(e) => {
            return match method::after_cfr(&e) {
                Some(_) => run_mccfr(game, o),
                None => Err(e),
            };
        }
    };
    let mut v = serde_json::to_value(&s).unwrap_or_default();
    v["method"] = "cfr+".into();
    exploits(&mut v, o, &s.head.players, |kind| {
        response::exploit_evaluated(game, kind, o.samples, o.max_states)
    })?;
    Ok(v)
}

fn run_mccfr(game: &Game, o: &SolveOptions) -> Result<Value> {
    if o.deals.is_some() || o.seed.is_some() {
        return Err(Error::usage(
            "deals and seed do not apply to MCCFR, which samples every deal from the start",
        ));
    }
    let limits = mccfr::McLimits {
        iterations: o.iterations,
        max_seconds: o.seconds,
        sampling: o.sampling,
        probe_games: o.probe_games,
        eval_games: o.eval_games,
        ..mccfr::McLimits::default()
    };
    let s = mccfr::solve(game, limits, &|_, _| {})?;
    let mut v = serde_json::to_value(&s).unwrap_or_default();
    v["method"] = "mccfr".into();
    if !o.exploit.is_empty() {
        let mut list = Vec::new();
        for kind in &o.exploit {
            let started = std::time::Instant::now();
            let x = response::measure_bot(game, kind, o.samples, limits, s.exploitability.exact)?;
            let mut e = serde_json::to_value(&x).unwrap_or_default();
            e["bot"] = kind.clone().into();
            e["seconds"] = started.elapsed().as_secs_f64().into();
            list.push(e);
        }
        v["exploit"] = Value::Array(list);
    }
    Ok(v)
}
