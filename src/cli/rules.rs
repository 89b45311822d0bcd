//! `tabula rules GAME`: everything a player or designer reads before playing.

use std::path::Path;

use tabula::definition::source::Settings;
use tabula::error::Result;

pub fn run(dir: &Path, game: &str, settings: &Settings) -> Result<i32> {
    let g = tabula::load(game, dir, settings)?;
    print!(
        "{}",
        tabula::text::rules_text(g.def(), "Parameters (--set K=V)", "Variants (--variant V)")
    );
    Ok(0)
}
