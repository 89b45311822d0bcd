//! Add a bot of your own: implement `Bot` (choose from the legal choices,
//! looking only at what the player may see) and play it against the
//! built-in bots over many seeded games.
//!
//!     cargo run --release --example custom_bot -- braverats 500

use std::path::Path;

use tabula::bot::{self, Bot};
use tabula::format::AttrValue;
use tabula::view;
use tabula::{Choice, Game, Outcome, Settings, State};

/// Plays the legal card with the highest `strength` attribute (any game
/// whose cards have one), else the first legal choice. It reads its
/// player's view, as every bot should.
struct Strongest;

impl Bot for Strongest {
    fn name(&self) -> &str {
        "strongest"
    }
    fn choose(&mut self, game: &Game, state: &State, player: usize) -> Option<Choice> {
        let v = view::view(game, state, Some(player)).ok()?;
        let options = v.decision?.options;
        let strength = |id: &str| match game
            .def()
            .card(id)
            .map(|c| game.def().cards[c as usize].attr("strength"))
        {
            Some(Some(AttrValue::Int(s))) => *s,
            _ => 0,
        };
        let best = options.iter().max_by_key(|o| strength(o))?;
        state.parse(game, player, best).ok()
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let id = args.next().unwrap_or_else(|| "braverats".into());
    let games: u64 = args.next().map_or(Ok(200), |s| s.parse())?;
    let game = tabula::load(&id, Path::new("games"), &Settings::default())?;
    for rival in ["random", "mcts:300"] {
        let mut wins = [0u32; 3];
        for seed in 0..games {
            let mut state = State::new_quiet(&game, seed)?;
            let mut seats: Vec<Box<dyn Bot>> =
                vec![Box::new(Strongest), bot::make(rival, seed).expect("bot")];
            while let Some(p) = state.first_waiting() {
                let c = seats[p].choose(&game, &state, p).ok_or("no legal choice")?;
                state.apply_unchecked(&game, p, c)?;
            }
            match state.outcome() {
                Some(Outcome::Win(p)) => wins[p.min(1)] += 1,
                _ => wins[2] += 1,
            }
        }
        println!(
            "strongest vs {rival}: {} wins, {} losses, {} draws",
            wins[0], wins[1], wins[2]
        );
    }
    Ok(())
}
