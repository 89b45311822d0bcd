//! A state as OpenSpiel's `State`: it holds its game (`Arc<Spiel>`), and
//! is a chance node, one player's decision, a simultaneous decision of
//! several, or the end. A state is a chain of steps shared with the
//! states it came from: `clone` and `undo` cost a reference count.

use std::sync::{Arc, OnceLock};

use super::actions::Action;
use super::game::Spiel;
use crate::analysis::tree::{self, Joint, Outcomes};
use crate::core::State;
use crate::definition::PlayerIx;
use crate::error::{Error, Illegal, Refusal, Result};

/// Who acts at a state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Current {
    /// The game is over.
    Terminal,
    /// Chance picks an outcome (`chance_outcomes`, `sample_chance`).
    Chance,
    /// One player chooses (`apply`).
    One(PlayerIx),
    /// These players choose at once, each in secret (`apply_actions`).
    Simultaneous(Vec<PlayerIx>),
}

/// How a step was reached from the one before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// Chance's outcome, by its index in `chance_outcomes`.
    Chance(Action),
    /// Chance too large to list, drawn from a generator with this seed.
    Sampled(u64),
    /// The players' actions (one, or each of a simultaneous decision).
    Moves(Vec<(PlayerIx, Action)>),
}

/// Where a step stands: shared by every step that reached it (the
/// handle keeps what follows a move, `Follow`).
#[derive(Debug)]
pub(super) enum At {
    /// Before the start: chance makes the setup.
    Start,
    /// A decision, or the end, and what was found out about it.
    Rest(State, Facts),
    /// `joint` was made at `before`; chance decides what follows.
    Chance {
        before: State,
        joint: Joint,
        outcomes: Result<Arc<Outcomes>>,
        /// Each outcome as a step's place, made at the first draw.
        rests: OnceLock<Vec<Arc<At>>>,
    },
}

/// What a place's callers asked, worked out once: a place is shared by
/// every state that reaches it, and the loops an agent runs ask who acts
/// and what is legal at each step.
#[derive(Debug, Default)]
pub(super) struct Facts {
    current: OnceLock<Current>,
    /// Each player's legal action ids, in increasing order.
    legal: OnceLock<Vec<Vec<Action>>>,
}

impl At {
    pub(super) fn rest(st: State) -> Arc<At> {
        Arc::new(At::Rest(st, Facts::default()))
    }
}

/// Each outcome's position as a step's place, shared.
pub(super) fn rests(list: &Outcomes) -> Vec<Arc<At>> {
    list.iter().map(|(_, st)| At::rest(st.clone())).collect()
}

#[derive(Debug)]
pub(super) struct Step {
    pub at: Arc<At>,
    pub parent: Option<Arc<Step>>,
    /// How it was reached (None: the first step).
    pub by: Option<Entry>,
}

/// A state of a game, holding the game.
#[derive(Debug, Clone)]
pub struct SpielState {
    pub(super) spiel: Arc<Spiel>,
    pub(super) step: Arc<Step>,
}

/// "not a chance node now"
fn not_chance() -> Error {
    Error::illegal(Illegal::NotTheirs, "this is not a chance node")
}

impl SpielState {
    pub(super) fn initial(spiel: Arc<Spiel>) -> SpielState {
        let at = spiel.start();
        SpielState {
            spiel,
            step: Arc::new(Step {
                at,
                parent: None,
                by: None,
            }),
        }
    }

    pub fn spiel(&self) -> &Arc<Spiel> {
        &self.spiel
    }

    /// The engine's state at this step: the position (at a chance node
    /// after a move, the position the move was made at; None before the
    /// start).
    pub fn position(&self) -> Option<&State> {
        match &*self.step.at {
            At::Start => None,
            At::Rest(s, _) | At::Chance { before: s, .. } => Some(s),
        }
    }

    pub fn current(&self) -> Current {
        match &*self.step.at {
            At::Start | At::Chance { .. } => Current::Chance,
            At::Rest(st, facts) => (facts.current)
                .get_or_init(|| match tree::node(st) {
                    tree::Node::Over => Current::Terminal,
                    tree::Node::One(p) => Current::One(p),
                    tree::Node::Together { players, .. } if players.is_empty() => Current::Terminal,
                    tree::Node::Together { players, .. } => Current::Simultaneous(players),
                })
                .clone(),
        }
    }

    /// Each player's legal action ids at `st` (increasing), found once.
    fn legal_ids<'a>(&self, st: &State, facts: &'a Facts) -> &'a [Vec<Action>] {
        let game = self.spiel.game();
        facts.legal.get_or_init(|| {
            (0..self.spiel.num_players())
                .map(|p| {
                    let mut ids: Vec<Action> = (st.legal(p).iter())
                        .map(|c| self.spiel.id_of_offered(c.text(game)))
                        .collect();
                    ids.sort_unstable();
                    ids.dedup();
                    ids
                })
                .collect()
        })
    }
    pub fn is_terminal(&self) -> bool {
        self.current() == Current::Terminal
    }
    pub fn is_chance_node(&self) -> bool {
        self.current() == Current::Chance
    }
    pub fn is_simultaneous_node(&self) -> bool {
        matches!(self.current(), Current::Simultaneous(_))
    }

    /// `player`'s legal actions now, ids in increasing order (none when
    /// they have no decision now).
    pub fn legal_actions_of(&self, player: PlayerIx) -> Result<Vec<Action>> {
        self.spiel.check_player(player)?;
        let At::Rest(st, facts) = &*self.step.at else {
            return Ok(Vec::new());
        };
        Ok(self.legal_ids(st, facts)[player].clone())
    }

    /// The id of `player`'s legal action whose text is `text` (exactly):
    /// `Spiel::action_id` for a text of an open game not met before.
    pub fn legal_action_id(&self, player: PlayerIx, text: &str) -> Result<Action> {
        self.spiel.check_player(player)?;
        let At::Rest(st, facts) = &*self.step.at else {
            return Err(Error::illegal(Illegal::NotTheirs, "no player chooses now"));
        };
        // Every legal text has its id once the place's ids are worked out.
        let legal = &self.legal_ids(st, facts)[player];
        match self.spiel.action_id(text) {
            Ok(a) if legal.binary_search(&a).is_ok() => Ok(a),
            _ => Err(Error::illegal(
                Illegal::NotLegal,
                format!(
                    "`{text}` is not a legal action of {} now",
                    self.spiel.game().def().players[player].id
                ),
            )),
        }
    }

    /// The legal actions of the one player to choose, or chance's
    /// outcomes' ids at a chance node (empty at the end; a refusal at a
    /// simultaneous node, whose players each have their own).
    pub fn legal_actions(&self) -> Result<Vec<Action>> {
        match self.current() {
            Current::Terminal => Ok(Vec::new()),
            Current::One(p) => self.legal_actions_of(p),
            Current::Chance => Ok(self
                .chance_outcomes()?
                .into_iter()
                .map(|(a, _)| a)
                .collect()),
            Current::Simultaneous(_) => Err(Error::illegal(
                Illegal::NotTheirs,
                "several players choose at once here: ask each player's legal actions",
            )),
        }
    }

    /// Chance's outcomes with their probabilities (summing to 1), by id;
    /// a refusal (`Refusal::TooMuchChance`) where they are too many to
    /// list: then `sample_chance` draws one.
    pub fn chance_outcomes(&self) -> Result<Vec<(Action, f64)>> {
        let list = self.outcomes()?;
        Ok(list.iter().enumerate().map(|(i, (p, _))| (i, *p)).collect())
    }

    /// The listed outcomes of this chance node.
    fn outcomes(&self) -> Result<Arc<Outcomes>> {
        match &*self.step.at {
            At::Start => self.spiel.roots(),
            At::Chance { outcomes, .. } => outcomes.clone(),
            At::Rest(..) => Err(not_chance()),
        }
    }

    /// The action's text: a chance outcome's (`outcome 2 of 6`) at a chance
    /// node, else a player's action's (`Spiel::action_text`).
    pub fn action_to_string(&self, action: Action) -> Result<String> {
        if self.is_chance_node() {
            let n = self.outcomes()?.len();
            if action >= n {
                return Err(Error::illegal(
                    Illegal::NotLegal,
                    format!("{action} is no outcome of this chance node (it has {n})"),
                ));
            }
            return Ok(format!("outcome {action} of {n}"));
        }
        Ok(self.spiel.action_text(action)?.to_string())
    }

    /// The id of the action `text` names (`action_to_string`'s inverse).
    pub fn string_to_action(&self, text: &str) -> Result<Action> {
        if self.is_chance_node() {
            let n = self.outcomes()?.len();
            let i = (text.strip_prefix("outcome "))
                .and_then(|r| r.strip_suffix(&format!(" of {n}")))
                .and_then(|i| i.parse::<usize>().ok())
                .filter(|&i| i < n);
            return i.ok_or_else(|| {
                Error::illegal(
                    Illegal::NotLegal,
                    format!("`{text}` is no outcome of this chance node"),
                )
            });
        }
        self.spiel.action_id(text)
    }

    /// Apply an action: the one player's, or chance's outcome. At a
    /// simultaneous node use `apply_actions`. On error the state is
    /// unchanged.
    pub fn apply(&mut self, action: Action) -> Result<()> {
        match self.current() {
            Current::Terminal => Err(Error::illegal(Illegal::Over, "the game is over")),
            Current::Chance => self.apply_chance(action),
            Current::One(p) => self.apply_actions(&[(p, action)]),
            Current::Simultaneous(_) => Err(Error::illegal(
                Illegal::NotTheirs,
                "several players choose at once here: apply a joint action (apply_actions)",
            )),
        }
    }

    /// Chance's outcome `i` (an index of `chance_outcomes`).
    fn apply_chance(&mut self, i: Action) -> Result<()> {
        let list = self.outcomes()?;
        let places = match &*self.step.at {
            At::Chance { rests: made, .. } => made.get_or_init(|| rests(&list)),
            _ => self.spiel.start_rests(),
        };
        let Some(at) = places.get(i) else {
            return Err(Error::illegal(
                Illegal::NotLegal,
                format!(
                    "{i} is no outcome of this chance node (it has {})",
                    list.len()
                ),
            ));
        };
        self.push(at.clone(), Entry::Chance(i));
        Ok(())
    }

    /// Draw chance's outcome with a generator seeded with `seed`: one of
    /// the listed outcomes by its probability, or, where they are too
    /// many to list, the game's own draws (OpenSpiel's sampled chance).
    /// Returns what was drawn, as the history records it.
    pub fn sample_chance(&mut self, seed: u64) -> Result<Entry> {
        use rand_chacha::rand_core::{Rng, SeedableRng};
        if !self.is_chance_node() {
            return Err(not_chance());
        }
        match self.outcomes() {
            Ok(list) => {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let r = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                let mut acc = 0.0;
                let i = (list.iter())
                    .position(|(p, _)| {
                        acc += p;
                        r < acc
                    })
                    .unwrap_or(list.len().saturating_sub(1));
                self.apply_chance(i)?;
                Ok(Entry::Chance(i))
            }
            Err(e) if matches!(e.refusal(), Some(Refusal::TooMuchChance { .. })) => {
                self.apply_sampled(seed)?;
                Ok(Entry::Sampled(seed))
            }
            Err(e) => Err(e),
        }
    }

    /// Chance too large to list, drawn from the seed (`Entry::Sampled`).
    pub(super) fn apply_sampled(&mut self, seed: u64) -> Result<()> {
        let game = self.spiel.game();
        let st = match &*self.step.at {
            At::Start => State::new_quiet(game, seed)?,
            At::Chance { before, joint, .. } => {
                let mut s = before.clone();
                s.reseed(seed);
                tree::sample(game, &s, joint)?
            }
            At::Rest(..) => return Err(not_chance()),
        };
        self.push(At::rest(st), Entry::Sampled(seed));
        Ok(())
    }

    /// Each player's action at once: every player who chooses now, once
    /// (in any order); at a one-player node, that player's. Checked: the
    /// players, the ids, the node. On error the state is unchanged.
    pub fn apply_actions(&mut self, actions: &[(PlayerIx, Action)]) -> Result<()> {
        for &(p, _) in actions {
            self.spiel.check_player(p)?;
        }
        let waiting = match self.current() {
            Current::Terminal => return Err(Error::illegal(Illegal::Over, "the game is over")),
            Current::Chance => {
                return Err(Error::illegal(
                    Illegal::NotTheirs,
                    "chance acts here: apply an outcome, or sample one",
                ));
            }
            Current::One(p) => vec![p],
            Current::Simultaneous(ps) => ps,
        };
        let At::Rest(st, facts) = &*self.step.at else {
            return Err(not_chance());
        };
        let game = self.spiel.game();
        let id = |p: PlayerIx| game.def().players[p].id.clone();
        let legal = self.legal_ids(st, facts);
        let mut entry: Vec<(PlayerIx, Action)> = Vec::with_capacity(waiting.len());
        for &p in &waiting {
            let mut mine = actions.iter().filter(|(q, _)| *q == p);
            let (Some(&(_, a)), None) = (mine.next(), mine.next()) else {
                return Err(Error::illegal(
                    Illegal::Malformed,
                    format!("{} chooses now: give exactly one action of theirs", id(p)),
                ));
            };
            if legal[p].binary_search(&a).is_err() {
                return Err(self.not_legal(p, a));
            }
            entry.push((p, a));
        }
        if let Some(&(p, _)) = actions.iter().find(|(q, _)| !waiting.contains(q)) {
            return Err(Error::illegal(
                Illegal::NotTheirs,
                format!("it is not {}'s decision now", id(p)),
            ));
        }
        // Made before: no run of the engine.
        let mut sorted = entry.clone();
        sorted.sort_unstable();
        if let Some(at) = self.spiel.follow.get(&self.step.at, &sorted) {
            self.push(at, Entry::Moves(sorted));
            return Ok(());
        }
        // The engine's choices, in the order the players wait.
        let mut joint: Joint = Vec::with_capacity(entry.len());
        for &(p, a) in &entry {
            let text = self.spiel.action_text(a)?;
            let Some(c) = st.legal(p).iter().find(|c| c.text(game) == &*text) else {
                return Err(self.not_legal(p, a));
            };
            joint.push((p, c.clone()));
        }
        let entry = sorted;
        let at = match tree::children(game, st, &joint) {
            Ok(mut list) => {
                if list.len() == 1
                    && let Some((_, s)) = list.pop()
                {
                    At::rest(s)
                } else {
                    Arc::new(At::Chance {
                        before: st.clone(),
                        joint,
                        outcomes: Ok(Arc::new(list)),
                        rests: OnceLock::new(),
                    })
                }
            }
            Err(e) if matches!(e.refusal(), Some(Refusal::TooMuchChance { .. })) => {
                Arc::new(At::Chance {
                    before: st.clone(),
                    joint,
                    outcomes: Err(e),
                    rests: OnceLock::new(),
                })
            }
            Err(e) => return Err(e),
        };
        let at = self.spiel.follow.keep(&self.step.at, &entry, at);
        self.push(at, Entry::Moves(entry));
        Ok(())
    }

    /// "action `a` is not legal for `p`", with its text (or why the id
    /// names no action).
    fn not_legal(&self, p: PlayerIx, a: Action) -> Error {
        match self.spiel.action_text(a) {
            Ok(text) => Error::illegal(
                Illegal::NotLegal,
                format!(
                    "`{text}` (action {a}) is not a legal action of {}",
                    self.spiel.game().def().players[p].id
                ),
            ),
            Err(e) => e,
        }
    }

    fn push(&mut self, at: Arc<At>, by: Entry) {
        self.step = Arc::new(Step {
            at,
            parent: Some(self.step.clone()),
            by: Some(by),
        });
    }

    /// Back one step (an action, or chance's outcome): a reference
    /// count, no replay. A refusal at the first step.
    pub fn undo(&mut self) -> Result<()> {
        let Some(parent) = self.step.parent.clone() else {
            return Err(Error::illegal(
                Illegal::NotTheirs,
                "nothing to undo: this is the first state",
            ));
        };
        self.step = parent;
        Ok(())
    }

    /// Each step's entry from the first state to this one.
    pub fn history(&self) -> Vec<Entry> {
        let mut out = Vec::new();
        let mut at = Some(&self.step);
        while let Some(s) = at {
            if let Some(e) = &s.by {
                out.push(e.clone());
            }
            at = s.parent.as_ref();
        }
        out.reverse();
        out
    }

    /// Each player's return: at the end the game's (`tree::returns`:
    /// the payoff stat, or +1 to the winner and the loss shared), else 0.
    pub fn returns(&self) -> Vec<f64> {
        match &*self.step.at {
            At::Rest(st, _) if self.is_terminal() => tree::returns(self.spiel.game(), st),
            _ => vec![0.0; self.spiel.num_players()],
        }
    }

    /// What the last step gave each player: the change in `returns`
    /// (a game's returns come at its end).
    pub fn rewards(&self) -> Vec<f64> {
        let now = self.returns();
        let Some(parent) = &self.step.parent else {
            return now;
        };
        let before = SpielState {
            spiel: self.spiel.clone(),
            step: parent.clone(),
        }
        .returns();
        now.iter().zip(before).map(|(a, b)| a - b).collect()
    }
}

/// Two states are equal when they are of the same handle and went the
/// same way to the same position.
impl PartialEq for SpielState {
    fn eq(&self, other: &SpielState) -> bool {
        let game = self.spiel.game();
        Arc::ptr_eq(&self.spiel, &other.spiel)
            && self.history() == other.history()
            && self.current() == other.current()
            && self.position().map(|s| s.key_with_turn(game))
                == other.position().map(|s| s.key_with_turn(game))
    }
}
