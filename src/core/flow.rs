//! The flow: setup, then the turn's steps (decisions, rolls, hooks) until
//! a decision is pending or the game is over; matches of several games.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use smallvec::SmallVec;

use super::decision::are_cards;
use super::ops::distinct;
use super::{Args, Ask, Choice, Choices, Decision, Event, Outcome, Rules, State};
use crate::definition::format::{FaceValue, Starts, TurnKind};
use crate::definition::{CardIx, Options, PlayerIx, Setup, Step, Who};
use crate::error::{Error, ErrorKind, Result};

/// The end reason of a game stopped by `max_turns`.
static TURN_LIMIT: std::sync::LazyLock<std::sync::Arc<str>> =
    std::sync::LazyLock::new(|| "turn limit".into());

impl State {
    /// Reset everything but the RNG, the match score and what the match
    /// keeps, and run setup.
    pub(super) fn start_game(
        &mut self,
        game: &(impl Rules + ?Sized),
        events: &mut Vec<Event>,
    ) -> Result<()> {
        let def = game.def();
        let n = def.nplayers();
        let kept = (self.game_no > 1).then(|| self.kept(game));
        self.stats = vec![0; n * def.stats.len()];
        for (s, stat) in def.stats.iter().enumerate() {
            for p in 0..n {
                self.stats[p * def.stats.len() + s] = stat.start[p];
            }
        }
        self.vars = def.vars.iter().map(|v| v.start).collect();
        self.zones = vec![Vec::new(); def.slots];
        self.known = Vec::new();
        self.origins = if def.zones.iter().any(|z| z.records()) {
            vec![Vec::new(); def.slots]
        } else {
            Vec::new()
        };
        self.cursor = 0;
        self.turn = 0;
        self.active = self.starter;
        self.order = (0..n).collect();
        self.pending.clear();
        self.reveal_first = None;
        self.outcome = None;
        self.end_reason = None;
        if let Some(k) = kept {
            self.restore(k);
        }
        for step in &def.setup {
            match step {
                Setup::Put { zone, cards, cell } => {
                    for p in def.owners(*zone).filter(|p| cell.is_none_or(|c| c == *p)) {
                        let slot = def.slot(*zone, p);
                        self.settle(slot);
                        self.zones[slot].extend_from_slice(cards);
                        if let Some(b) = def.zones[*zone].entry(0) {
                            self.origins[slot].resize(self.zones[slot].len(), b);
                        }
                    }
                }
                Setup::Shuffle { zone } => {
                    for p in def.owners(*zone) {
                        let slot = def.slot(*zone, p);
                        // A setup hook may deal from it (`shuffle_later`).
                        self.shuffle_later(slot);
                    }
                }
                Setup::RandomOrder => {
                    let mut order: Vec<CardIx> = (0..n as CardIx).collect();
                    super::rng::shuffle_by(&mut |k| self.random_below(k), &mut order, &mut []);
                    self.order = order.into_iter().map(|p| p as PlayerIx).collect();
                    self.active = self.order[0];
                }
                Setup::Hook { name } => self.run(game, events, name, Args::None)?,
            }
        }
        self.settle_all(game);
        self.turn = 1;
        if self.logging {
            events.push(Event::Turn { turn: 1 });
        }
        Ok(())
    }

    /// What the match keeps (`match: keep`) of the game that just ended:
    /// the kept stats' values, vars' values and zones' slots.
    fn kept(&mut self, game: &(impl Rules + ?Sized)) -> Kept {
        let def = game.def();
        let k = &def.match_keep;
        let ns = def.stats.len();
        let stats = k
            .stats
            .iter()
            .flat_map(|&s| (0..def.nplayers()).map(move |p| p * ns + s))
            .map(|i| (i, self.stats[i]))
            .collect();
        let vars = k.vars.iter().map(|&v| (v, self.vars[v])).collect();
        let mut slots = Vec::new();
        for &z in &k.zones {
            for p in def.owners(z) {
                let slot = def.slot(z, p);
                self.settle(slot);
                let origins = self.origins.get_mut(slot).map(std::mem::take);
                slots.push((slot, std::mem::take(&mut self.zones[slot]), origins));
            }
        }
        Kept { stats, vars, slots }
    }

    fn restore(&mut self, k: Kept) {
        for (i, v) in k.stats {
            self.stats[i] = v;
        }
        for (i, v) in k.vars {
            self.vars[i] = v;
        }
        for (slot, cards, origins) in k.slots {
            self.zones[slot] = cards;
            if let Some(o) = origins {
                self.origins[slot] = o;
            }
        }
    }

    /// In a match, a game's end scores it and starts the next one, until
    /// someone has the wins needed (drawn games are replayed).
    fn settle_match(
        &mut self,
        game: &(impl Rules + ?Sized),
        events: &mut Vec<Event>,
    ) -> Result<bool> {
        let def = game.def();
        let (Some(need), Some(result)) = (def.match_wins, self.outcome) else {
            return Ok(false);
        };
        let winner = match result {
            Outcome::Win(p) => {
                self.match_wins[p] += 1;
                Some(p)
            }
            Outcome::Draw => None,
        };
        events.push(Event::MatchGameOver {
            game_no: self.game_no,
            winner,
            score: self.match_wins.clone(),
        });
        if let Some(p) = winner
            && self.match_wins[p] >= need
        {
            events.push(Event::MatchWon { player: p });
            return Ok(false);
        }
        if self.game_no >= def.match_max_games {
            self.outcome = Some(Outcome::Draw);
            events.push(Event::MatchDrawn {
                games: self.game_no,
            });
            return Ok(false);
        }
        let n = def.nplayers();
        self.starter = match def.match_starts {
            Starts::First => 0,
            // A drawn game is replayed: the same player starts again.
            Starts::Winner => winner.unwrap_or(self.starter),
            Starts::Loser => winner.map_or(self.starter, |w| (w + 1) % n),
            Starts::Next => (self.starter + 1) % n,
        };
        self.game_no += 1;
        events.push(Event::GameBegins {
            game_no: self.game_no,
        });
        self.start_game(game, events)?;
        Ok(true)
    }

    /// Run flow steps until a decision is pending or the game is over.
    #[inline]
    pub(super) fn advance(
        &mut self,
        game: &(impl Rules + ?Sized),
        events: &mut Vec<Event>,
    ) -> Result<()> {
        self.advance_noting(game, events, &mut |_| {})
    }

    /// `advance`, showing `rest` the state each time it is at rest before
    /// a flow step (nothing pending): a position (`State::position`).
    pub(super) fn advance_noting(
        &mut self,
        game: &(impl Rules + ?Sized),
        events: &mut Vec<Event>,
        rest: &mut impl FnMut(&State),
    ) -> Result<()> {
        loop {
            self.advance_game(game, events, rest)?;
            if !self.settle_match(game, events)? {
                return Ok(());
            }
        }
    }

    fn advance_game(
        &mut self,
        game: &(impl Rules + ?Sized),
        events: &mut Vec<Event>,
        rest: &mut impl FnMut(&State),
    ) -> Result<()> {
        let def = game.def();
        let mut ran = 0;
        while self.outcome.is_none() && self.pending.is_empty() {
            if def.flow.is_empty() {
                return Err(Error::new(ErrorKind::Invalid, "the flow has no steps"));
            }
            if ran > 2 * def.flow.len() + 2 {
                return Err(Error::new(
                    ErrorKind::Runtime,
                    "the flow ran a whole turn without a decision and without ending the game",
                ));
            }
            ran += 1;
            if self.cursor == def.flow.len() {
                // A new turn starts when its first step runs.
                self.cursor = 0;
                if def.max_turns.is_some_and(|m| i64::from(self.turn) >= m) {
                    self.outcome = Some(Outcome::Draw);
                    self.end_reason = Some(TURN_LIMIT.clone());
                    if self.logging {
                        events.push(Event::TurnLimit { turns: self.turn });
                    }
                    break;
                }
                self.turn += 1;
                if self.logging {
                    events.push(Event::Turn { turn: self.turn });
                }
                if def.turns == TurnKind::Rotate {
                    let at = self
                        .order
                        .iter()
                        .position(|&p| p == self.active)
                        .unwrap_or(0);
                    self.active = self.order[(at + 1) % self.order.len()];
                }
            }
            rest(self);
            let step = &def.flow[self.cursor];
            self.cursor += 1;
            match step {
                Step::Decide {
                    who, simultaneous, ..
                } => {
                    let mut players: SmallVec<[PlayerIx; 4]> = SmallVec::new();
                    match who {
                        Who::All => (0..def.nplayers()).for_each(|p| players.push(p)),
                        Who::Active => players.push(self.active),
                        Who::Player(p) => players.push(*p),
                    }
                    // One decision for all, or one each in turn.
                    let size = if *simultaneous { players.len() } else { 1 };
                    for group in players.chunks(size.max(1)) {
                        let ask = self.declared_ask(game, self.cursor - 1, step, group)?;
                        self.push_decision(Decision::new(ask));
                    }
                }
                Step::Roll { die, then, set } => {
                    let d = &def.dice[*die];
                    let i = self.random_below(d.faces.len() as u64) as usize;
                    if self.logging {
                        events.push(Event::Rolled {
                            by: (def.turns == TurnKind::Rotate).then_some(self.active),
                            die: *die,
                            face: i,
                        });
                    }
                    if let Some(v) = set {
                        // A number's face itself; a word's index.
                        self.vars[*v] = match d.values[i] {
                            FaceValue::Number(n) => n,
                            FaceValue::Word(_) => i as i64,
                        };
                    }
                    if let Some(then) = then {
                        let args = match &d.values[i] {
                            FaceValue::Number(n) => Args::Number(*n),
                            FaceValue::Word(w) => Args::Face(w),
                        };
                        self.run(game, events, then, args)?;
                    }
                }
                Step::Hook { name } => {
                    self.run(game, events, name, Args::None)?;
                }
            }
        }
        Ok(())
    }

    pub(super) fn push_decision(&mut self, mut d: Decision) {
        if d.players.len() > 1
            && let Some(f) = self.reveal_first.take()
            && d.players.contains(&f)
        {
            d.first = Some(f);
        }
        self.pending.push_back(d);
    }

    /// The ask of declared decision step `at` for `group`. Asks are shared
    /// from the game's ask cache (if any): the same step, deciders and cards give the
    /// same ask, so playouts do not rebuild (and free) one every turn.
    fn declared_ask(
        &self,
        game: &(impl Rules + ?Sized),
        at: usize,
        step: &Step,
        group: &[PlayerIx],
    ) -> Result<Arc<Ask>> {
        let Step::Decide {
            name,
            options,
            then,
            prompt,
            secret,
            pick,
            ..
        } = step
        else {
            return Err(Error::new(ErrorKind::Invalid, "not a decision step"));
        };
        // Each decider's distinct cards, in card order.
        let mut lists: SmallVec<[SmallVec<[CardIx; 16]>; 2]> = SmallVec::new();
        if let Options::Zone(z) = options {
            for &p in group {
                let cs: SmallVec<[CardIx; 16]> = distinct(self.zone(game, *z, p));
                if cs.is_empty() {
                    return Err(Error::new(
                        ErrorKind::Runtime,
                        format!(
                            "decision `{name}` on turn {}: {} has no legal choice",
                            self.turn,
                            game.def().players[p].id
                        ),
                    ));
                }
                if let Some(pick) = pick {
                    too_few_to_pick(game.def(), self.turn, name, *z, p, cs.len(), *pick)?;
                }
                lists.push(cs);
            }
        }
        let mut h = rustc_hash::FxHasher::default();
        (at, group, &lists).hash(&mut h);
        let key = h.finish();
        let def = game.def();
        let same = |ask: &Ask| {
            ask.players[..] == *group
                && (lists.is_empty()
                    || ask.options.iter().zip(&lists).all(|(o, l)| match pick {
                        None => are_cards(o, l),
                        Some(pick) => super::pick::is_of_cards(def, o, l, *pick),
                    }))
        };
        let cache = game.asks();
        let build = || {
            let mut opts: SmallVec<[Choices; 2]> = SmallVec::new();
            match options {
                Options::Zone(_) => {
                    for l in &lists {
                        opts.push(match (pick, cache) {
                            (Some(pick), _) => super::pick::of_cards(def, l, *pick),
                            (None, Some(cache)) => cache.choices(l),
                            (None, None) => l.iter().map(|&c| Choice::Card(c)).collect(),
                        });
                    }
                }
                Options::Words(w) => {
                    let words: Choices = match pick {
                        Some(pick) => {
                            let w: Vec<Arc<str>> = w.iter().map(|w| w.as_str().into()).collect();
                            super::pick::of_texts(&w, *pick)
                        }
                        None => w.iter().map(|w| Choice::Word(w.as_str().into())).collect(),
                    };
                    for _ in group {
                        opts.push(words.clone());
                    }
                }
            }
            Ok(Arc::new(Ask {
                name: name.clone(),
                prompt: prompt.clone(),
                players: SmallVec::from_slice(group),
                options: opts,
                then: then.clone(),
                labels: Vec::new(),
                data: super::Value::Unit,
                secret: *secret,
                pick: *pick,
            }))
        };
        match cache {
            Some(cache) => cache.get_or_build(key, at, same, build),
            None => build(),
        }
    }
}

/// A runtime error when `player` holds fewer distinct cards in zone `z`
/// than a flow step's `pick` asks for, or so many that its choices pass
/// the most a decision may offer.
fn too_few_to_pick(
    def: &crate::definition::Def,
    turn: u32,
    name: &str,
    z: usize,
    player: PlayerIx,
    n: usize,
    pick: crate::definition::Pick,
) -> Result<()> {
    let who = &def.players[player].id;
    let zone = &def.zones[z].id;
    let k = pick.k as usize;
    if n < k {
        return Err(Error::new(
            ErrorKind::Runtime,
            format!(
                "decision `{name}` on turn {turn}: {who} has {n} distinct card(s) in `{zone}`, fewer than the {k} to pick (`pick: {k}`): no choice can be made"
            ),
        ));
    }
    let many = super::pick::count(n, k, pick.ordered);
    if many > super::pick::MAX_CHOICES as u128 {
        return Err(Error::new(
            ErrorKind::Runtime,
            format!(
                "decision `{name}` on turn {turn}: picking {k} of {who}'s {n} cards in `{zone}`{} makes {many} choices, more than the {} a decision may offer",
                if pick.ordered { " in order" } else { "" },
                super::pick::MAX_CHOICES
            ),
        ));
    }
    Ok(())
}

/// What a match carries into its next game: flat stat indices, var
/// indices and slots, with their values and cards.
struct Kept {
    stats: Vec<(usize, i64)>,
    vars: Vec<(usize, i64)>,
    slots: Vec<(usize, Vec<CardIx>, Option<Vec<u8>>)>,
}
