//! `tabula copy GAME DIR`: a game's files (its YAML, the files it
//! `extends`, its scripts and what they `import`) written to a folder of
//! the user's own, laid out as the library is (`DIR/games`,
//! `DIR/scripts`), so that the copy plays on its own with
//! `--games-dir DIR/games` and may be edited: the way to change a built-in
//! game, whose written-out files are never read.

use std::path::{Path, PathBuf};

use tabula::definition::source;
use tabula::error::{Error, Result, path_text};
use tabula::{Build, Game, Settings};

#[derive(clap::Args, Debug)]
pub struct CopyArgs {
    /// The game to copy: an id (built in or in the games folder) or a path
    /// to its YAML file.
    #[arg(add = clap_complete::ArgValueCandidates::new(super::complete::games))]
    pub game: String,
    /// The folder to write it to (made if missing): the game goes to
    /// DIR/games, its scripts to DIR/scripts.
    pub dir: PathBuf,
    /// Replace files that are already there.
    #[arg(long)]
    pub force: bool,
}

pub fn run(games: &Path, args: &CopyArgs) -> Result<i32> {
    let path = source::find(&args.game, games)?;
    let files = game_files(&path, games)?;
    let plan = destinations(&path, &files)?;
    // Nothing is written unless everything may be.
    if !args.force {
        let there: Vec<String> = (plan.iter())
            .map(|(rel, _)| args.dir.join(rel))
            .filter(|p| p.symlink_metadata().is_ok())
            .map(|p| path_text(&p))
            .collect();
        if !there.is_empty() {
            return Err(
                Error::usage(format!("not copied: {} already there", there.join(", "))).note(
                    "--force replaces them (an edit there would be lost), or name another folder",
                ),
            );
        }
    }
    for (rel, text) in &plan {
        let to = args.dir.join(rel);
        if let Some(folder) = to.parent() {
            std::fs::create_dir_all(folder).map_err(|e| Error::io(folder, e))?;
        }
        tabula::files::write_atomic(&to, text.as_bytes(), "a copied game file")
            .map_err(|e| Error::io(&to, e))?;
    }
    let folder = plan[0].0.parent().unwrap_or(Path::new(""));
    let game_dir = args.dir.join(folder);
    let id = path.file_stem().unwrap_or_default().to_string_lossy();
    let names: Vec<String> = plan.iter().map(|(r, _)| path_text(r)).collect();
    println!(
        "Copied {id} to {}: {}.",
        path_text(&args.dir),
        names.join(", ")
    );
    println!("Edit them there; play the copy (the next run reads your edits):");
    println!(
        "  tabula --games-dir {} play {id}",
        shell_word(&path_text(&game_dir))
    );
    Ok(0)
}

/// The files a game is made of, each with the text that runs (a built-in
/// file's is the program's own): read while the game loads, with each of
/// its variants in turn (a variant may bring a script of its own).
fn game_files(path: &Path, games: &Path) -> Result<Vec<(PathBuf, String)>> {
    let load = |settings: &Settings| {
        tabula::files::record_reads(|| Game::load_path(path, games, settings, Build::default()))
    };
    let (game, mut files) = load(&Settings::default());
    let game = game?;
    for v in &game.def().variants {
        let settings = Settings {
            variants: vec![v.id.clone()],
            ..Settings::default()
        };
        for f in load(&settings).1 {
            if !files.iter().any(|(p, _)| p == &f.0) {
                files.push(f);
            }
        }
    }
    Ok(files)
}

/// Where each file goes under the copy's folder: relative to the folder
/// above the game's own (its `games/` and `scripts/` keep their places);
/// a built-in file the game extends or imports goes beside it in the
/// same layout. The game's own file comes first.
fn destinations(game: &Path, files: &[(PathBuf, String)]) -> Result<Vec<(PathBuf, String)>> {
    let absolute = |p: &Path| {
        std::path::absolute(p)
            .map(|a| tabula::files::normalize(&a))
            .map_err(|e| Error::io(p, e))
    };
    let game = absolute(game)?;
    let folder = game.parent().unwrap_or(Path::new("/"));
    let root = folder.parent().unwrap_or(folder);
    let games_name = folder.file_name().map(PathBuf::from).unwrap_or_default();
    let built_in = source::built_in()
        .map(absolute)
        .transpose()?
        .and_then(|b| b.parent().map(Path::to_path_buf));
    let mut plan: Vec<(PathBuf, String)> = Vec::new();
    for (p, text) in files {
        let p = absolute(p)?;
        let rel = if let Ok(r) = p.strip_prefix(root) {
            r.to_path_buf()
        } else if let Some(r) = built_in.as_deref().and_then(|b| p.strip_prefix(b).ok()) {
            // The library's games/ becomes the copy's games folder.
            match r.strip_prefix("games") {
                Ok(rest) => games_name.join(rest),
                Err(_) => r.to_path_buf(),
            }
        } else {
            return Err(Error::usage(format!(
                "{} (read by the game) is outside its folders: copy it by hand",
                path_text(&p)
            )));
        };
        match plan.iter().find(|(r, _)| *r == rel) {
            Some((_, t)) if t != text => {
                return Err(Error::usage(format!(
                    "two different files would be copied to {}: copy the game by hand",
                    path_text(&rel)
                )));
            }
            Some(_) => {}
            None if p == game => plan.insert(0, (rel, text.clone())),
            None => plan.push((rel, text.clone())),
        }
    }
    if plan
        .first()
        .is_none_or(|(r, _)| r.file_name() != game.file_name())
    {
        return Err(Error::usage(format!(
            "{} was not read as the game loaded: nothing copied",
            path_text(&game)
        )));
    }
    Ok(plan)
}

/// A path as a shell reads it back: quoted when it holds anything but
/// plain characters.
fn shell_word(s: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+:,=@%".contains(c);
    if !s.is_empty() && s.chars().all(plain) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}
