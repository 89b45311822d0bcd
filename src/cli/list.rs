//! `tabula list`: the games in the folder and their variants.

use std::path::Path;

use tabula::definition::source::{self, Settings};
use tabula::error::{Error, Result};

pub fn run(dir: &Path) -> Result<i32> {
    let ids = source::list_ids(dir);
    if ids.is_empty() {
        return Err(Error::usage(format!(
            "no games (*.yaml) in {}",
            tabula::error::path_text(dir)
        )));
    }
    for id in ids {
        match tabula::load(&id, dir, &Settings::default()) {
            Ok(g) => {
                let d = g.def();
                let players: Vec<&str> = d.players.iter().map(|p| p.id.as_str()).collect();
                println!("{:<12} {} ({})", id, d.name, players.join(", "));
                if !d.summary.is_empty() {
                    println!("{:<12} {}", "", d.summary);
                }
                for v in &d.variants {
                    println!("{:<12}   --variant {:<16} {}", "", v.id, v.name);
                }
            }
            Err(e) => println!("{id:<12} (does not load: {})", e.message),
        }
    }
    Ok(0)
}
