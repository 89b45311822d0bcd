//! `tabula list`: the games in the folder and the built-in library, where
//! each comes from, and their variants.

use std::path::Path;

use tabula::definition::source::{self, Settings};
use tabula::error::{Error, Result, path_text, printable};

pub fn run(dir: &Path) -> Result<i32> {
    let built_in = source::built_in();
    let here = if built_in == Some(dir) {
        "built in".to_string()
    } else {
        path_text(dir)
    };
    let mut games: Vec<(String, String)> = source::list_ids(dir)
        .into_iter()
        .map(|id| (id, here.clone()))
        .collect();
    if let Some(b) = built_in.filter(|b| *b != dir) {
        for id in source::list_ids(b) {
            if !games.iter().any(|(g, _)| *g == id) {
                games.push((id, "built in".into()));
            }
        }
    }
    if games.is_empty() {
        return Err(Error::usage(format!("no games (*.yaml) in {here}")));
    }
    for (id, from) in games {
        // A file's name and a problem's message may hold control
        // characters (a game's ids cannot).
        match tabula::load(&id, dir, &Settings::default()) {
            Ok(g) => {
                let (d, id) = (g.def(), printable(&id));
                let players: Vec<&str> = d.players.iter().map(|p| p.id.as_str()).collect();
                println!("{:<12} {} ({}) [{from}]", id, d.name, players.join(", "));
                if !d.summary.is_empty() {
                    println!("{:<12} {}", "", d.summary);
                }
                for v in &d.variants {
                    println!("{:<12}   --variant {:<16} {}", "", v.id, v.name);
                }
            }
            Err(e) => println!(
                "{:<12} (does not load: {}) [{from}]",
                printable(&id),
                printable(&e.message)
            ),
        }
    }
    Ok(0)
}
