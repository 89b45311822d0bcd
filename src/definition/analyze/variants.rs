//! Variants: the ones offered, and the chosen ones' overlays merged over
//! the game in order, with the parameter values they set; then the
//! parameter settings of the command line or a replay.

use std::path::PathBuf;

use super::Analyzer;
use super::names::{Kind, unknown};
use crate::definition::format::{self, At, GameFile, ParamValue, VariantDef};
use crate::definition::{Settings, VariantInfo};
use crate::error::{Error, did_you_mean};

pub(super) struct Applied {
    /// The game with the chosen variants' overlays merged.
    pub file: GameFile,
    /// Parameter settings: the variants' (with positions), then the
    /// command line's (without).
    pub sets: Vec<(At<String>, At<ParamValue>)>,
    /// Scripts the variants add.
    pub extra_scripts: Vec<PathBuf>,
    pub offered: Vec<VariantInfo>,
    /// Every variant the file offers, as written.
    pub all: indexmap::IndexMap<String, VariantDef>,
}

pub(super) fn apply(a: &mut Analyzer, mut file: GameFile, settings: &Settings) -> Applied {
    let all = file.variants.clone();
    let offered = file
        .variants
        .iter()
        .map(|(id, v)| VariantInfo {
            id: id.clone(),
            name: v.name.clone().unwrap_or_else(|| id.clone()),
            doc: v.doc.clone().unwrap_or_default(),
            sets: v
                .set
                .iter()
                .map(|(k, x)| (k.value.clone(), x.value.clone()))
                .collect(),
        })
        .collect();
    let mut sets = Vec::new();
    let mut extra_scripts = Vec::new();
    for vid in &settings.variants {
        let Some(v) = file.variants.get(vid).cloned() else {
            let known: Vec<String> = file.variants.keys().cloned().collect();
            let mut e = Error::usage(format!("unknown variant `{vid}`"));
            if let Some(h) = did_you_mean(vid, known.iter().map(String::as_str)) {
                e = e.note(h);
            }
            a.problem(e.note(format!("variants: {}", known.join(", "))));
            continue;
        };
        if let Some(mut o) = v.overlay.map(|b| *b) {
            if let Some(s) = o.script.take() {
                extra_scripts.push(s.value);
            }
            o.variants.clear();
            file = format::merge(file, o);
        }
        sets.extend(v.set);
    }
    sets.extend(
        settings
            .sets
            .iter()
            .map(|(k, v)| (At::new(k.clone()), At::new(v.clone()))),
    );
    Applied {
        file,
        sets,
        extra_scripts,
        offered,
        all,
    }
}

/// Every variant offered, chosen or not, sets only parameters the game
/// (or the variant's own overlay) defines. Run once parameters are known.
pub(super) fn check_sets(a: &mut Analyzer, all: &indexmap::IndexMap<String, VariantDef>) {
    for v in all.values() {
        let own = v.overlay.as_ref().map(|o| &o.params);
        for k in v.set.keys() {
            let known = a.names.ids(Kind::Param).contains(&k.value)
                || own.is_some_and(|p| p.contains_key(&k.value));
            if !known {
                let e = unknown("parameter", k, a.names.ids(Kind::Param));
                a.problem(e);
            }
        }
    }
}
