//! Parameters: defaults, then the values variants and the command line set,
//! each within its bounds.

use super::Analyzer;
use super::names::{Kind, unknown};
use crate::definition::Param;
use crate::definition::bounds::Bound;
use crate::definition::format::{At, GameFile, ParamValue};
use crate::error::{Error, ErrorKind};

pub(super) fn analyze(
    a: &mut Analyzer,
    file: &GameFile,
    sets: &[(At<String>, At<ParamValue>)],
) -> Vec<Param> {
    let mut params: Vec<Param> = Vec::new();
    for (id, p) in &file.params {
        let mut param = Param {
            id: id.clone(),
            value: 0,
            default: 0,
            min: p.min.as_ref().map(|m| m.value),
            max: p.max.as_ref().map(|m| m.value),
            values: p.values.iter().map(|v| v.value.clone()).collect(),
            doc: p.doc.clone().unwrap_or_default(),
        };
        if let (Some(min), Some(max)) = (&p.min, &p.max)
            && min.value > max.value
        {
            a.invalid(
                format!(
                    "parameter `{id}`: `min` is {} and `max` {}: no value is both; give `min` at most `max`",
                    min.value, max.value
                ),
                &max.pos,
            );
        }
        if let Some(d) = &p.default {
            param.default = resolve(a, &param, d, ErrorKind::Invalid).unwrap_or(0);
        }
        param.value = param.default;
        params.push(param);
    }
    a.names
        .declare(Kind::Param, params.iter().map(|p| p.id.clone()));
    for (k, v) in sets {
        match params.iter().position(|p| p.id == k.value) {
            Some(i) => {
                // The command line's (no position) is a usage error.
                let kind = if v.pos.is_some() {
                    ErrorKind::Invalid
                } else {
                    ErrorKind::Usage
                };
                if let Some(x) = resolve(a, &params[i], v, kind) {
                    params[i].value = x;
                }
            }
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
    for p in params.iter().filter(|p| p.values.is_empty()) {
        let bound = Bound::new(p.min.unwrap_or(i64::MIN), p.max.unwrap_or(i64::MAX));
        if bound.contains(p.value) || bound.min > bound.max {
            continue;
        }
        // The file's own default is out of bounds, or a setting is.
        let at = file
            .params
            .get(&p.id)
            .and_then(|d| d.default.as_ref())
            .and_then(|d| {
                (d.value == ParamValue::Int(p.value))
                    .then(|| d.pos.clone())
                    .flatten()
            });
        let kind = if at.is_some() {
            ErrorKind::Invalid
        } else {
            ErrorKind::Usage
        };
        a.problem(
            Error::new(
                kind,
                format!(
                    "parameter `{}` is {}: give {} (its `min` and `max`)",
                    p.id,
                    p.value,
                    bound.allowed()
                ),
            )
            .at(at),
        );
    }
    params
}

/// A written value as the parameter's: a number for a number, the index of
/// a name for a named one; otherwise a problem that says what it takes.
fn resolve(a: &mut Analyzer, p: &Param, v: &At<ParamValue>, kind: ErrorKind) -> Option<i64> {
    let problem = match (&v.value, p.values.is_empty()) {
        (ParamValue::Int(i), true) => return Some(*i),
        (ParamValue::Word(w), false) => match p.values.iter().position(|x| x == w) {
            Some(i) => return Some(i as i64),
            None => {
                let mut e = Error::new(
                    kind,
                    format!(
                        "parameter `{}` has no value `{w}` (values: {})",
                        p.id,
                        p.values.join(", ")
                    ),
                );
                if let Some(h) = crate::error::did_you_mean(w, p.values.iter().map(String::as_str))
                {
                    e = e.note(h);
                }
                e
            }
        },
        (ParamValue::Word(w), true) => Error::new(
            kind,
            format!("parameter `{}` takes a number, not `{w}`", p.id),
        ),
        (ParamValue::Int(i), false) => Error::new(
            kind,
            format!(
                "parameter `{}` takes a name, not {i} (values: {})",
                p.id,
                p.values.join(", ")
            ),
        ),
    };
    a.problem(problem.at(v.pos.clone()));
    None
}
