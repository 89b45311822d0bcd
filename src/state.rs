//! A game in progress. It always rests at a decision (one or several players
//! to choose) or at the end; chance is drawn from its own seeded RNG while the
//! flow advances, so seed + moves reproduce a game.

use std::collections::VecDeque;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use smallvec::SmallVec;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use rhai::{Dynamic, Map};

use crate::error::{Error, ErrorKind, Result};
use crate::format::TurnKind;
use crate::game::{CardIx, Game, Options, PlayerIx, Setup, Step, Who};
use crate::memo;

/// One thing a player can choose: a card, or a word (`pass`, `back`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Choice {
    Card(CardIx),
    /// Shared: decisions are cloned often in playouts.
    Word(Rc<str>),
}

impl Choice {
    pub fn text<'a>(&'a self, game: &'a Game) -> &'a str {
        match self {
            Choice::Card(c) => &game.def.cards[*c as usize].id,
            Choice::Word(w) => w,
        }
    }
    fn to_dynamic(&self, game: &Game) -> Dynamic {
        match self {
            Choice::Card(c) => game.def.cards[*c as usize].key.clone().into(),
            Choice::Word(w) => w.to_string().into(),
        }
    }
}

/// What a decision asks. Shared: a recorded ask is replayed (cloned into
/// the state) in every playout that reaches it.
#[derive(Debug, PartialEq)]
pub struct Ask {
    pub name: Rc<str>,
    pub prompt: Rc<str>,
    /// Who decides; several players decide simultaneously.
    pub players: Vec<PlayerIx>,
    /// Each decider's legal choices, by position in `players`.
    pub options: Vec<Vec<Choice>>,
    /// The script function that receives the choices.
    pub then: Rc<str>,
}

/// A decision the game waits for: the ask, and the choices made so far.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub ask: Rc<Ask>,
    pub chosen: Vec<Option<Choice>>,
    /// Must choose and reveal before the others (an ordered reveal).
    pub first: Option<PlayerIx>,
}

impl std::ops::Deref for Decision {
    type Target = Ask;
    fn deref(&self) -> &Ask {
        &self.ask
    }
}

impl Decision {
    pub fn new(ask: Rc<Ask>) -> Decision {
        Decision {
            chosen: vec![None; ask.players.len()],
            ask,
            first: None,
        }
    }

    /// The players who may choose now, in seat order: in an ordered reveal
    /// the one who reveals first until they have chosen, else everyone who
    /// has not chosen yet. The one statement of that rule.
    fn waiting_now(&self) -> impl Iterator<Item = PlayerIx> + '_ {
        let undecided = || {
            self.players
                .iter()
                .zip(&self.chosen)
                .filter(|(_, c)| c.is_none())
                .map(|(&p, _)| p)
        };
        let first = self.first.filter(|&f| undecided().any(|p| p == f));
        undecided().filter(move |&p| first.is_none_or(|f| f == p))
    }
    /// The players who may choose now.
    pub fn waiting(&self) -> Vec<PlayerIx> {
        self.waiting_now().collect()
    }
    /// Whether `player` may choose now (`waiting` without the allocation).
    pub fn may_choose(&self, player: PlayerIx) -> bool {
        self.waiting_now().any(|p| p == player)
    }

    pub fn options_of(&self, player: PlayerIx) -> &[Choice] {
        match self.players.iter().position(|&p| p == player) {
            Some(i) => &self.options[i],
            None => &[],
        }
    }
    /// A choice already made that `viewer` may see: their own, or one
    /// revealed first.
    pub fn visible_choice(&self, player: PlayerIx, viewer: Option<PlayerIx>) -> Option<&Choice> {
        let i = self.players.iter().position(|&p| p == player)?;
        let c = self.chosen[i].as_ref()?;
        (viewer == Some(player) || self.first == Some(player)).then_some(c)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Outcome {
    Win(PlayerIx),
    Draw,
}

/// A line of the game's log. `to: None` is seen by everyone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub to: Option<PlayerIx>,
    pub text: String,
}

#[derive(Debug, Clone)]
pub struct State {
    /// Per-player stats, `player * nstats + stat`.
    pub(crate) stats: Vec<i64>,
    pub(crate) vars: Vec<i64>,
    /// Card zones by slot (see `Def::slot`); the top of a pile is its end.
    pub(crate) zones: Vec<Vec<CardIx>>,
    pub(crate) rng: ChaCha8Rng,
    /// Next flow step to run.
    pub(crate) cursor: usize,
    pub turn: u32,
    pub active: PlayerIx,
    /// Turn order for `turns: rotate` (default: seat order).
    pub(crate) order: Vec<PlayerIx>,
    pub(crate) pending: VecDeque<Decision>,
    /// The next simultaneous decision is ordered: this player reveals first.
    pub(crate) reveal_first: Option<PlayerIx>,
    pub outcome: Option<Outcome>,
    /// No log lines (scripts may ask `logging()` to skip building them):
    /// for bots' and simulations' playouts.
    pub quiet: bool,
    /// In a match: the game being played (from 1) and each player's wins.
    pub game_no: u32,
    pub match_wins: Vec<u32>,
}

/// Uniform integer in 0..n from the RNG (rejection sampling, so unbiased and
/// stable across versions). `n` must be > 0.
pub fn below(rng: &mut ChaCha8Rng, n: u64) -> u64 {
    let zone = u64::MAX - (u64::MAX % n);
    loop {
        let x = rng.next_u64();
        if x < zone {
            return x % n;
        }
    }
}

pub(crate) fn shuffle(rng: &mut ChaCha8Rng, cards: &mut [CardIx]) {
    for i in (1..cards.len()).rev() {
        let j = below(rng, i as u64 + 1) as usize;
        cards.swap(i, j);
    }
}

impl State {
    /// A new game: setup run, advanced to the first decision.
    pub fn new(game: &Game, seed: u64) -> Result<(State, Vec<Event>)> {
        State::start(game, seed, false)
    }

    /// A new game that writes no log (for playouts).
    pub fn new_quiet(game: &Game, seed: u64) -> Result<State> {
        State::start(game, seed, true).map(|(s, _)| s)
    }

    fn start(game: &Game, seed: u64, quiet: bool) -> Result<(State, Vec<Event>)> {
        let mut state = State {
            stats: Vec::new(),
            vars: Vec::new(),
            zones: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            cursor: 0,
            turn: 0,
            active: 0,
            order: (0..game.def.nplayers()).collect(),
            pending: VecDeque::new(),
            reveal_first: None,
            outcome: None,
            quiet,
            game_no: 1,
            match_wins: vec![0; game.def.nplayers()],
        };
        let mut events = Vec::new();
        state.start_game(game, &mut events)?;
        state.advance(game, &mut events)?;
        Ok((state, events))
    }

    /// Reset everything but the RNG and the match score, and run setup.
    fn start_game(&mut self, game: &Game, events: &mut Vec<Event>) -> Result<()> {
        let def = &game.def;
        let n = def.nplayers();
        self.stats = vec![0; n * def.stats.len()];
        for (s, stat) in def.stats.iter().enumerate() {
            for p in 0..n {
                self.stats[p * def.stats.len() + s] = stat.start[p];
            }
        }
        self.vars = def.vars.iter().map(|v| v.start).collect();
        self.zones = vec![Vec::new(); def.slots];
        self.cursor = 0;
        self.turn = 0;
        self.active = 0;
        self.order = (0..n).collect();
        self.pending.clear();
        self.reveal_first = None;
        self.outcome = None;
        for step in &def.setup {
            match step {
                Setup::Put { zone, cards } => {
                    for p in def.owners(*zone) {
                        let slot = def.slot(*zone, p);
                        self.zones[slot].extend_from_slice(cards);
                    }
                }
                Setup::Shuffle { zone } => {
                    for p in def.owners(*zone) {
                        let slot = def.slot(*zone, p);
                        shuffle(&mut self.rng, &mut self.zones[slot]);
                    }
                }
                Setup::RandomOrder => {
                    let mut order: Vec<CardIx> = (0..n as CardIx).collect();
                    shuffle(&mut self.rng, &mut order);
                    self.order = order.into_iter().map(|p| p as PlayerIx).collect();
                    self.active = self.order[0];
                }
                Setup::Hook { name } => self.run(game, events, name, Args::None)?,
            }
        }
        self.turn = 1;
        Ok(())
    }

    /// In a match, a game's end scores it and starts the next one, until
    /// someone has the wins needed (drawn games are replayed).
    fn settle_match(&mut self, game: &Game, events: &mut Vec<Event>) -> Result<bool> {
        let def = &game.def;
        let (Some(need), Some(result)) = (def.match_wins, self.outcome) else {
            return Ok(false);
        };
        let said = match result {
            Outcome::Win(p) => {
                self.match_wins[p] += 1;
                format!("{} wins game {}", def.players[p].name, self.game_no)
            }
            Outcome::Draw => format!("Game {} is a draw and is replayed", self.game_no),
        };
        let score: Vec<String> = def
            .players
            .iter()
            .zip(&self.match_wins)
            .map(|(p, w)| format!("{} {w}", p.name))
            .collect();
        events.push(Event {
            to: None,
            text: format!("{said}. Match: {}.", score.join(", ")),
        });
        if let Outcome::Win(p) = result
            && self.match_wins[p] >= need
        {
            events.push(Event {
                to: None,
                text: format!("{} wins the match.", def.players[p].name),
            });
            return Ok(false);
        }
        if self.game_no >= def.match_max_games {
            self.outcome = Some(Outcome::Draw);
            events.push(Event {
                to: None,
                text: format!("No match winner after {} games: a draw.", self.game_no),
            });
            return Ok(false);
        }
        self.game_no += 1;
        events.push(Event {
            to: None,
            text: format!("Game {} begins.", self.game_no),
        });
        self.start_game(game, events)?;
        Ok(true)
    }

    pub fn stat(&self, game: &Game, player: PlayerIx, stat: usize) -> i64 {
        self.stats[player * game.def.stats.len() + stat]
    }
    pub fn var(&self, var: usize) -> i64 {
        self.vars[var]
    }
    pub fn zone(&self, game: &Game, zone: usize, owner: PlayerIx) -> &[CardIx] {
        &self.zones[game.def.slot(zone, owner)]
    }
    /// Set a stat by ids: for scenarios and tools that start from a position.
    pub fn set_stat(&mut self, game: &Game, player: &str, stat: &str, value: i64) -> Result<()> {
        let def = &game.def;
        let (Some(p), Some(s)) = (def.player(player), def.stat(stat)) else {
            return Err(Error::usage(format!(
                "no player `{player}` or no stat `{stat}`"
            )));
        };
        self.stats[p * def.stats.len() + s] = value;
        Ok(())
    }
    /// Replace a zone's cards by ids (for scenarios that start from a
    /// position). `owner` is ignored for a shared zone.
    pub fn set_zone(&mut self, game: &Game, owner: &str, zone: &str, cards: &[&str]) -> Result<()> {
        let def = &game.def;
        let Some(z) = def.zone(zone) else {
            return Err(Error::usage(format!("no zone `{zone}`")));
        };
        let p = match def.zones[z].per {
            crate::format::Per::Game => 0,
            crate::format::Per::Player => def
                .player(owner)
                .ok_or_else(|| Error::usage(format!("no player `{owner}`")))?,
        };
        let mut ixs = Vec::new();
        for c in cards {
            ixs.push(
                def.card(c)
                    .ok_or_else(|| Error::usage(format!("no card `{c}`")))?,
            );
        }
        let slot = def.slot(z, p);
        self.zones[slot] = ixs;
        Ok(())
    }

    /// Set a game-wide var by id (for scenarios).
    pub fn set_var(&mut self, game: &Game, var: &str, value: i64) -> Result<()> {
        let i = game
            .def
            .var(var)
            .ok_or_else(|| Error::usage(format!("no var `{var}`")))?;
        self.vars[i] = value;
        Ok(())
    }

    /// Card ids in a zone.
    pub fn zone_ids(&self, game: &Game, owner: &str, zone: &str) -> Vec<String> {
        let def = &game.def;
        let (Some(z), p) = (def.zone(zone), def.player(owner).unwrap_or(0)) else {
            return Vec::new();
        };
        self.zone(game, z, p)
            .iter()
            .map(|&c| def.cards[c as usize].id.clone())
            .collect()
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }
    /// The turn order (`turns: rotate`).
    pub fn order(&self) -> &[PlayerIx] {
        &self.order
    }

    /// The decision the game waits for, if not over.
    pub fn decision(&self) -> Option<&Decision> {
        if self.outcome.is_some() {
            return None;
        }
        self.pending.front()
    }
    /// The first player who may choose now (no allocation: for playouts).
    pub fn first_waiting(&self) -> Option<PlayerIx> {
        self.decision()?.waiting_now().next()
    }

    /// Players who may choose now.
    pub fn waiting(&self) -> Vec<PlayerIx> {
        self.decision().map(|d| d.waiting()).unwrap_or_default()
    }
    /// Legal choices of `player` now (empty when it is not their decision).
    pub fn legal(&self, player: PlayerIx) -> &[Choice] {
        match self.decision() {
            Some(d) if d.may_choose(player) => d.options_of(player),
            _ => &[],
        }
    }

    /// Parse a typed action for `player`: a card id or alias, or a word, or
    /// an unambiguous prefix of one of the legal choices.
    pub fn parse(&self, game: &Game, player: PlayerIx, text: &str) -> Result<Choice> {
        let text = text.trim();
        let legal = self.legal(player);
        let names = || {
            legal
                .iter()
                .map(|c| c.text(game).to_string())
                .collect::<Vec<_>>()
        };
        let illegal = |msg: String| {
            Error::new(ErrorKind::Move, msg).note(format!("legal: {}", names().join(", ")))
        };
        if legal.is_empty() {
            return Err(Error::new(
                ErrorKind::Move,
                format!(
                    "{} has no decision to make now",
                    game.def.players[player].id
                ),
            ));
        }
        let exact = legal.iter().find(|c| match c {
            Choice::Card(ix) => game.def.card(text) == Some(*ix),
            Choice::Word(w) => &**w == text,
        });
        if let Some(c) = exact {
            return Ok(c.clone());
        }
        if game.def.card(text).is_some() {
            return Err(illegal(format!("`{text}` is not playable now")));
        }
        // An unambiguous prefix of a legal choice's id or of one of its aliases.
        fn words<'a>(game: &'a Game, c: &'a Choice) -> Vec<&'a str> {
            match c {
                Choice::Card(ix) => {
                    let card = &game.def.cards[*ix as usize];
                    std::iter::once(card.id.as_str())
                        .chain(card.aliases.iter().map(String::as_str))
                        .collect()
                }
                Choice::Word(w) => vec![&**w],
            }
        }
        let prefixed: Vec<&Choice> = legal
            .iter()
            .filter(|c| !text.is_empty() && words(game, c).iter().any(|w| w.starts_with(text)))
            .collect();
        match prefixed.as_slice() {
            [one] => Ok((*one).clone()),
            [] => {
                let mut e = illegal(format!("`{text}` is not a legal choice"));
                let all = names();
                if let Some(hint) = crate::error::did_you_mean(text, all.iter().map(|s| s.as_str()))
                {
                    e = e.note(hint);
                }
                Err(e)
            }
            many => Err(illegal(format!(
                "`{text}` is ambiguous: {}",
                many.iter()
                    .map(|c| c.text(game))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }

    /// `player` makes `choice`. When it completes the decision, the choices
    /// are revealed and resolved. On error the state is unchanged.
    pub fn act(&mut self, game: &Game, player: PlayerIx, choice: Choice) -> Result<Vec<Event>> {
        let Some(d) = self.decision() else {
            return Err(Error::new(ErrorKind::Move, "the game is over"));
        };
        if !d.may_choose(player) {
            return Err(Error::new(
                ErrorKind::Move,
                format!("it is not {}'s decision now", game.def.players[player].id),
            ));
        }
        if !d.options_of(player).contains(&choice) {
            return Err(Error::new(
                ErrorKind::Move,
                format!("`{}` is not a legal choice", choice.text(game)),
            ));
        }
        let mut work = self.clone();
        let events = work.apply(game, player, choice)?;
        *self = work;
        Ok(events)
    }

    /// `act` for a legal choice, without keeping the state on error: for
    /// bots and simulation, which drop a state whose hook failed. Skips the
    /// copy `act` makes.
    pub fn apply(&mut self, game: &Game, player: PlayerIx, choice: Choice) -> Result<Vec<Event>> {
        let mut events = Vec::new();
        let quiet = self.quiet;
        let Some(d) = self.pending.front_mut() else {
            return Err(Error::new(ErrorKind::Move, "the game is over"));
        };
        let i = d.players.iter().position(|&p| p == player).unwrap_or(0);
        d.chosen[i] = Some(choice);
        if d.first == Some(player) && !quiet {
            events.push(Event {
                to: None,
                text: format!(
                    "{} reveals {} first",
                    game.def.players[player].name,
                    d.chosen[i]
                        .as_ref()
                        .map(|c| choice_name(game, c, Some(player)))
                        .unwrap_or_default()
                ),
            });
        }
        if d.chosen.iter().all(Option::is_some) {
            let Some(d) = self.pending.pop_front() else {
                return Err(Error::new(ErrorKind::Move, "the game is over"));
            };
            if d.players.len() > 1 && !quiet {
                let shown: Vec<String> = d
                    .players
                    .iter()
                    .zip(d.chosen.iter().flatten())
                    .map(|(p, c)| {
                        format!(
                            "{} {}",
                            game.def.players[*p].name,
                            choice_name(game, c, Some(*p))
                        )
                    })
                    .collect();
                events.push(Event {
                    to: None,
                    text: format!("revealed: {}", shown.join(", ")),
                });
            }
            self.run(
                game,
                &mut events,
                &d.then,
                Args::Choices(&d.players, &d.chosen),
            )?;
            self.advance(game, &mut events)?;
        }
        Ok(events)
    }

    /// Call a hook on this state. On error the state is garbage: callers
    /// work on a copy and drop it. Quiet states replay recorded runs of the
    /// hook when they can (see memo.rs).
    pub(crate) fn run(
        &mut self,
        game: &Game,
        events: &mut Vec<Event>,
        name: &str,
        args: Args,
    ) -> Result<()> {
        let record = self.quiet && game.memo.borrow().enabled(name);
        if record && game.memo.borrow_mut().replay(name, &args, self) {
            return Ok(());
        }
        let turn = self.turn;
        let taken = std::mem::replace(self, placeholder(self));
        let (state, r, trace) = match &args {
            Args::None => game.script.call(&game.def, taken, events, name, (), record),
            Args::Face(f) => game
                .script
                .call(&game.def, taken, events, name, (f.clone(),), record),
            Args::Choices(players, chosen) => {
                let mut map = Map::new();
                for (p, c) in players.iter().zip(chosen.iter().flatten()) {
                    map.insert(game.def.players[*p].key.clone().into(), c.to_dynamic(game));
                }
                game.script
                    .call(&game.def, taken, events, name, (map,), record)
            }
        };
        *self = state;
        r.map_err(|e| {
            let e = e.note(format!("during turn {turn}"));
            match &args {
                Args::Choices(players, chosen) => {
                    let what: Vec<String> = players
                        .iter()
                        .zip(chosen.iter())
                        .filter_map(|(p, c)| {
                            c.as_ref()
                                .map(|c| format!("{}: {}", game.def.players[*p].id, c.text(game)))
                        })
                        .collect();
                    e.note(format!("resolving {{{}}}", what.join(", ")))
                }
                Args::Face(f) => e.note(format!("resolving the roll `{f}`")),
                Args::None => e,
            }
        })
        .map(|_| ())?;
        if let Some(ops) = trace {
            game.memo.borrow_mut().insert(name, &args, ops);
        }
        Ok(())
    }

    /// Run flow steps until a decision is pending or the game is over.
    fn advance(&mut self, game: &Game, events: &mut Vec<Event>) -> Result<()> {
        loop {
            self.advance_game(game, events)?;
            if !self.settle_match(game, events)? {
                return Ok(());
            }
        }
    }

    fn advance_game(&mut self, game: &Game, events: &mut Vec<Event>) -> Result<()> {
        let def = &game.def;
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
                    if !self.quiet {
                        events.push(Event {
                            to: None,
                            text: format!("{} turns played (max_turns): a draw.", self.turn),
                        });
                    }
                    break;
                }
                self.turn += 1;
                if def.turns == TurnKind::Rotate {
                    let at = self
                        .order
                        .iter()
                        .position(|&p| p == self.active)
                        .unwrap_or(0);
                    self.active = self.order[(at + 1) % self.order.len()];
                }
            }
            let step = &def.flow[self.cursor];
            self.cursor += 1;
            match step {
                Step::Decide {
                    who, simultaneous, ..
                } => {
                    let players: SmallVec<[PlayerIx; 4]> = match who {
                        Who::All => (0..def.nplayers()).collect(),
                        Who::Active => smallvec::smallvec![self.active],
                        Who::Player(p) => smallvec::smallvec![*p],
                    };
                    // One decision for all, or one each in turn.
                    let size = if *simultaneous { players.len() } else { 1 };
                    for group in players.chunks(size.max(1)) {
                        let ask = self.declared_ask(game, self.cursor - 1, step, group)?;
                        self.push_decision(Decision::new(ask));
                    }
                }
                Step::Roll { die, then, set } => {
                    let faces = &def.dice[*die].faces;
                    let i = below(&mut self.rng, faces.len() as u64) as usize;
                    if !self.quiet {
                        let who = if def.turns == TurnKind::Rotate {
                            def.players[self.active].name.as_str()
                        } else {
                            "The die"
                        };
                        let verb = if def.turns == TurnKind::Rotate {
                            "rolls"
                        } else {
                            "shows"
                        };
                        events.push(Event {
                            to: None,
                            text: format!("{who} {verb} {}.", faces[i]),
                        });
                    }
                    if let Some(v) = set {
                        self.vars[*v] = i as i64;
                    }
                    if let Some(then) = then {
                        self.run(game, events, then, Args::Face(faces[i].clone()))?;
                    }
                }
                Step::Hook { name } => {
                    self.run(game, events, name, Args::None)?;
                }
            }
        }
        Ok(())
    }

    pub(crate) fn push_decision(&mut self, mut d: Decision) {
        if d.players.len() > 1
            && let Some(f) = self.reveal_first.take()
            && d.players.contains(&f)
        {
            d.first = Some(f);
        }
        self.pending.push_back(d);
    }

    /// The ask of declared decision step `at` for `group`. Asks are shared
    /// from the memo's cache: the same step, deciders and cards give the
    /// same ask, so playouts do not rebuild (and free) one every turn.
    fn declared_ask(
        &self,
        game: &Game,
        at: usize,
        step: &Step,
        group: &[PlayerIx],
    ) -> Result<Rc<Ask>> {
        let Step::Decide {
            name,
            options,
            then,
            prompt,
            ..
        } = step
        else {
            return Err(Error::new(ErrorKind::Invalid, "not a decision step"));
        };
        // Each decider's distinct cards, in card order.
        let mut lists: SmallVec<[SmallVec<[CardIx; 16]>; 2]> = SmallVec::new();
        if let Options::Zone(z) = options {
            for &p in group {
                let cs: SmallVec<[CardIx; 16]> = memo::distinct(self.zone(game, *z, p));
                if cs.is_empty() {
                    return Err(Error::new(
                        ErrorKind::Runtime,
                        format!(
                            "decision `{name}` on turn {}: {} has no legal choice",
                            self.turn, game.def.players[p].id
                        ),
                    ));
                }
                lists.push(cs);
            }
        }
        let mut h = rustc_hash::FxHasher::default();
        (at, group, &lists).hash(&mut h);
        let key = h.finish();
        let mut memo = game.memo.borrow_mut();
        if let Some((a, ask)) = memo.asks.get(&key)
            && *a == at
            && ask.players[..] == *group
            && (lists.is_empty()
                || ask.options.iter().zip(&lists).all(|(o, l)| {
                    o.len() == l.len() && o.iter().zip(l).all(|(c, x)| *c == Choice::Card(*x))
                }))
        {
            return Ok(ask.clone());
        }
        let opts: Vec<Vec<Choice>> = match options {
            Options::Zone(_) => lists
                .iter()
                .map(|l| l.iter().map(|&c| Choice::Card(c)).collect())
                .collect(),
            Options::Words(w) => {
                let words: Vec<Choice> =
                    w.iter().map(|w| Choice::Word(w.as_str().into())).collect();
                vec![words; group.len()]
            }
        };
        let ask = Rc::new(Ask {
            name: name.clone(),
            prompt: prompt.clone(),
            players: group.to_vec(),
            options: opts,
            then: then.clone(),
        });
        memo.keep_ask(key, at, &ask);
        Ok(ask)
    }
}

/// What a hook is called with.
pub(crate) enum Args<'a> {
    None,
    /// A rolled face.
    Face(String),
    /// A decision's choices, by decider.
    Choices(&'a [PlayerIx], &'a [Option<Choice>]),
}

/// A cheap stand-in while the real state is lent to a hook.
fn placeholder(s: &State) -> State {
    State {
        stats: Vec::new(),
        vars: Vec::new(),
        zones: Vec::new(),
        rng: s.rng.clone(),
        cursor: 0,
        turn: 0,
        active: 0,
        order: Vec::new(),
        pending: VecDeque::new(),
        reveal_first: None,
        outcome: None,
        quiet: s.quiet,
        game_no: 0,
        match_wins: Vec::new(),
    }
}

/// A choice as players read it: a card's name (as `owner`'s copy shows it),
/// or the word.
pub fn choice_name(game: &Game, c: &Choice, owner: Option<PlayerIx>) -> String {
    match c {
        Choice::Card(ix) => game.def.cards[*ix as usize].name_for(owner).to_string(),
        Choice::Word(w) => w.to_string(),
    }
}
