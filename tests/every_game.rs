//! What every game must do, checked the same way for all of them (in the
//! manner of OpenSpiel's generic tests), one test a property. The games
//! are every game file found in the games folders (games/,
//! examples/*/games, tests/reference/games, tests/games), each as it
//! stands and with each of its variants, plus a few settings worth a case
//! of their own: a game added to any of those folders is held to every
//! property with no list to edit.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use tabula::bot::{Bot, RandomBot};
use tabula::format::Visibility;
use tabula::replay::Replay;
use tabula::view::{ZoneView, view};
use tabula::{Build, Compile, Game, Settings, State};

use crate::common;

/// A shipped game's id, variants and parameter settings.
type Setting = (
    &'static str,
    &'static [&'static str],
    &'static [(&'static str, i64)],
);

/// Settings besides each variant alone that deserve a case: players
/// counts and variant combinations.
const EXTRA: &[Setting] = &[
    ("the-path", &[], &[("players", 3)]),
    ("the-path", &[], &[("players", 4)]),
    ("the-path", &["short-path", "hand-limit-3"], &[]),
    ("braverats", &["draft", "traitor", "lucky-draw"], &[]),
];

/// Decisions after which a random game counts as endless.
const ENDLESS: u32 = 20_000;

/// Decisions the search bots make in `Property::BotsPlay`.
const SEARCHED: u32 = 8;

/// One game file with one setting of its variants and parameters.
struct Case {
    path: PathBuf,
    dir: PathBuf,
    settings: Settings,
}

impl Case {
    fn id(&self) -> String {
        self.path
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned()
    }

    fn load(&self, build: Build) -> Game {
        Game::load_path(&self.path, &self.dir, &self.settings, build)
            .unwrap_or_else(|e| panic!("{self}: {}", e.render(false)))
    }

    /// How many seeded games a property plays: half for more than two
    /// players, whose games are longer.
    fn games(&self, game: &Game, base: u64) -> u64 {
        if game.def().nplayers() > 2 {
            base.div_ceil(2)
        } else {
            base
        }
    }
}

impl std::fmt::Display for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let rel = self.path.strip_prefix(common::root()).unwrap_or(&self.path);
        write!(f, "{}", rel.display())?;
        if !self.settings.variants.is_empty() {
            write!(f, " {:?}", self.settings.variants)?;
        }
        for (k, v) in &self.settings.sets {
            write!(f, " {k}={v:?}")?;
        }
        Ok(())
    }
}

/// Every games folder: the shipped games, the examples', the reference
/// games and the test games.
fn folders() -> Vec<PathBuf> {
    let root = common::root();
    let mut dirs = vec![
        root.join("games"),
        root.join("tests/reference/games"),
        root.join("tests/games"),
    ];
    dirs.extend(common::example_dirs());
    dirs
}

/// Every case, found once a test process.
static CASES: LazyLock<Vec<Case>> = LazyLock::new(cases);

/// Every case: each game file as it stands, with each variant, and the
/// extra settings of `EXTRA`.
fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for (path, dir) in common::game_files(&folders()) {
        let base = Case {
            path: path.clone(),
            dir: dir.clone(),
            settings: Settings::default(),
        };
        let variants: Vec<String> = base
            .load(Build::default())
            .def()
            .variants
            .iter()
            .map(|v| v.id.clone())
            .collect();
        let id = base.id();
        out.push(base);
        for v in variants {
            out.push(Case {
                path: path.clone(),
                dir: dir.clone(),
                settings: common::settings(&[v.as_str()], &[]),
            });
        }
        for (_, vs, sets) in EXTRA.iter().filter(|(f, _, _)| *f == id) {
            if dir == common::games_dir() {
                out.push(Case {
                    path: path.clone(),
                    dir: dir.clone(),
                    settings: common::settings(vs, sets),
                });
            }
        }
    }
    out
}

/// What every game must do.
#[derive(Clone, Copy, Debug)]
enum Property {
    /// Seeded random games end within `ENDLESS` decisions, with no error.
    Ends,
    /// No move makes or loses a card.
    ConservesCards,
    /// No view shows a card its viewer may not see, and a view is the same
    /// whatever the cards hidden from its viewer are.
    LeaksNothing,
    /// The moves played, replayed from the seed (and through the save
    /// format), give the same game.
    ReplaysEqual,
    /// Playouts that replay recorded hook runs (the memo) end as games
    /// running every hook do, and a game built without the memo simulates
    /// the same.
    MemoEqual,
    /// Every hook run in the tree tier alone runs as Rhai runs it
    /// (`Compile::CheckTree` compares each run, operations too), and the
    /// same games end alike in the tree tier and not.
    TiersEqual,
    /// Every hook run as games run by default (the typed VM over the tree
    /// tier) runs as in Rhai (`Compile::Check`), and the same games end
    /// alike in the VM and not.
    VmEqual,
    /// Every hook run with native code where a function has it (`--jit`)
    /// runs as in Rhai (`Compile::CheckJit`), and the same games end
    /// alike with it and not.
    #[cfg(feature = "jit")]
    JitEqual,
    /// The search bot plays a whole game in every seat.
    BotsPlay,
}

/// Check `property` on every case, naming the case and seed that fails.
fn holds(property: Property) {
    assert!(CASES.len() >= 40, "only {} cases found", CASES.len());
    for case in CASES.iter() {
        check(property, case);
    }
}

fn check(property: Property, case: &Case) {
    match property {
        Property::Ends | Property::ConservesCards | Property::LeaksNothing => {
            let game = case.load(Build::default());
            let watch = Watch {
                views: matches!(property, Property::LeaksNothing),
                cards: matches!(property, Property::ConservesCards),
            };
            for seed in 0..case.games(&game, 40) {
                play_watched(case, &game, seed, seed + 1000, watch);
            }
        }
        Property::ReplaysEqual => {
            let game = case.load(Build::default());
            for seed in 0..case.games(&game, 20) {
                let watch = Watch {
                    views: false,
                    cards: false,
                };
                let (moves, st) = play_watched(case, &game, seed, seed + 1000, watch);
                replays_equal(case, &game, seed, moves, &st);
            }
        }
        Property::MemoEqual => memo_equal(case),
        Property::TiersEqual => tiers_equal(case, Compile::CheckTree, Compile::Tree),
        Property::VmEqual => tiers_equal(case, Compile::Check, Compile::On),
        #[cfg(feature = "jit")]
        Property::JitEqual => tiers_equal(case, Compile::CheckJit, Compile::Jit),
        Property::BotsPlay => {
            // The search bots make the first SEARCHED decisions, random
            // bots the rest: a search on Othello takes seconds a move in
            // this build (issue 54), and what is checked is that the
            // search chooses, legally, wherever it is asked.
            let game = case.load(Build::default());
            let (mut st, _) = State::new(&game, 7).unwrap_or_else(|e| panic!("{case}: {e}"));
            let n = game.def().nplayers();
            let mut search: Vec<Box<dyn Bot>> = (0..n)
                .map(|p| tabula::bot::make("mcts:20", 7 + p as u64).unwrap())
                .collect();
            let mut random = RandomBot::new(7);
            let mut decisions = 0;
            while let Some(p) = st.first_waiting() {
                assert!(decisions < ENDLESS, "{case}: the bots' game did not end");
                let c = if decisions < SEARCHED {
                    search[p].choose(&game, &st, p)
                } else {
                    random.choose(&game, &st, p)
                };
                let c = c.unwrap_or_else(|| panic!("{case}: no choice at decision {decisions}"));
                assert!(st.legal(p).contains(&c), "{case}: an illegal choice {c:?}");
                st.act(&game, p, c)
                    .unwrap_or_else(|e| panic!("{case}, decision {decisions}: {e}"));
                decisions += 1;
            }
        }
    }
}

#[test]
fn every_game_ends() {
    holds(Property::Ends);
}

#[test]
fn every_game_conserves_its_cards() {
    holds(Property::ConservesCards);
}

#[test]
fn every_game_leaks_nothing() {
    holds(Property::LeaksNothing);
}

#[test]
fn every_game_replays_equal() {
    holds(Property::ReplaysEqual);
}

#[test]
fn every_game_plays_alike_with_the_memo_and_without() {
    holds(Property::MemoEqual);
}

#[test]
fn every_game_plays_alike_compiled_and_in_rhai() {
    holds(Property::TiersEqual);
}

#[test]
fn every_game_plays_alike_in_the_vm_and_in_rhai() {
    holds(Property::VmEqual);
}

#[cfg(feature = "jit")]
#[test]
fn every_game_plays_alike_with_native_code_and_in_rhai() {
    holds(Property::JitEqual);
}

#[test]
fn the_search_bot_plays_every_game() {
    holds(Property::BotsPlay);
}

/// Every card in every zone, counted.
fn census(game: &Game, st: &State) -> BTreeMap<usize, usize> {
    let mut m = BTreeMap::new();
    for z in 0..game.def().zones.len() {
        for p in game.def().owners(z) {
            for &c in st.zone(game, z, p) {
                *m.entry(c as usize).or_default() += 1;
            }
        }
    }
    m
}

/// No view shows another player's owner-only zone or any hidden zone, and
/// a state whose hidden cards are dealt otherwise looks the same.
fn check_views(case: &Case, game: &Game, st: &State, seed: u64) {
    for viewer in 0..game.def().nplayers() {
        let v = view(game, st, Some(viewer)).unwrap();
        for zone in &game.def().zones {
            for (owner, zv) in &v.zones[&zone.id] {
                let mine = owner == &game.def().players[viewer].id;
                let may_see = match zone.visibility {
                    Visibility::Public => true,
                    Visibility::Owner => mine,
                    Visibility::Hidden => false,
                };
                // Cards a viewer knows (shown to them, or passed by
                // them) are the only ones a hidden zone shows.
                if let ZoneView::Known { known, .. } = zv {
                    let z = game.def().zone(&zone.id).unwrap();
                    let slot = game.def().slot(z, game.def().place(z, owner).unwrap_or(0));
                    let knows: Vec<String> = (st.slot(slot).iter().enumerate())
                        .filter(|&(i, _)| st.knows(slot, i, Some(viewer)))
                        .map(|(_, &c)| game.def().cards[c as usize].id.clone())
                        .collect();
                    assert_eq!(known, &knows, "{case} seed {seed}: {} of {owner}", zone.id);
                }
                assert!(
                    may_see || matches!(zv, ZoneView::Count { .. } | ZoneView::Known { .. }),
                    "{case} seed {seed}: shows {owner}'s {} to {}",
                    zone.id,
                    game.def().players[viewer].id
                );
            }
        }
        let other = st.resample(game, viewer, &mut ChaCha8Rng::seed_from_u64(seed));
        let mut a = v;
        let mut b = view(game, &other, Some(viewer)).unwrap();
        // A secret choice already made shows as "(chosen)" only in `a`.
        if let (Some(da), Some(db)) = (&mut a.decision, &mut b.decision) {
            for d in [da, db] {
                d.chosen.clear();
                d.waiting.clear();
                d.options.clear();
            }
        }
        assert_eq!(a, b, "{case} seed {seed}: a view depends on hidden cards");
    }
}

/// What a watched game checks as it goes, besides that it ends without
/// an error: what each player's view shows (every fifth move), and that
/// every move keeps the cards.
#[derive(Clone, Copy)]
struct Watch {
    views: bool,
    cards: bool,
}

/// A game from `seed` between random bots seeded by `bots`, watched as
/// `watch` says; the moves, grouped by decision, and the state at the end.
fn play_watched(
    case: &Case,
    game: &Game,
    seed: u64,
    bots: u64,
    watch: Watch,
) -> (Vec<Vec<(String, String)>>, State) {
    let (mut st, _) = State::new(game, seed).unwrap_or_else(|e| panic!("{case}: {e}"));
    let mut start = census(game, &st);
    let mut bot = RandomBot::new(bots);
    let mut moves: Vec<Vec<(String, String)>> = Vec::new();
    let mut n = 0;
    while st.decision().is_some() {
        // One decision's choices, until it is resolved (a choice forced
        // with `forced_moves: auto` is no one's move).
        let mut m = Vec::new();
        while let Some(p) = st.first_waiting() {
            if watch.views && n % 5 == 0 {
                check_views(case, game, &st, seed);
            }
            let c = bot.choose(game, &st, p).unwrap();
            m.push((game.def().players[p].id.clone(), c.text(game).to_string()));
            let (game_no, completed) = (st.game_no(), st.completed());
            if let Err(e) = st.act(game, p, c) {
                panic!("{case} seed {seed}: {}", e.render(false));
            }
            if watch.cards {
                if st.game_no() != game_no {
                    // The next game of a match: its setup deals anew (the
                    // cards a match keeps stay where they are).
                    start = census(game, &st);
                }
                assert_eq!(
                    census(game, &st),
                    start,
                    "{case} seed {seed}: cards changed"
                );
            }
            n += 1;
            if st.completed() != completed {
                break;
            }
        }
        moves.push(m);
        assert!(n < ENDLESS, "{case} seed {seed}: no end");
    }
    assert!(st.is_over(), "{case} seed {seed}");
    (moves, st)
}

/// The moves of a game from `seed` that ended in `st`, replayed, end in
/// the same state, and come back through the save format unchanged.
fn replays_equal(
    case: &Case,
    game: &Game,
    seed: u64,
    moves: Vec<Vec<(String, String)>>,
    st: &State,
) {
    let r = Replay {
        game: case.id(),
        settings: case.settings.clone(),
        seed,
        moves,
        ..Replay::default()
    };
    let again = tabula::replay::play(&r, None, &case.dir)
        .unwrap_or_else(|e| panic!("{case} seed {seed}: {}", e.render(false)));
    assert_eq!(
        view(game, st, None).unwrap(),
        view(&again.game, &again.state, None).unwrap(),
        "{case} seed {seed}"
    );
    // And through the save format.
    let parsed = Replay::parse(Path::new("x.yaml"), &r.to_yaml()).unwrap();
    assert_eq!(parsed.moves, r.moves, "{case} seed {seed}");
}

/// A random game, watched (every hook through the script) or quiet (the
/// memo replays what it recorded): the final public view and turn, or the
/// first error.
pub fn play_random(game: &Game, seed: u64, quiet: bool) -> Result<(String, u32), String> {
    let st = common::try_play_random(game, seed, seed ^ 0x5EED, quiet)?;
    let v = serde_json::to_string(&view(game, &st, None).unwrap()).unwrap();
    Ok((v, st.turn()))
}

fn memo_equal(case: &Case) {
    let with = case.load(Build::default());
    let without = case.load(Build {
        memo: false,
        ..Build::default()
    });
    assert!(without.memo_stats().is_none(), "{case}: no memo");
    // Both quiet: a watched game evaluates its log lines, which a script
    // may count (tests/games/auction.yaml does).
    for seed in 0..case.games(&with, 40) {
        assert_eq!(
            play_random(&with, seed, true),
            play_random(&without, seed, true),
            "{case} seed {seed}"
        );
    }
    let (a, b) = tallies(&with, &without, case.games(&with, 60), 9, 2);
    assert_eq!(a, b, "{case}: with the memo and without");
    assert!(a.errors.is_empty(), "{case}: {:?}", a.errors);
}

/// The tallies of the same `games` random games from `seed` on `jobs`
/// threads, of a game built with the memo and of one built without it.
fn tallies(
    with: &Game,
    without: &Game,
    games: u64,
    seed: u64,
    jobs: usize,
) -> (tabula::sim::Tally, tabula::sim::Tally) {
    let cfg = tabula::sim::SimConfig {
        games,
        seed,
        bots: vec!["random".into(); with.def().nplayers()],
        jobs,
        max_decisions: 100_000,
        shard: None,
    };
    let run = |g| tabula::sim::run(g, &cfg, &|_| {}).unwrap();
    (run(with), run(without))
}

/// Each hook run compared (`check`), and the same games played with
/// `fast` and in Rhai.
fn tiers_equal(case: &Case, check: Compile, fast: Compile) {
    for memo in [false, true] {
        let checked = case.load(Build {
            memo,
            compile: check,
        });
        for seed in 0..case.games(&checked, 20) {
            if let Err(e) = play_random(&checked, seed, memo) {
                // A difference is an error of its own words; a game's own
                // error must be the same both ways.
                assert!(
                    !e.contains("differs from Rhai"),
                    "{case} seed {seed} (memo {memo}): {e}"
                );
            }
        }
    }
    // The check itself can fail: the same games end alike compiled and not.
    let plain = |compile| {
        case.load(Build {
            memo: false,
            compile,
        })
    };
    let (on, off) = (plain(fast), plain(Compile::Off));
    for seed in 0..case.games(&on, 10) {
        assert_eq!(
            play_random(&on, seed, false),
            play_random(&off, seed, false),
            "{case} seed {seed}"
        );
    }
}

proptest! {
    // No regressions file: a case is an index into the games found, which
    // shifts as games are added, so a saved failure would not replay.
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// For any seed, any case and any random bots, the game ends, keeps
    /// its cards, replays and hides.
    #[test]
    fn any_seeded_game_ends_conserves_replays_and_hides(case in 0..1000usize, seed in any::<u64>(), bots in any::<u64>()) {
        let case = &CASES[case % CASES.len()];
        let game = case.load(Build::default());
        let watch = Watch { views: true, cards: true };
        let (moves, st) = play_watched(case, &game, seed, bots, watch);
        replays_equal(case, &game, seed, moves, &st);
    }
}
