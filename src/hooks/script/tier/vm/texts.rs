//! What the game's data fixes (card names and attributes, players' names,
//! the board's terrain, dice's faces) as the VM's values, made once at load: a typed
//! API call (api_cards.rs, api_board.rs) hands out a copy, where its Rhai
//! form makes a string each call. A text is its symbol where it is one,
//! else a Rhai string (as `V::of` would hold the Rhai form's result).

use crate::definition::Def;
use crate::definition::format::{AttrValue, FaceValue};

use super::syms::Syms;
use super::value::V;

#[derive(Default)]
pub(crate) struct Texts {
    /// Each card's attributes, by its key's symbol: card `c`'s are
    /// `attrs[attr_at[c]..attr_at[c + 1]]`.
    attrs: Vec<(u32, V)>,
    attr_at: Vec<u32>,
    /// Each card's name, and the name each player's copy shows (card *
    /// players + player).
    names: Vec<V>,
    names_for: Vec<V>,
    players: usize,
    player_names: Vec<V>,
    /// Each square's terrain (`board:`), and "" (off the board).
    terrain: Vec<V>,
    nothing: V,
    /// Each die's faces (a number, or the word).
    faces: Vec<Vec<V>>,
}

impl Texts {
    pub fn new(def: &Def, syms: &Syms) -> Texts {
        let mut t = Texts {
            players: def.players.len(),
            nothing: syms.value(""),
            ..Texts::default()
        };
        for c in &def.cards {
            t.attr_at.push(t.attrs.len() as u32);
            for (k, v) in &c.attrs {
                // Every key is a symbol (`Syms::new`).
                let Some(k) = syms.find(k) else { continue };
                let v = match v {
                    AttrValue::Int(i) => V::Int(*i),
                    AttrValue::Bool(b) => V::Bool(*b),
                    AttrValue::Text(s) => syms.value(s),
                };
                // The first of a key, as `Card::attr` finds it.
                if !t.attrs[*t.attr_at.last().unwrap_or(&0) as usize..]
                    .iter()
                    .any(|(x, _)| *x == k)
                {
                    t.attrs.push((k, v));
                }
            }
            t.names.push(syms.value(&c.name));
            for p in 0..def.players.len() {
                t.names_for.push(syms.value(c.name_for(Some(p))));
            }
        }
        t.attr_at.push(t.attrs.len() as u32);
        t.faces = (def.dice.iter())
            .map(|d| {
                (d.values.iter())
                    .map(|f| match f {
                        FaceValue::Number(n) => V::Int(*n),
                        FaceValue::Word(w) => syms.value(w),
                    })
                    .collect()
            })
            .collect();
        t.player_names = def.players.iter().map(|p| syms.value(&p.name)).collect();
        t.terrain = (def.board.iter())
            .flat_map(|b| b.squares.iter().map(|s| syms.value(s)))
            .collect();
        t
    }

    /// Card `card`'s attribute `key` (a symbol), () where it has none.
    #[inline]
    pub fn attr(&self, card: usize, key: u32) -> V {
        let (a, b) = (self.attr_at[card] as usize, self.attr_at[card + 1] as usize);
        (self.attrs[a..b].iter())
            .find(|(k, _)| *k == key)
            .map_or(V::Unit, |(_, v)| v.clone())
    }

    /// Card `card`'s name, or the one player `p`'s copy shows.
    pub fn card_name(&self, card: usize, p: Option<usize>) -> V {
        match p {
            Some(p) => self.names_for[card * self.players + p].clone(),
            None => self.names[card].clone(),
        }
    }

    pub fn player_name(&self, p: usize) -> V {
        self.player_names[p].clone()
    }

    /// Face `i` of die `d`, if it has one.
    pub fn face(&self, d: usize, i: i64) -> Option<V> {
        Some(self.faces[d].get(usize::try_from(i).ok()?)?.clone())
    }

    /// The terrain of square `s`, "" off the board.
    pub fn terrain(&self, s: i64) -> V {
        (usize::try_from(s).ok())
            .and_then(|s| self.terrain.get(s))
            .unwrap_or(&self.nothing)
            .clone()
    }
}
