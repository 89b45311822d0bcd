//! A game being played: the seats, the moves so far (the replay), undo,
//! save/load and reload. The REPL is a thin loop over this, and tests drive
//! it directly.

use std::path::{Path, PathBuf};

use crate::analysis::bot::{self, bot_seed};
use crate::core::{Event, State};
use crate::definition::PlayerIx;
use crate::definition::Settings;
use crate::error::{Error, Result};
use crate::game::Game;
use crate::play::replay::{Replay, apply_move};
use crate::text::view;

/// Who plays a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seat {
    Person,
    Bot(String),
}

impl Seat {
    /// A seat as typed (`person` or `human`, or a bot kind); `Ok(None)`
    /// for a word that is neither, which each caller words for its own
    /// list of kinds.
    pub fn parse(kind: &str) -> Result<Option<Seat>> {
        match kind {
            "person" | "human" => Ok(Some(Seat::Person)),
            k if bot::valid(k) => Ok(Some(Seat::Bot(k.to_string()))),
            k if k.contains(':') => Err(Error::usage(bot::kind_problem(k))),
            _ => Ok(None),
        }
    }
}

/// A player by id, or an error that lists the players.
pub fn player_of(def: &crate::definition::Def, id: &str) -> Result<PlayerIx> {
    def.player(id).ok_or_else(|| {
        let ids: Vec<&str> = def.players.iter().map(|p| p.id.as_str()).collect();
        let mut e = Error::usage(format!(
            "no player `{id}` in {} (players: {})",
            def.id,
            ids.join(", ")
        ));
        if let Some(h) = crate::error::did_you_mean(id, ids) {
            e = e.note(h);
        }
        e
    })
}

pub struct Session {
    pub dir: PathBuf,
    pub game: Game,
    pub state: State,
    /// Game reference, settings, seed and the completed decisions.
    pub replay: Replay,
    /// The decision being filled in: choices made so far (hot-seat).
    pub current: Vec<(String, String)>,
    pub seats: Vec<Seat>,
    /// Everything that happened, from setup on.
    pub log: Vec<Event>,
    /// Moves when last saved (to offer a save on leaving).
    pub saved_at: Option<usize>,
    /// Positions along the game, every `SNAPSHOT_EVERY` moves: `undo`
    /// replays from the last one before where it goes back to, in time
    /// for what it takes back rather than for the whole game.
    snapshots: Vec<Snapshot>,
    /// Undos so far, mixed into the bots' seeds: a bot asked again after
    /// an undo chooses afresh, so an undo is no free look at its answer.
    undos: u64,
    /// Bytes a bot's search may hold (None: the search's own cap).
    pub bot_memory: Option<usize>,
}

/// The position after a number of moves, and the log's length there.
#[derive(Clone)]
struct Snapshot {
    moves: usize,
    state: State,
    log: usize,
}

/// Moves between snapshots (a position is a few kilobytes: a game of
/// 20,000 moves keeps about 600).
const SNAPSHOT_EVERY: usize = 32;

/// What `reload` found.
#[derive(Debug, Clone, PartialEq)]
pub enum Reloaded {
    /// Every position along the moves is as before.
    Same,
    /// The first position that differs: after this many moves (0 = right
    /// after setup), with what differs there ("players.elf.wounds: 9 -> 18").
    Diverged { after: usize, changes: Vec<String> },
}

/// The state and log after some moves, whether the last move left its
/// decision open (some players still to choose), and the first failing
/// move (1-based) with its error, if any.
type Replayed = (State, Vec<Event>, bool, Option<(usize, Error)>);

/// Play `moves` of the game of `seed`: from the last of `snaps` within
/// them (whose log is the start of `log`), or from a new game; `snaps`
/// keeps those within them and gains the ones passed on the way.
fn replay_moves(
    game: &Game,
    start: &Replay,
    moves: &[Vec<(String, String)>],
    snaps: &mut Vec<Snapshot>,
    log: &[Event],
) -> Result<Replayed> {
    snaps.retain(|s| s.moves <= moves.len() && s.log <= log.len());
    let (mut state, mut log, from) = match snaps.last() {
        Some(s) => (s.state.clone(), log[..s.log].to_vec(), s.moves),
        None => {
            let (state, log) = start.start(game)?;
            (state, log, 0)
        }
    };
    let mut open = false;
    for (i, m) in moves.iter().enumerate().skip(from) {
        let before = state.completed();
        match apply_move(game, &mut state, m) {
            Ok(events) => log.extend(events),
            Err(e) => return Ok((state, log, false, Some((i + 1, e)))),
        }
        open = state.completed() == before;
        if !open && (i + 1).is_multiple_of(SNAPSHOT_EVERY) {
            snaps.push(Snapshot {
                moves: i + 1,
                state: state.clone(),
                log: log.len(),
            });
        }
    }
    Ok((state, log, open, None))
}

impl Session {
    pub fn new(
        dir: &Path,
        game_ref: &str,
        settings: Settings,
        seed: u64,
        seats: Vec<Seat>,
    ) -> Result<Session> {
        let replay = Replay {
            game: game_ref.to_string(),
            settings,
            seed,
            ..Replay::default()
        };
        Session::from_replay(dir, replay, None, seats)
    }

    /// A session from a replay (a loaded save). `seats` shorter than the
    /// game's players are filled with the default bot.
    pub fn from_replay(
        dir: &Path,
        mut replay: Replay,
        path: Option<&Path>,
        mut seats: Vec<Seat>,
    ) -> Result<Session> {
        let game = replay.load_game(path, dir)?;
        if let Some(p) = path
            .and_then(|p| p.parent())
            .map(|d| d.join(&replay.game))
            .filter(|p| p.is_file())
            && let Some(p) = p.to_str()
        {
            // A path that is not UTF-8 keeps the replay's own (relative)
            // reference rather than a mangled one.
            replay.game = p.to_string();
        }
        let default = bot::default_kind().unwrap_or_else(|_| bot::STRONGEST.into());
        if seats.is_empty() {
            seats = saved_seats(&game, &replay);
        }
        seats.resize(game.def().nplayers(), Seat::Bot(default));
        let moves = std::mem::take(&mut replay.moves);
        let positions = std::mem::take(&mut replay.positions);
        let mut snapshots = Vec::new();
        let (state, log, open, failed) = replay_moves(&game, &replay, &moves, &mut snapshots, &[])?;
        if let Some((i, e)) = failed {
            let at = positions.get(i - 1).cloned().flatten();
            return Err(Error {
                message: format!("move {i}: {}", e.message),
                ..e
            }
            .at(at));
        }
        let saved = moves.len();
        replay.moves = moves;
        let mut s = Session {
            dir: dir.to_path_buf(),
            game,
            state,
            replay,
            current: Vec::new(),
            seats,
            log,
            saved_at: Some(saved),
            snapshots,
            undos: 0,
            bot_memory: None,
        };
        s.saved_at = path.map(|_| saved);
        s.split_partial(open);
        Ok(s)
    }

    pub fn people(&self) -> Vec<PlayerIx> {
        (0..self.seats.len())
            .filter(|&p| self.seats[p] == Seat::Person)
            .collect()
    }

    pub fn is_person(&self, p: PlayerIx) -> bool {
        self.seats.get(p) == Some(&Seat::Person)
    }

    /// Decisions made (a partial one counts).
    pub fn move_count(&self) -> usize {
        self.replay.moves.len() + usize::from(!self.current.is_empty())
    }

    /// `p` chooses by typed text; recorded by canonical id.
    pub fn act(&mut self, p: PlayerIx, text: &str) -> Result<Vec<Event>> {
        let choice = self.state.parse(&self.game, p, text)?;
        let entry = vec![(
            self.game.def().players[p].id.clone(),
            choice.text(&self.game).to_string(),
        )];
        let before = self.state.completed();
        let events = apply_move(&self.game, &mut self.state, &entry)?;
        self.current.extend(entry);
        // The decision was completed (what follows may already hold forced
        // choices: those are not part of a move).
        if self.state.completed() != before {
            // Written in seat order, whoever chose first.
            let def = &self.game.def();
            self.current.sort_by_key(|(p, _)| def.player(p));
            self.replay.moves.push(std::mem::take(&mut self.current));
        }
        self.log.extend(events.iter().cloned());
        let moves = self.replay.moves.len();
        let done = self.current.is_empty() && moves.is_multiple_of(SNAPSHOT_EVERY);
        if done && self.snapshots.last().is_none_or(|s| s.moves < moves) {
            self.snapshots.push(Snapshot {
                moves,
                state: self.state.clone(),
                log: self.log.len(),
            });
        }
        Ok(events)
    }

    /// Start working out the equilibrium in the background for the
    /// equilibrium bots of this game (`best`): a person plays on meanwhile,
    /// the bots searching until it is known. The game is loaded again for
    /// the thread (a bad file now only means no equilibrium).
    pub fn prepare_bots(&self) {
        let bots = self.seats.iter().enumerate().filter_map(|(p, s)| match s {
            Seat::Bot(k) if k == "best" => Some(p),
            _ => None,
        });
        if let Some(p) = bots.into_iter().next()
            && let Ok(game) = self.replay.load_game(None, &self.dir)
        {
            let st = self.state.unseen_choices_taken_back(p);
            bot::best::prepare(game, st);
        }
    }

    /// The bot `bot_step` would move now: one is to choose and no person is.
    pub fn bot_to_move(&self) -> Option<PlayerIx> {
        let waiting = self.state.waiting();
        if waiting.iter().any(|&p| self.is_person(p)) {
            return None;
        }
        waiting
            .first()
            .copied()
            .filter(|&p| matches!(self.seats.get(p), Some(Seat::Bot(_))))
    }

    /// If a bot is to choose and no person is, it does. People commit first
    /// in a simultaneous decision, so a save never holds a bot's secret.
    pub fn bot_step(&mut self) -> Result<Option<(PlayerIx, Vec<Event>)>> {
        let Some(p) = self.bot_to_move() else {
            return Ok(None);
        };
        let Seat::Bot(kind) = &self.seats[p] else {
            return Ok(None);
        };
        // With no undo yet, the seed the moves alone give (a game replays
        // its bots' choices from a fresh session).
        let fresh = self.undos.wrapping_mul(0xA24B_AED4_963E_E407);
        let seed = bot_seed(self.replay.seed ^ fresh, self.move_count(), p);
        let Some(mut b) = bot::make_within(kind, seed, self.bot_memory) else {
            return Err(Error::usage(format!("unknown bot kind `{kind}`")));
        };
        let Some(c) = b.choose(&self.game, &self.state, p) else {
            return Err(Error::usage(format!(
                "the {kind} bot found no legal choice"
            )));
        };
        let text = c.text(&self.game).to_string();
        Ok(Some((p, self.act(p, &text)?)))
    }

    /// The replay with the decision in progress, as a save holds it.
    pub fn to_replay(&self) -> Replay {
        let mut r = self.replay.clone();
        r.rules = Some(self.game.fingerprint()).filter(|f| *f != 0);
        let def = self.game.def();
        r.seats = (def.players.iter().zip(&self.seats))
            .map(|(p, seat)| {
                let kind = match seat {
                    Seat::Person => "person".to_string(),
                    Seat::Bot(k) => k.clone(),
                };
                (p.id.clone(), kind)
            })
            .collect();
        if !self.current.is_empty() {
            r.moves.push(self.current.clone());
        }
        r
    }

    pub fn save(&mut self, path: &Path) -> Result<usize> {
        let r = self.to_replay();
        r.save(path)?;
        self.saved_at = Some(self.move_count());
        Ok(r.moves.len())
    }

    pub fn unsaved(&self) -> bool {
        self.move_count() > 0 && self.saved_at != Some(self.move_count())
    }

    /// Back to the people's previous decision: drop the last move that has a
    /// person's choice in it, and everything after. False if there is none.
    pub fn undo(&mut self) -> Result<bool> {
        let person = |m: &Vec<(String, String)>| {
            m.iter()
                .any(|(p, _)| self.game.def().player(p).is_some_and(|i| self.is_person(i)))
        };
        let mut moves = self.to_replay().moves;
        let Some(last) = moves.iter().rposition(person) else {
            return Ok(false);
        };
        moves.truncate(last);
        let (state, log, open, failed) = replay_moves(
            &self.game,
            &self.replay,
            &moves,
            &mut self.snapshots,
            &self.log,
        )?;
        if let Some((_, e)) = failed {
            return Err(e);
        }
        self.state = state;
        self.log = log;
        // Moves taken back below the save: what is played next is not in
        // it, however many moves it comes to.
        if self.saved_at.is_some_and(|n| moves.len() < n) {
            self.saved_at = None;
        }
        self.replay.moves = moves;
        self.split_partial(open);
        self.undos += 1;
        Ok(true)
    }

    /// Start again with the same settings and another seed.
    pub fn restart(&mut self, seed: u64) -> Result<Vec<Event>> {
        let (state, log) = self.replay.start_seeded(&self.game, seed)?;
        self.state = state;
        self.log = log.clone();
        self.replay.seed = seed;
        self.replay.moves.clear();
        self.current.clear();
        self.saved_at = None;
        self.snapshots.clear();
        Ok(log)
    }

    /// Re-read the game's files and re-apply the moves to the new rules.
    /// Any error, at load or along the moves (a script error, a move the
    /// new rules refuse), leaves the session as it was: old rules, every
    /// move kept. The error says which move failed.
    pub fn reload(&mut self) -> Result<Reloaded> {
        let new = self.replay.load_game(None, &self.dir)?;
        let (was, now) = (self.game.def().nplayers(), new.def().nplayers());
        if was != now {
            return Err(Error::usage(format!(
                "the new rules seat {now} players, this game {was}: a game cannot change its players (`new` starts one under the new rules)"
            )));
        }
        let moves = self.to_replay().moves;
        // Step through both rule sets side by side to find the first
        // position that differs.
        let (mut old_state, _) = self.replay.start(&self.game)?;
        let (mut new_state, mut new_log) = self.replay.start(&new)?;
        let mut first_diff = diff(&self.game, &old_state, &new, &new_state).map(|c| (0, c));
        let mut open = false;
        for (i, m) in moves.iter().enumerate() {
            let before = new_state.completed();
            match apply_move(&new, &mut new_state, m) {
                Ok(ev) => {
                    new_log.extend(ev);
                    open = new_state.completed() == before;
                }
                Err(e) => {
                    let message = format!("move {} under the new rules: {}", i + 1, e.message);
                    return Err(Error { message, ..e }.note(format!(
                        "to play on under the new rules from there, `undo` to before move {} and `reload` again",
                        i + 1
                    )));
                }
            }
            // The old rules accepted these moves already.
            let _ = apply_move(&self.game, &mut old_state, m);
            if first_diff.is_none() {
                first_diff = diff(&self.game, &old_state, &new, &new_state).map(|c| (i + 1, c));
            }
        }
        let report = match first_diff {
            Some((after, changes)) => Reloaded::Diverged { after, changes },
            None => Reloaded::Same,
        };
        self.replay.moves = moves;
        self.game = new;
        self.state = new_state;
        self.log = new_log;
        // Positions under the old rules: none holds now.
        self.snapshots.clear();
        self.split_partial(open);
        Ok(report)
    }

    /// For a game of a program's built-in library (whose files are read
    /// from the program, never from their written-out copies): what a
    /// `reload` cannot do, and how to get a copy that it can. `path`: name
    /// the written-out file (not where others see the note).
    pub fn built_in_note(&self, path: bool) -> Option<String> {
        let def = self.game.def();
        if !crate::files::is_bundled(&def.path) {
            return None;
        }
        let copy = if path {
            format!(
                "its written-out copy ({})",
                crate::error::path_text(&def.path)
            )
        } else {
            "its written-out copy".to_string()
        };
        Some(format!(
            "{id} is a built-in game: its rules are the program's own, and an edit to {copy} is not read. `tabula copy {id} DIR` writes a copy of your own to edit; play it with `tabula play {id} --games-dir DIR/games`.",
            id = def.id
        ))
    }

    /// A last move that left its decision open (some players filled it
    /// in) is kept as `current`, not as a finished move, so the next
    /// choices join it and the bots' seeds (which count moves) are those of
    /// the uninterrupted game.
    fn split_partial(&mut self, open: bool) {
        self.current.clear();
        if open && let Some(last) = self.replay.moves.pop() {
            self.current = last;
        }
    }
}

/// The seats a replay says were played (a bot kind this build does not
/// know is the default bot): empty if it says none.
fn saved_seats(game: &Game, replay: &Replay) -> Vec<Seat> {
    let def = game.def();
    if replay.seats.is_empty() {
        return Vec::new();
    }
    let default = bot::default_kind().unwrap_or_else(|_| bot::STRONGEST.into());
    (def.players.iter())
        .map(|p| match replay.seats.iter().find(|(id, _)| *id == p.id) {
            Some((_, k)) if k == "person" => Seat::Person,
            Some((_, k)) if bot::valid(k) => Seat::Bot(k.clone()),
            _ => Seat::Bot(default.clone()),
        })
        .collect()
}

/// What differs between two positions, by the spectator's view as JSON
/// paths; None when they are the same.
fn diff(ga: &Game, a: &State, gb: &Game, b: &State) -> Option<Vec<String>> {
    let va = serde_json::to_value(view::view(ga, a, None).ok()?).ok()?;
    let vb = serde_json::to_value(view::view(gb, b, None).ok()?).ok()?;
    if va == vb {
        return None;
    }
    let (mut fa, mut fb) = (Vec::new(), Vec::new());
    flatten(&va, "", &mut fa);
    flatten(&vb, "", &mut fb);
    let mut out = Vec::new();
    for (k, x) in &fa {
        match fb.iter().find(|(kb, _)| kb == k) {
            Some((_, y)) if y != x => out.push(format!("{k}: {x} -> {y}")),
            None => out.push(format!("{k}: {x} -> (gone)")),
            _ => {}
        }
    }
    for (k, y) in &fb {
        if !fa.iter().any(|(ka, _)| ka == k) {
            out.push(format!("{k}: (new) -> {y}"));
        }
    }
    Some(out)
}

fn flatten(v: &serde_json::Value, prefix: &str, out: &mut Vec<(String, String)>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(x, &p, out);
            }
        }
        other => out.push((prefix.to_string(), other.to_string())),
    }
}
