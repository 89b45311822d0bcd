//! `tabula.Game`: a game loaded from its files with its variants and
//! parameters, and what can be asked of it.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::analysis::{self, SolveOptions};
use crate::{data, err, library};
use tabula::definition::format::ParamValue;
use tabula::definition::source::{self, Settings};
use tabula::{Build, Outcome, bot, sim};

/// A game, read, checked and compiled once; its methods may run on many
/// threads at once (the GIL is released while they work).
#[pyclass(frozen, module = "tabula")]
pub struct Game {
    game: Arc<tabula::Game>,
    source: Source,
}

/// How a game was loaded, to load it again (a pickled game or state):
/// the id or the path (made absolute), the variants, the parameters set,
/// the games folder (absolute).
#[derive(Debug, Clone)]
struct Source {
    name: String,
    variants: Vec<String>,
    params: Vec<(String, ParamValue)>,
    games_dir: Option<PathBuf>,
}

impl Source {
    fn to_tuple<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let params = PyDict::new(py);
        for (k, v) in &self.params {
            match v {
                ParamValue::Int(i) => params.set_item(k, i)?,
                ParamValue::Word(w) => params.set_item(k, w)?,
            }
        }
        (
            &self.name,
            self.variants.clone(),
            params,
            self.games_dir.clone(),
        )
            .into_pyobject(py)
    }
}

impl Game {
    pub fn arc(&self) -> &Arc<tabula::Game> {
        &self.game
    }
}

/// `path` made absolute against the working folder (as it is, where that
/// fails).
fn absolute(path: &std::path::Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Load a game: `name_or_path` is a game's id (in `games_dir`, else among
/// the games shipped with the package) or a path to its YAML file;
/// `variants` a list of variant ids, `params` a dict of parameter ids to
/// numbers or named values. A game that does not load raises
/// `TabulaError`, whose message starts with FILE:LINE:COLUMN where the
/// problem has a place.
#[pyfunction]
#[pyo3(signature = (name_or_path, variants=None, params=None, games_dir=None))]
pub fn load_game(
    py: Python<'_>,
    name_or_path: PathBuf,
    variants: Option<Vec<String>>,
    params: Option<Bound<'_, PyDict>>,
    games_dir: Option<PathBuf>,
) -> PyResult<Game> {
    let shipped = library::games().map_err(|e| err(py, e))?;
    let dir = games_dir.clone().unwrap_or(shipped);
    let mut sets = Vec::new();
    for (k, v) in params.iter().flat_map(|d| d.iter()) {
        let key: String = k.extract()?;
        let value = if v.is_instance_of::<pyo3::types::PyBool>() {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "params[{key:?}]: a number or a named value, not a bool"
            )));
        } else if let Ok(i) = v.extract::<i64>() {
            ParamValue::Int(i)
        } else if let Ok(s) = v.extract::<String>() {
            ParamValue::Word(s)
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "params[{key:?}]: a number or a named value (a string)"
            )));
        };
        sets.push((key, value));
    }
    let settings = Settings {
        variants: variants.unwrap_or_default(),
        sets,
    };
    let name = name_or_path.to_string_lossy().into_owned();
    // A path is kept absolute, an id as it is.
    let looks_like_path = name_or_path.components().count() > 1 || name.ends_with(".yaml");
    let source = Source {
        name: if looks_like_path {
            absolute(&name_or_path).to_string_lossy().into_owned()
        } else {
            name.clone()
        },
        variants: settings.variants.clone(),
        params: settings.sets.clone(),
        games_dir: games_dir.as_deref().map(absolute),
    };
    let game = py
        .detach(|| {
            let path = source::find(&name, &dir)?;
            tabula::Game::load_path(&path, &dir, &settings, Build::default())
        })
        .map_err(|e| err(py, e))?;
    Ok(Game {
        game: Arc::new(game),
        source,
    })
}

/// Bot kinds by seat: None (random everywhere), a list (one per seat) or a
/// dict of player ids to kinds (random elsewhere); each kind checked.
fn seat_bots(
    py: Python<'_>,
    def: &tabula::Def,
    bots: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<String>> {
    let mut kinds = vec!["random".to_string(); def.nplayers()];
    let usage = |m: String| err(py, tabula::Error::usage(m));
    if let Some(b) = bots {
        if let Ok(d) = b.cast::<PyDict>() {
            for (p, k) in d.iter() {
                let p: String = p.extract()?;
                let i = (def.players.iter().position(|x| x.id == p)).ok_or_else(|| {
                    let ids: Vec<&str> = def.players.iter().map(|x| x.id.as_str()).collect();
                    usage(format!("no player `{p}`; the players: {}", ids.join(", ")))
                })?;
                kinds[i] = k.extract()?;
            }
        } else if let Ok(given) = b.extract::<Vec<String>>() {
            if given.len() != kinds.len() {
                return Err(usage(format!(
                    "{} bot kinds for {} seats: one per seat, or a dict of player ids to kinds",
                    given.len(),
                    kinds.len()
                )));
            }
            kinds = given;
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "bots: a dict of player ids to bot kinds, or a list (or tuple) of kinds, one per seat",
            ));
        }
    }
    for k in &kinds {
        if !bot::valid(k) {
            return Err(usage(bot::kind_problem(k)));
        }
    }
    Ok(kinds)
}

/// Threads: the number asked, else every core; 1 to 256 (as the
/// program's `--jobs`).
fn threads(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 256)
}

#[pymethods]
impl Game {
    /// The game's id (its file's name).
    #[getter]
    fn id(&self) -> String {
        self.game.id().to_string()
    }
    /// The game's name, as its file gives it.
    #[getter]
    fn name(&self) -> String {
        self.game.def().name.clone()
    }
    /// The game file's path.
    #[getter]
    fn path(&self) -> PathBuf {
        self.game.def().path.clone()
    }
    /// The player ids, in seat order.
    #[getter]
    fn players(&self) -> Vec<String> {
        (self.game.def().players.iter())
            .map(|p| p.id.clone())
            .collect()
    }
    /// The variants applied, in order.
    #[getter]
    fn applied_variants(&self) -> Vec<String> {
        self.game.def().applied.clone()
    }
    /// Every variant the file offers: id -> {"name", "doc", "params"}.
    #[getter]
    fn variants<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for v in &self.game.def().variants {
            let d = PyDict::new(py);
            d.set_item("name", &v.name)?;
            d.set_item("doc", &v.doc)?;
            let sets = PyDict::new(py);
            for (k, value) in &v.sets {
                sets.set_item(k, data(py, value)?)?;
            }
            d.set_item("params", sets)?;
            out.set_item(&v.id, d)?;
        }
        Ok(out)
    }
    /// The parameters: id -> {"value", "default", "min", "max", "values",
    /// "doc"} (`value` and `default` as people write them: a number, or
    /// for a named parameter the name; `values` its names, else empty).
    #[getter]
    fn parameters<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for p in &self.game.def().params {
            let d = PyDict::new(py);
            let shown = |v: i64| -> PyResult<Bound<'py, PyAny>> {
                Ok(if p.values.is_empty() {
                    v.into_pyobject(py)?.into_any()
                } else {
                    p.show(v).into_pyobject(py)?.into_any()
                })
            };
            d.set_item("value", shown(p.value)?)?;
            d.set_item("default", shown(p.default)?)?;
            d.set_item("min", p.min)?;
            d.set_item("max", p.max)?;
            d.set_item("values", p.values.clone())?;
            d.set_item("doc", &p.doc)?;
            out.set_item(&p.id, d)?;
        }
        Ok(out)
    }
    /// The rules text, cards, parameters and variants (`tabula rules`).
    fn rules(&self) -> String {
        tabula::text::rules_text(self.game.def(), "Parameters", "Variants")
    }

    /// The game's handle for the state API (`tabula.Spiel`): its actions
    /// found by walking up to `walk` distinct positions (the GIL is
    /// released meanwhile), keeping what follows the moves made up to
    /// `keep` bytes of positions (0: none).
    #[pyo3(signature = (walk=tabula::spiel::DEFAULT_WALK, *, keep=tabula::spiel::DEFAULT_KEEP))]
    fn spiel(slf: &Bound<'_, Game>, walk: usize, keep: usize) -> crate::spiel::Spiel {
        crate::spiel::Spiel::make(slf.py(), slf.clone().unbind(), walk, keep)
    }

    /// How it was loaded: (name or absolute path, variants, params,
    /// games_dir), what `load_game` takes to load it again.
    #[getter]
    fn _source<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.source.to_tuple(py)
    }

    /// Pickled as how it was loaded (`load_game` loads it again).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.import("tabula")?.getattr("load_game")?;
        PyTuple::new(py, [f, self.source.to_tuple(py)?.into_any()])
    }

    fn __repr__(&self) -> String {
        // As Python writes strings and lists.
        let quoted = |s: &str| format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"));
        let d = self.game.def();
        let variants = if d.applied.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = d.applied.iter().map(|v| quoted(v)).collect();
            format!(" variants=[{}]", list.join(", "))
        };
        format!("<tabula.Game {}{variants}>", quoted(&d.id))
    }

    /// Play one game between bots (`bots`: a dict of player ids to bot
    /// kinds, or a list of kinds by seat; random where none is given) and
    /// return its result: {"over", "winner" (a player id, or None for a
    /// draw or an unfinished game), "turns", "decisions", "payoff" (player
    /// id -> return, where the game declares one), "reason", "error",
    /// "plays" (the cards played, [player id, card id] in order)}.
    #[pyo3(signature = (bots=None, seed=0, max_decisions=100_000))]
    fn play<'py>(
        &self,
        py: Python<'py>,
        bots: Option<Bound<'py, PyAny>>,
        seed: u64,
        max_decisions: u32,
    ) -> PyResult<Bound<'py, PyAny>> {
        let def = self.game.def();
        let kinds = seat_bots(py, def, bots.as_ref())?;
        let game = &self.game;
        let r = py.detach(|| sim::play_one(game, seed, &kinds, max_decisions));
        let player = |p: usize| def.players[p].id.clone();
        let winner = match r.outcome {
            Some(Outcome::Win(p)) => Some(player(p)),
            _ => None,
        };
        let payoff = r.payoff.as_ref().map(|v| {
            (v.iter().enumerate())
                .map(|(p, x)| (player(p), *x))
                .collect::<std::collections::BTreeMap<_, _>>()
        });
        let plays: Vec<(String, String)> = (r.plays.iter())
            .map(|&(p, c)| (player(p), def.cards[c as usize].id.clone()))
            .collect();
        let v = serde_json::json!({
            "seed": seed,
            "bots": kinds,
            "over": r.outcome.is_some(),
            "winner": winner,
            "draw": matches!(r.outcome, Some(Outcome::Draw)),
            "turns": r.turns,
            "decisions": r.decisions,
            "payoff": payoff,
            "reason": r.reason.as_deref(),
            "error": r.error,
            "plays": plays,
        });
        crate::to_py(py, &v)
    }

    /// Many seeded games between bots, and the figures `tabula sim
    /// --json` reports (win rates with 95% intervals, draws, lengths, the
    /// first seat's advantage, end reasons, cards): the same numbers for
    /// the same `games`, `bots` and `seed`, whatever `jobs` (threads,
    /// default every core).
    #[pyo3(signature = (games=1000, bots=None, seed=0, jobs=None, max_decisions=100_000))]
    fn sim<'py>(
        &self,
        py: Python<'py>,
        games: u64,
        bots: Option<Bound<'py, PyAny>>,
        seed: u64,
        jobs: Option<usize>,
        max_decisions: u32,
    ) -> PyResult<Bound<'py, PyAny>> {
        let cfg = sim::SimConfig {
            games,
            seed,
            bots: seat_bots(py, self.game.def(), bots.as_ref())?,
            jobs: threads(jobs).min(usize::try_from(games).unwrap_or(usize::MAX).max(1)),
            max_decisions,
            shard: None,
        };
        let game = &self.game;
        let report = py
            .detach(|| sim::run(game, &cfg, &|_| {}).map(|t| sim::report(game, &cfg, &t)))
            .map_err(|e| err(py, e))?;
        data(py, &report)
    }

    /// The game's value and optimal strategies, as `tabula solve --json`
    /// gives them, with "method": "exact" (two players, open information:
    /// exact over every setup, or the one `seed` makes, or `deals` sampled
    /// ones), "cfr+" (hidden information: CFR+ to `target`
    /// exploitability) or "mccfr" (too big for the whole tree, or
    /// `sampling` asked: Monte Carlo CFR). `exploit`: bot kinds whose
    /// exploitability is added ("exploit": a list). A game no method
    /// handles raises `TabulaError` (its `refusal` says why).
    #[pyo3(signature = (
        seed=None, deals=None, jobs=None, max_states=tabula::solve::MAX_STATES,
        exploit=Vec::new(), samples=4, target=0.001, iterations=100_000, seconds=600.0,
        sampling=None, probe_games=100, eval_games=20_000,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        seed: Option<u64>,
        deals: Option<u64>,
        jobs: Option<usize>,
        max_states: usize,
        exploit: Vec<String>,
        samples: u32,
        target: f64,
        iterations: u64,
        seconds: f64,
        sampling: Option<String>,
        probe_games: u64,
        eval_games: u64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let o = SolveOptions {
            seed,
            deals,
            jobs: threads(jobs),
            max_states,
            exploit,
            samples,
            target,
            iterations,
            seconds,
            sampling: analysis::sampling(sampling.as_deref()).map_err(|e| err(py, e))?,
            probe_games,
            eval_games,
        };
        let game = &self.game;
        let v = py
            .detach(|| analysis::solve(game, &o))
            .map_err(|e| err(py, e))?;
        crate::to_py(py, &v)
    }

    /// How much a best response wins against a bot kind: {"bot",
    /// "exploitability" (the mean over both seats of what a best response
    /// gains over the game's value; OpenSpiel's NashConv / 2),
    /// "best_response" (player id -> what it gets in that seat), "seconds"}.
    /// With open information the game is solved exactly first (its
    /// value); with hidden information the bot's policy is evaluated over
    /// the whole tree (at most `max_states` nodes), as `tabula solve
    /// --exploit KIND` does.
    #[pyo3(signature = (bot, samples=4, max_states=tabula::solve::MAX_STATES, jobs=None))]
    fn exploitability<'py>(
        &self,
        py: Python<'py>,
        bot: String,
        samples: u32,
        max_states: usize,
        jobs: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let o = SolveOptions {
            jobs: threads(jobs),
            max_states,
            samples,
            ..SolveOptions::default()
        };
        let game = &self.game;
        let v = py
            .detach(|| analysis::exploitability(game, &bot, &o))
            .map_err(|e| err(py, e))?;
        crate::to_py(py, &v)
    }
}
