//! What the REPL shows: the banner, the board as the player at the
//! keyboard sees it, the log's new lines, the decision asked for, the
//! hand-off between people at one keyboard, and the game-over line.

use rustyline::Editor;
use rustyline::history::DefaultHistory;

use super::{CLEAR, Repl};
use crate::cli::line::LineHelper;
use tabula::bot::best;
use tabula::core::{Event, Outcome};
use tabula::definition::PlayerIx;
use tabula::play::commands::COMMANDS;
use tabula::session::Seat;
use tabula::view;

impl Repl {
    pub(super) fn welcome(&mut self) {
        let def = &self.s.game.def();
        let seats: Vec<String> = def
            .players
            .iter()
            .zip(&self.s.seats)
            .map(|(p, seat)| match seat {
                Seat::Person if self.s.people().len() == 1 => format!("{} (you)", p.name),
                Seat::Person => format!("{} (person)", p.name),
                Seat::Bot(k) => format!("{} ({k} bot)", p.name),
            })
            .collect();
        let variants = if def.applied.is_empty() {
            String::new()
        } else {
            format!(" [{}]", def.applied.join(", "))
        };
        println!(
            "{}{variants} - seed {} - {}",
            self.style.bold(&def.name),
            self.s.replay.seed,
            seats.join(", ")
        );
        for e in tabula::play::commands::shadowed(def) {
            println!("{}", self.style.dim(&format!("({})", e.message)));
        }
        println!(
            "{}",
            self.style.dim("Type `help` for commands, Tab to complete.")
        );
        if self
            .s
            .seats
            .iter()
            .any(|s| matches!(s, Seat::Bot(k) if k == "best"))
        {
            let plays = best::plays(&self.s.game, &self.s.state);
            let line = match &plays {
                best::Plays::Equilibrium => {
                    "(The best bot plays the exact equilibrium, worked out before for these rules.)"
                        .to_string()
                }
                best::Plays::SearchForNow => format!(
                    "(The best bot searches while the exact equilibrium is worked out in the background, once for these rules (kept in {}); a line says when it plays it. A game too big to solve keeps the search.)",
                    crate::cli::env::cache_dir().join("equilibrium").display()
                ),
                best::Plays::Search(why) => {
                    format!("(The best bot searches here: no exact equilibrium, since {why}.)")
                }
            };
            println!("{}", self.style.dim(&line));
            self.best_plays = Some(plays);
        }
        let log = self.s.log.clone();
        self.print_events(&log);
    }

    /// A line when a best bot's background solve ends: it plays the
    /// equilibrium from now on, or keeps searching, and why.
    pub(super) fn say_best_switch(&mut self) {
        if self.best_plays != Some(best::Plays::SearchForNow) {
            return;
        }
        let now = best::status(&self.s.game);
        let line = match &now {
            best::Plays::SearchForNow => return,
            best::Plays::Equilibrium => {
                "(The equilibrium is worked out: the best bot plays it from now on.)".to_string()
            }
            best::Plays::Search(why) => {
                format!("(No exact equilibrium here ({why}): the best bot keeps searching.)")
            }
        };
        println!("{}", self.style.dim(&line));
        self.best_plays = Some(now);
    }

    pub(super) fn print_events(&mut self, events: &[Event]) {
        let people = self.s.people();
        for e in events {
            // The board shown next says the turn; the `log` keeps markers.
            if matches!(e, Event::Turn { .. }) {
                continue;
            }
            let text = tabula::phrase(&self.s.game, e);
            match e.to() {
                None => println!("{}", self.style_line(&text)),
                Some(p) if people.len() == 1 && people[0] == p => {
                    println!("{}", self.style.cyan(&text))
                }
                Some(p) if self.s.is_person(p) => self.private[p].push(text),
                Some(_) => {}
            }
        }
    }

    pub(super) fn style_line(&self, text: &str) -> String {
        if text.starts_with("revealed:") || text.contains("reveals") {
            self.style.cyan(text)
        } else if text.contains(" wins") {
            self.style.bold(text)
        } else {
            text.to_string()
        }
    }

    pub(super) fn show_board(&mut self, viewer: Option<PlayerIx>) {
        let key = (self.position(), viewer);
        if self.shown == Some(key) {
            return;
        }
        self.shown = Some(key);
        println!();
        let board =
            view::render(&self.s.game, &self.s.state, viewer).unwrap_or_else(|e| e.to_string());
        let mut lines = board.lines();
        if let Some(first) = lines.next() {
            println!("{}", self.style.bold(first));
        }
        for l in lines {
            println!("{l}");
        }
        // This turn's rolls, so the die stays in view with the position.
        let rolls: Vec<String> = self
            .s
            .log
            .iter()
            .rev()
            .take_while(|e| !matches!(e, Event::Turn { .. }))
            .filter(|e| matches!(e, Event::Rolled { .. }))
            .map(|e| tabula::phrase(&self.s.game, e))
            .collect();
        if !rolls.is_empty() {
            let said: Vec<&str> = rolls
                .iter()
                .rev()
                .map(|r| r.trim_end_matches('.'))
                .collect();
            println!("  This turn: {}", said.join("; "));
        }
    }

    /// The result, said to the one person at the keyboard when there is one.
    pub(super) fn outcome_text(&self) -> String {
        let def = &self.s.game.def();
        let people = self.s.people();
        let me = (people.len() == 1).then(|| people[0]);
        match self.s.state.outcome() {
            Some(Outcome::Win(p)) if me == Some(p) => {
                format!("you win ({}).", def.players[p].name)
            }
            Some(Outcome::Win(p)) if me.is_some() => {
                format!("you lose ({} wins).", def.players[p].name)
            }
            Some(Outcome::Win(p)) => format!("{} wins.", def.players[p].name),
            Some(Outcome::Draw) => "a draw.".into(),
            None => String::new(),
        }
    }

    /// Hot-seat: hand the keyboard to `p`, clearing the screen between.
    pub(super) fn hand_off(&mut self, p: PlayerIx, rl: &mut Editor<LineHelper, DefaultHistory>) {
        let name = self.s.game.def().players[p].name.clone();
        println!();
        println!(
            "{}",
            self.style
                .bold(&format!("--- Pass the keyboard to {name}. ---"))
        );
        if self.interactive {
            let _ = rl.readline(&format!("{name}, press Enter when ready "));
            print!("{CLEAR}");
        }
        self.at_keyboard = Some(p);
        self.shown = None;
        for line in std::mem::take(&mut self.private[p]) {
            println!("{}", self.style.cyan(&line));
        }
    }

    pub(super) fn announce_decision(&mut self, p: PlayerIx) {
        let game = &self.s.game;
        let Some(d) = self.s.state.decision() else {
            return;
        };
        let def = game.def();
        if let Some(f) = d.first {
            if f == p {
                let others: Vec<&str> = d
                    .players
                    .iter()
                    .filter(|&&q| q != p)
                    .map(|&q| def.players[q].name.as_str())
                    .collect();
                println!(
                    "{}",
                    self.style.cyan(&format!(
                        "You choose first: your card is revealed before {} chooses.",
                        others.join(", ")
                    ))
                );
            } else {
                for c in view::chosen_text(game, &self.s.state, Some(p)) {
                    println!("{}", self.style.cyan(&format!("Revealed first - {c}")));
                }
            }
        }
        let state = &self.s.state;
        let prompt = if d.prompt.is_empty() {
            &d.name
        } else {
            &d.prompt
        };
        // Several at once: the options to pick from, not every set of them.
        if let Some((pick, parts)) = tabula::text::cards::pick_of(game, state, p) {
            let listed: Vec<String> = (parts.iter())
                .map(|c| tabula::text::label(game, c, p))
                .collect();
            println!(
                "{} - {prompt} ({}): {}",
                self.style.bold(&def.players[p].name),
                tabula::text::cards::pick_said(game, pick, &parts, p),
                listed.join(", ")
            );
            return;
        }
        let legal: Vec<String> = tabula::text::cards::offered(game, state, p, state.legal(p))
            .into_iter()
            .map(|c| tabula::text::option_label(game, state, c, p))
            .collect();
        println!(
            "{} - {prompt}: {}",
            self.style.bold(&def.players[p].name),
            legal.join(", ")
        );
        // A choice typed as a command's word runs the command: say how it
        // is played instead, where it is asked for.
        let mut named_like: Vec<String> = Vec::new();
        for c in self.s.state.legal(p) {
            let mut words = vec![c.text(game).to_string()];
            if let tabula::Choice::Card(ix) = c {
                let card = &def.cards[*ix as usize];
                words.push(card.name_for(Some(p)).to_string());
                words.extend(card.aliases.iter().cloned());
            }
            for w in words {
                let first = w.split_whitespace().next().unwrap_or("").to_lowercase();
                if COMMANDS.contains(&first.as_str()) && !named_like.contains(&w) {
                    named_like.push(w);
                }
            }
        }
        if let Some(one) = named_like.first() {
            let listed: Vec<String> = named_like.iter().map(|w| format!("`{w}`")).collect();
            println!(
                "{}",
                self.style.dim(&format!(
                    "({} typed alone is a command; to play that choice, type it in quotes: `\"{one}\"`)",
                    listed.join(", ")
                ))
            );
        }
    }
}
