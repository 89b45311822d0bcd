//! The OpenSpiel-shaped state API (`tabula::spiel`): on Kuhn poker,
//! Goofspiel and tic-tac-toe its tree is OpenSpiel's (figures from pyspiel
//! in tests/reference/spiel_tree.json, made by spiel_tree.py), and random
//! games of every game found in the games folders keep its promises: ids
//! and texts both ways, one tensor shape, a state read back equal from its
//! text, typed errors for bad arguments.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use tabula::error::{ErrorKind, Illegal, Refusal};
use tabula::spiel::{Current, Entry, Spiel, SpielState};
use tabula::{Build, Game, Settings};

use crate::common;

fn load(path: &Path, dir: &Path) -> Arc<Game> {
    Arc::new(
        Game::load_path(path, dir, &Settings::default(), Build::default())
            .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.render(false))),
    )
}

fn reference(file: &str) -> Arc<Game> {
    let dir = common::root().join("tests/reference/games");
    load(&dir.join(file), &dir)
}

fn figures(game: &str) -> serde_json::Value {
    let text =
        std::fs::read_to_string(common::root().join("tests/reference/spiel_tree.json")).unwrap();
    let all: serde_json::Value = serde_json::from_str(&text).unwrap();
    all[game].clone()
}

/// What a walk of every history counts (spiel_tree.py's figures).
#[derive(Default)]
struct Tree {
    counts: BTreeMap<String, u64>,
    /// Expected returns under uniform random play, chance weighted.
    uniform: Vec<f64>,
    /// Each player's information states where they act.
    infosets: Vec<BTreeSet<String>>,
    /// Every action text met (the independent count of the actions).
    texts: BTreeSet<String>,
}

/// A subtree's figures: its counts and its expected returns.
type Figures = (BTreeMap<String, u64>, Vec<f64>);

/// Walk every history from `st`; `memo` keeps a position's figures
/// (perfect information only: a subtree then depends on the position
/// alone, and information states are not counted).
fn walk(st: &SpielState, t: &mut Tree, memo: Option<&mut HashMap<String, Figures>>) -> Figures {
    let n = st.spiel().num_players();
    let mut c: BTreeMap<String, u64> = BTreeMap::new();
    let add = |c: &mut BTreeMap<String, u64>, k: &str, v: u64| *c.entry(k.into()).or_default() += v;
    add(&mut c, "histories", 1);
    let key = st.observation_string(0).unwrap();
    let mut memo = memo;
    if let Some(m) = memo.as_deref_mut()
        && !st.is_chance_node()
        && let Some(hit) = m.get(&key)
    {
        return hit.clone();
    }
    let mut ev = vec![0.0; n];
    let mut children: Vec<(f64, SpielState)> = Vec::new();
    match st.current() {
        Current::Terminal => {
            let r = st.returns();
            add(&mut c, "terminal", 1);
            let words: Vec<String> = r.iter().map(|x| format!("{x}")).collect();
            add(&mut c, &format!("returns {}", words.join(" ")), 1);
            return (c, r);
        }
        Current::Chance => {
            add(&mut c, "chance", 1);
            for (a, p) in st.chance_outcomes().unwrap() {
                let mut s = st.clone();
                s.apply(a).unwrap();
                children.push((p, s));
            }
        }
        Current::One(p) => {
            let legal = st.legal_actions().unwrap();
            add(&mut c, "one", 1);
            add(&mut c, &format!("legal {}", legal.len()), 1);
            if memo.is_none() {
                t.infosets[p].insert(st.information_state_string(p).unwrap());
            }
            for &a in &legal {
                t.texts.insert(st.action_to_string(a).unwrap());
                let mut s = st.clone();
                s.apply(a).unwrap();
                children.push((1.0 / legal.len() as f64, s));
            }
        }
        Current::Simultaneous(ps) => {
            let legal: Vec<Vec<usize>> = ps
                .iter()
                .map(|&p| st.legal_actions_of(p).unwrap())
                .collect();
            add(&mut c, "simultaneous", 1);
            let shape: Vec<String> = legal.iter().map(|l| l.len().to_string()).collect();
            add(&mut c, &format!("legal {}", shape.join("x")), 1);
            for &p in &ps {
                t.infosets[p].insert(st.information_state_string(p).unwrap());
            }
            let total: usize = legal.iter().map(Vec::len).product();
            for &a in &legal[0] {
                for &b in &legal[1] {
                    t.texts.insert(st.action_to_string(a).unwrap());
                    t.texts.insert(st.action_to_string(b).unwrap());
                    let mut s = st.clone();
                    s.apply_actions(&[(ps[0], a), (ps[1], b)]).unwrap();
                    children.push((1.0 / total as f64, s));
                }
            }
        }
    }
    for (p, s) in children {
        let (cc, e) = walk(&s, t, memo.as_deref_mut());
        for (k, v) in cc {
            add(&mut c, &k, v);
        }
        for (x, y) in ev.iter_mut().zip(e) {
            *x += p * y;
        }
    }
    if let Some(m) = memo {
        m.insert(key, (c.clone(), ev.clone()));
    }
    (c, ev)
}

fn tree(spiel: &Arc<Spiel>, memo: bool) -> Tree {
    let mut t = Tree {
        infosets: vec![BTreeSet::new(); spiel.num_players()],
        ..Tree::default()
    };
    let mut m = HashMap::new();
    let (counts, uniform) = walk(&spiel.new_initial_state(), &mut t, memo.then_some(&mut m));
    t.counts = counts;
    t.uniform = uniform;
    t
}

fn counts_of(fig: &serde_json::Value, keys: &[&str]) -> BTreeMap<String, u64> {
    let all = fig["counts"].as_object().unwrap();
    all.iter()
        .filter(|(k, _)| keys.iter().any(|p| k.starts_with(p)))
        .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
        .collect()
}

fn ours(t: &Tree, keys: &[&str]) -> BTreeMap<String, u64> {
    (t.counts.iter())
        .filter(|(k, _)| keys.iter().any(|p| k.starts_with(p)))
        .map(|(k, v)| (k.clone(), *v))
        .collect()
}

/// The walk's bounds are OpenSpiel's game information: the range of
/// returns and their sum, the longest game and the most chance outcomes
/// at one node (`length`, `chance`: ours where it differs, with why),
/// whether any node is simultaneous, and whether the information is
/// perfect.
fn same_bounds(
    spiel: &Spiel,
    fig: &serde_json::Value,
    chance: Option<usize>,
    length: Option<usize>,
) {
    let b = spiel.bounds().unwrap();
    let (lo, hi) = b.utility.unwrap();
    assert_eq!(serde_json::json!(lo), fig["min_utility"]);
    assert_eq!(serde_json::json!(hi), fig["max_utility"]);
    let os = fig["max_chance_outcomes"].as_u64().unwrap() as usize;
    assert_eq!(b.max_chance_outcomes, chance.unwrap_or(os));
    let os = fig["max_game_length"].as_u64().unwrap() as usize;
    assert_eq!(b.max_game_length, Some(length.unwrap_or(os)));
    assert_eq!(serde_json::json!(b.returns_sum), fig["utility_sum"]);
    assert_eq!(b.simultaneous, fig["counts"].get("simultaneous").is_some());
    assert_eq!(
        b.perfect_information,
        fig["perfect_information"].as_bool().unwrap()
    );
}

fn close(a: &[f64], fig: &serde_json::Value) {
    let b: Vec<f64> = (fig.as_array().unwrap().iter())
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert!((x - y).abs() < 1e-9, "{a:?} against OpenSpiel's {b:?}");
    }
}

#[test]
fn kuhn_poker_is_openspiels_tree() {
    let spiel = Spiel::new(reference("kuhn-poker.yaml"));
    let fig = figures("kuhn-poker");
    // The deal is one chance node of six deals at 1/6 (OpenSpiel deals
    // in two: 3 cards, then 2, the same six deals).
    let root = spiel.new_initial_state();
    assert_eq!(root.current(), Current::Chance);
    let deals = root.chance_outcomes().unwrap();
    assert_eq!(deals.len(), 6);
    assert!(deals.iter().all(|(_, p)| (p - 1.0 / 6.0).abs() < 1e-12));
    // OpenSpiel deals a card of three, then one of two: the same 1/6.
    let first = fig["root_chance"].as_array().unwrap();
    assert_eq!(first.len(), 3);
    let os = first[0].as_f64().unwrap() / 2.0;
    assert!(deals.iter().all(|(_, p)| (p - os).abs() < 1e-12));
    // Each player sees their own card and not the other's: over the six
    // deals, three observations and three tensors each, and the other's
    // card only as one unseen.
    let layout = root.tensor_layout();
    let hands: usize = layout
        .iter()
        .take_while(|s| s.name != "zone:hand")
        .map(|s| s.size())
        .sum();
    for p in 0..2 {
        let (mut seen, mut tensors) = (BTreeSet::new(), BTreeSet::new());
        for (a, _) in &deals {
            let mut s = root.clone();
            s.apply(*a).unwrap();
            seen.insert(s.observation_string(p).unwrap());
            let t = s.observation_tensor(p).unwrap();
            // Hand planes: first's then second's, 3 cards + unseen each.
            let other = hands + 4 * (1 - p);
            assert_eq!(t[other..other + 4], [0.0, 0.0, 0.0, 1.0], "{layout:?}");
            let mine = hands + 4 * p;
            assert_eq!(t[mine..mine + 3].iter().sum::<f32>(), 1.0);
            tensors.insert(format!("{t:?}"));
        }
        assert_eq!((seen.len(), tensors.len()), (3, 3), "{seen:?}");
    }
    let t = tree(&spiel, false);
    let same = ["terminal", "one", "legal", "returns"];
    assert_eq!(ours(&t, &same), counts_of(&fig, &same));
    assert_eq!(t.counts["chance"], 1);
    close(&t.uniform, &fig["uniform_returns"]);
    let infosets: Vec<u64> = t.infosets.iter().map(|s| s.len() as u64).collect();
    assert_eq!(
        serde_json::json!(infosets),
        fig["information_states"],
        "{:#?}",
        t.infosets
    );
    // One node of six deals, where OpenSpiel deals in two (3, then 2).
    same_bounds(&spiel, &fig, Some(6), None);
    // check, bet, fold, call: OpenSpiel names two (pass, bet).
    assert_eq!(spiel.num_distinct_actions().unwrap(), t.texts.len());
    assert_eq!(t.texts.len(), 4, "{:?}", t.texts);
}

#[test]
fn goofspiel_is_openspiels_tree() {
    let spiel = Spiel::new(reference("goofspiel.yaml"));
    let fig = figures("goofspiel");
    assert!(
        !spiel.new_initial_state().is_chance_node(),
        "the prizes come in order"
    );
    // OpenSpiel's MaxGameLength is the number of cards, a bound: its
    // tree's longest line is three rounds too, the last card forced
    // (161 simultaneous nodes = 1 + 16 + 144).
    same_bounds(&spiel, &fig, None, Some(3));
    let t = tree(&spiel, false);
    let same = ["histories", "terminal", "simultaneous", "legal", "returns"];
    assert_eq!(ours(&t, &same), counts_of(&fig, &same));
    close(&t.uniform, &fig["uniform_returns"]);
    // Everything is public (hands, bids, points): a player's perfect
    // recall tells every history apart, one information state each.
    // OpenSpiel's goofspiel keys fewer (135): hands, winners and points,
    // not the order the bids were played in.
    let simultaneous = t.counts["simultaneous"] as usize;
    for p in 0..2 {
        assert_eq!(t.infosets[p].len(), simultaneous);
    }
    assert!(fig["information_states"][0].as_u64().unwrap() < simultaneous as u64);
    assert_eq!(spiel.num_distinct_actions().unwrap(), t.texts.len());
    assert_eq!(
        serde_json::json!(t.texts.len()),
        fig["num_distinct_actions"]
    );
}

#[test]
fn tic_tac_toe_is_openspiels_tree() {
    let dir = common::root().join("examples/tic-tac-toe/games");
    let spiel = Spiel::new(load(&dir.join("tic-tac-toe.yaml"), &dir));
    let fig = figures("tic-tac-toe");
    same_bounds(&spiel, &fig, None, None);
    let t = tree(&spiel, true);
    let same = ["histories", "terminal", "one", "legal", "returns"];
    assert_eq!(ours(&t, &same), counts_of(&fig, &same));
    close(&t.uniform, &fig["uniform_returns"]);
    assert_eq!(
        serde_json::json!(spiel.num_distinct_actions().unwrap()),
        fig["num_distinct_actions"]
    );
    // The grid is a plane: 3 x 3 cells x (2 pieces + unseen).
    let layout = spiel.new_initial_state().tensor_layout();
    let board = layout.iter().find(|s| s.name == "zone:board").unwrap();
    assert_eq!(board.shape, [3, 3, 3], "{layout:?}");
    // After a1, the first player's piece is at the plane's first cell.
    let mut st = spiel.new_initial_state();
    st.apply(spiel.action_id("a1").unwrap()).unwrap();
    let tensor = st.observation_tensor(1).unwrap();
    let at: usize = layout
        .iter()
        .take_while(|s| s.name != "zone:board")
        .map(|s| s.size())
        .sum();
    let cell: Vec<f32> = tensor[at..at + 3].to_vec();
    assert_eq!(cell, [1.0, 0.0, 0.0], "a cross at a1");
    assert_eq!(tensor[at + 3..at + 27].iter().sum::<f32>(), 0.0);
}

/// Every game file: games/, examples/*/games, tests/reference/games.
fn every_game() -> Vec<(PathBuf, PathBuf)> {
    let mut dirs = vec![common::games_dir()];
    dirs.extend(common::example_dirs());
    dirs.push(common::root().join("tests/reference/games"));
    common::game_files(&dirs)
}

/// Positions walked to number a game's actions in the playout test (a
/// debug build: a small walk; past it a game's actions are open).
const WALK: usize = 300;

/// A bad player or id at `st` is a typed error, and leaves it as it was.
fn refuses_bad_arguments(st: &SpielState, what: &str) {
    let n = st.spiel().num_players();
    let before = st.clone();
    for p in [n, n + 1, 99, usize::MAX] {
        let kind = ErrorKind::Player { player: p };
        assert_eq!(st.legal_actions_of(p).unwrap_err().kind, kind, "{what}");
        assert_eq!(st.observation_string(p).unwrap_err().kind, kind, "{what}");
        assert_eq!(
            st.information_state_string(p).unwrap_err().kind,
            kind,
            "{what}"
        );
        assert_eq!(st.observation_tensor(p).unwrap_err().kind, kind, "{what}");
        let mut s = st.clone();
        assert_eq!(s.apply_actions(&[(p, 0)]).unwrap_err().kind, kind, "{what}");
        assert_eq!(s, before, "{what}");
    }
    let mut s = st.clone();
    for bad in [usize::MAX, 1 << 40] {
        let e = s.apply(bad).unwrap_err();
        assert!(
            matches!(e.kind, ErrorKind::Move(_) | ErrorKind::Refused(_)),
            "{what}: {e}"
        );
        assert!(st.action_to_string(bad).is_err(), "{what}");
        assert_eq!(s, before, "{what}");
    }
    assert!(st.string_to_action("no such action, surely").is_err());
}

/// Ids and texts both ways for every legal action of `p`.
fn round_trips(st: &SpielState, p: usize, what: &str) {
    for a in st.legal_actions_of(p).unwrap() {
        let text = st.action_to_string(a).unwrap();
        assert_eq!(st.string_to_action(&text).unwrap(), a, "{what}: {text}");
        assert_eq!(st.legal_action_id(p, &text).unwrap(), a, "{what}: {text}");
        assert_eq!(&*st.spiel().action_text(a).unwrap(), text, "{what}");
    }
}

/// One random game through the API, every promise checked on the way.
fn play(spiel: &Arc<Spiel>, seed: u64, what: &str) -> SpielState {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut st = spiel.new_initial_state();
    let size: usize = st.tensor_layout().iter().map(|s| s.size()).sum();
    let n = spiel.num_players();
    for step in 0..3_000 {
        for p in 0..n {
            assert_eq!(st.observation_tensor(p).unwrap().len(), size, "{what}");
        }
        if step % 7 == 0 {
            refuses_bad_arguments(&st, what);
        }
        let before = st.clone();
        match st.current() {
            Current::Terminal => break,
            Current::Chance => {
                if let Ok(list) = st.chance_outcomes() {
                    let total: f64 = list.iter().map(|(_, p)| p).sum();
                    assert!((total - 1.0).abs() < 1e-9, "{what}: {total}");
                    for &(a, _) in &list {
                        let text = st.action_to_string(a).unwrap();
                        assert_eq!(st.string_to_action(&text).unwrap(), a);
                    }
                }
                st.sample_chance(rng.next_u64()).unwrap();
            }
            Current::One(p) => {
                round_trips(&st, p, what);
                let legal = st.legal_actions().unwrap();
                assert!(!legal.is_empty(), "{what}");
                assert!(legal.windows(2).all(|w| w[0] < w[1]), "{what}: sorted");
                let a = legal[(rng.next_u64() % legal.len() as u64) as usize];
                // A simultaneous call of the one player is the same move.
                let mut other = st.clone();
                other.apply_actions(&[(p, a)]).unwrap();
                st.apply(a).unwrap();
                assert_eq!(st, other, "{what}");
            }
            Current::Simultaneous(ps) => {
                let e = st.clone().apply(0).unwrap_err();
                assert_eq!(e.illegal_why(), Some(Illegal::NotTheirs), "{what}");
                let mut joint = Vec::new();
                for &p in &ps {
                    round_trips(&st, p, what);
                    let legal = st.legal_actions_of(p).unwrap();
                    joint.push((p, legal[(rng.next_u64() % legal.len() as u64) as usize]));
                }
                // One player short: refused, the state unchanged.
                let e = st.clone().apply_actions(&joint[1..]).unwrap_err();
                assert_eq!(e.illegal_why(), Some(Illegal::Malformed), "{what}");
                joint.reverse();
                st.apply_actions(&joint).unwrap();
            }
        }
        let mut back = st.clone();
        back.undo().unwrap();
        assert_eq!(back, before, "{what}: undo");
    }
    st
}

#[test]
fn every_game_plays_through_the_api() {
    for (path, dir) in every_game() {
        let what = path.display().to_string();
        let spiel = Spiel::walked(load(&path, &dir), WALK);
        if let Ok(n) = spiel.num_distinct_actions() {
            assert_eq!(spiel.fixed_actions(), n, "{what}");
            assert!(
                spiel.action_text(n).is_err(),
                "{what}: {n} is past the last"
            );
            for a in 0..n {
                let text = spiel.action_text(a).unwrap();
                assert_eq!(spiel.action_id(&text).unwrap(), a, "{what}");
            }
        }
        for seed in 0..2 {
            let st = play(&spiel, seed, &what);
            let text = st.serialize().unwrap();
            let back = spiel.deserialize_state(&text).unwrap();
            assert_eq!(back, st, "{what}: {text}");
            assert_eq!(back.returns(), st.returns(), "{what}");
            if st.is_terminal() {
                let e = st.clone().apply(0).unwrap_err();
                assert_eq!(e.illegal_why(), Some(Illegal::Over), "{what}");
                let total: f64 = st.rewards().iter().sum::<f64>();
                let returns: f64 = st.returns().iter().sum::<f64>();
                assert!((total - returns).abs() < 1e-9, "{what}");
            }
        }
    }
}

#[test]
fn chance_too_large_to_list_is_refused_and_sampled() {
    let spiel = Spiel::walked(reference("hearts.yaml"), 0);
    let mut st = spiel.new_initial_state();
    assert!(st.is_chance_node());
    let e = st.chance_outcomes().unwrap_err();
    assert!(
        matches!(e.refusal(), Some(Refusal::TooMuchChance { .. })),
        "{e}"
    );
    assert!(st.legal_actions().is_err(), "no list of outcomes either");
    let e = st.clone().apply(0).unwrap_err();
    assert!(
        matches!(e.refusal(), Some(Refusal::TooMuchChance { .. })),
        "{e}"
    );
    let e = st.clone().undo().unwrap_err();
    assert_eq!(e.illegal_why(), Some(Illegal::NotTheirs), "nothing to undo");
    assert_eq!(st.sample_chance(11).unwrap(), Entry::Sampled(11));
    assert!(!st.is_chance_node());
    // Another seed, another deal; the same seed, the same deal.
    let mut other = spiel.new_initial_state();
    other.sample_chance(12).unwrap();
    assert_ne!(
        other.observation_string(0).unwrap(),
        st.observation_string(0).unwrap()
    );
    let back = spiel.deserialize_state(&st.serialize().unwrap()).unwrap();
    assert_eq!(
        back.observation_string(0).unwrap(),
        st.observation_string(0).unwrap()
    );
    // Not a chance node now: sampling is refused.
    let e = st.sample_chance(1).unwrap_err();
    assert_eq!(e.illegal_why(), Some(Illegal::NotTheirs));
    let e = st.chance_outcomes().unwrap_err();
    assert_eq!(e.illegal_why(), Some(Illegal::NotTheirs));
}

#[test]
fn a_game_too_big_to_walk_has_open_actions() {
    let spiel = Spiel::walked(common::load("braverats", &[], &[]).into(), 50);
    let e = spiel.num_distinct_actions().unwrap_err();
    assert_eq!(
        e.refusal(),
        Some(Refusal::TooManyPositions { limit: 50 }),
        "{e}"
    );
    assert_eq!(spiel.bounds().unwrap_err().refusal(), e.refusal());
    // The cards keep their ids from the definition.
    let prince = spiel.action_id("prince").unwrap();
    assert_eq!(&*spiel.action_text(prince).unwrap(), "prince");
    let cards = spiel.game().def().cards.len();
    assert_eq!(spiel.fixed_actions(), cards, "BraveRats' choices are cards");
    assert!(prince < cards, "a card's id is its place in the definition");
    let st = spiel.new_initial_state();
    let Current::Simultaneous(ps) = st.current() else {
        panic!("BraveRats begins with both players at once");
    };
    assert!(st.legal_actions_of(ps[0]).unwrap().contains(&prince));
}

/// An open game's fixed ids go on past the definition's texts with those
/// its walk met before it stopped: the same for every handle of one walk
/// (the walk's order is fixed), so a process that reads ids back agrees.
#[test]
fn an_open_games_fixed_ids_hold_the_texts_its_walk_met() {
    let pig = reference("pig.yaml");
    let none = Spiel::walked(pig.clone(), 0);
    assert_eq!(none.fixed_actions(), 0, "Pig's definition names no action");
    let a = Spiel::walked(pig.clone(), 50);
    let b = Spiel::walked(pig, 50);
    assert!(!a.actions_closed());
    let texts = |s: &Spiel| -> Vec<String> {
        (0..s.fixed_actions())
            .map(|i| s.action_text(i).unwrap().to_string())
            .collect()
    };
    assert_eq!(texts(&a), ["roll", "stop"]);
    assert_eq!(texts(&a), texts(&b));
    // A text met later is numbered on, past the fixed ones.
    let bt = Spiel::walked(reference("breakthrough.yaml"), 20);
    let fixed = bt.fixed_actions();
    let mut st = bt.new_initial_state();
    let mut past = None;
    for _ in 0..200 {
        if st.is_terminal() {
            break;
        }
        let legal = st.legal_actions().unwrap();
        past = past.or(legal.iter().copied().find(|&i| i >= fixed));
        st.apply(*legal.last().unwrap()).unwrap();
    }
    let past = past.expect("a move the walk did not meet");
    assert!(bt.action_text(past).is_ok());
}

#[test]
fn a_bad_serialised_state_is_a_typed_error() {
    let spiel = Spiel::new(reference("kuhn-poker.yaml"));
    let malformed = |text: &str| {
        let e = spiel.deserialize_state(text).unwrap_err();
        assert_eq!(e.illegal_why(), Some(Illegal::Malformed), "{text}: {e}");
    };
    malformed("not json");
    malformed(r#"{"game": "goofspiel", "history": []}"#);
    malformed(r#"{"game": "kuhn-poker"}"#);
    malformed(r#"{"game": "kuhn-poker", "history": [{"chance": -1}]}"#);
    malformed(r#"{"game": "kuhn-poker", "history": [{"what": 1}]}"#);
    malformed(r#"{"game": "kuhn-poker", "history": [{"chance": 0}, {"chance": 0}]}"#);
    malformed(
        r#"{"game": "kuhn-poker", "history": [{"chance": 0}, {"moves": {"nobody": "bet"}}]}"#,
    );
    let e = spiel
        .deserialize_state(
            r#"{"game": "kuhn-poker", "history": [{"chance": 0}, {"moves": {"first": "fold"}}]}"#,
        )
        .unwrap_err();
    assert_eq!(e.illegal_why(), Some(Illegal::NotLegal), "{e}");
    assert!(e.notes.iter().any(|n| n.contains("entry 2")), "{e:?}");
    let e = spiel
        .deserialize_state(r#"{"game": "kuhn-poker", "history": [{"chance": 6}]}"#)
        .unwrap_err();
    assert_eq!(e.illegal_why(), Some(Illegal::NotLegal), "{e}");
    let st = spiel
        .deserialize_state(
            r#"{"game": "kuhn-poker", "history": [{"chance": 5}, {"moves": {"first": "bet"}}]}"#,
        )
        .unwrap();
    assert_eq!(st.current(), Current::One(1));
    assert_eq!(st.history().len(), 2);
}

#[test]
fn a_state_holds_its_game_and_crosses_threads() {
    fn send_sync<T: Send + Sync + 'static>() {}
    send_sync::<SpielState>();
    send_sync::<Arc<Spiel>>();
    let st = {
        let spiel = Spiel::new(reference("kuhn-poker.yaml"));
        spiel.new_initial_state()
    };
    // The handle is gone from here; the state still plays.
    let mut st = std::thread::spawn(move || st).join().unwrap();
    st.apply(0).unwrap();
    assert_eq!(st.current(), Current::One(0));
}

/// Everything a state tells, at every step of a line: who acts, each
/// player's legal actions, chance's outcomes, the returns, each player's
/// observation and information state, the position's key, the text.
fn tells(st: &SpielState) -> Vec<String> {
    let sp = st.spiel();
    let mut out = vec![
        format!("{:?}", st.current()),
        format!("{:?}", st.chance_outcomes().ok()),
        format!("{:?}", st.returns()),
        format!("{:?}", st.rewards()),
        format!(
            "{:?}",
            st.position()
                .map(|s| s.key_with_turn(sp.game_arc().as_ref()))
        ),
        st.serialize().unwrap(),
    ];
    for p in 0..sp.num_players() {
        out.push(format!("{:?}", st.legal_actions_of(p).unwrap()));
        out.push(st.observation_string(p).unwrap());
        out.push(st.information_state_string(p).unwrap());
    }
    out
}

/// The handle keeps what follows each move made (`Spiel::keeping`), and
/// a state that reaches a place through a kept move shares it: random
/// games on a handle that keeps tell at every step exactly what the same
/// games tell on one that keeps nothing and runs the rules each time:
/// closed games, a simultaneous one (its joint moves given in another
/// order), an open one with chance (Pig, walked 50 positions).
#[test]
fn a_kept_move_tells_what_the_rules_tell() {
    for (file, walk) in [
        ("kuhn-poker.yaml", tabula::spiel::DEFAULT_WALK),
        ("leduc-poker.yaml", tabula::spiel::DEFAULT_WALK),
        ("liars-dice.yaml", tabula::spiel::DEFAULT_WALK),
        ("tic-tac-toe.yaml", tabula::spiel::DEFAULT_WALK),
        ("goofspiel.yaml", tabula::spiel::DEFAULT_WALK),
        ("pig.yaml", 50),
    ] {
        let game = reference(file);
        let kept = Spiel::keeping(game.clone(), walk, tabula::spiel::DEFAULT_KEEP);
        let fresh = Spiel::keeping(game, walk, 0);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for g in 0..60 {
            let mut a = kept.new_initial_state();
            let mut b = fresh.new_initial_state();
            for _ in 0..300 {
                assert_eq!(tells(&a), tells(&b), "{file}, game {g}");
                if a.is_terminal() {
                    break;
                }
                let mut joint: Vec<(usize, usize)> = match a.current() {
                    Current::Simultaneous(ps) => (ps.iter())
                        .map(|&p| {
                            let l = a.legal_actions_of(p).unwrap();
                            (p, l[rng.next_u64() as usize % l.len()])
                        })
                        .collect(),
                    _ => {
                        let l = a.legal_actions().unwrap();
                        let pick = l[rng.next_u64() as usize % l.len()];
                        a.apply(pick).unwrap();
                        b.apply(pick).unwrap();
                        continue;
                    }
                };
                b.apply_actions(&joint).unwrap();
                joint.reverse();
                a.apply_actions(&joint).unwrap();
            }
            // Undone and made again: the kept place, nothing more kept.
            if a.history()
                .last()
                .is_some_and(|e| matches!(e, Entry::Moves(m) if m.len() == 1))
            {
                let end = tells(&a);
                let Some(Entry::Moves(m)) = a.history().pop() else {
                    unreachable!()
                };
                let before = kept.moves_kept();
                a.undo().unwrap();
                a.apply(m[0].1).unwrap();
                assert_eq!(tells(&a), end, "{file}, game {g}, made again");
                assert_eq!(kept.moves_kept(), before, "{file}: the move was kept");
            }
        }
        assert!(kept.moves_kept() > 0, "{file}: nothing kept");
        assert_eq!(fresh.moves_kept(), 0, "{file}: kept past a budget of 0");
    }
}
