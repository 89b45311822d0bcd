//! One table: a [`Session`] owned by a thread of its own, which takes the
//! browsers' commands one at a time, lets the bots play between them, saves
//! the game after every change and publishes what each link may see. No
//! connection ever touches the session: it reads the published screens.

use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::{mpsc, oneshot, watch};

use super::places::Places;
use super::screen::{self, Links, Notice, Role, TableShow, UndoAsk};
use super::store::{self, Meta};
use super::thinking::Thinking;
use crate::definition::PlayerIx;
use crate::play::session::{Reloaded, Session};

/// What a link asks of its table.
pub enum Command {
    Move {
        seat: PlayerIx,
        choice: String,
        reply: oneshot::Sender<Result<(), String>>,
    },
    /// Ask for an undo (`agree: None`), or answer one.
    Undo {
        seat: PlayerIx,
        agree: Option<bool>,
        reply: oneshot::Sender<Result<(), String>>,
    },
    Reload {
        reply: oneshot::Sender<Result<(), String>>,
    },
    /// A connection of this role opened (`true`) or closed.
    Connected {
        role: Role,
        open: bool,
    },
    /// The save (`full`: with the decision in progress and the seats) or
    /// the replay of the finished decisions.
    Download {
        role: Role,
        full: bool,
        reply: oneshot::Sender<Option<String>>,
    },
    /// The host closes the table: its files are removed, every page is
    /// told, and the thread stops.
    Close {
        reply: oneshot::Sender<Result<(), String>>,
    },
    Stop,
}

/// What every link of the table sees now, by role.
pub struct Published {
    /// Bumped when the log is rewritten (undo, reload): a connection then
    /// sends it again from the start.
    pub epoch: u64,
    pub screens: Vec<RoleScreen>,
    /// The game's rules as `tabula rules` prints them (the same for
    /// every link), sent with the first screen and after a reload.
    pub rules: Arc<String>,
}

/// What one role is shown.
pub struct RoleScreen {
    pub role: Role,
    /// The screen as a JSON object, without its log (which each
    /// connection adds: the lines it has not sent yet).
    pub json: String,
    pub downloads: bool,
    /// The log lines this role may read.
    pub log: Arc<Vec<String>>,
}

impl Published {
    pub fn for_role(&self, role: Role) -> Option<&RoleScreen> {
        self.screens.iter().find(|r| r.role == role)
    }
}

/// The async side's handle on a table.
pub struct Handle {
    pub meta: Meta,
    pub tx: mpsc::Sender<Command>,
    pub published: watch::Receiver<Arc<Published>>,
    /// The pages open at the table, by link.
    pub places: Places,
}

struct Table {
    meta: Meta,
    session: Session,
    state_dir: PathBuf,
    version: u64,
    epoch: u64,
    connected: Vec<usize>,
    moved_at: Vec<usize>,
    undo: Option<UndoAsk>,
    notice: Option<Notice>,
    /// The bots stop after an error (until the next change), rather than
    /// failing again and again.
    bots_stuck: bool,
    rules: Arc<String>,
    /// Closed by the host: the last screen says so.
    closed: bool,
    out: watch::Sender<Arc<Published>>,
    /// The server's budget: a bot thinks in a place taken there.
    thinking: Arc<Thinking>,
}

/// How long a table waits for a place to think before it looks at its
/// commands again.
const THINK_WAIT: std::time::Duration = std::time::Duration::from_millis(25);

/// A game's rules for its pages: as `tabula rules` prints them, with
/// headings that name no command-line flag.
fn rules_text(d: &crate::definition::Def) -> String {
    crate::text::rules_text(d, "Parameters", "Variants")
}

/// Whether a game may be played on under rules edited since its moves
/// were made: the host's reload, and a restart that finds the rules
/// edited, alike. Not once it is over: its save (the seed, so every
/// hidden card) has been anyone's to download since, and a game reopened
/// under new rules would be played knowing it.
pub fn rules_may_change(over: bool) -> Result<(), String> {
    match over {
        true => Err(
            "the game is over: open a new table from its save to play it under the new rules"
                .into(),
        ),
        false => Ok(()),
    }
}

/// Start a table's thread; the handle the connections use.
pub fn start(
    meta: Meta,
    session: Session,
    state_dir: PathBuf,
    thinking: Arc<Thinking>,
) -> std::io::Result<Arc<Handle>> {
    let n = session.seats.len();
    let (tx, mut rx) = mpsc::channel::<Command>(64);
    let (out, published) = watch::channel(Arc::new(Published {
        epoch: 0,
        screens: Vec::new(),
        rules: Arc::default(),
    }));
    let rules = Arc::new(rules_text(session.game.def()));
    let mut t = Table {
        meta: meta.clone(),
        moved_at: vec![session.log.len(); n],
        session,
        state_dir,
        version: 0,
        epoch: 0,
        connected: vec![0; n],
        undo: None,
        notice: None,
        bots_stuck: false,
        rules,
        closed: false,
        out,
        thinking,
    };
    t.publish();
    t.session.prepare_bots();
    std::thread::Builder::new()
        .name(format!("table-{}", meta.id))
        .spawn(move || t.run(&mut rx))?;
    // The host's link and each person's seat's have places of their own.
    let seats = meta.seats.iter().enumerate();
    let owners = seats.filter_map(|(p, t)| t.as_ref().map(|_| Role::Seat(p)));
    let places = Places::new(std::iter::once(Role::Host).chain(owners));
    Ok(Arc::new(Handle {
        meta,
        tx,
        published,
        places,
    }))
}

impl Table {
    fn run(&mut self, rx: &mut mpsc::Receiver<Command>) {
        loop {
            // Commands first; a bot moves only when none is waiting.
            let cmd = match rx.try_recv() {
                Ok(c) => c,
                Err(mpsc::error::TryRecvError::Empty) => {
                    if self.bot_waits() {
                        // A bot thinks in a place of the server's budget;
                        // none free: the commands, then try again.
                        let thinking = self.thinking.clone();
                        let Some(_place) = thinking.take(THINK_WAIT) else {
                            continue;
                        };
                        if self.bot_move() {
                            continue;
                        }
                    }
                    match rx.blocking_recv() {
                        Some(c) => c,
                        None => return,
                    }
                }
                Err(mpsc::error::TryRecvError::Disconnected) => return,
            };
            if !self.handle(cmd) {
                return;
            }
        }
    }

    /// Handle one command; false to stop.
    fn handle(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Move {
                seat,
                choice,
                reply,
            } => {
                let r = self.person_move(seat, &choice);
                let _ = reply.send(r);
            }
            Command::Undo { seat, agree, reply } => {
                let r = self.undo(seat, agree);
                let _ = reply.send(r);
            }
            Command::Reload { reply } => {
                let r = self.reload();
                let _ = reply.send(r);
            }
            Command::Connected { role, open } => {
                if let Role::Seat(p) = role
                    && let Some(n) = self.connected.get_mut(p)
                {
                    *n = if open { *n + 1 } else { n.saturating_sub(1) };
                    self.publish();
                }
            }
            Command::Download { role, full, reply } => {
                // Checked here, on the game as it is now, not as last published.
                if !screen::may_download(&self.session, role) {
                    let _ = reply.send(None);
                    return true;
                }
                let mut r = self.session.to_replay();
                if !full {
                    r.moves = self.session.replay.moves.clone();
                    r.seats.clear();
                }
                let _ = reply.send(Some(r.to_yaml()));
            }
            Command::Close { reply } => {
                let r = store::remove(&self.state_dir, &self.meta.id).map_err(|e| {
                    format!(
                        "the table is closed, but its files could not all be removed (they bring it back at the next start): {}",
                        e.render(false)
                    )
                });
                self.closed = true;
                self.note("The host closed this table.".into(), false);
                self.publish();
                let _ = reply.send(r);
                return false;
            }
            Command::Stop => return false,
        }
        true
    }

    fn person_move(&mut self, seat: PlayerIx, choice: &str) -> Result<(), String> {
        if !self.session.is_person(seat) {
            return Err("a bot plays this seat".into());
        }
        if self.session.state.is_over() {
            return Err("the game is over".into());
        }
        if !self.session.state.waiting().contains(&seat) {
            return Err("it is not your turn".into());
        }
        self.session
            .act(seat, choice)
            .map_err(|e| crate::error::printable(&e.message).into_owned())?;
        self.moved_at[seat] = self.session.log.len();
        // A move made meanwhile ends any undo asked before it.
        self.undo = None;
        self.changed();
        Ok(())
    }

    /// A bot is to choose (and is not stuck).
    fn bot_waits(&self) -> bool {
        !self.bots_stuck && self.session.bot_to_move().is_some()
    }

    /// One bot move, if a bot is to choose; whether one was made.
    fn bot_move(&mut self) -> bool {
        if !self.bot_waits() {
            return false;
        }
        match self.session.bot_step() {
            Ok(Some(_)) => {
                self.changed();
                true
            }
            Ok(None) => false,
            Err(e) => {
                // Said in full on the server's output: a bot's error may
                // quote what only it sees.
                eprintln!(
                    "table {}: a bot could not move: {}",
                    self.meta.id,
                    e.render(false)
                );
                self.bots_stuck = true;
                self.say(
                    "A bot could not move; the table waits (the server's output says why).".into(),
                    true,
                );
                false
            }
        }
    }

    fn undo(&mut self, seat: PlayerIx, agree: Option<bool>) -> Result<(), String> {
        if !self.session.is_person(seat) {
            return Err("only a person at the table may undo".into());
        }
        // Once over, the save (the seed, every hidden card) is everyone's.
        if self.session.state.is_over() {
            return Err("the game is over: nothing is taken back now".into());
        }
        let name = self.session.game.def().players[seat].name.clone();
        match (agree, &mut self.undo) {
            (None, Some(_)) => return Err("an undo is already asked for".into()),
            (None, None) => {
                if self.session.move_count() == 0 {
                    return Err("nothing to undo".into());
                }
                self.undo = Some(UndoAsk {
                    by: seat,
                    agreed: Vec::new(),
                });
            }
            (Some(_), None) => return Err("no undo is asked for".into()),
            (Some(false), Some(_)) => {
                self.undo = None;
                self.say(format!("{name} declined the undo."), false);
                return Ok(());
            }
            (Some(true), Some(u)) => {
                if u.by != seat && !u.agreed.contains(&seat) {
                    u.agreed.push(seat);
                }
            }
        }
        let all = self
            .undo
            .as_ref()
            .is_some_and(|u| screen::undo_waiting(&self.session, u).next().is_none());
        if !all {
            self.publish();
            return Ok(());
        }
        self.undo = None;
        match self.session.undo() {
            Ok(true) => {
                let turn = self.session.state.turn();
                self.note(format!("Undone: back to turn {turn}."), false);
                self.rewritten();
            }
            Ok(false) => self.say("Nothing to undo.".into(), false),
            Err(e) => {
                eprintln!("table {}: undo failed: {}", self.meta.id, e.render(false));
                self.say("The undo failed; the game is as it was.".into(), true);
            }
        }
        Ok(())
    }

    /// The REPL's `reload`: on any error the game is kept as it was.
    fn reload(&mut self) -> Result<(), String> {
        rules_may_change(self.session.state.is_over())?;
        // Said with the outcome: an edit to a built-in game's copy is not
        // what a reload reads.
        let built_in = self
            .session
            .built_in_note(false)
            .map_or(String::new(), |n| format!(" {n}"));
        match self.session.reload() {
            Ok(Reloaded::Same) => {
                self.note(
                    format!("Rules reloaded: nothing in this game changed.{built_in}"),
                    false,
                );
                self.rewritten();
            }
            Ok(Reloaded::Diverged { after, changes }) => {
                let shown: Vec<&str> = changes.iter().take(8).map(String::as_str).collect();
                let more = changes.len().saturating_sub(8);
                let more = if more > 0 {
                    format!(" (and {more} more)")
                } else {
                    String::new()
                };
                self.note(
                    format!(
                        "Rules reloaded: the game differs from move {after} on: {}{more}.{built_in}",
                        shown.join("; ")
                    ),
                    false,
                );
                self.rewritten();
            }
            // The error may quote a move of the open decision (a secret
            // choice, a hand's options): it goes to the host alone.
            Err(e) => {
                self.say(
                    "Reload failed: the game is kept under the rules it had (the host is told why).".into(),
                    true,
                );
                return Err(format!(
                    "Reload failed, the game is kept: {}",
                    e.render(false)
                ));
            }
        }
        Ok(())
    }

    /// After an undo or a reload: the log was rewritten (and the rules
    /// may be new).
    fn rewritten(&mut self) {
        self.rules = Arc::new(rules_text(self.session.game.def()));
        self.epoch += 1;
        let len = self.session.log.len();
        for m in &mut self.moved_at {
            *m = (*m).min(len);
        }
        self.changed();
    }

    fn say(&mut self, text: String, error: bool) {
        self.note(text, error);
        self.publish();
    }

    /// The table's word to everyone, shown with the next publication.
    fn note(&mut self, text: String, error: bool) {
        let seq = self.notice.as_ref().map_or(1, |n| n.seq + 1);
        self.notice = Some(Notice { seq, text, error });
    }

    /// The game changed: save it, and tell everyone.
    fn changed(&mut self) {
        self.bots_stuck = false;
        let mut saved = store::save(&self.state_dir, &self.meta, &self.session);
        // The end is marked before anyone is shown it (and may download
        // the save): a restart under edited rules then knows the seed was
        // given out.
        if saved.is_ok() && self.session.state.is_over() && !self.meta.over {
            self.meta.over = true;
            saved = store::write_links(&self.state_dir, &self.meta);
        }
        if let Err(e) = saved {
            self.note(format!("the table could not be saved: {}", e.message), true);
        }
        self.publish();
    }

    fn publish(&mut self) {
        self.version += 1;
        let def = self.session.game.def();
        let links = Links {
            seats: (def.players.iter().zip(&self.meta.seats))
                .map(|(p, t)| (p.id.clone(), t.as_ref().map(|t| format!("/t/{t}"))))
                .collect(),
            spectator: format!("/t/{}", self.meta.spectator),
        };
        let show = TableShow {
            id: &self.meta.id,
            version: self.version,
            connected: &self.connected,
            undo: self.undo.as_ref(),
            notice: self.notice.as_ref(),
            moved_at: &self.moved_at,
            links: Some(links),
            closed: self.closed,
        };
        let mut roles = vec![Role::Host, Role::Spectator];
        roles.extend((0..self.session.seats.len()).map(Role::Seat));
        // Host and spectator read the same log: phrased once for both.
        let public = Arc::new(screen::log_lines(&self.session, None));
        let screens = roles
            .into_iter()
            .map(|r| {
                let json = serde_json::to_string(&screen::screen(&self.session, &show, r))
                    .unwrap_or_default();
                let log = match r.viewer() {
                    None => public.clone(),
                    v => Arc::new(screen::log_lines(&self.session, v)),
                };
                RoleScreen {
                    role: r,
                    json,
                    downloads: screen::may_download(&self.session, r),
                    log,
                }
            })
            .collect();
        let _ = self.out.send(Arc::new(Published {
            epoch: self.epoch,
            screens,
            rules: self.rules.clone(),
        }));
    }
}
