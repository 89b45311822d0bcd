//! Embed the library: load a game from a folder, play a seeded game between
//! the search bot and the random bot, print what happened and the result.
//!
//!     cargo run --release --example bot_match -- braverats 7

use std::path::Path;

use tabula::bot;
use tabula::{Outcome, Settings, State};

// The process is the program's: it installs the counting allocator that
// holds a script's run to its memory budget...
#[cfg(feature = "memory-budget")]
#[global_allocator]
static ALLOCATOR: tabula::memory::Counting = tabula::memory::Counting;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let id = args.next().unwrap_or_else(|| "braverats".into());
    let seed: u64 = args.next().map_or(Ok(7), |s| s.parse())?;
    // ...and says where scripts' `print` goes (unset: nowhere).
    tabula::hooks::script::set_output(Some(std::sync::Arc::new(|line: &str| eprintln!("{line}"))));
    let game = tabula::load(&id, Path::new("games"), &Settings::default())?;
    let (mut state, _) = State::new(&game, seed)?;
    // Seat 0: the search bot; every other seat: random.
    let mut bots: Vec<Box<dyn bot::Bot>> = (0..game.def().nplayers())
        .map(|p| {
            let kind = if p == 0 { "mcts:2000" } else { "random" };
            bot::make(kind, seed + p as u64).expect("a known bot kind")
        })
        .collect();
    while let Some(p) = state.first_waiting() {
        let Some(choice) = bots[p].choose(&game, &state, p) else {
            break;
        };
        for event in state.act(&game, p, choice)? {
            if event.to().is_none() {
                println!("{}", tabula::phrase(&game, &event));
            }
        }
    }
    match state.outcome() {
        Some(Outcome::Win(p)) => {
            println!("{} ({}) wins", game.def().players[p].name, bots[p].name())
        }
        Some(Outcome::Draw) => println!("a draw"),
        None => println!("unfinished"),
    }
    Ok(())
}
