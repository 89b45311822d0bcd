//! `tabula play`: a game in the terminal, one person against bots or several
//! people hot-seat. Reads plain lines when stdin is not a terminal, so whole
//! sessions can be scripted.

use std::path::Path;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use rustyline::DefaultEditor;
use rustyline::error::ReadlineError;

use super::GameArgs;
use crate::bot::{self, Bot};
use crate::error::{Error, Result};
use crate::game::{Game, PlayerIx};
use crate::replay::{Replay, apply_move};
use crate::state::{Event, State, below};
use crate::view;

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// A game id in the games folder, or a path to a game file.
    pub game: String,
    #[command(flatten)]
    pub args: GameArgs,
    /// Seed of the game's RNG (default: from the clock; shown at the start).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The seat you take (default: drawn with the seed).
    #[arg(long = "as", value_name = "PLAYER")]
    pub seat: Option<String>,
    /// Who plays a seat: a bot kind (random) or `human` (repeatable). Seats
    /// not given are yours (`--as`) or the strongest bot's; `human` on every
    /// seat is hot-seat.
    #[arg(long = "bot", value_name = "P=KIND", value_parser = parse_bot)]
    pub bots: Vec<(String, String)>,
}

fn parse_bot(s: &str) -> std::result::Result<(String, String), String> {
    let (p, k) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}`: expected PLAYER=KIND"))?;
    Ok((p.trim().to_string(), k.trim().to_string()))
}

const HELP: &str = "\
Type a choice by name, alias or unambiguous prefix (e.g. `strong-bow`, `sb`, `strong-b`).
Commands:
  help          this text
  state         the game as you see it
  rules         the rules text
  cards         the cards and what they do
  log           everything that happened so far
  save FILE     save the game (replay format) to FILE
  quit          leave (Ctrl-D too)";

struct Session {
    game: Game,
    state: State,
    replay: Replay,
    /// The decision being filled in (simultaneous choices so far).
    current: Vec<(String, String)>,
    bots: Vec<Option<Box<dyn Bot>>>,
    /// The people at the table (seats not played by a bot).
    people: Vec<PlayerIx>,
    log: Vec<Event>,
}

pub fn run(dir: &Path, a: PlayArgs) -> Result<i32> {
    let settings = a.args.settings();
    let game = crate::load::load(&a.game, dir, &settings)?;
    let seed = a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    });
    let n = game.def.nplayers();
    let seat_of = |id: &str| {
        game.def.player(id).ok_or_else(|| {
            let ids: Vec<&str> = game.def.players.iter().map(|p| p.id.as_str()).collect();
            Error::usage(format!(
                "no player `{id}` in {} (players: {})",
                game.def.id,
                ids.join(", ")
            ))
        })
    };
    // E1-style seating: drawn with a stream of its own, so the game's RNG is
    // the same whichever seat a person takes.
    let me = match &a.seat {
        Some(s) => seat_of(s)?,
        None => below(&mut ChaCha8Rng::seed_from_u64(seed ^ 0x5EA7), n as u64) as usize,
    };
    let mut kinds: Vec<String> = (0..n)
        .map(|p| {
            if p == me {
                "human".into()
            } else {
                "random".into()
            }
        })
        .collect();
    for (p, k) in &a.bots {
        let i = seat_of(p)?;
        if k != "human" && !bot::KINDS.contains(&k.as_str()) {
            return Err(Error::usage(format!(
                "unknown bot kind `{k}` (kinds: human, {})",
                bot::KINDS.join(", ")
            )));
        }
        kinds[i] = k.clone();
    }
    let bots = kinds
        .iter()
        .enumerate()
        .map(|(i, k)| bot::make(k, seed.wrapping_add(1 + i as u64)))
        .collect::<Vec<_>>();
    let people: Vec<PlayerIx> = (0..n).filter(|&i| bots[i].is_none()).collect();
    let (state, log) = State::new(&game, seed)?;
    let mut s = Session {
        replay: Replay {
            game: a.game.clone(),
            settings,
            seed,
            ..Replay::default()
        },
        game,
        state,
        current: Vec::new(),
        bots,
        people,
        log: Vec::new(),
    };
    let seats: Vec<String> = (0..n)
        .map(|p| format!("{}: {}", s.game.def.players[p].id, kinds[p]))
        .collect();
    println!("{} - seed {seed} - {}", s.game.def.name, seats.join(", "));
    println!("Type `help` for commands.");
    s.show(&log);
    s.log.extend(log);
    s.repl()
}

impl Session {
    /// Events a person at the table may read.
    fn visible(&self, e: &Event) -> bool {
        match e.to {
            None => true,
            Some(p) => self.people.len() == 1 && self.people[0] == p,
        }
    }

    fn show(&self, events: &[Event]) {
        for e in events.iter().filter(|e| self.visible(e)) {
            println!("{}", e.text);
        }
    }

    fn viewer(&self) -> Option<PlayerIx> {
        (self.people.len() == 1).then(|| self.people[0])
    }

    fn act(&mut self, p: PlayerIx, text: &str) -> Result<()> {
        // Recorded by canonical id, whatever prefix or alias was typed.
        let choice = self.state.parse(&self.game, p, text)?;
        let entry = vec![(
            self.game.def.players[p].id.clone(),
            choice.text(&self.game).to_string(),
        )];
        let events = apply_move(&self.game, &mut self.state, &entry)?;
        self.current.extend(entry);
        let fresh = self
            .state
            .decision()
            .is_none_or(|d| d.chosen.iter().all(Option::is_none));
        if fresh {
            // Written in seat order, whoever chose first.
            let def = &self.game.def;
            self.current.sort_by_key(|(p, _)| def.player(p));
            self.replay.moves.push(std::mem::take(&mut self.current));
        }
        self.show(&events);
        self.log.extend(events);
        Ok(())
    }

    fn repl(&mut self) -> Result<i32> {
        let mut rl = DefaultEditor::new().map_err(|e| Error::usage(format!("terminal: {e}")))?;
        let mut shown_turn = 0;
        loop {
            // Bots move once no person is to choose: in a simultaneous
            // decision the people commit first, so a save made meanwhile
            // never holds a bot's secret choice.
            let waiting = self.state.waiting();
            let person_waiting = waiting.iter().any(|&p| self.bots[p].is_none());
            if let Some(&p) = waiting
                .iter()
                .find(|&&p| !person_waiting && self.bots[p].is_some())
            {
                let choice = match self.bots[p].as_mut() {
                    Some(b) => b.choose(&self.game, &self.state, p),
                    None => None,
                };
                let Some(c) = choice else {
                    return Err(Error::usage("a bot found no legal choice"));
                };
                let text = c.text(&self.game).to_string();
                self.act(p, &text)?;
                continue;
            }
            let waiting = self.state.waiting();
            let prompt = match waiting.first() {
                Some(&p) => {
                    if self.state.turn != shown_turn {
                        shown_turn = self.state.turn;
                        println!();
                        println!(
                            "{}",
                            view::render(&self.game, &self.state, self.viewer().or(Some(p)))
                        );
                    }
                    let d = self
                        .state
                        .decision()
                        .map(|d| d.prompt.clone())
                        .unwrap_or_default();
                    for c in view::chosen_text(&self.game, &self.state, Some(p)) {
                        if self.state.decision().is_some_and(|d| d.first.is_some()) {
                            println!("revealed first - {c}");
                        }
                    }
                    let legal: Vec<String> = self
                        .state
                        .legal(p)
                        .iter()
                        .map(|c| c.text(&self.game).to_string())
                        .collect();
                    println!(
                        "{} - {d}: {}",
                        self.game.def.players[p].name,
                        legal.join(", ")
                    );
                    format!("{}> ", self.game.def.players[p].id)
                }
                None => {
                    if self.state.is_over() && shown_turn != u32::MAX {
                        shown_turn = u32::MAX;
                        println!();
                        println!("{}", view::render(&self.game, &self.state, self.viewer()));
                        println!("{}", self.outcome_text());
                        println!("The game is over: `save FILE`, `log` or `quit`.");
                    }
                    "> ".to_string()
                }
            };
            let line = match rl.readline(&prompt) {
                Ok(l) => l,
                Err(ReadlineError::Interrupted) => continue,
                Err(ReadlineError::Eof) => return Ok(0),
                Err(e) => return Err(Error::usage(format!("reading input: {e}"))),
            };
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let _ = rl.add_history_entry(line);
            let (cmd, arg) = line
                .split_once(' ')
                .map_or((line, ""), |(c, a)| (c, a.trim()));
            match cmd {
                "help" | "?" => println!("{HELP}"),
                "quit" | "exit" => return Ok(0),
                "state" => println!(
                    "{}",
                    view::render(
                        &self.game,
                        &self.state,
                        self.viewer().or(waiting.first().copied())
                    )
                ),
                "rules" => println!("{}", self.game.def.rules.trim_end()),
                "cards" => {
                    for c in &self.game.def.cards {
                        println!("{:<16} {}  {}", c.id, c.name, c.text);
                    }
                }
                "log" => {
                    for e in self.log.iter().filter(|e| self.visible(e)) {
                        println!("{}", e.text);
                    }
                }
                "save" => {
                    if arg.is_empty() {
                        println!("save FILE: give a file name");
                        continue;
                    }
                    let mut r = self.replay.clone();
                    if !self.current.is_empty() {
                        r.moves.push(self.current.clone());
                    }
                    match r.save(Path::new(arg)) {
                        Ok(()) => println!("saved to {arg} ({} moves)", r.moves.len()),
                        Err(e) => super::print_error(&e),
                    }
                }
                _ => match waiting.first() {
                    Some(&p) => {
                        if let Err(e) = self.act(p, line) {
                            println!("{e}");
                        }
                    }
                    None => println!("unknown command `{cmd}` (type `help`)"),
                },
            }
        }
    }

    fn outcome_text(&self) -> String {
        match self.state.outcome {
            Some(crate::Outcome::Win(p)) => format!("{} wins.", self.game.def.players[p].name),
            Some(crate::Outcome::Draw) => "A draw.".into(),
            None => String::new(),
        }
    }
}
