//! How a game asks its numbers and cards to be shown to players: a var's
//! or stat's `show:` (as a number, yes/no, a word per value, or not at
//! all) and a zone's `sort:` (the order its cards are listed in). Display
//! only: the rules, the state and the replay format never see these.

use schemars::JsonSchema;
use serde::Deserialize;

use super::format::AttrValue;
use super::{Card, CardIx};

/// A var's or stat's `show:` as written: `true` (the number, the default),
/// `false` (not shown; `--json` keeps it), `yes-no` (0 is no, any other
/// value yes), or a list of words, one per value from 0 (a value past the
/// list shows as its number).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ShowDef {
    Flag(bool),
    Words(Vec<String>),
    Style(String),
}

/// How a shown number reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Shown {
    #[default]
    Number,
    YesNo,
    /// One word per value, from 0.
    Words(Vec<String>),
}

impl Shown {
    /// `v` as players read it.
    pub fn text(&self, v: i64) -> String {
        match self {
            Shown::Number => v.to_string(),
            Shown::YesNo => if v == 0 { "no" } else { "yes" }.to_string(),
            Shown::Words(w) => usize::try_from(v)
                .ok()
                .and_then(|i| w.get(i))
                .cloned()
                .unwrap_or_else(|| v.to_string()),
        }
    }
}

/// The words `show:` takes besides `true`, `false` and a list.
pub const SHOW_STYLES: [&str; 1] = ["yes-no"];

/// A `show:` as (shown at all, how), or the problem with it.
pub fn shown(def: &ShowDef) -> Result<(bool, Shown), String> {
    match def {
        ShowDef::Flag(b) => Ok((*b, Shown::Number)),
        ShowDef::Words(w) if w.is_empty() => Err(
            "`show: []` lists no words; give one word per value from 0, or `false` to hide it"
                .into(),
        ),
        ShowDef::Words(w) => Ok((true, Shown::Words(w.clone()))),
        ShowDef::Style(s) if s == "yes-no" => Ok((true, Shown::YesNo)),
        ShowDef::Style(s) => Err(format!(
            "`show: {s}` is not a way to show a number; say `true`, `false`, `yes-no` or a list of words (one per value from 0)"
        )),
    }
}

/// A zone's `sort:` as written: one key or a list of keys, each `order`
/// (the cards' order in the game file), `id`, `name`, `none` (as the cards
/// lie) or an attribute's name (`suit`, `rank`; `-rank` for high first).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum SortDef {
    One(String),
    Keys(Vec<String>),
}

impl SortDef {
    pub fn keys(&self) -> Vec<&str> {
        match self {
            SortDef::One(k) => vec![k.as_str()],
            SortDef::Keys(k) => k.iter().map(String::as_str).collect(),
        }
    }
}

/// One key a zone's cards are listed by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SortKey {
    /// The cards' order in the game file.
    Order,
    Id,
    Name,
    /// An attribute, low to high (`descending`: high to low); cards without
    /// it come last.
    Attr {
        name: String,
        descending: bool,
    },
}

/// The keys of a `sort:`, or the problem with one of them. `attrs` says
/// whether some card has an attribute of that name. An empty list is
/// `none`: the cards as they lie.
pub fn sort_keys(def: &SortDef, attrs: impl Fn(&str) -> bool) -> Result<Vec<SortKey>, String> {
    let keys = def.keys();
    if keys.contains(&"none") {
        if keys.len() > 1 {
            return Err("`sort: none` lists the cards as they lie: it takes no other key".into());
        }
        return Ok(Vec::new());
    }
    keys.into_iter()
        .map(|k| match k {
            "order" => Ok(SortKey::Order),
            "id" => Ok(SortKey::Id),
            "name" => Ok(SortKey::Name),
            _ => {
                let (name, descending) = match k.strip_prefix('-') {
                    Some(n) => (n, true),
                    None => (k, false),
                };
                if attrs(name) {
                    Ok(SortKey::Attr {
                        name: name.to_string(),
                        descending,
                    })
                } else {
                    Err(format!(
                        "`sort: {k}`: no card has an attribute `{name}`; a sort key is `order`, `id`, `name`, `none` or a card attribute (`-` before it for high first)"
                    ))
                }
            }
        })
        .collect()
}

/// The positions of `cards` in the order `keys` lists them (stable: ties,
/// and every card when `keys` is empty, keep their places). `name` is the
/// name a card shows in this zone.
pub fn sorted_positions(
    cards: &[CardIx],
    all: &[Card],
    keys: &[SortKey],
    name: impl Fn(&Card) -> String,
) -> Vec<usize> {
    let mut at: Vec<usize> = (0..cards.len()).collect();
    if keys.is_empty() {
        return at;
    }
    at.sort_by(|&a, &b| {
        let (ia, ib) = (cards[a], cards[b]);
        let (ca, cb) = (&all[ia as usize], &all[ib as usize]);
        for k in keys {
            let o = match k {
                SortKey::Order => ia.cmp(&ib),
                SortKey::Id => ca.id.cmp(&cb.id),
                SortKey::Name => name(ca).to_lowercase().cmp(&name(cb).to_lowercase()),
                SortKey::Attr { name, descending } => {
                    let o = attr_cmp(ca.attr(name), cb.attr(name));
                    // Cards without it stay last either way.
                    match (
                        ca.attr(name).is_some() && cb.attr(name).is_some(),
                        descending,
                    ) {
                        (true, true) => o.reverse(),
                        _ => o,
                    }
                }
            };
            if o.is_ne() {
                return o;
            }
        }
        ia.cmp(&ib)
    });
    at
}

/// Attribute values compared: numbers as numbers, text as text, numbers
/// before text before booleans; a missing value last.
fn attr_cmp(a: Option<&AttrValue>, b: Option<&AttrValue>) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let rank = |v: &AttrValue| match v {
        AttrValue::Int(_) => 0,
        AttrValue::Text(_) => 1,
        AttrValue::Bool(_) => 2,
    };
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Greater,
        (Some(_), None) => Ordering::Less,
        (Some(x), Some(y)) => match (x, y) {
            (AttrValue::Int(x), AttrValue::Int(y)) => x.cmp(y),
            (AttrValue::Text(x), AttrValue::Text(y)) => x.cmp(y),
            (AttrValue::Bool(x), AttrValue::Bool(y)) => x.cmp(y),
            _ => rank(x).cmp(&rank(y)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_yes_no_read_as_declared() {
        let w = Shown::Words(vec!["none".into(), "left".into()]);
        assert_eq!(w.text(1), "left");
        assert_eq!(w.text(5), "5");
        assert_eq!(w.text(-1), "-1");
        assert_eq!(Shown::YesNo.text(0), "no");
        assert_eq!(Shown::YesNo.text(3), "yes");
        assert!(shown(&ShowDef::Style("yesno".into())).is_err());
        assert!(shown(&ShowDef::Words(vec![])).is_err());
    }

    #[test]
    fn unknown_sort_keys_are_refused() {
        let has = |a: &str| a == "rank";
        assert!(sort_keys(&SortDef::One("-rank".into()), has).is_ok());
        assert!(sort_keys(&SortDef::One("suit".into()), has).is_err());
        assert!(sort_keys(&SortDef::Keys(vec!["none".into(), "id".into()]), has).is_err());
        assert_eq!(sort_keys(&SortDef::One("none".into()), has), Ok(vec![]));
    }
}
