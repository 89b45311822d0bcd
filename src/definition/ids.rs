//! Names to indices, built once with a definition: scripts name players,
//! stats, vars, zones and cards by text on every call, and a linear scan
//! of a game's cards (and their aliases) per call shows in playouts.

use rustc_hash::FxHashMap;

use super::def::{Card, Die, Param, Player, Stat, Var, Zone};

/// One map per kind of name; a name maps to the first item that has it,
/// as a scan in declaration order would find.
#[derive(Debug, Clone, Default)]
pub struct Ids {
    players: FxHashMap<Box<str>, u32>,
    stats: FxHashMap<Box<str>, u32>,
    vars: FxHashMap<Box<str>, u32>,
    params: FxHashMap<Box<str>, u32>,
    zones: FxHashMap<Box<str>, u32>,
    dice: FxHashMap<Box<str>, u32>,
    /// Ids and aliases.
    cards: FxHashMap<Box<str>, u32>,
}

fn index<'a>(names: impl Iterator<Item = (usize, &'a str)>) -> FxHashMap<Box<str>, u32> {
    let mut m = FxHashMap::default();
    for (i, n) in names {
        m.entry(n.into()).or_insert(i as u32);
    }
    m
}

/// The lists a definition names things in.
pub struct Lists<'a> {
    pub players: &'a [Player],
    pub stats: &'a [Stat],
    pub vars: &'a [Var],
    pub params: &'a [Param],
    pub zones: &'a [Zone],
    pub dice: &'a [Die],
    pub cards: &'a [Card],
}

impl Ids {
    pub fn new(l: Lists) -> Ids {
        Ids {
            players: index(
                l.players
                    .iter()
                    .enumerate()
                    .map(|(i, x)| (i, x.id.as_str())),
            ),
            stats: index(l.stats.iter().enumerate().map(|(i, x)| (i, x.id.as_str()))),
            vars: index(l.vars.iter().enumerate().map(|(i, x)| (i, x.id.as_str()))),
            params: index(l.params.iter().enumerate().map(|(i, x)| (i, x.id.as_str()))),
            zones: index(l.zones.iter().enumerate().map(|(i, x)| (i, x.id.as_str()))),
            dice: index(l.dice.iter().enumerate().map(|(i, x)| (i, x.id.as_str()))),
            cards: index(l.cards.iter().enumerate().flat_map(|(i, c)| {
                std::iter::once((i, c.id.as_str()))
                    .chain(c.aliases.iter().map(move |a| (i, a.as_str())))
            })),
        }
    }

    pub fn player(&self, id: &str) -> Option<usize> {
        self.players.get(id).map(|&i| i as usize)
    }
    pub fn stat(&self, id: &str) -> Option<usize> {
        self.stats.get(id).map(|&i| i as usize)
    }
    pub fn var(&self, id: &str) -> Option<usize> {
        self.vars.get(id).map(|&i| i as usize)
    }
    pub fn param(&self, id: &str) -> Option<usize> {
        self.params.get(id).map(|&i| i as usize)
    }
    pub fn zone(&self, id: &str) -> Option<usize> {
        self.zones.get(id).map(|&i| i as usize)
    }
    pub fn die(&self, id: &str) -> Option<usize> {
        self.dice.get(id).map(|&i| i as usize)
    }
    pub fn card(&self, word: &str) -> Option<usize> {
        self.cards.get(word).map(|&i| i as usize)
    }
}
