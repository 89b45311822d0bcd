//! Layer 4, the game: a definition plus the hooks that resolve its steps.
//! `Send + Sync`: one game, built (read, analysed, compiled) once, serves
//! every thread; what a thread needs of its own (a script engine, a memo)
//! the hooks make per thread.

use std::path::Path;
use std::sync::Arc;

use crate::core::{AsDef, AskCache, Hooks, MemoStats, Rules};
use crate::definition::source::{self, Settings};
use crate::definition::{Def, analyze};
use crate::error::{Error, Result};
use crate::hooks::script::{Compile, Script};
use crate::hooks::{Memo, RhaiHooks};

pub struct Game {
    def: Arc<Def>,
    hooks: Box<dyn Hooks>,
    asks: AskCache,
    fingerprint: u64,
}

/// How to build a game's hooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Build {
    /// Replay recorded hook runs in playouts (the memo decorator).
    pub memo: bool,
    /// Run script functions compiled (`Compile::Off`: all in Rhai).
    pub compile: Compile,
}

impl Default for Build {
    fn default() -> Build {
        Build {
            memo: true,
            compile: Compile::On,
        }
    }
}

/// Load a game by id (in `dir`) or path, with variants and parameter
/// settings applied.
pub fn load(game: &str, dir: &Path, settings: &Settings) -> Result<Game> {
    Game::load(game, dir, settings, Build::default())
}

impl Game {
    /// Warnings about the game's script (`check --lint`): what runs but is
    /// likely a mistake.
    pub fn lint(&self) -> Result<Vec<Error>> {
        let script = Script::compile(&self.def.script.files)?;
        Ok(script.lint(&self.def.script))
    }

    /// Calls in the script that cannot work, found without playing: a
    /// function that exists nowhere (with the nearest name), a wrong
    /// number of arguments, an attribute no card has.
    pub fn call_problems(&self) -> Result<Vec<Error>> {
        Ok(Script::compile(&self.def.script.files)?.call_problems(&self.def))
    }

    /// The script functions the compiled tier leaves to Rhai, and why
    /// (`check --compile`).
    pub fn fallbacks(&self) -> Result<Vec<crate::hooks::script::Fallback>> {
        Ok(Script::compile(&self.def.script.files)?.fallbacks())
    }

    /// The script functions the typed VM leaves to the tree tier or to
    /// Rhai, and why (`check --vm`).
    pub fn vm_fallbacks(&self) -> Result<Vec<crate::hooks::script::Fallback>> {
        Ok(Script::compile(&self.def.script.files)?.vm_fallbacks(&self.def))
    }

    /// The functions the VM runs that would have no native code (`--jit`),
    /// and why; None where native code is not built in.
    pub fn native_fallbacks(&self) -> Result<Option<Vec<crate::hooks::script::Fallback>>> {
        Ok(Script::compile(&self.def.script.files)?.native_fallbacks(&self.def))
    }

    /// Load a game by id (in `dir`) or path.
    pub fn load(game: &str, dir: &Path, settings: &Settings, build: Build) -> Result<Game> {
        let path = source::find(game, dir)?;
        Game::load_path(&path, dir, settings, build)
    }

    /// Load the game file at `path` (`dir` is where `extends:` looks too).
    pub fn load_path(path: &Path, dir: &Path, settings: &Settings, build: Build) -> Result<Game> {
        // The fingerprint is of the texts the game is built from, read once.
        let (game, rules) =
            crate::files::fingerprint_reads(|| Game::build(path, dir, settings, build));
        let mut game = game?;
        game.fingerprint = rules;
        Ok(game)
    }

    fn build(path: &Path, dir: &Path, settings: &Settings, build: Build) -> Result<Game> {
        let file = source::read_merged(path, dir)?;
        let analysis = analyze::analyze(path, file, settings);
        let mut problems = analysis.problems;
        // The script is compiled even when the file has problems, so that
        // `check` reports the script's too.
        let script = match Script::compile(&analysis.script.files) {
            _ if analysis.script.files.is_empty() => None,
            Ok(s) => Some(s),
            Err(e) => {
                problems.push(e);
                None
            }
        };
        if let Some(script) = &script {
            problems.extend(script.missing_hooks(&analysis.script));
        }
        let (Some(def), Some(script), true) = (analysis.def, script, problems.is_empty()) else {
            return Err(Error::collect(problems));
        };
        let mut def = def;
        def.reads_turn = def.max_turns.is_some() || script.reads_turn();
        let def = Arc::new(def);
        let rhai = RhaiHooks::new(def.clone(), script, build.compile);
        // The one line that decides the memo.
        let hooks: Box<dyn Hooks> = if build.memo {
            Box::new(Memo::new(rhai))
        } else {
            Box::new(rhai)
        };
        Ok(Game::from_parts(def, hooks))
    }

    /// A game from a definition and hooks of any kind.
    pub fn from_parts(def: Arc<Def>, hooks: Box<dyn Hooks>) -> Game {
        Game {
            def,
            hooks,
            asks: AskCache::default(),
            fingerprint: 0,
        }
    }

    /// The same definition with other hooks: rules written another way
    /// (in plain Rust, say) for the same game file.
    pub fn with_hooks(&self, hooks: Box<dyn Hooks>) -> Game {
        Game::from_parts(self.def.clone(), hooks)
    }

    /// A hash of the rules files' contents (game files, then scripts): it
    /// changes when a rule does, and not when a file moves. 0 for a game
    /// built from parts.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    pub fn def(&self) -> &Def {
        &self.def
    }
    pub fn id(&self) -> &str {
        &self.def.id
    }
    /// What the memo did on this thread, if the hooks have one.
    pub fn memo_stats(&self) -> Option<MemoStats> {
        self.hooks.memo_stats()
    }
}

impl AsDef for Game {
    fn def(&self) -> &Def {
        &self.def
    }
}

impl Rules for Game {
    fn hooks(&self) -> &dyn Hooks {
        &*self.hooks
    }
    fn asks(&self) -> Option<&AskCache> {
        Some(&self.asks)
    }
}
