//! What happens in a game, as data. The text layer phrases events for
//! people (text/phrase.rs); the core only records them.

use super::Choice;
use crate::definition::PlayerIx;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A line a hook logged; `to: None` is seen by everyone.
    Log {
        to: Option<PlayerIx>,
        text: String,
    },
    /// In an ordered reveal, `player` shows their choice before the others choose.
    RevealedFirst {
        player: PlayerIx,
        choice: Choice,
    },
    /// `player` had one legal option and it was played for them
    /// (`forced_moves: auto`); only they are told.
    Forced {
        player: PlayerIx,
        choice: Choice,
    },
    /// A decision of several players, shown together once all have chosen.
    Revealed {
        choices: Vec<(PlayerIx, Choice)>,
    },
    /// A flow step rolled die `die`, showing face `face`; `by` is the active
    /// player in a game whose turns rotate.
    Rolled {
        by: Option<PlayerIx>,
        die: usize,
        face: usize,
    },
    /// Turn `turn` begins (a marker for the log).
    Turn {
        turn: u32,
    },
    /// The turn limit (`max_turns`) was reached: a draw.
    TurnLimit {
        turns: u32,
    },
    /// A game of a match ended (`winner: None`: a draw, replayed); the
    /// match score after it.
    MatchGameOver {
        game_no: u32,
        winner: Option<PlayerIx>,
        score: Vec<u32>,
    },
    MatchWon {
        player: PlayerIx,
    },
    /// No match winner after this many games.
    MatchDrawn {
        games: u32,
    },
    /// The next game of a match begins.
    GameBegins {
        game_no: u32,
    },
}

impl Event {
    /// The one player who may see this event, or None for everyone.
    pub fn to(&self) -> Option<PlayerIx> {
        match self {
            Event::Log { to, .. } => *to,
            Event::Forced { player, .. } => Some(*player),
            _ => None,
        }
    }
}
