//! One name table for the whole analysis: every section resolves the names
//! it refers to here, and an unknown name becomes a positioned problem with
//! a did-you-mean and the known names.

use crate::definition::format::At;
use crate::error::{Error, ErrorKind, did_you_mean};

/// The kinds of names a game file defines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Player,
    Param,
    Stat,
    Var,
    Card,
    Zone,
    Die,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Player => "player",
            Kind::Param => "parameter",
            Kind::Stat => "stat",
            Kind::Var => "var",
            Kind::Card => "card",
            Kind::Zone => "zone",
            Kind::Die => "die",
        }
    }
}

#[derive(Debug, Default)]
pub struct Names {
    table: Vec<(Kind, Vec<String>)>,
}

impl Names {
    /// Declare the names of a kind, in index order.
    pub fn declare(&mut self, kind: Kind, ids: impl IntoIterator<Item = String>) {
        let ids = ids.into_iter().collect();
        match self.table.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, v)) => *v = ids,
            None => self.table.push((kind, ids)),
        }
    }

    /// Every name declared, with its kind's word.
    pub fn all(&self) -> impl Iterator<Item = (&'static str, &str)> {
        (self.table.iter()).flat_map(|(k, v)| v.iter().map(|i| (k.word(), i.as_str())))
    }

    pub fn ids(&self, kind: Kind) -> &[String] {
        self.table
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or(&[], |(_, v)| v.as_slice())
    }

    /// The index of `name`, or the problem of an unknown name.
    pub fn find(&self, kind: Kind, name: &At<String>) -> Result<usize, Error> {
        let ids = self.ids(kind);
        ids.iter()
            .position(|i| *i == name.value)
            .ok_or_else(|| unknown(kind.word(), name, ids))
    }
}

/// "unknown zone `x`", at the name, with a did-you-mean and the known ones.
pub fn unknown(what: &str, name: &At<String>, known: &[String]) -> Error {
    let mut e = Error::new(
        ErrorKind::Invalid,
        format!("unknown {what} `{}`", name.value),
    )
    .at(name.pos.clone());
    if let Some(h) = did_you_mean(&name.value, known.iter().map(String::as_str)) {
        e = e.note(h);
    }
    e.note(format!("known: {}", known.join(", ")))
}
