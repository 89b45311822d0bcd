//! A game in progress. It always rests at a decision (one or several players
//! to choose) or at the end; chance is drawn from its own seeded RNG while the
//! flow advances (flow.rs), so seed + moves reproduce a game.

use std::collections::VecDeque;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use super::{Args, Call, Choice, Decision, Event, Outcome, Rules};
use crate::definition::{CardIx, FACE_DOWN, PlayerIx};
use crate::error::{Error, Illegal, Result};

/// Where chance stands in a state (`State::chance_mark`).
#[derive(Debug, Clone, Copy)]
pub struct ChanceMark {
    rng: u128,
    forced: Option<(usize, Option<u32>)>,
}

#[derive(Debug, Clone)]
pub struct State {
    /// Per-player stats, `player * nstats + stat`.
    pub(super) stats: Vec<i64>,
    pub(super) vars: Vec<i64>,
    /// Card zones by slot (see `Def::slot`); the top of a pile is its end.
    pub(super) zones: Vec<Vec<CardIx>>,
    /// Each card's record, in the slots of zones that keep one (`Zone::
    /// records`): where it came from (`records_from`: the owner of the zone
    /// it left + 1, or 0: a shared zone, or put there at setup), and the
    /// `FACE_DOWN` bit (`faces`). Empty for other slots, and no slots at all
    /// in a game that records nowhere (nothing to copy with a state).
    pub(super) origins: Vec<Vec<u8>>,
    /// Who knows each card, by slot, a bit per player (`knowledge.rs`):
    /// empty until a card is first shown, then one set per card of every
    /// slot.
    pub(super) known: Vec<Vec<u64>>,
    pub(super) rng: ChaCha8Rng,
    /// Draws given in place of the RNG's (`Forced`): chance enumerated.
    pub(super) forced: Option<super::Forced>,
    /// Slots whose shuffle waits until their order is looked at
    /// (`shuffle_later`): a shuffle made while chance is enumerated. A
    /// pile of a zone marked `unordered` may wait from one position to the
    /// next (a set of cards, keyed as one), also after `unforce`.
    pub(super) unshuffled: Vec<u32>,
    /// Next flow step to run.
    pub(super) cursor: usize,
    pub(super) turn: u32,
    pub(super) active: PlayerIx,
    /// Turn order for `turns: rotate` (default: seat order).
    pub(super) order: Vec<PlayerIx>,
    pub(super) pending: VecDeque<Decision>,
    /// The next simultaneous decision is ordered: this player reveals first.
    pub(super) reveal_first: Option<PlayerIx>,
    pub(super) outcome: Option<Outcome>,
    /// Why the game ended, when the script said (or "turn limit").
    pub(super) end_reason: Option<std::sync::Arc<str>>,
    /// Events are recorded (a game people watch); off in playouts.
    pub(super) logging: bool,
    /// In a match: the game being played (from 1) and each player's wins.
    pub(super) game_no: u32,
    pub(super) match_wins: Vec<u32>,
    /// Who was active when this game of a match began (`match: starts`).
    pub(super) starter: PlayerIx,
    /// Decisions completed so far (not part of a position).
    pub(super) completed: u64,
}

impl State {
    /// A new game: setup run, advanced to the first decision; with what
    /// happened so far.
    pub fn new(game: &(impl Rules + ?Sized), seed: u64) -> Result<(State, Vec<Event>)> {
        State::start(game, seed, true, None, &mut |_| {})
    }

    /// `new`, showing `rest` each state at rest on the way (before a flow
    /// step, nothing pending: `State::position`).
    pub fn new_noting(
        game: &(impl Rules + ?Sized),
        seed: u64,
        rest: &mut impl FnMut(&State),
    ) -> Result<(State, Vec<Event>)> {
        State::start(game, seed, true, None, rest)
    }

    /// A new game that records no events (for playouts).
    // Out of line, as an anchor for tests/reference/where_time_goes.py
    // (fat LTO would inline it; one call of this size costs nothing seen).
    #[inline(never)]
    pub fn new_quiet(game: &(impl Rules + ?Sized), seed: u64) -> Result<State> {
        State::start(game, seed, false, None, &mut |_| {}).map(|(s, _)| s)
    }

    /// A new game whose setup takes `forced`'s draws instead of the RNG's
    /// (and every later draw, until `unforce`): see `Forced`.
    pub fn new_forced(game: &(impl Rules + ?Sized), forced: super::Forced) -> Result<State> {
        State::start(game, 0, false, Some(forced), &mut |_| {}).map(|(s, _)| s)
    }

    fn start(
        game: &(impl Rules + ?Sized),
        seed: u64,
        logging: bool,
        forced: Option<super::Forced>,
        rest: &mut impl FnMut(&State),
    ) -> Result<(State, Vec<Event>)> {
        let n = game.def().nplayers();
        let mut state = State {
            stats: Vec::new(),
            vars: Vec::new(),
            zones: Vec::new(),
            origins: Vec::new(),
            known: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            forced,
            unshuffled: Vec::new(),
            cursor: 0,
            turn: 0,
            active: 0,
            order: (0..n).collect(),
            pending: VecDeque::new(),
            reveal_first: None,
            outcome: None,
            end_reason: None,
            logging,
            game_no: 1,
            match_wins: vec![0; n],
            starter: 0,
            completed: 0,
        };
        let mut events = Vec::new();
        state.start_game(game, &mut events)?;
        state.advance_noting(game, &mut events, rest)?;
        if game.def().auto_forced {
            state.play_forced(game, &mut events, rest)?;
        }
        Ok((state, events))
    }

    #[inline]
    pub fn turn(&self) -> u32 {
        self.turn
    }
    /// The player whose turn it is (`turns: rotate`), or whom a hook set.
    #[inline]
    pub fn active(&self) -> PlayerIx {
        self.active
    }
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    /// Why the game ended, in the script's words (`end_game(winner,
    /// reason)`), or "turn limit"; None if it did not say. Shared: a copy
    /// costs no allocation.
    pub fn end_reason(&self) -> Option<&std::sync::Arc<str>> {
        self.end_reason.as_ref()
    }
    /// Each player's return at the end, when the game declares its payoff
    /// as a stat (`payoff:`); None before the end or without one.
    pub fn payoff(&self, game: &(impl super::AsDef + ?Sized)) -> Option<Vec<i64>> {
        let stat = game.def().payoff?;
        self.outcome?;
        Some(
            (0..game.def().nplayers())
                .map(|p| self.stat(game, p, stat))
                .collect(),
        )
    }
    #[inline]
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }
    /// Whether events are recorded (false in playouts).
    #[inline]
    pub fn logging(&self) -> bool {
        self.logging
    }
    /// Stop recording events: the state becomes a playout's.
    pub fn set_quiet(&mut self) {
        self.logging = false;
    }
    /// How many decisions have been completed (a decision a forced choice
    /// completed counts too).
    pub fn completed(&self) -> u64 {
        self.completed
    }
    /// In a match, the game being played (from 1).
    pub fn game_no(&self) -> u32 {
        self.game_no
    }
    /// In a match, each player's wins so far.
    pub fn match_wins(&self) -> &[u32] {
        &self.match_wins
    }
    /// The turn order (`turns: rotate`).
    #[inline]
    pub fn order(&self) -> &[PlayerIx] {
        &self.order
    }
    /// How far the RNG has been drawn (changes whenever chance happens).
    pub fn rng_position(&self) -> u128 {
        self.rng.get_word_pos()
    }
    /// Where chance stands (the RNG's place, or the forced draws'), to go
    /// back to: a replay that drew and then missed draws nothing.
    pub fn chance_mark(&self) -> ChanceMark {
        ChanceMark {
            rng: self.rng.get_word_pos(),
            forced: self.forced.as_ref().map(|f| (f.used, f.wanted)),
        }
    }
    /// Back to where chance stood at `mark`.
    pub fn restore_chance(&mut self, mark: ChanceMark) {
        self.rng.set_word_pos(mark.rng);
        if let (Some(f), Some((used, wanted))) = (&mut self.forced, mark.forced) {
            f.used = used;
            f.wanted = wanted;
        }
    }

    /// `player`'s stat `stat`. An index accessor for the engine's hot
    /// paths: both must be in range (`Error::check_player` checks a
    /// player index from outside); out of range it panics.
    #[inline]
    pub fn stat(&self, game: &(impl super::AsDef + ?Sized), player: PlayerIx, stat: usize) -> i64 {
        self.stats[player * game.def().stats.len() + stat]
    }
    #[inline]
    pub fn var(&self, var: usize) -> i64 {
        self.vars[var]
    }
    /// The cards of zone `zone`'s place of `owner` (any owner for a shared
    /// zone). An index accessor like `stat`: out of range it panics.
    #[inline]
    pub fn zone(
        &self,
        game: &(impl super::AsDef + ?Sized),
        zone: usize,
        owner: PlayerIx,
    ) -> &[CardIx] {
        &self.zones[game.def().slot(zone, owner)]
    }
    /// A zone's cards by slot (`Def::slot`).
    #[inline]
    pub fn slot(&self, slot: usize) -> &[CardIx] {
        &self.zones[slot]
    }
    /// A uniform draw in 0..n from the game's RNG (n > 0), or the next
    /// forced draw.
    pub fn random_below(&mut self, n: u64) -> u64 {
        match &mut self.forced {
            Some(f) => f.draw(n),
            None => super::below(&mut self.rng, n),
        }
    }
    /// Draw chance from a fresh RNG seeded with `seed` from now on (a
    /// search's sampled lines each their own; the key does not change).
    pub fn reseed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }
    /// Take `forced`'s draws from now on instead of the RNG's.
    pub fn force(&mut self, forced: super::Forced) {
        self.forced = Some(forced);
    }
    /// The forced draws, if any (their `wanted` says whether one more was
    /// asked for).
    pub fn forced(&self) -> Option<&super::Forced> {
        self.forced.as_ref()
    }
    /// Back to the RNG's draws.
    pub fn unforce(&mut self) {
        self.forced = None;
    }
    /// Where each card of a slot came from: a player, or None (also in a
    /// zone that does not record it).
    pub fn origins(&self, slot: usize) -> impl Iterator<Item = Option<PlayerIx>> + '_ {
        let by = self.origins.get(slot).map_or(&[][..], |v| v.as_slice());
        (0..self.zones[slot].len()).map(move |i| {
            by.get(i)
                .map(|&b| b & !FACE_DOWN)
                .filter(|&b| b > 0)
                .map(|b| b as PlayerIx - 1)
        })
    }
    /// Whether each card of a slot lies face down (never, in a zone that
    /// does not keep faces).
    pub fn face_down(&self, slot: usize) -> impl Iterator<Item = bool> + '_ {
        let by = self.origins.get(slot).map_or(&[][..], |v| v.as_slice());
        (0..self.zones[slot].len()).map(move |i| by.get(i).is_some_and(|b| b & FACE_DOWN != 0))
    }
    /// Whether the slot holds cards and records where they came from.
    #[inline]
    pub(super) fn records(&self, slot: usize) -> bool {
        self.origins
            .get(slot)
            .is_some_and(|o| !o.is_empty() && o.len() == self.zones[slot].len())
    }
    /// Shuffle a zone's slot with the game's RNG (where each card came from
    /// goes with it).
    pub fn shuffle_slot(&mut self, slot: usize) {
        let records = self.records(slot);
        let mut cards = std::mem::take(&mut self.zones[slot]);
        let mut by = if records {
            std::mem::take(&mut self.origins[slot])
        } else {
            Vec::new()
        };
        super::rng::shuffle_by(&mut |n| self.random_below(n), &mut cards, &mut by);
        self.zones[slot] = cards;
        // A shuffled pile's cards are no longer known where they lie.
        self.forget_known(slot);
        if !by.is_empty() {
            self.origins[slot] = by;
        }
    }

    /// A shuffle of a script or a setup step. While chance is enumerated
    /// (`Forced`), the order is drawn only when something looks at it
    /// (`settle`), so that a deal from the pile can draw which cards each
    /// player gets at once (`arrange_deal`); otherwise it is
    /// `shuffle_slot`.
    pub fn shuffle_later(&mut self, slot: usize) {
        self.forget_known(slot);
        if self.forced.is_some() && self.zones[slot].len() > 1 {
            if !self.unshuffled.contains(&(slot as u32)) {
                self.unshuffled.push(slot as u32);
            }
        } else {
            self.shuffle_slot(slot);
        }
    }
    /// Whether any pile's shuffle waits (`shuffle_later`).
    #[inline]
    pub fn any_waiting(&self) -> bool {
        !self.unshuffled.is_empty()
    }
    /// Whether `slot`'s shuffle waits (`shuffle_later`).
    #[inline]
    pub fn waits_shuffle(&self, slot: usize) -> bool {
        self.unshuffled.contains(&(slot as u32))
    }
    /// Draw the order of `slot` if its shuffle waits.
    pub fn settle(&mut self, slot: usize) {
        if let Some(i) = self.unshuffled.iter().position(|&s| s as usize == slot) {
            self.unshuffled.remove(i);
            self.shuffle_slot(slot);
        }
    }
    /// Draw the order of every slot whose shuffle waits (a hook's run is
    /// over: its position is to be complete), but for the piles of zones
    /// marked `unordered`: their order never matters, so they stay a set
    /// of cards whose order is drawn only when a later hook looks at it
    /// (two positions that differ only in it are one, `State::key`).
    pub fn settle_all(&mut self, game: &(impl super::AsDef + ?Sized)) {
        let def = game.def();
        let unordered = |s: u32| def.zones[def.zone_of_slot(s as usize)].unordered;
        while let Some(&s) = self.unshuffled.iter().find(|&&s| !unordered(s)) {
            self.settle(s as usize);
        }
    }

    /// The decision the game waits for, if not over.
    #[inline]
    pub fn decision(&self) -> Option<&Decision> {
        if self.outcome.is_some() {
            return None;
        }
        self.pending.front()
    }
    /// The first player who may choose now (no allocation: for playouts).
    #[inline]
    pub fn first_waiting(&self) -> Option<PlayerIx> {
        self.decision()?.waiting_now().next()
    }
    /// Players who may choose now.
    pub fn waiting(&self) -> Vec<PlayerIx> {
        self.decision().map(|d| d.waiting()).unwrap_or_default()
    }
    /// Whether `player` may choose now.
    #[inline]
    pub fn may_choose(&self, player: PlayerIx) -> bool {
        self.decision().is_some_and(|d| d.may_choose(player))
    }
    /// Legal choices of `player` now (empty when it is not their decision).
    #[inline]
    pub fn legal(&self, player: PlayerIx) -> &[Choice] {
        match self.decision() {
            Some(d) => d.options_now(player),
            None => &[],
        }
    }

    /// `player` makes `choice`, checked: it must be their decision and a
    /// legal choice. When it completes the decision, the choices are
    /// revealed and resolved. On error the state is unchanged.
    pub fn act(
        &mut self,
        game: &(impl Rules + ?Sized),
        player: PlayerIx,
        choice: Choice,
    ) -> Result<Vec<Event>> {
        self.act_noting(game, player, choice, &mut |_| {})
    }

    /// `act`, showing `rest` each state at rest on the way (before a flow
    /// step, nothing pending: `State::position`).
    pub fn act_noting(
        &mut self,
        game: &(impl Rules + ?Sized),
        player: PlayerIx,
        choice: Choice,
        rest: &mut impl FnMut(&State),
    ) -> Result<Vec<Event>> {
        Error::check_player(player, game.def().nplayers())?;
        let Some(d) = self.decision() else {
            return Err(Error::illegal(Illegal::Over, "the game is over"));
        };
        if !d.may_choose(player) {
            return Err(Error::illegal(
                Illegal::NotTheirs,
                format!("it is not {}'s decision now", game.def().players[player].id),
            ));
        }
        if !d.options_of(player).contains(&choice) {
            return Err(Error::illegal(
                Illegal::NotLegal,
                format!("`{}` is not a legal choice", choice.text(game)),
            ));
        }
        let mut work = self.clone();
        let mut events = work.apply_one(game, player, choice, rest)?;
        if game.def().auto_forced {
            work.play_forced(game, &mut events, rest)?;
        }
        *self = work;
        Ok(events)
    }

    /// `act` without the legality check and without keeping the state on a
    /// hook's error: for bots and simulation, which choose among the legal
    /// choices and drop a state whose hook failed. Skips the copy `act`
    /// makes. A player who has no part in the decision is refused; one who
    /// may not choose yet (an ordered reveal) is a debug assertion.
    pub fn apply_unchecked(
        &mut self,
        game: &(impl Rules + ?Sized),
        player: PlayerIx,
        choice: Choice,
    ) -> Result<Vec<Event>> {
        let mut events = self.apply_one(game, player, choice, &mut |_| {})?;
        if game.def().auto_forced {
            self.play_forced(game, &mut events, &mut |_| {})?;
        }
        Ok(events)
    }

    /// With `forced_moves: auto` (callers check it), play every choice that
    /// is the only one a waiting player has, until someone has a real
    /// choice or the game ends.
    pub(super) fn play_forced(
        &mut self,
        game: &(impl Rules + ?Sized),
        events: &mut Vec<Event>,
        rest: &mut impl FnMut(&State),
    ) -> Result<()> {
        loop {
            let Some(d) = self.decision() else {
                return Ok(());
            };
            let forced = d.waiting_now().find_map(|p| match d.options_of(p) {
                [one] => Some((p, one.clone())),
                _ => None,
            });
            let Some((player, choice)) = forced else {
                return Ok(());
            };
            if self.logging {
                events.push(Event::Forced {
                    player,
                    choice: choice.clone(),
                });
            }
            let more = self.apply_one(game, player, choice, rest)?;
            events.extend(more);
        }
    }

    /// One choice, and what follows until the next decision.
    #[inline(always)]
    fn apply_one(
        &mut self,
        game: &(impl Rules + ?Sized),
        player: PlayerIx,
        choice: Choice,
        rest: &mut impl FnMut(&State),
    ) -> Result<Vec<Event>> {
        let logging = self.logging;
        let Some(d) = self.pending.front_mut().filter(|_| self.outcome.is_none()) else {
            return Err(Error::illegal(Illegal::Over, "the game is over"));
        };
        // Playouts make millions of these: the full check (whose turn in an
        // ordered reveal, a legal choice) is `act`'s; here only in tests.
        let Some(i) = d.players.iter().position(|&p| p == player) else {
            Error::check_player(player, game.def().nplayers())?;
            return Err(Error::illegal(
                Illegal::NotTheirs,
                format!(
                    "{} has no part in this decision",
                    game.def().players[player].id
                ),
            ));
        };
        debug_assert!(d.may_choose(player), "a player who may not choose now");
        debug_assert!(d.options_of(player).contains(&choice), "an illegal choice");
        let mut events = Vec::new();
        if d.first == Some(player) && logging {
            events.push(Event::RevealedFirst {
                player,
                choice: choice.clone(),
            });
        }
        d.chosen[i] = Some(choice);
        if d.chosen.iter().all(Option::is_some) {
            let Some(d) = self.pending.pop_front() else {
                return Err(Error::illegal(Illegal::Over, "the game is over"));
            };
            self.completed += 1;
            if d.players.len() > 1 && logging && !d.secret {
                events.push(Event::Revealed {
                    choices: d
                        .players
                        .iter()
                        .copied()
                        .zip(d.chosen.iter().flatten().cloned())
                        .collect(),
                });
            }
            self.run(
                game,
                &mut events,
                &d.then,
                Args::Choices(&d.players, &d.chosen, &d.data),
            )?;
            self.advance_noting(game, &mut events, rest)?;
        }
        Ok(events)
    }

    /// Call a hook on this state, through the game's hooks. On error the
    /// state is unspecified: callers work on a copy and drop it.
    pub(super) fn run(
        &mut self,
        game: &(impl Rules + ?Sized),
        events: &mut Vec<Event>,
        hook: &str,
        args: Args,
    ) -> Result<()> {
        let turn = self.turn;
        let call = Call { hook, args };
        game.hooks().run(self, &call, events).map_err(|e| {
            let e = e.note(format!("during turn {turn}"));
            let def = game.def();
            match args {
                Args::Choices(players, chosen, _) => {
                    let what: Vec<String> = players
                        .iter()
                        .zip(chosen.iter())
                        .filter_map(|(p, c)| {
                            c.as_ref()
                                .map(|c| format!("{}: {}", def.players[*p].id, c.text(def)))
                        })
                        .collect();
                    e.note(format!("resolving {{{}}}", what.join(", ")))
                }
                Args::Face(f) => e.note(format!("resolving the roll `{f}`")),
                Args::Number(n) => e.note(format!("resolving the roll `{n}`")),
                Args::None => e,
            }
        })
    }
}

impl State {
    /// About how many bytes the state holds, itself and what it points
    /// to (its decisions' shared asks not counted): for a cache that
    /// keeps positions within a budget.
    pub fn footprint(&self) -> usize {
        use std::mem::size_of;
        fn nested<T>(v: &[Vec<T>]) -> usize {
            v.iter()
                .map(|x| size_of::<Vec<T>>() + x.capacity() * size_of::<T>())
                .sum()
        }
        size_of::<State>()
            + (self.stats.capacity() + self.vars.capacity()) * size_of::<i64>()
            + nested(&self.zones)
            + nested(&self.origins)
            + nested(&self.known)
            + self.unshuffled.capacity() * size_of::<u32>()
            + self.order.capacity() * size_of::<PlayerIx>()
            + self.pending.capacity() * size_of::<super::Decision>()
            + self.match_wins.capacity() * size_of::<u32>()
    }
}
