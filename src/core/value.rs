//! Data a script keeps in the state or hands on: what an ask carries to its
//! continuation, and a structured option's fields. Plain, hashable and
//! `Send + Sync` (no script engine here): it is part of a position's key
//! and of a memo record's.

use std::fmt;
use std::sync::Arc;

#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub enum Value {
    #[default]
    Unit,
    Bool(bool),
    Int(i64),
    /// Text: a word, a card's or a player's id.
    Text(Arc<str>),
    List(Arc<[Value]>),
    /// Fields in name order.
    Map(Arc<[(Arc<str>, Value)]>),
}

impl Value {
    /// A map's field.
    pub fn field(&self, name: &str) -> Option<&Value> {
        match self {
            Value::Map(fields) => fields.iter().find(|(k, _)| &**k == name).map(|(_, v)| v),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    /// As a player reads it: a word as itself, a list with spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Unit => Ok(()),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Text(t) => f.write_str(t),
            Value::List(items) => {
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{v}")?;
                }
                Ok(())
            }
            Value::Map(fields) => {
                for (i, (k, v)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{k} {v}")?;
                }
                Ok(())
            }
        }
    }
}

impl serde::Serialize for Value {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Value::Unit => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Int(i) => s.serialize_i64(*i),
            Value::Text(t) => s.serialize_str(t),
            Value::List(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for v in items.iter() {
                    seq.serialize_element(v)?;
                }
                seq.end()
            }
            Value::Map(fields) => {
                let mut map = s.serialize_map(Some(fields.len()))?;
                for (k, v) in fields.iter() {
                    map.serialize_entry(&**k, v)?;
                }
                map.end()
            }
        }
    }
}
