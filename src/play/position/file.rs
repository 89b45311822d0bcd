//! A position section's types as written (ids, each with where it was
//! written), read by serde; the JSON Schema of save files comes from them.

use std::fmt;

use indexmap::IndexMap;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Deserialize;
use serde::de::{self, MapAccess, SeqAccess, Visitor};

use crate::definition::format::At;

/// A position as written: every entry an id, with its place in the file.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PositionFile {
    /// The turn (from 1).
    #[schemars(range(min = 1, max = 1_000_000))]
    pub turn: Option<At<u32>>,
    /// Whose turn it is (a player's id).
    pub active: Option<At<String>>,
    /// The flow step to run next: its name, or its number from 1.
    pub step: Option<At<StepRef>>,
    /// The RNG's place: words drawn from the seed's stream.
    pub draws: Option<At<u64>>,
    /// The turn order (`turns: rotate`), when not the seats'.
    pub order: Option<At<Vec<At<String>>>>,
    /// The player who reveals first at the next simultaneous decision.
    pub reveals_first: Option<At<String>>,
    /// In a match: the game being played, the wins and who began it.
    #[serde(rename = "match")]
    pub in_match: Option<At<MatchFile>>,
    /// Player -> stat -> value; a stat not given keeps its start.
    #[serde(default)]
    pub stats: IndexMap<At<String>, IndexMap<At<String>, At<i64>>>,
    /// Var -> value; a var not given keeps its start.
    #[serde(default)]
    pub vars: IndexMap<At<String>, At<i64>>,
    /// Zone -> its cards (a shared zone), or owner (player or cell) ->
    /// cards; a zone or place not given is empty.
    #[serde(default)]
    pub zones: IndexMap<At<String>, At<ZoneFile>>,
}

/// In a match: the game being played (from 1), each player's wins and who
/// began this game.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MatchFile {
    #[schemars(range(min = 1))]
    pub game: Option<At<u32>>,
    #[serde(default)]
    pub wins: IndexMap<At<String>, At<u32>>,
    pub starter: Option<At<String>>,
}

/// A step by name or by number (from 1).
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum StepRef {
    Number(u64),
    Name(String),
}

/// A zone's cards: one list (a shared zone), or one per owner.
#[derive(Debug, Clone, PartialEq)]
pub enum ZoneFile {
    Cards(Vec<At<CardFile>>),
    Places(IndexMap<At<String>, At<Vec<At<CardFile>>>>),
}

/// A card: its id, or `{card: ID, down: true, from: PLAYER, known: [PLAYER, ...]}`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CardFile {
    pub card: String,
    pub down: Option<bool>,
    pub from: Option<String>,
    /// The players who know this card (where the zone hides it from them).
    pub known: Option<Vec<String>>,
}

impl JsonSchema for ZoneFile {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ZoneFile".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        let list = g.subschema_for::<Vec<CardFile>>();
        json_schema!({
            "description": "A shared zone's cards, bottom to top; or a zone per player or per cell: each owner (a player's id, a cell's name) -> its cards.",
            "anyOf": [list, {"type": "object", "additionalProperties": list}]
        })
    }
}

impl JsonSchema for CardFile {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "CardFile".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A card: its id, or {card: ID, down: true, from: PLAYER, known: [PLAYER, ...]}.",
            "anyOf": [
                {"type": ["string", "integer"]},
                {
                    "type": "object",
                    "properties": {
                        "card": {"type": ["string", "integer"], "description": "The card's id."},
                        "down": {"type": "boolean", "description": "Face down (a zone that keeps faces)."},
                        "from": {"type": "string", "description": "The player it came from (a zone that records it)."},
                        "known": {
                            "type": "array",
                            "items": {"type": "string"},
                            "description": "The players who know this card where its zone hides it."
                        }
                    },
                    "required": ["card"],
                    "additionalProperties": false
                }
            ]
        })
    }
}

impl<'de> Deserialize<'de> for ZoneFile {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ZoneFile;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a list of cards, or a map from each owner (player or cell) to a list of cards",
                )
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<ZoneFile, A::Error> {
                let mut cards = Vec::new();
                while let Some(c) = seq.next_element()? {
                    cards.push(c);
                }
                Ok(ZoneFile::Cards(cards))
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<ZoneFile, A::Error> {
                let mut places = IndexMap::new();
                while let Some((k, v)) = map.next_entry()? {
                    places.insert(k, v);
                }
                Ok(ZoneFile::Places(places))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for CardFile {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CardFile;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a card's id, or {card: ID, down: true, from: PLAYER, known: [PLAYER, ...]}",
                )
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<CardFile, E> {
                Ok(CardFile {
                    card: v.to_string(),
                    ..CardFile::default()
                })
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<CardFile, E> {
                self.visit_str(&v.to_string())
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<CardFile, E> {
                self.visit_str(&v.to_string())
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<CardFile, A::Error> {
                let mut c = CardFile::default();
                let mut card = None;
                while let Some(k) = map.next_key::<String>()? {
                    match k.as_str() {
                        "card" => card = Some(map.next_value::<String>()?),
                        "down" => c.down = Some(map.next_value()?),
                        "from" => c.from = Some(map.next_value()?),
                        "known" => c.known = Some(map.next_value()?),
                        _ => {
                            return Err(de::Error::unknown_field(
                                &k,
                                &["card", "down", "from", "known"],
                            ));
                        }
                    }
                }
                c.card = card.ok_or_else(|| de::Error::missing_field("card"))?;
                Ok(c)
            }
        }
        d.deserialize_any(V)
    }
}
