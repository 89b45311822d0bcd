//! `tabula check [PATH]...`: load every game and variant, then run seeded
//! random playouts through the real scripts.

use std::path::{Path, PathBuf};

use tabula::bot;
use tabula::core::State;
use tabula::definition::source::{self, Settings};
use tabula::error::Result;
use tabula::{Build, Game};

/// Decisions after which a smoke playout counts as endless.
const MAX_DECISIONS: usize = 100_000;

pub fn run(dir: &Path, paths: &[String], playouts: u32) -> Result<i32> {
    let targets: Vec<String> = if paths.is_empty() {
        source::list_ids(dir)
    } else {
        paths.to_vec()
    };
    let mut failed = 0;
    for t in &targets {
        let problems = check_one(dir, t, playouts);
        if problems.is_empty() {
            continue;
        }
        failed += 1;
        for p in problems {
            eprintln!("{}", p.render(super::color_err()));
        }
    }
    if failed > 0 {
        eprintln!("{failed} of {} game(s) have problems", targets.len());
        return Ok(1);
    }
    Ok(0)
}

fn check_one(dir: &Path, target: &str, playouts: u32) -> Vec<tabula::Error> {
    let path: PathBuf = match source::find(target, dir) {
        Ok(p) => p,
        Err(e) => return vec![e],
    };
    let base = match Game::load_path(&path, dir, &Settings::default(), Build::default()) {
        Ok(g) => g,
        Err(e) => return vec![e],
    };
    let mut problems = Vec::new();
    let mut runs = vec![Vec::new()];
    runs.extend(base.def().variants.iter().map(|v| vec![v.id.clone()]));
    let mut summary = Vec::new();
    for variants in runs {
        let label = if variants.is_empty() {
            "base".to_string()
        } else {
            variants.join("+")
        };
        let settings = Settings {
            variants,
            sets: Vec::new(),
        };
        let game = match Game::load_path(&path, dir, &settings, Build::default()) {
            Ok(g) => g,
            Err(e) => {
                problems.push(e.note(format!("with variant {label}")));
                continue;
            }
        };
        let mut decisions = 0;
        for seed in 0..playouts as u64 {
            let r = State::new(&game, seed).and_then(|(mut s, _)| {
                let n = bot::random_playout(&game, &mut s, seed, MAX_DECISIONS)?;
                if !s.is_over() {
                    return Err(tabula::Error::new(
                        tabula::ErrorKind::Runtime,
                        format!("a random game did not end within {MAX_DECISIONS} decisions"),
                    ));
                }
                Ok(n)
            });
            match r {
                Ok(n) => decisions += n,
                Err(e) => {
                    problems.push(e.note(format!("{label}, seed {seed}")));
                    break;
                }
            }
        }
        summary.push(format!(
            "{label} {:.1}",
            decisions as f64 / playouts.max(1) as f64
        ));
    }
    if problems.is_empty() {
        println!(
            "ok {} ({} playouts each; mean decisions: {})",
            base.def().id,
            playouts,
            summary.join(", ")
        );
    }
    problems
}
