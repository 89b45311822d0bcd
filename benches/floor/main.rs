//! The floor under any script technology: three games whose hooks are
//! written in plain Rust against the engine (the same game files, the same
//! asks and moves as their scripts), against the same games run by their
//! scripts, with the memo off (where it cannot replay) and on. What the
//! scripts cost above the floor is the script tier's; the floor itself is
//! the engine's per-decision path (issue 54).
//!
//!     cargo bench --bench floor                        # random playouts, timed
//!     FLOOR_RUN=connect-four:native:2000 valgrind --tool=callgrind \
//!         target/release/deps/floor-HASH               # instructions, one run
//!
//! `FLOOR_RUN=GAME:HOOKS:N` (HOOKS `native`, `script`, `memo` or `vm`:
//! the typed VM of issue 54, memo off) plays N
//! random games and prints the decisions made, for instructions per move.
//! Before any timing, every game is played both ways over 200 seeds and
//! must make the same moves and end the same.

mod connect_four;
mod oshi_zumo;
mod pig;

/// The counting allocator the `tabula` binary installs (src/main.rs), so
/// that the memory budget and the counts are as the program has them.
#[cfg(feature = "memory-budget")]
#[global_allocator]
static ALLOCATOR: tabula::memory::Counting = tabula::memory::Counting;

use std::path::Path;
use std::sync::Arc;

use criterion::{Criterion, criterion_group};
use tabula::bot::{Bot, RandomBot};
use tabula::core::{Call, Choice};
use tabula::{Build, Def, Game, Hooks, Settings, State};

/// (game, folder from the repository's root, native hooks)
type Native = fn(&Def) -> Box<dyn Hooks>;
const GAMES: &[(&str, &str, Native)] = &[
    ("connect-four", "examples/connect-four/games", |d| {
        Box::new(connect_four::ConnectFour::new(d))
    }),
    ("pig", "tests/reference/games", |d| {
        Box::new(pig::Pig::new(d))
    }),
    ("oshi-zumo", "examples/oshi-zumo/games", |d| {
        Box::new(oshi_zumo::OshiZumo::new(d))
    }),
];

/// Text shared as the scripts' interned texts are.
fn unit_text(t: &str) -> Arc<str> {
    Arc::from(t)
}

/// The choice of the decider at `i`.
fn choice_of(choices: &[Option<Choice>], i: usize) -> &Choice {
    choices[i].as_ref().expect("every decider chose")
}

fn no_hook(call: &Call) -> tabula::Result<()> {
    Err(tabula::Error::new(
        tabula::ErrorKind::Script,
        format!("no native hook `{}`", call.hook),
    ))
}

/// The game by its script, with or without the memo, or by native hooks.
fn build(id: &str, dir: &str, native: Native, hooks: &str) -> Game {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let memo = hooks == "memo";
    let build = Build {
        memo,
        compile: if hooks == "vm" {
            tabula::Compile::On
        } else {
            tabula::Compile::Tree
        },
    };
    let game = Game::load(id, &dir, &Settings::default(), build).expect("the game loads");
    match hooks {
        "native" => game.with_hooks(native(game.def())),
        "script" | "memo" | "vm" => game,
        other => panic!("hooks are native, script, memo or vm, not {other}"),
    }
}

/// One random game: its moves (as text) and how it ended.
fn playout(
    game: &Game,
    seed: u64,
    moves: Option<&mut Vec<String>>,
) -> (u64, Option<tabula::Outcome>) {
    let mut st = State::new_quiet(game, seed).expect("setup");
    let mut bot = RandomBot::new(seed);
    let mut n = 0;
    let mut record = moves;
    while let Some(p) = st.first_waiting() {
        let c = bot.choose(game, &st, p).expect("a legal move");
        if let Some(m) = record.as_deref_mut() {
            m.push(format!("{p}:{}", c.text(game)));
        }
        st.apply_unchecked(game, p, c).expect("the move applies");
        n += 1;
    }
    (n, st.outcome())
}

/// The native hooks play every seed as the script does.
fn check_same(id: &str, native: &Game, script: &Game) {
    for seed in 0..200 {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let ra = playout(native, seed, Some(&mut a));
        let rb = playout(script, seed, Some(&mut b));
        assert_eq!(a, b, "{id}, seed {seed}: the native hooks move otherwise");
        assert_eq!(ra, rb, "{id}, seed {seed}: the native hooks end otherwise");
    }
}

fn floor(c: &mut Criterion) {
    for &(id, dir, native) in GAMES {
        let games: Vec<(&str, Game)> = ["native", "script", "memo", "vm"]
            .into_iter()
            .map(|h| (h, build(id, dir, native, h)))
            .collect();
        check_same(id, &games[0].1, &games[1].1);
        check_same(id, &games[3].1, &games[1].1);
        for (hooks, game) in &games {
            let mut seed = 0u64;
            c.bench_function(&format!("{id} {hooks}"), |b| {
                b.iter(|| {
                    seed += 1;
                    playout(game, seed, None)
                })
            });
        }
    }
}

/// `FLOOR_RUN=GAME:HOOKS:N`: N games, for an instruction count.
fn run_only(spec: &str) {
    let parts: Vec<&str> = spec.split(':').collect();
    let [id, hooks, n] = parts[..] else {
        panic!("FLOOR_RUN is GAME:HOOKS:N, not {spec}");
    };
    let &(_, dir, native) = GAMES.iter().find(|g| g.0 == id).expect("a floor game");
    let game = build(id, dir, native, hooks);
    let n: u64 = n.parse().expect("N is a number");
    let moves: u64 = (0..n).map(|s| playout(&game, s, None).0).sum();
    println!("{id} {hooks}: {n} games, {moves} decisions");
}

criterion_group!(benches, floor);

fn main() {
    if let Ok(spec) = std::env::var("FLOOR_RUN") {
        return run_only(&spec);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
