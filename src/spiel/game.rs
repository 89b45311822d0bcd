//! The game handle: a game, its actions and its starts, shared by every
//! state made from it (`Arc<Spiel>`: a state holds its game, no borrow).

use std::sync::{Arc, OnceLock};

use super::actions::{Action, Bounds, DEFAULT_WALK, Space};
use super::follow::{DEFAULT_KEEP, Follow};
use super::state::{At, SpielState, rests};
use crate::analysis::tree::{self, Outcomes};
use crate::definition::PlayerIx;
use crate::error::{Error, Result};
use crate::game::Game;

/// A game as OpenSpiel's `Game`: the rules with their parameters, the
/// numbered actions, the chance of the start; `new_initial_state` makes
/// states that hold it.
pub struct Spiel {
    game: Arc<Game>,
    space: Space,
    /// The starts and their chances (`tree::roots`), listed once, or why
    /// they cannot be.
    roots: OnceLock<Result<Arc<Outcomes>>>,
    /// The first step's place: the start, or the one setup.
    start: OnceLock<Arc<At>>,
    /// Each start as a step's place, made at the first draw.
    start_rests: OnceLock<Vec<Arc<At>>>,
    pub(super) follow: Follow,
}

impl std::fmt::Debug for Spiel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spiel")
            .field("game", &self.game.id())
            .finish_non_exhaustive()
    }
}

impl Spiel {
    /// The handle of `game`, its actions found by walking up to
    /// `DEFAULT_WALK` positions (see `actions`).
    pub fn new(game: Arc<Game>) -> Arc<Spiel> {
        Spiel::walked(game, DEFAULT_WALK)
    }

    /// `new` with a walk of at most `positions` distinct positions (0: the
    /// game's actions are the definition's, open).
    pub fn walked(game: Arc<Game>, positions: usize) -> Arc<Spiel> {
        Spiel::keeping(game, positions, DEFAULT_KEEP)
    }

    /// `walked`, keeping what follows the moves made up to `bytes` of
    /// positions (`DEFAULT_KEEP` by default; 0 keeps nothing, and every
    /// move runs the rules afresh).
    pub fn keeping(game: Arc<Game>, positions: usize, bytes: usize) -> Arc<Spiel> {
        let space = Space::new(&game, positions);
        Arc::new(Spiel {
            game,
            space,
            roots: OnceLock::new(),
            start: OnceLock::new(),
            start_rests: OnceLock::new(),
            follow: Follow::new(bytes),
        })
    }

    pub fn game(&self) -> &Game {
        &self.game
    }
    /// How many moves' results the handle keeps (`keeping`).
    pub fn moves_kept(&self) -> usize {
        self.follow.moves()
    }
    /// The shared game, for a caller that keeps it apart.
    pub fn game_arc(&self) -> &Arc<Game> {
        &self.game
    }
    pub fn num_players(&self) -> usize {
        self.game.def().nplayers()
    }
    /// A player index, checked (a typed error for one the game has not).
    pub fn check_player(&self, player: PlayerIx) -> Result<PlayerIx> {
        Error::check_player(player, self.num_players())
    }

    /// How many actions the game has: every id is below it. A refusal
    /// (`Refusal::TooManyPositions`, `TooMuchChance`) where the walk could
    /// not list them all.
    pub fn num_distinct_actions(&self) -> Result<usize> {
        self.space.distinct()
    }
    /// A closed game's most chance outcomes at one node and its range of
    /// returns, as the walk found them (the refusal of
    /// `num_distinct_actions` for an open game).
    pub fn bounds(&self) -> Result<Bounds> {
        self.space.bounds()
    }
    /// The returns' range and sum as the rules alone fix them, with no
    /// walk: a game won or lost (no `payoff:` stat) gives the winner 1,
    /// each other player -1/(n-1), and 0 to all in a draw, summing to 0;
    /// a game of one player returns 0 or 1 (no one sum). None where a
    /// payoff stat's values are the returns.
    pub fn returns_by_rule(&self) -> Option<((f64, f64), Option<f64>)> {
        if self.game.def().payoff.is_some() {
            return None;
        }
        match self.num_players() {
            0 | 1 => Some(((0.0, 1.0), None)),
            n => Some(((-1.0 / (n - 1) as f64, 1.0), Some(0.0))),
        }
    }
    /// Whether every action is numbered for good (`num_distinct_actions`
    /// answers).
    pub fn actions_closed(&self) -> bool {
        self.space.closed()
    }
    /// Ids below this name the same text for every handle of the game,
    /// its parameters and walk: every id of a closed game; in an open
    /// one, the definition's cards, cells and words and the texts the
    /// walk met before it stopped (other texts are numbered on from here
    /// as met).
    pub fn fixed_actions(&self) -> usize {
        self.space.fixed()
    }
    /// The text of a player's action `id` (a card's id, a word).
    pub fn action_text(&self, id: Action) -> Result<Arc<str>> {
        self.space.text(id)
    }
    /// The id of the action whose text is `text` (exactly, as
    /// `action_text` gives it).
    pub fn action_id(&self, text: &str) -> Result<Action> {
        self.space.id(text)
    }
    pub(super) fn id_of_offered(&self, text: &str) -> Action {
        self.space.id_of_offered(text)
    }

    /// The starts, with their chances (a refusal where there are too many
    /// to list: a start is then sampled).
    pub(super) fn roots(&self) -> Result<Arc<Outcomes>> {
        self.roots
            .get_or_init(|| tree::roots(&self.game, None).map(Arc::new))
            .clone()
    }

    /// Where the first step stands: the one setup where chance makes one,
    /// else the start (a chance node).
    pub(super) fn start(&self) -> Arc<At> {
        let made = || match self.roots() {
            Ok(r) if r.len() == 1 => At::rest(r[0].1.clone()),
            _ => Arc::new(At::Start),
        };
        self.start.get_or_init(made).clone()
    }

    /// Each start as a step's place (none where they cannot be listed).
    pub(super) fn start_rests(&self) -> &[Arc<At>] {
        let made = || self.roots().map(|r| rests(&r)).unwrap_or_default();
        self.start_rests.get_or_init(made)
    }

    /// The state before anything happened: a chance node whose outcomes are
    /// the starts, or the one start where setup draws nothing.
    pub fn new_initial_state(self: &Arc<Self>) -> SpielState {
        SpielState::initial(self.clone())
    }
}
