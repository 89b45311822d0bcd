//! The REPL's commands that take back, keep and bring back games: `undo`,
//! `save` (never over a file this game did not write without asking),
//! `load`, `reload`, and the offer to save on leaving.

use std::path::Path;

use rustyline::Editor;
use rustyline::history::DefaultHistory;

use super::{Repl, unquote};
use crate::cli::line::LineHelper;
use tabula::error::Error;
use tabula::replay::Replay;
use tabula::session::{Reloaded, Seat, Session};

impl Repl {
    /// `undo [N]`: take back the people's last N decisions, saying which.
    pub(super) fn undo(&mut self, arg: &str) {
        let n = match arg {
            "" => 1,
            a => match a.parse::<usize>() {
                Ok(n) if n > 0 => n,
                _ => {
                    println!("undo [N]: N is how many of your decisions to take back (1 or more)");
                    return;
                }
            },
        };
        let before = self.s.to_replay().moves;
        let partial = !self.s.current.is_empty();
        let mut done = 0;
        while done < n {
            match self.s.undo() {
                Ok(true) => done += 1,
                Ok(false) => break,
                Err(e) => {
                    self.error(&e);
                    break;
                }
            }
        }
        if done == 0 {
            println!("Nothing to undo.");
            return;
        }
        self.announced_end = false;
        self.shown = None;
        self.announced = None;
        let kept = self.s.to_replay().moves.len();
        let game = &self.s.game;
        let def = game.def();
        // Revealed decisions by what was chosen; a decision still being
        // filled in keeps its secrets.
        let taken: Vec<String> = before[kept..]
            .iter()
            .enumerate()
            .map(|(i, m)| {
                // In a decision still open, another person's choice is
                // their secret (a bot's there was revealed first).
                let open = partial && kept + i + 1 == before.len();
                let people = self.s.people();
                m.iter()
                    .map(|(p, c)| {
                        let ix = def.player(p);
                        if open && people.len() > 1 && ix.is_some_and(|i| people.contains(&i)) {
                            return "a choice not yet revealed".to_string();
                        }
                        let name = def
                            .player(p)
                            .map_or(p.as_str(), |i| def.players[i].name.as_str());
                        format!("{name} {c}")
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .collect();
        let more = if done < n {
            " (there was no more to undo)"
        } else {
            ""
        };
        println!(
            "Took back {done} of your decision(s){more}: {}. Now turn {}.",
            taken.join("; "),
            self.s.state.turn()
        );
    }

    /// Before writing over a file this game did not write: ask on a
    /// terminal; with piped input, where nobody can answer, keep the file.
    pub(super) fn may_write(
        &mut self,
        file: &str,
        rl: &mut Editor<LineHelper, DefaultHistory>,
    ) -> bool {
        // A folder, a device, a FIFO or a missing folder: said, never
        // asked about nor waited on.
        if let Err(e) = tabula::files::check_writable(Path::new(file), "a save") {
            println!("{file}: {e}: nothing saved.");
            return false;
        }
        let ours = self.saved_to.as_deref() == Some(Path::new(file));
        let exists = Path::new(file).symlink_metadata().is_ok();
        if exists && !ours && !self.interactive {
            println!(
                "{file} exists and this game did not write it: not replaced (save to another name)."
            );
            return false;
        }
        self.confirm(
            exists && !ours,
            &format!("{file} exists. Replace it? (y/N) "),
            rl,
        )
    }

    /// When `ask` holds and a person is at a terminal, whether they say yes.
    pub(super) fn confirm(
        &mut self,
        ask: bool,
        question: &str,
        rl: &mut Editor<LineHelper, DefaultHistory>,
    ) -> bool {
        if !ask || !self.interactive {
            return true;
        }
        let yes = rl
            .readline(question)
            .is_ok_and(|a| matches!(a.trim().to_lowercase().as_str(), "y" | "yes"));
        if !yes {
            println!("Nothing done.");
        }
        yes
    }

    pub(super) fn error(&self, e: &Error) {
        println!("{}", self.style.red(&e.render(false)));
    }

    pub(super) fn reset_screen(&mut self) {
        self.shown = None;
        self.announced = None;
        self.announced_end = false;
        self.at_keyboard = None;
        for p in &mut self.private {
            p.clear();
        }
    }

    pub(super) fn load(&mut self, path: &Path) {
        let mut by_path = None;
        let loaded = Replay::read(path).and_then(|r| {
            let note = |s: &Session| r.game_by_path_note(path, &s.game, &s.dir);
            // A save that says who sat where loads so (nobody sees what
            // was a bot's hand); an older one keeps this game's seats.
            let seats = if !r.seats.is_empty() {
                Vec::new()
            } else if r.game == self.s.replay.game {
                self.s.seats.clone()
            } else {
                Vec::new()
            };
            let s = Session::from_replay(&self.s.dir, r.clone(), Some(path), seats)?;
            by_path = note(&s);
            Ok(s)
        });
        match loaded {
            Ok(mut s) => {
                if s.people().is_empty() {
                    s.seats[0] = Seat::Person;
                }
                self.s = s;
                self.s.prepare_bots();
                self.saved_to = Some(path.to_path_buf());
                self.private = vec![Vec::new(); self.s.game.def().nplayers()];
                self.reset_screen();
                println!(
                    "Loaded {} ({} moves, seed {}).",
                    tabula::error::path_text(path),
                    self.s.replay.moves.len(),
                    self.s.replay.seed
                );
                if let Some(note) = by_path {
                    println!("{note}");
                }
                if self.s.replay.rules_changed(&self.s.game) {
                    println!("{}", crate::cli::replay::rules_changed_note(path));
                }
            }
            Err(e) => {
                self.error(&e);
                println!("The game in progress is unchanged.");
            }
        }
    }

    pub(super) fn reload(&mut self) {
        if let Some(note) = self.s.built_in_note(true) {
            println!("{note}");
        }
        match self.s.reload() {
            Ok(Reloaded::Same) => println!("Reloaded: the position is the same after every move."),
            Ok(Reloaded::Diverged { after, changes }) => {
                let at = if after == 0 {
                    "right after setup".to_string()
                } else {
                    format!("after move {after}")
                };
                println!("Reloaded: the first difference is {at}:");
                for c in changes {
                    println!("  {c}");
                }
            }
            Err(e) => {
                self.error(&e);
                println!("The game goes on with the rules as they were, every move kept.");
                return;
            }
        }
        // New rules, a new equilibrium.
        self.s.prepare_bots();
        self.shown = None;
        self.announced = None;
        self.announced_end = false;
    }

    /// What would be lost: the game's moves not saved, finished or not.
    pub(super) fn unsaved_text(&self) -> String {
        let n = self.s.move_count();
        if self.s.state.is_over() {
            format!("The finished game ({n} moves) is not saved.")
        } else {
            "The game in progress has moves not saved.".to_string()
        }
    }

    /// On leaving a game with unsaved moves (finished or not: a finished
    /// game is a record worth keeping), offer to save it. `load` and `new`
    /// ask as well, for the same games.
    pub(super) fn offer_save(&mut self, rl: &mut Editor<LineHelper, DefaultHistory>) {
        if !self.interactive || !self.s.unsaved() {
            return;
        }
        // Asked again after a refused replace or a failed write: only an
        // empty answer (or the end of input) leaves the game unsaved.
        loop {
            let Ok(name) = rl.readline("Save the game before leaving? File name (Enter: no): ")
            else {
                return;
            };
            let name = unquote(name.trim()).to_string();
            if name.is_empty() {
                return;
            }
            if !self.may_write(&name, rl) {
                continue;
            }
            match self.s.save(Path::new(&name)) {
                Ok(n) => return println!("Saved to {name} ({n} moves)."),
                Err(e) => self.error(&e),
            }
        }
    }
}
