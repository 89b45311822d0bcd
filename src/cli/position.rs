//! `tabula save-position FILE [--out OUT]`: a save or replay as a position
//! file (docs/positions.md): the game as it stands, not the moves from a
//! seed.

use std::path::Path;

use tabula::error::Result;
use tabula::replay::Replay;

pub fn run(dir: &Path, file: &Path, out: Option<&Path>) -> Result<i32> {
    let r = Replay::read(file)?;
    let game = r.load_game(Some(file), dir)?;
    if let Some(note) = r.game_by_path_note(file, &game, dir) {
        eprintln!("tabula: {note}");
    }
    if r.rules_changed(&game) {
        eprintln!("{}", super::replay::rules_changed_note(file));
    }
    let p = tabula::rest::as_position(&game, &r)?;
    match out {
        None => print!("{}", p.to_yaml()),
        Some(path) => {
            p.save(path)?;
            eprintln!(
                "tabula: wrote the position to {}{}",
                tabula::error::path_text(path),
                match p.moves.len() {
                    0 => String::new(),
                    n => format!(
                        " ({n} move(s) after it, made since the game last rested before a flow step)"
                    ),
                }
            );
        }
    }
    Ok(0)
}
