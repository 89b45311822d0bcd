//! Parameters: defaults, then the values variants and the command line set,
//! each within its bounds.

use super::Analyzer;
use super::names::{Kind, unknown};
use crate::definition::Param;
use crate::definition::format::{At, GameFile};
use crate::error::{Error, ErrorKind};

pub(super) fn analyze(
    a: &mut Analyzer,
    file: &GameFile,
    sets: &[(At<String>, At<i64>)],
) -> Vec<Param> {
    let mut params: Vec<Param> = file
        .params
        .iter()
        .map(|(id, p)| {
            let default = p.default.as_ref().map_or(0, |d| d.value);
            Param {
                id: id.clone(),
                value: default,
                default,
                min: p.min,
                max: p.max,
                doc: p.doc.clone().unwrap_or_default(),
            }
        })
        .collect();
    a.names
        .declare(Kind::Param, params.iter().map(|p| p.id.clone()));
    for (k, v) in sets {
        match params.iter_mut().find(|p| p.id == k.value) {
            Some(p) => p.value = v.value,
            // A variant's: reported with every variant's (variants.rs).
            None if k.pos.is_some() => {}
            None => {
                // Set on the command line, not in the file.
                let mut e = unknown("parameter", k, a.names.ids(Kind::Param));
                e.kind = ErrorKind::Usage;
                a.problem(e);
            }
        }
    }
    for p in &params {
        let low = p.min.is_some_and(|m| p.value < m);
        let high = p.max.is_some_and(|m| p.value > m);
        if !(low || high) {
            continue;
        }
        let range = format!(
            "{}..={}",
            p.min.map_or(String::new(), |m| m.to_string()),
            p.max.map_or(String::new(), |m| m.to_string())
        );
        // The file's own default is out of bounds, or a setting is.
        let at = file
            .params
            .get(&p.id)
            .and_then(|d| d.default.as_ref())
            .and_then(|d| (d.value == p.value).then(|| d.pos.clone()).flatten());
        let kind = if at.is_some() {
            ErrorKind::Invalid
        } else {
            ErrorKind::Usage
        };
        a.problem(
            Error::new(
                kind,
                format!(
                    "parameter `{}` = {} is outside its bounds {range}",
                    p.id, p.value
                ),
            )
            .at(at),
        );
    }
    params
}
