//! `tabula play`: a game in the terminal, one person against bots or several
//! people hot-seat. When stdin is not a terminal the same commands are read
//! line by line, so whole sessions can be scripted. Here: the seats, the
//! loop and the commands' dispatch; what is shown in `screen`, undo, save,
//! load and reload in `saves`.

use std::cell::RefCell;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::{Config, Editor};

mod saves;
mod screen;

use super::GameArgs;
use super::line::{LineHelper, Words};
use tabula::bot::{self, best};
use tabula::core::below;
use tabula::definition::PlayerIx;
use tabula::error::{Error, Result, did_you_mean};
use tabula::session::{Seat, Session};

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// A game id in the games folder, or a path to a game file.
    #[arg(
        add = clap_complete::ArgValueCandidates::new(super::complete::games),
        required_unless_present = "from"
    )]
    pub game: Option<String>,
    /// Play from this position file (or a save: as `load` in the REPL);
    /// the game, variants, parameters and seed are the file's.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "variants", "sets", "seed"])]
    pub from: Option<PathBuf>,
    #[command(flatten)]
    pub args: GameArgs,
    /// Seed of the game's RNG (default: from the clock; shown at the start).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The seat you take (default: drawn with the seed).
    #[arg(long = "as", value_name = "PLAYER")]
    pub seat: Option<String>,
    /// A bot (random) or `human` on a seat; repeatable. Without --as, the
    /// seats no --bot names are people at this keyboard (hot-seat).
    #[arg(long = "bot", value_name = "P=KIND", value_parser = parse_bot)]
    pub bots: Vec<(String, String)>,
    /// Every seat is a person at this keyboard.
    #[arg(long)]
    pub hot_seat: bool,
}

pub(super) fn parse_bot(s: &str) -> std::result::Result<(String, String), String> {
    let (p, k) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}`: expected PLAYER=KIND"))?;
    Ok((p.trim().to_string(), k.trim().to_string()))
}

/// Unreadable lines in a row before the input is taken as broken.
const MAX_UNREADABLE: usize = 100;

use tabula::play::commands::COMMANDS;

const HELP: &str = "\
Type a choice by name, alias or unambiguous prefix (Tab completes);
several at once (a pick) in one line, with spaces between.
Commands:
  state         the game as you see it
  rules         the rules text
  cards         the cards and what they do
  log           everything that happened so far
  undo [N]      take back your last decision (or N of them)
  save FILE     save the game (replay format); asks before replacing a file
                (with piped input, a file this game did not write is kept)
  save-position FILE   save the game as it stands (a position file, for
                `play --from`, `sim --from`, `solve --from`)
  load FILE     load a saved game; asks first if this one has unsaved moves
  new           a new game with the same settings and another seed; asks
                first if this one has unsaved moves
  reload        re-read the rules files, replay the moves, say what changed
  quit          leave (Ctrl-D too; Ctrl-C cancels the line)
A command always wins over a choice of the same name: a card called
`quit` is played in quotes, `\"quit\"` (a line in quotes is always a choice).
`:save FILE` is `save FILE` too.";

/// ANSI styles, off when NO_COLOR is set or stdout is not a terminal.
#[derive(Clone, Copy)]
struct Style {
    on: bool,
}

impl Style {
    fn paint(self, code: &str, s: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
    fn bold(self, s: &str) -> String {
        self.paint("1", s)
    }
    fn dim(self, s: &str) -> String {
        self.paint("2", s)
    }
    fn red(self, s: &str) -> String {
        self.paint("31", s)
    }
    fn green(self, s: &str) -> String {
        self.paint("32", s)
    }
    fn cyan(self, s: &str) -> String {
        self.paint("36", s)
    }
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() ^ u64::from(d.subsec_nanos()))
}

pub fn run(dir: &Path, a: PlayArgs) -> Result<i32> {
    let seed = a.seed.unwrap_or_else(clock_seed);
    let mut s = match (&a.from, &a.game) {
        (Some(file), _) => {
            let r = tabula::replay::Replay::read(file)?;
            Session::from_replay(dir, r, Some(file), Vec::new())?
        }
        (None, Some(game)) => Session::new(dir, game, a.args.settings(), seed, Vec::new())?,
        (None, None) => return Err(Error::usage("name a game, or a position with --from")),
    };
    s.seats = seats(&s, &a)?;
    s.prepare_bots();
    let mut repl = Repl::new(s);
    repl.welcome();
    repl.run()
}

/// Who plays each seat, from --as, --bot and --hot-seat.
fn seats(s: &Session, a: &PlayArgs) -> Result<Vec<Seat>> {
    let def = &s.game.def();
    let n = def.nplayers();
    let seat_of = |id: &str| super::player_of(def, id);
    let mut given: Vec<Option<Seat>> = vec![None; n];
    for (p, k) in &a.bots {
        let i = seat_of(p)?;
        given[i] = Some(Seat::parse(k)?.ok_or_else(|| {
            Error::usage(format!(
                "unknown bot kind `{k}` (kinds: human, {})",
                bot::KINDS.join(", ")
            ))
        })?);
    }
    let strongest = Seat::Bot(bot::default_kind().map_err(Error::usage)?);
    let rest = if a.hot_seat || (a.seat.is_none() && !a.bots.is_empty()) {
        Seat::Person
    } else {
        strongest
    };
    if let Some(me) = &a.seat {
        let i = seat_of(me)?;
        if let Some(Seat::Bot(k)) = &given[i] {
            return Err(Error::usage(format!(
                "--as {me} and --bot {me}={k} name the same seat: a person or a bot, not both"
            )));
        }
        given[i] = Some(Seat::Person);
    } else if a.bots.is_empty() && !a.hot_seat {
        // E1: a person's seat is drawn, from a stream of its own so that
        // the game's RNG is the same whichever seat they take.
        let me = below(
            &mut ChaCha8Rng::seed_from_u64(s.replay.seed ^ 0x5EA7),
            n as u64,
        ) as usize;
        given[me] = Some(Seat::Person);
    }
    Ok(given
        .into_iter()
        .map(|g| g.unwrap_or_else(|| rest.clone()))
        .collect())
}

struct Repl {
    s: Session,
    style: Style,
    words: Rc<RefCell<Words>>,
    interactive: bool,
    /// The last board shown: (position, viewer), to show it again only when new.
    shown: Option<((usize, usize), Option<PlayerIx>)>,
    announced_end: bool,
    /// The last decision announced: (position, player).
    announced: Option<((usize, usize), PlayerIx)>,
    /// Hot-seat: the person who last had the keyboard.
    at_keyboard: Option<PlayerIx>,
    /// Hot-seat: private lines waiting for their reader.
    private: Vec<Vec<String>>,
    /// Where this session last saved (saving there again asks nothing).
    saved_to: Option<PathBuf>,
    /// What a `best` bot was last said to play (None: no such bot).
    best_plays: Option<best::Plays>,
}

impl Repl {
    fn new(s: Session) -> Repl {
        let color = std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal();
        let n = s.game.def().nplayers();
        Repl {
            s,
            style: Style { on: color },
            words: Rc::new(RefCell::new(Words {
                commands: COMMANDS.to_vec(),
                color,
                ..Words::default()
            })),
            interactive: std::io::stdin().is_terminal(),
            shown: None,
            announced_end: false,
            announced: None,
            at_keyboard: None,
            private: vec![Vec::new(); n],
            saved_to: None,
            best_plays: None,
        }
    }

    /// Where the game is: decisions completed, choices in the current one.
    fn position(&self) -> (usize, usize) {
        (self.s.replay.moves.len(), self.s.current.len())
    }

    fn hot_seat(&self) -> bool {
        self.s.people().len() > 1
    }

    /// The viewer for the board: the one person, or whoever is to choose.
    fn viewer(&self, deciding: Option<PlayerIx>) -> Option<PlayerIx> {
        let people = self.s.people();
        if people.len() == 1 {
            Some(people[0])
        } else {
            deciding
        }
    }

    fn run(&mut self) -> Result<i32> {
        // Forced: the helper's highlighting is what masks a secret choice;
        // it adds no colour of its own unless colour is on.
        // Tab completes what all choices share, and a second Tab lists
        // them (as a shell does) rather than cycling through them one by one.
        let config = Config::builder()
            .auto_add_history(false)
            .completion_type(rustyline::CompletionType::List)
            .color_mode(rustyline::ColorMode::Forced)
            .build();
        let mut rl: Editor<LineHelper, DefaultHistory> =
            Editor::with_config(config).map_err(|e| Error::usage(format!("terminal: {e}")))?;
        rl.set_helper(Some(LineHelper::new(self.words.clone())));
        // Outside line editing (while bots think) Ctrl-C is a signal: count
        // it instead of dying with the game. (Already set: keep that one.)
        let _ = ctrlc::set_handler(|| {
            INTERRUPTS.fetch_add(1, Ordering::SeqCst);
        });
        let history = history_file();
        if self.interactive
            && let Some(h) = &history
        {
            let _ = rl.load_history(h);
        }
        let code = self.lines(&mut rl);
        if self.interactive
            && let Some(h) = &history
        {
            if let Some(d) = h.parent() {
                let _ = std::fs::create_dir_all(d);
            }
            let _ = rl.save_history(h);
        }
        code
    }

    fn lines(&mut self, rl: &mut Editor<LineHelper, DefaultHistory>) -> Result<i32> {
        // Lines in a row that could not be read: past a few, the input is
        // broken rather than one bad line.
        let mut unreadable = 0;
        loop {
            // Bots choose as soon as no person is to; Ctrl-C pauses them
            // after the decision in progress (it never ends the game).
            loop {
                if INTERRUPTS.swap(0, Ordering::SeqCst) > 0 {
                    println!(
                        "{}",
                        self.style.dim(
                            "(Ctrl-C never ends a game: the bots stop after the decision they were making; Enter lets them go on, `quit` or Ctrl-D leave with the offer to save.)"
                        )
                    );
                    break;
                }
                let thinking = self.s.bot_to_move().filter(|_| self.interactive);
                if let Some(p) = thinking {
                    // On a terminal only, and erased once the bot has chosen.
                    let name = &self.s.game.def().players[p].name;
                    print!("{}", self.style.dim(&format!("({name} is thinking...)")));
                    let _ = std::io::Write::flush(&mut std::io::stdout());
                }
                let step = self.s.bot_step();
                if thinking.is_some() {
                    print!("\r\x1b[K");
                }
                match step {
                    Ok(Some((_, events))) => {
                        self.print_events(&events);
                        self.say_best_switch();
                    }
                    Ok(None) => break,
                    Err(e) => {
                        println!("{}", self.style.red(&format!("error: {e}")));
                        break;
                    }
                }
            }
            let deciding = self
                .s
                .state
                .waiting()
                .into_iter()
                .find(|&p| self.s.is_person(p));
            let secret =
                self.hot_seat() && self.s.state.decision().is_some_and(|d| d.players.len() > 1);
            let prompt = match deciding {
                Some(p) => {
                    if self.hot_seat() && self.at_keyboard != Some(p) {
                        self.hand_off(p, rl);
                    }
                    self.show_board(self.viewer(Some(p)));
                    if self.announced != Some((self.position(), p)) {
                        self.announced = Some((self.position(), p));
                        self.announce_decision(p);
                    }
                    format!("{}> ", self.s.game.def().players[p].id)
                }
                None => {
                    if self.s.state.is_over() && !self.announced_end {
                        self.announced_end = true;
                        self.show_board(self.viewer(None));
                        println!(
                            "{} {}",
                            self.style
                                .green(&format!("Game over: {}", self.outcome_text())),
                            self.style
                                .dim("(`new`, `undo`, `save FILE`, `log` or `quit`)")
                        );
                    }
                    "> ".to_string()
                }
            };
            {
                let mut w = self.words.borrow_mut();
                w.actions = deciding.map(|p| self.legal_words(p)).unwrap_or_default();
                w.pick = deciding.and_then(|p| self.pick_words(p));
                w.mask = secret;
            }
            let line = match rl.readline(&prompt) {
                Ok(l) => l,
                Err(ReadlineError::Interrupted) => {
                    println!("{}", self.style.dim("(line cancelled; `quit` leaves)"));
                    continue;
                }
                Err(ReadlineError::Eof) if self.interactive => {
                    // Ctrl-D: leaving on purpose, with the offer to save.
                    self.offer_save(rl);
                    return Ok(0);
                }
                Err(ReadlineError::Eof) => {
                    // Piped input ran out: nobody can be asked; say so.
                    if self.s.state.is_over() || !self.s.unsaved() {
                        return Ok(0);
                    }
                    eprintln!(
                        "tabula: input ended during the game; it was not saved (end the input with `save FILE` or `quit`)"
                    );
                    return Ok(1);
                }
                Err(e) if unreadable < MAX_UNREADABLE => {
                    // A line that is not text (invalid UTF-8) is skipped:
                    // the game and the lines after it go on.
                    unreadable += 1;
                    println!(
                        "{}",
                        self.style
                            .red(&format!("that line could not be read ({e}): skipped"))
                    );
                    continue;
                }
                Err(e) => {
                    eprintln!("tabula: reading input: {e}");
                    self.offer_save(rl);
                    return Ok(1);
                }
            };
            unreadable = 0;
            self.words.borrow_mut().mask = false;
            let line = line.trim().to_string();
            if line.is_empty() {
                continue;
            }
            if !secret {
                let _ = rl.add_history_entry(line.as_str());
            }
            if secret && self.interactive {
                // Hide the masked line too before the next person looks.
                print!("{CLEAR}");
                self.shown = None;
            }
            if !self.command(&line, deciding, rl)? {
                return Ok(0);
            }
        }
    }

    /// Legal choices of `p` with their aliases, for completion.
    fn legal_words(&self, p: PlayerIx) -> Vec<String> {
        let game = &self.s.game;
        let state = &self.s.state;
        // In the order the prompt lists them (a hand's order).
        let offered = tabula::text::cards::offered(game, state, p, state.legal(p));
        let mut out = Vec::new();
        for c in &offered {
            out.push(c.text(game).to_string());
        }
        for c in offered {
            if let tabula::Choice::Card(ix) = c {
                out.extend(game.def().cards[*ix as usize].aliases.iter().cloned());
            }
        }
        out
    }

    /// A pick's options and the words that type each, for Tab.
    fn pick_words(&self, p: PlayerIx) -> Option<crate::cli::line::PickWords> {
        let game = &self.s.game;
        let (pick, parts) = tabula::text::cards::pick_of(game, &self.s.state, p)?;
        let parts = (parts.iter())
            .map(|c| {
                let mut w = vec![c.text(game).to_lowercase()];
                if let tabula::Choice::Card(ix) = c {
                    w.extend(
                        game.def().cards[*ix as usize]
                            .aliases
                            .iter()
                            .map(|a| a.to_lowercase()),
                    );
                }
                w
            })
            .collect();
        Some(crate::cli::line::PickWords {
            k: pick.k as usize,
            parts,
        })
    }

    /// Run one line; false to leave.
    fn command(
        &mut self,
        line: &str,
        deciding: Option<PlayerIx>,
        rl: &mut Editor<LineHelper, DefaultHistory>,
    ) -> Result<bool> {
        // A choice in quotes is always a choice: `"quit"` plays a card
        // called quit, which `quit` never does (a command always wins).
        if let Some(choice) = quoted(line) {
            match deciding {
                Some(_) => self.act(deciding, choice),
                None => println!("no decision of yours now: `{choice}` is not played"),
            }
            return Ok(true);
        }
        // `:save`: the command, as `save` is (kept from when a card won).
        let forced = line.strip_prefix(':');
        let line = forced.unwrap_or(line);
        let (cmd, arg) = line
            .split_once(' ')
            .map_or((line, ""), |(c, a)| (c, a.trim()));
        // A file name may be quoted as in a shell: `save "my game.yaml"`.
        let arg = unquote(arg);
        let cmd_lower = cmd.to_lowercase();
        let cmd = cmd_lower.as_str();
        if COMMANDS.contains(&cmd) && !arg.is_empty() && !TAKES_ARGUMENT.contains(&cmd) {
            // `new deal` starts no game: a command that takes nothing,
            // given more, runs nothing (the words may be a choice's).
            println!(
                "`{cmd}` takes nothing after it: nothing done (a choice whose name starts with `{cmd}` is typed in quotes: `\"{line}\"`)"
            );
            return Ok(true);
        }
        match cmd {
            "help" | "?" => println!("{HELP}"),
            "quit" | "exit" => {
                self.offer_save(rl);
                return Ok(false);
            }
            "state" => {
                self.shown = None;
                self.announced = None;
                self.show_board(self.viewer(deciding));
            }
            "rules" => println!("{}", self.s.game.def().rules.trim_end()),
            "cards" => {
                let viewer = self.viewer(deciding);
                for c in &self.s.game.def().cards {
                    let aliases = if c.aliases.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", c.aliases.join(", "))
                    };
                    println!(
                        "{}{aliases} - {}",
                        self.style.bold(c.name_for(viewer)),
                        c.id
                    );
                    if !c.text.is_empty() {
                        println!("    {}", c.text);
                    }
                }
            }
            "log" => {
                let people = self.s.people();
                for e in &self.s.log {
                    let mine = e.to().is_some_and(|p| people.len() == 1 && people[0] == p);
                    if e.to().is_none() || mine {
                        println!("{}", tabula::phrase(&self.s.game, e));
                    }
                }
            }
            "undo" => self.undo(arg),
            "save" => {
                if arg.is_empty() {
                    println!("save FILE: give a file name");
                } else if self.may_write(arg, rl) {
                    match self.s.save(Path::new(arg)) {
                        Ok(n) => {
                            self.saved_to = Some(PathBuf::from(arg));
                            println!("Saved to {arg} ({n} moves).");
                        }
                        Err(e) => self.error(&e),
                    }
                }
            }
            "save-position" => {
                if arg.is_empty() {
                    println!("save-position FILE: give a file name");
                } else if self.may_write(arg, rl) {
                    let r = self.s.to_replay();
                    match tabula::rest::as_position(&self.s.game, &r)
                        .and_then(|p| p.save(Path::new(arg)))
                    {
                        Ok(()) => println!("Position saved to {arg}."),
                        Err(e) => self.error(&e),
                    }
                }
            }
            "load" => {
                if arg.is_empty() {
                    println!("load FILE: give a file name");
                } else if self.confirm(
                    self.s.unsaved(),
                    &format!("{} Load anyway? (y/N) ", self.unsaved_text()),
                    rl,
                ) {
                    self.load(Path::new(arg));
                }
            }
            "new" => {
                let seed = clock_seed();
                let question = format!("{} Start a new one anyway? (y/N) ", self.unsaved_text());
                if !self.confirm(self.s.unsaved(), &question, rl) {
                    return Ok(true);
                }
                match self.s.restart(seed) {
                    Ok(events) => {
                        // The earlier game's save is no longer this game's.
                        self.saved_to = None;
                        // A new deal is a new position to solve from.
                        self.s.prepare_bots();
                        self.reset_screen();
                        println!("A new game, seed {seed}.");
                        self.print_events(&events);
                    }
                    Err(e) => self.error(&e),
                }
            }
            "reload" => self.reload(),
            _ if forced.is_some() => {
                let mut msg = format!("unknown command `{cmd}` (type `help`)");
                if let Some(h) = did_you_mean(cmd, COMMANDS.iter().copied()) {
                    msg = format!("{msg}; {h}");
                }
                println!("{msg}");
            }
            _ => match deciding {
                Some(_) => self.act(deciding, line),
                None => {
                    let mut msg = format!("unknown command `{cmd}` (type `help`)");
                    if let Some(h) = did_you_mean(cmd, COMMANDS.iter().copied()) {
                        msg = format!("{msg}; {h}");
                    }
                    println!("{msg}");
                }
            },
        }
        Ok(true)
    }

    fn act(&mut self, deciding: Option<PlayerIx>, line: &str) {
        let Some(p) = deciding else {
            return;
        };
        match self.s.act(p, line) {
            Ok(events) => {
                if self.hot_seat()
                    && self
                        .s
                        .state
                        .decision()
                        .is_some_and(|d| d.chosen.iter().any(Option::is_some))
                {
                    println!("{}", self.style.dim("Choice made (hidden)."));
                }
                self.print_events(&events);
            }
            Err(e) => {
                let word = line.split_whitespace().next().unwrap_or(line);
                println!("{}", self.style.red(&e.to_string()));
                if let Some(h) = did_you_mean(word, COMMANDS.iter().copied())
                    && !e.to_string().contains("did you mean")
                {
                    println!("(or the command? {h})");
                }
            }
        }
    }
}

/// The commands that take something after them (`undo 2`, `save FILE`).
const TAKES_ARGUMENT: &[&str] = &["undo", "save", "save-position", "load"];

/// A whole line in quotes (`"quit"`, `'save'`): a choice, never a command.
fn quoted(line: &str) -> Option<&str> {
    let inner = unquote(line);
    (inner.len() + 2 == line.len()).then_some(inner.trim())
}

/// A command's argument without the quotes a shell would take off.
fn unquote(arg: &str) -> &str {
    for q in ['"', '\''] {
        if let Some(inner) = arg.strip_prefix(q).and_then(|a| a.strip_suffix(q)) {
            return inner;
        }
    }
    arg
}

/// Clear the screen and the terminal's scrollback (`3J`), so that scrolling
/// up shows no earlier player's hand.
const CLEAR: &str = "\x1b[H\x1b[2J\x1b[3J";

/// Ctrl-C presses not yet answered (the signal handler counts them).
static INTERRUPTS: AtomicUsize = AtomicUsize::new(0);

/// Where line history is kept across sessions: $TABULA_HISTORY, else the
/// XDG state folder.
fn history_file() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TABULA_HISTORY") {
        return Some(PathBuf::from(p));
    }
    let base = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))?;
    Some(base.join("tabula/history"))
}
