//! Embed the library: load a game from a folder, play a seeded game between
//! two random bots, print the log and the result.
//!
//!     cargo run --example seeded_game -- experior 7

use std::path::Path;

use tabula::bot::{Bot, RandomBot};
use tabula::{Outcome, Settings, State};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let id = args.next().unwrap_or_else(|| "experior".into());
    let seed: u64 = args.next().map_or(Ok(7), |s| s.parse())?;
    let game = tabula::load(&id, Path::new("games"), &Settings::default())?;
    let (mut state, _) = State::new(&game, seed)?;
    let mut bots: Vec<RandomBot> = (0..game.def.nplayers())
        .map(|p| RandomBot::new(seed + p as u64))
        .collect();
    while let Some(&p) = state.waiting().first() {
        let Some(choice) = bots[p].choose(&game, &state, p) else {
            break;
        };
        for event in state.act(&game, p, choice)? {
            if event.to.is_none() {
                println!("{}", event.text);
            }
        }
    }
    match state.outcome {
        Some(Outcome::Win(p)) => println!("{} wins", game.def.players[p].name),
        Some(Outcome::Draw) => println!("a draw"),
        None => println!("unfinished"),
    }
    Ok(())
}
