//! Shared test helpers: loading shipped games and a scenario builder that
//! reads like a ruling: set up a position, play moves, check what follows.

pub mod braverats_oracle;
mod test;

pub use test::{Test, root};

use std::path::PathBuf;

use tabula::replay::apply_move;
use tabula::{Game, Settings, State};

pub fn games_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games")
}

/// Variants and parameter values as a game is loaded with them.
pub fn settings(variants: &[&str], sets: &[(&str, i64)]) -> Settings {
    Settings {
        variants: variants.iter().map(|v| v.to_string()).collect(),
        sets: sets
            .iter()
            .map(|(k, v)| (k.to_string(), (*v).into()))
            .collect(),
    }
}

pub fn load(id: &str, variants: &[&str], sets: &[(&str, i64)]) -> Game {
    let settings = settings(variants, sets);
    match tabula::load(id, &games_dir(), &settings) {
        Ok(g) => g,
        Err(e) => panic!("{id} does not load: {}", e.render(false)),
    }
}

pub struct Scenario {
    pub game: Game,
    pub state: State,
    pub log: Vec<String>,
}

impl Scenario {
    pub fn new(id: &str, sets: &[(&str, i64)]) -> Scenario {
        let game = load(id, &[], sets);
        let (state, events) = State::new(&game, 1).expect("setup");
        let log = events.iter().map(|e| tabula::phrase(&game, e)).collect();
        Scenario { game, state, log }
    }

    pub fn stat(mut self, player: &str, stat: &str, v: i64) -> Scenario {
        self.state
            .set_stat(&self.game, player, stat, v)
            .expect("stat");
        self
    }

    /// One decision: player -> choice.
    pub fn play(mut self, choices: &[(&str, &str)]) -> Scenario {
        let m: Vec<(String, String)> = choices
            .iter()
            .map(|(p, c)| (p.to_string(), c.to_string()))
            .collect();
        match apply_move(&self.game, &mut self.state, &m) {
            Ok(events) => self
                .log
                .extend(events.iter().map(|e| tabula::phrase(&self.game, e))),
            Err(e) => panic!("move {choices:?} refused: {e}"),
        }
        self
    }

    pub fn try_play(&mut self, choices: &[(&str, &str)]) -> Result<(), tabula::Error> {
        let m: Vec<(String, String)> = choices
            .iter()
            .map(|(p, c)| (p.to_string(), c.to_string()))
            .collect();
        apply_move(&self.game, &mut self.state, &m).map(|_| ())
    }

    pub fn get(&self, player: &str, stat: &str) -> i64 {
        let d = &self.game.def();
        self.state
            .stat(&self.game, d.player(player).unwrap(), d.stat(stat).unwrap())
    }

    pub fn legal(&self, player: &str) -> Vec<String> {
        let p = self.game.def().player(player).unwrap();
        self.state
            .legal(p)
            .iter()
            .map(|c| c.text(&self.game).to_string())
            .collect()
    }

    pub fn winner(&self) -> Option<String> {
        match self.state.outcome() {
            Some(tabula::Outcome::Win(p)) => Some(self.game.def().players[p].id.clone()),
            _ => None,
        }
    }

    pub fn last_log(&self) -> &str {
        self.log.last().map(String::as_str).unwrap_or("")
    }
}

/// A temporary folder with games/ and scripts/ holding the test game that
/// uses every section (tests/games/every-section.yaml) with each
/// `(from, to)` edit applied, and its script (or `script` instead).
pub fn every_section_copy(edits: &[(&str, &str)], script: Option<&str>) -> tempfile::TempDir {
    let tests = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    let tmp = tempfile::tempdir().unwrap();
    for d in ["games", "scripts"] {
        std::fs::create_dir_all(tmp.path().join(d)).unwrap();
    }
    let mut yaml = std::fs::read_to_string(tests.join("games/every-section.yaml")).unwrap();
    for (from, to) in edits {
        assert!(yaml.contains(from), "the test game has no `{from}`");
        yaml = yaml.replacen(from, to, 1);
    }
    std::fs::write(tmp.path().join("games/every-section.yaml"), yaml).unwrap();
    let script = match script {
        Some(s) => s.to_string(),
        None => std::fs::read_to_string(tests.join("scripts/every-section.rhai")).unwrap(),
    };
    std::fs::write(tmp.path().join("scripts/every-section.rhai"), script).unwrap();
    tmp
}

/// A game from `seed` played to its end by random bots (seeded by `seed`),
/// watched (every hook through the script) or quiet (the memo replays
/// recorded runs): the two must end alike.
pub fn play_random(game: &Game, seed: u64, quiet: bool) -> State {
    try_play_random(game, seed, seed, quiet).unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

/// `play_random` with the bots seeded by `bots`, stopped after 20,000
/// decisions if it has not ended: the state, or the first error (the
/// game's own, or a difference `Compile::Check` found).
pub fn try_play_random(game: &Game, seed: u64, bots: u64, quiet: bool) -> Result<State, String> {
    use tabula::bot::{Bot, RandomBot};
    let mut st = if quiet {
        State::new_quiet(game, seed)
    } else {
        State::new(game, seed).map(|(s, _)| s)
    }
    .map_err(|e| e.render(false))?;
    let mut bot = RandomBot::new(bots);
    let mut n = 0;
    while let Some(p) = st.first_waiting() {
        let c = bot.choose(game, &st, p).ok_or("the bot found no move")?;
        st.apply_unchecked(game, p, c)
            .map_err(|e| e.render(false))?;
        n += 1;
        if n > 20_000 {
            break;
        }
    }
    Ok(st)
}

/// The test games' folder (tests/games).
pub fn test_games_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/games")
}

/// A test game by id, its problems shown if it does not load.
pub fn test_game(id: &str) -> Game {
    match tabula::load(id, &test_games_dir(), &Settings::default()) {
        Ok(g) => g,
        Err(e) => panic!("{}", e.render(false)),
    }
}

/// One move (each chooser and their option as typed), and its log lines;
/// an illegal move fails the test.
pub fn play_move(game: &Game, st: &mut State, moves: &[(&str, &str)]) -> Vec<String> {
    let m: Vec<(String, String)> = moves
        .iter()
        .map(|(p, c)| (p.to_string(), c.to_string()))
        .collect();
    match apply_move(game, st, &m) {
        Ok(events) => events.iter().map(|e| tabula::phrase(game, e)).collect(),
        Err(e) => panic!("{moves:?}: {e}"),
    }
}

/// A game folder in a temporary directory: `games/ID.yaml` holding `yaml`
/// (which names `../scripts/ID.rhai`) and `scripts/ID.rhai` holding
/// `script`; with the YAML's path.
/// `game_folder`, the game loaded from it (kept with its folder).
pub fn load_folder(id: &str, yaml: &str, script: &str) -> (tempfile::TempDir, Game) {
    let (tmp, path) = game_folder(id, yaml, script);
    let dir = tmp.path().join("games");
    let g = Game::load_path(&path, &dir, &Settings::default(), tabula::Build::default()).unwrap();
    (tmp, g)
}

pub fn game_folder(id: &str, yaml: &str, script: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::create_dir_all(tmp.path().join("scripts")).unwrap();
    let path = games.join(format!("{id}.yaml"));
    std::fs::write(&path, yaml).unwrap();
    std::fs::write(tmp.path().join(format!("scripts/{id}.rhai")), script).unwrap();
    (tmp, path)
}

/// The problem of a game file that must not load (`id`, its YAML and
/// script) whose message holds `says`, with its line (at least `line`).
pub fn refused(id: &str, yaml: &str, script: &str, says: &str, line: u32) {
    let (tmp, path) = game_folder(id, yaml, script);
    let dir = tmp.path().join("games");
    let Err(e) = Game::load_path(&path, &dir, &Settings::default(), tabula::Build::default())
    else {
        panic!("`{says}`: the file loaded")
    };
    let all: Vec<&tabula::Error> = std::iter::once(&e).chain(&e.also).collect();
    let hit = all.iter().find(|p| p.message.contains(says));
    let hit = hit.unwrap_or_else(|| panic!("no `{says}` in {}", e.render(false)));
    assert!(
        hit.at.as_ref().is_some_and(|at| at.line >= line),
        "`{says}`: no line in {}",
        e.render(false)
    );
}

/// Each example's folder of games (`examples/*/games`).
pub fn example_dirs() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path().join("games"))
        .filter(|g| g.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// Every game file in `dirs` (sorted in each), with its folder.
pub fn game_files(dirs: &[PathBuf]) -> Vec<(PathBuf, PathBuf)> {
    let mut out = Vec::new();
    for d in dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .collect();
        files.sort();
        out.extend(files.into_iter().map(|f| (f, d.clone())));
    }
    out
}

/// A position file: Breakthrough 5x4 (tests/reference/games) with Black
/// one step from the far row, to move: every move of Black's wins. Line 4
/// is the turn, 5 who is active, 6 the stats, 10 the board.
pub const BREAKTHROUGH_BLACK_WINS: &str = "\
game: breakthrough
params: {rows: 5, columns: 4}
position:
  turn: 9
  active: black
  stats: {black: {pawns: 1}, white: {pawns: 1}}
  zones:
    box: [black-pawn, black-pawn, black-pawn, black-pawn, black-pawn, black-pawn, black-pawn,
          white-pawn, white-pawn, white-pawn, white-pawn, white-pawn, white-pawn, white-pawn]
    board: {a2: [black-pawn], d1: [white-pawn]}
";
