//! `tabula.Spiel` and `tabula.State`: the library's OpenSpiel-shaped state
//! API (`tabula::spiel`, docs/state-api.md) with OpenSpiel's Python method
//! names: `current_player()` as OpenSpiel's ints (chance -1, simultaneous
//! -2, terminal -4), integer action ids, chance outcomes with their
//! probabilities, observation strings and tensors, clone and undo, and
//! the history as text. Every argument is checked: a bad player, action
//! or text raises `TabulaError`, and the state is unchanged.

use std::sync::{Arc, OnceLock};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::game::Game;
use crate::{err, to_py};
use tabula::error::{Error, ErrorKind};
use tabula::spiel::{self, Current, Entry, SpielState};

/// OpenSpiel's `kChancePlayerId`.
pub const CHANCE: i64 = -1;
/// OpenSpiel's `kSimultaneousPlayerId`.
pub const SIMULTANEOUS: i64 = -2;
/// OpenSpiel's `kTerminalPlayerId`.
pub const TERMINAL: i64 = -4;

/// A game's handle as OpenSpiel's `Game`: its numbered actions (found by
/// walking up to `walk` distinct positions), its starts; states made from
/// it hold it.
#[pyclass(frozen, module = "tabula", name = "Spiel")]
pub struct Spiel {
    pub spiel: Arc<spiel::Spiel>,
    game: Py<Game>,
    walk: usize,
    /// The bytes of positions it may keep (`keep=`).
    keep: usize,
    /// The first state's chance outcomes as Python tuples, made once: every
    /// game starts there, and a list of a deal's outcomes costs more to
    /// convert than the rest of a game's steps (Leduc poker's 30 deals).
    starts: OnceLock<Py<PyTuple>>,
}

/// A player index from Python, checked (a negative one is no player).
fn player_ix(spiel: &spiel::Spiel, player: i64) -> tabula::Result<usize> {
    match usize::try_from(player) {
        Ok(p) => spiel.check_player(p),
        Err(_) => Err(Error::new(
            ErrorKind::Player { player: usize::MAX },
            format!(
                "no player {player}: the game has {} (numbered from 0 to {}); chance is -1 only where a chance node's outcomes are asked",
                spiel.num_players(),
                spiel.num_players().saturating_sub(1)
            ),
        )),
    }
}

/// An action id from Python: a negative one names no action.
fn action_id(action: i64) -> tabula::Result<usize> {
    usize::try_from(action).map_err(|_| {
        Error::illegal(
            tabula::error::Illegal::NotLegal,
            format!("{action} is no action id (ids are 0 or more)"),
        )
    })
}

impl Spiel {
    pub fn make(py: Python<'_>, game: Py<Game>, walk: usize, keep: usize) -> Spiel {
        let g = game.get().arc().clone();
        let spiel = py.detach(|| spiel::Spiel::keeping(g, walk, keep));
        Spiel {
            spiel,
            game,
            walk,
            keep,
            starts: OnceLock::new(),
        }
    }

    fn state(slf: &Bound<'_, Spiel>, st: SpielState) -> State {
        State {
            st,
            spiel: slf.clone().unbind(),
        }
    }
}

#[pymethods]
impl Spiel {
    /// The handle of `game`: its actions found by walking up to `walk`
    /// distinct positions (the GIL is released meanwhile), keeping what
    /// follows the moves made up to `keep` bytes of positions (0: none;
    /// a move made again then runs the rules again).
    #[new]
    #[pyo3(signature = (game, walk=spiel::DEFAULT_WALK, *, keep=spiel::DEFAULT_KEEP))]
    fn new(py: Python<'_>, game: Py<Game>, walk: usize, keep: usize) -> Spiel {
        Spiel::make(py, game, walk, keep)
    }

    /// The game (`tabula.Game`).
    #[getter]
    fn game(&self, py: Python<'_>) -> Py<Game> {
        self.game.clone_ref(py)
    }
    /// The walk's budget of distinct positions this handle was made with.
    #[getter]
    fn walk(&self) -> usize {
        self.walk
    }
    fn num_players(&self) -> usize {
        self.spiel.num_players()
    }
    /// How many moves' results the handle keeps (see `keep`).
    fn moves_kept(&self) -> usize {
        self.spiel.moves_kept()
    }
    /// How many actions the game has (every id is below it); raises
    /// `TabulaError` (kind "refused") where the walk did not reach the end.
    fn num_distinct_actions(&self, py: Python<'_>) -> PyResult<usize> {
        self.spiel.num_distinct_actions().map_err(|e| err(py, e))
    }
    /// Ids below this name the same text for every handle of the game.
    fn fixed_actions(&self) -> usize {
        self.spiel.fixed_actions()
    }
    /// Whether every action is numbered (`num_distinct_actions` answers).
    #[getter]
    fn closed(&self) -> bool {
        self.spiel.actions_closed()
    }
    /// What the walk measured, as OpenSpiel's game information: a dict of
    /// "max_chance_outcomes", "min_utility", "max_utility" (None where no
    /// end was reached), "utility_sum" (None where the sum varies) and
    /// "max_game_length" (None where a line may come back to a position),
    /// "simultaneous" (whether several players ever choose at once) and
    /// "perfect_information" (no two positions look the same to a player).
    /// Raises as `num_distinct_actions` does for an open game.
    fn bounds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let b = self.spiel.bounds().map_err(|e| err(py, e))?;
        let d = PyDict::new(py);
        d.set_item("max_chance_outcomes", b.max_chance_outcomes)?;
        d.set_item("min_utility", b.utility.map(|u| u.0))?;
        d.set_item("max_utility", b.utility.map(|u| u.1))?;
        d.set_item("utility_sum", b.returns_sum)?;
        d.set_item("max_game_length", b.max_game_length)?;
        d.set_item("simultaneous", b.simultaneous)?;
        d.set_item("perfect_information", b.perfect_information)?;
        Ok(d)
    }
    /// What the rules alone tell, with no walk (for an open game): a dict
    /// of "num_distinct_actions" (`fixed_actions`: the definition's texts
    /// and those the walk met; an open game's other texts are numbered as
    /// met, not the same from one process to the next), "min_utility", "max_utility" and
    /// "utility_sum" (None where a payoff stat's values are the returns).
    fn by_rule<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let r = self.spiel.returns_by_rule();
        d.set_item("num_distinct_actions", self.spiel.fixed_actions())?;
        d.set_item("min_utility", r.map(|r| r.0.0))?;
        d.set_item("max_utility", r.map(|r| r.0.1))?;
        d.set_item("utility_sum", r.and_then(|r| r.1))?;
        Ok(d)
    }
    /// The text of action `id` (a card's id, a cell, a word).
    fn action_text(&self, py: Python<'_>, id: i64) -> PyResult<String> {
        let r = action_id(id).and_then(|a| self.spiel.action_text(a));
        r.map(|t| t.to_string()).map_err(|e| err(py, e))
    }
    /// The id of the action whose text is `text`.
    fn action_id(&self, py: Python<'_>, text: &str) -> PyResult<usize> {
        self.spiel.action_id(text).map_err(|e| err(py, e))
    }
    /// The tensor's parts: a list of (name, shape), the same for every
    /// state (see docs/state-api.md).
    fn tensor_layout(&self) -> Vec<(String, Vec<usize>)> {
        let st = self.spiel.new_initial_state();
        (st.tensor_layout().into_iter())
            .map(|s| (s.name, s.shape))
            .collect()
    }
    /// The number of floats `observation_tensor` gives.
    fn tensor_size(&self) -> usize {
        let st = self.spiel.new_initial_state();
        st.tensor_layout().iter().map(|s| s.size()).sum()
    }
    /// The state before anything happened (a chance node where setup
    /// draws; the GIL is released while the starts are listed).
    fn new_initial_state(slf: &Bound<'_, Spiel>) -> State {
        let h = slf.get().spiel.clone();
        let st = slf.py().detach(|| h.new_initial_state());
        Spiel::state(slf, st)
    }
    /// The state `State.serialize` wrote, replayed from the start.
    fn deserialize_state(slf: &Bound<'_, Spiel>, text: &str) -> PyResult<State> {
        let h = slf.get().spiel.clone();
        let st = slf
            .py()
            .detach(|| h.deserialize_state(text))
            .map_err(|e| err(slf.py(), e))?;
        Ok(Spiel::state(slf, st))
    }
    fn __repr__(&self) -> String {
        let closed = match self.spiel.num_distinct_actions() {
            Ok(n) => format!("{n} actions"),
            Err(_) => "open".to_string(),
        };
        format!("<tabula.Spiel '{}' {closed}>", self.spiel.game().id())
    }
    /// Pickled as how its game was loaded, its walk and its budget of kept
    /// moves (`tabula._spiel` makes it again: one handle per game, walk
    /// and budget in a process).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.import("tabula")?.getattr("_spiel")?;
        let source = self.game.bind(py).getattr("_source")?;
        // The default budget as None: the key a registered game's handle has.
        let keep = (self.keep != spiel::DEFAULT_KEEP).then_some(self.keep);
        let args = (source, self.walk, py.None(), keep).into_pyobject(py)?;
        PyTuple::new(py, [f, args.into_any()])
    }
}

/// A state of a game (OpenSpiel's `State`), holding its game.
#[pyclass(module = "tabula", name = "State")]
pub struct State {
    st: SpielState,
    spiel: Py<Spiel>,
}

impl State {
    fn handle(&self) -> &spiel::Spiel {
        self.st.spiel()
    }
    fn player(&self, player: i64) -> tabula::Result<usize> {
        player_ix(self.handle(), player)
    }
    /// The player asked, else the one who chooses now.
    fn who(&self, player: Option<i64>) -> tabula::Result<usize> {
        match (player, self.st.current()) {
            (Some(p), _) => self.player(p),
            (None, Current::One(p)) => Ok(p),
            (None, _) => Err(Error::usage(
                "no one player chooses now: give the player (0 to players - 1)",
            )),
        }
    }
    fn copy(&self, py: Python<'_>) -> State {
        State {
            st: self.st.clone(),
            spiel: self.spiel.clone_ref(py),
        }
    }
}

#[pymethods]
impl State {
    /// The game's handle (`tabula.Spiel`).
    #[getter]
    fn spiel(&self, py: Python<'_>) -> Py<Spiel> {
        self.spiel.clone_ref(py)
    }
    /// Who acts, as OpenSpiel's ints: a player index, -1 chance, -2
    /// several players at once (simultaneous), -4 the end.
    fn current_player(&self) -> i64 {
        match self.st.current() {
            Current::Terminal => TERMINAL,
            Current::Chance => CHANCE,
            Current::Simultaneous(_) => SIMULTANEOUS,
            Current::One(p) => p as i64,
        }
    }
    /// The players who choose now (one, several at a simultaneous node,
    /// none at chance or the end).
    fn players_to_move(&self) -> Vec<usize> {
        match self.st.current() {
            Current::One(p) => vec![p],
            Current::Simultaneous(ps) => ps,
            _ => Vec::new(),
        }
    }
    fn is_terminal(&self) -> bool {
        self.st.is_terminal()
    }
    fn is_chance_node(&self) -> bool {
        self.st.is_chance_node()
    }
    fn is_simultaneous_node(&self) -> bool {
        self.st.is_simultaneous_node()
    }
    fn is_player_node(&self) -> bool {
        matches!(self.st.current(), Current::One(_))
    }
    /// The legal action ids in increasing order: `player`'s (empty when
    /// they have no decision now; -1: chance's outcomes), or without a
    /// player, the one chooser's, chance's outcomes at a chance node, none
    /// at the end (raises at a simultaneous node: ask each player's).
    #[pyo3(signature = (player=None))]
    fn legal_actions(&self, py: Python<'_>, player: Option<i64>) -> PyResult<Vec<usize>> {
        let r = match player {
            None => self.st.legal_actions(),
            Some(CHANCE) if self.st.is_chance_node() => self.st.legal_actions(),
            Some(p) => self.player(p).and_then(|p| self.st.legal_actions_of(p)),
        };
        r.map_err(|e| err(py, e))
    }
    /// Chance's outcomes as (id, probability); raises (kind "refused")
    /// where they are too many to list (then `sample_chance`), or when
    /// this is not a chance node (kind "move").
    fn chance_outcomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = || self.st.chance_outcomes().map_err(|e| err(py, e));
        if self.st.position().is_some() {
            return PyList::new(py, list()?);
        }
        let starts = &self.spiel.get().starts;
        let tuple = match starts.get() {
            Some(t) => t,
            None => {
                let made = PyTuple::new(py, list()?)?.unbind();
                starts.get_or_init(|| made)
            }
        };
        Ok(tuple.bind(py).to_list())
    }
    /// Apply an action: the one chooser's, or chance's outcome. Raises
    /// `TabulaError` (kind "move") for one that is not legal now.
    fn apply_action(&mut self, py: Python<'_>, action: i64) -> PyResult<()> {
        let r = action_id(action).and_then(|a| self.st.apply(a));
        r.map_err(|e| err(py, e))
    }
    /// Each chooser's action at once: a list by player index (OpenSpiel's
    /// joint action: the entries of players who do not choose now are
    /// ignored) or a dict of player index to action.
    fn apply_actions(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut joint = Vec::new();
        if let Ok(d) = actions.cast::<PyDict>() {
            for (p, a) in d.iter() {
                let p = self.player(p.extract()?).map_err(|e| err(py, e))?;
                joint.push((p, action_id(a.extract()?).map_err(|e| err(py, e))?));
            }
        } else {
            let list: Vec<i64> = actions.extract()?;
            let n = self.handle().num_players();
            if list.len() != n {
                let e = Error::illegal(
                    tabula::error::Illegal::Malformed,
                    format!("{} actions for {n} players: one per player", list.len()),
                );
                return Err(err(py, e));
            }
            for p in self.players_to_move() {
                joint.push((p, action_id(list[p]).map_err(|e| err(py, e))?));
            }
        }
        self.st.apply_actions(&joint).map_err(|e| err(py, e))
    }
    /// Draw chance's outcome from a generator seeded with `seed` (where
    /// the outcomes are too many to list, as play draws them). Returns
    /// the outcome's id, or None for a draw too large to list.
    fn sample_chance(&mut self, py: Python<'_>, seed: u64) -> PyResult<Option<usize>> {
        match self.st.sample_chance(seed).map_err(|e| err(py, e))? {
            Entry::Chance(i) => Ok(Some(i)),
            _ => Ok(None),
        }
    }
    /// Back one step (an action, or chance's outcome); raises at the first
    /// state.
    fn undo(&mut self, py: Python<'_>) -> PyResult<()> {
        self.st.undo().map_err(|e| err(py, e))
    }
    /// A copy (cheap: the steps are shared).
    fn clone(&self, py: Python<'_>) -> State {
        self.copy(py)
    }
    fn __copy__(&self, py: Python<'_>) -> State {
        self.copy(py)
    }
    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> State {
        self.copy(py)
    }
    /// A copy with `action` applied (OpenSpiel's `child`).
    fn child(&self, py: Python<'_>, action: i64) -> PyResult<State> {
        let mut c = self.copy(py);
        c.apply_action(py, action)?;
        Ok(c)
    }
    /// Each player's return (0 until the end).
    fn returns(&self) -> Vec<f64> {
        self.st.returns()
    }
    /// What the last step gave each player.
    fn rewards(&self) -> Vec<f64> {
        self.st.rewards()
    }
    /// The text of an action: `action_to_string(action)` for the one who
    /// acts now, or `action_to_string(player, action)` (-1: chance's
    /// outcome, as "outcome 2 of 6").
    #[pyo3(signature = (player_or_action, action=None))]
    fn action_to_string(
        &self,
        py: Python<'_>,
        player_or_action: i64,
        action: Option<i64>,
    ) -> PyResult<String> {
        let r = match action {
            None => action_id(player_or_action).and_then(|a| self.st.action_to_string(a)),
            Some(a) if player_or_action == CHANCE => {
                action_id(a).and_then(|a| self.st.action_to_string(a))
            }
            Some(a) => self.player(player_or_action).and_then(|_| {
                let a = action_id(a)?;
                Ok(self.handle().action_text(a)?.to_string())
            }),
        };
        r.map_err(|e| err(py, e))
    }
    /// The id of the action `text` names: `string_to_action(text)` or
    /// `string_to_action(player, text)` (-1: chance's outcome).
    #[pyo3(signature = (player_or_text, text=None))]
    fn string_to_action(
        &self,
        py: Python<'_>,
        player_or_text: &Bound<'_, PyAny>,
        text: Option<&str>,
    ) -> PyResult<usize> {
        let r = match text {
            None => self
                .st
                .string_to_action(&player_or_text.extract::<String>()?),
            Some(t) => {
                let p: i64 = player_or_text.extract()?;
                if p == CHANCE {
                    self.st.string_to_action(t)
                } else {
                    self.player(p).and_then(|_| self.handle().action_id(t))
                }
            }
        };
        r.map_err(|e| err(py, e))
    }
    /// What `player` (default: the one who chooses now) sees now.
    #[pyo3(signature = (player=None))]
    fn observation_string(&self, py: Python<'_>, player: Option<i64>) -> PyResult<String> {
        let r = self.who(player).and_then(|p| self.st.observation_string(p));
        r.map_err(|e| err(py, e))
    }
    /// What `player` (default: the one who chooses now) knows now, with
    /// perfect recall: equal for two states they cannot tell apart.
    #[pyo3(signature = (player=None))]
    fn information_state_string(&self, py: Python<'_>, player: Option<i64>) -> PyResult<String> {
        let r = self
            .who(player)
            .and_then(|p| self.st.information_state_string(p));
        r.map_err(|e| err(py, e))
    }
    /// `player`'s observation as a list of floats, laid out as
    /// `Spiel.tensor_layout()` says (the same length at every state).
    #[pyo3(signature = (player=None))]
    fn observation_tensor(&self, py: Python<'_>, player: Option<i64>) -> PyResult<Vec<f32>> {
        let r = self.who(player).and_then(|p| self.st.observation_tensor(p));
        r.map_err(|e| err(py, e))
    }
    /// The state as text: its history as JSON (`Spiel.deserialize_state`
    /// reads it back).
    fn serialize(&self, py: Python<'_>) -> PyResult<String> {
        self.st.serialize().map_err(|e| err(py, e))
    }
    /// Each step from the first state: {"chance": outcome id},
    /// {"sampled": seed} or {"moves": [[player, action id], ...]}.
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for e in self.st.history() {
            let v = match e {
                Entry::Chance(i) => serde_json::json!({ "chance": i }),
                Entry::Sampled(s) => serde_json::json!({ "sampled": s }),
                Entry::Moves(m) => serde_json::json!({ "moves": m }),
            };
            out.append(to_py(py, &v)?)?;
        }
        Ok(out)
    }
    /// How many steps (actions and chance's outcomes) led here.
    fn move_number(&self) -> usize {
        self.st.history().len()
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<State>()
            .is_ok_and(|o| o.try_borrow().is_ok_and(|o| o.st == self.st))
    }
    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        self.serialize(py)
    }
    fn __repr__(&self) -> String {
        let now = match self.st.current() {
            Current::Terminal => "over".to_string(),
            Current::Chance => "chance".to_string(),
            Current::One(p) => format!("player {p}"),
            Current::Simultaneous(ps) => format!("players {ps:?} at once"),
        };
        format!(
            "<tabula.State '{}' {} steps, {now}>",
            self.handle().game().id(),
            self.st.history().len()
        )
    }
    /// Pickled as its handle and its history (`serialize`).
    fn __reduce__<'py>(slf: &Bound<'py, State>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.borrow();
        let f = me.spiel.bind(py).getattr("deserialize_state")?;
        let args = (me.serialize(py)?,).into_pyobject(py)?;
        PyTuple::new(py, [f, args.into_any()])
    }
}
