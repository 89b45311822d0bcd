//! Games written inline for the hooks layer's unit tests: a definition and
//! its script from two texts, and the core's rules over any hooks (the
//! game layer, which does this for real, sits above).

use std::sync::Arc;

use crate::core::{AsDef, Hooks, Rules};
use crate::definition::{Def, analyze, source};
use crate::hooks::script::Script;

/// A game's rules as the core plays them, built in this layer.
pub(crate) struct Game<H>(pub Arc<Def>, pub H);

impl<H> AsDef for Game<H> {
    fn def(&self) -> &Def {
        &self.0
    }
}

impl<H: Hooks> Rules for Game<H> {
    fn hooks(&self) -> &dyn Hooks {
        &self.1
    }
}

/// The game `yaml` (whose `script:` is `game.rhai`) with `script`, and
/// `copies` compilations of the script (one for each set of hooks).
#[allow(clippy::unwrap_used)]
pub(crate) fn load(yaml: &str, script: &str, copies: usize) -> (Arc<Def>, Vec<Script>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.yaml");
    std::fs::write(&path, yaml).unwrap();
    std::fs::write(dir.path().join("game.rhai"), script).unwrap();
    let file = source::read_merged(&path, dir.path()).unwrap();
    let analysis = analyze::analyze(&path, file, &source::Settings::default());
    let scripts = (0..copies)
        .map(|_| Script::compile(&analysis.script.files).unwrap())
        .collect();
    (Arc::new(analysis.def.unwrap()), scripts)
}
