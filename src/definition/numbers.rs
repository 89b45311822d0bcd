//! Numbers as the format takes them (`StartValue`): written out, a
//! parameter's value, arithmetic over parameters (`{expr: ...}`, see
//! expr.rs), or one per player; and a die's faces, which may be one. Read
//! by hand so that the place of an expression is kept.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Deserialize;

use super::format::{At, FaceValue, FacesDef, Name};

/// A number as the format takes it: written out, a parameter's value, or
/// arithmetic over parameters; and, where the field allows it, one per
/// player.
#[derive(Debug, Clone, JsonSchema)]
#[serde(untagged)]
pub enum StartValue {
    All(i64),
    /// A parameter's value: `start: {param: wound_limit}`.
    Param {
        param: Name,
    },
    /// Arithmetic over parameters: `rows: {expr: "2 * num_rows + 1"}`
    /// (whole numbers, `+ - * / %`, parentheses, `min`, `max`, `abs`).
    Expr {
        expr: At<String>,
    },
    ByPlayer(IndexMap<String, i64>),
}

/// By hand rather than `untagged`: serde buffers an untagged enum's
/// content, which loses where a parameter's name or an expression is
/// written (a problem in `{expr: ...}` points at its column). Anything
/// else is said as serde says an untagged enum's mismatch, which the
/// reader turns into the forms to give (source.rs).
impl<'de> Deserialize<'de> for StartValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StartVisitor)
    }
}

struct StartVisitor;

const NO_FORM: &str = "data did not match any variant of untagged enum StartValue";

impl<'de> serde::de::Visitor<'de> for StartVisitor {
    type Value = StartValue;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a number, `{param: NAME}`, `{expr: TEXT}` or a number per player")
    }
    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<StartValue, E> {
        Ok(StartValue::All(v))
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<StartValue, E> {
        i64::try_from(v)
            .map(StartValue::All)
            .map_err(|_| E::custom(NO_FORM))
    }
    fn visit_i128<E: serde::de::Error>(self, _: i128) -> Result<StartValue, E> {
        Err(E::custom(NO_FORM))
    }
    fn visit_u128<E: serde::de::Error>(self, _: u128) -> Result<StartValue, E> {
        Err(E::custom(NO_FORM))
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<StartValue, E> {
        Err(E::custom(NO_FORM))
    }
    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<StartValue, E> {
        Err(E::custom(NO_FORM))
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<StartValue, E> {
        // Arithmetic written as it is read: say how to write it.
        // (A lone word is not: `lots` is said as a number not given.)
        let sums = v.contains(|c: char| "+-*/%(".contains(c));
        if sums && v.len() <= super::expr::MAX_LEN && super::expr::parse(v).is_ok() {
            let quoted = v.replace('\\', "\\\\").replace('"', "\\\"");
            return Err(E::custom(format!(
                "`{v}` is text here: a number worked out from parameters is written `{{expr: \"{quoted}\"}}`"
            )));
        }
        Err(E::custom(NO_FORM))
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<StartValue, E> {
        Err(E::custom(NO_FORM))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, _: A) -> Result<StartValue, A::Error> {
        Err(serde::de::Error::custom(NO_FORM))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<StartValue, A::Error> {
        use serde::de::Error;
        let Some(first) = map.next_key::<String>()? else {
            return Ok(StartValue::ByPlayer(IndexMap::new()));
        };
        let one = |map: &mut A, key: &str| -> Result<(), A::Error> {
            match map.next_key::<String>()? {
                None => Ok(()),
                Some(k) => Err(A::Error::custom(format!(
                    "unknown field `{k}` beside `{key}`: `{{{key}: ...}}` has no other key"
                ))),
            }
        };
        match first.as_str() {
            "param" => {
                let param = map.next_value::<Name>()?;
                one(&mut map, "param")?;
                Ok(StartValue::Param { param })
            }
            "expr" => {
                let expr = map.next_value::<At<String>>()?;
                one(&mut map, "expr")?;
                Ok(StartValue::Expr { expr })
            }
            _ => {
                let mut by = IndexMap::new();
                let mut key = first;
                loop {
                    let n = map
                        .next_value::<i64>()
                        .map_err(|_| A::Error::custom(NO_FORM))?;
                    by.insert(key, n);
                    match map.next_key::<String>()? {
                        Some(k) => key = k,
                        None => return Ok(StartValue::ByPlayer(by)),
                    }
                }
            }
        }
    }
}

/// By hand, as `StartValue` (whose reading it shares), so that an
/// expression's place is kept.
impl<'de> Deserialize<'de> for FacesDef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Faces;
        impl<'de> serde::de::Visitor<'de> for Faces {
            type Value = FacesDef;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number of sides, `{param: NAME}`, `{expr: TEXT}` or a list of faces")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<FacesDef, A::Error> {
                let mut out = Vec::new();
                while let Some(f) = seq.next_element::<FaceValue>()? {
                    out.push(f);
                }
                Ok(FacesDef::List(out))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<FacesDef, A::Error> {
                serde::de::Visitor::visit_map(StartVisitor, map).map(FacesDef::Sides)
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<FacesDef, E> {
                Ok(FacesDef::Sides(StartValue::All(v)))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<FacesDef, E> {
                serde::de::Visitor::visit_u64(StartVisitor, v).map(FacesDef::Sides)
            }
            fn visit_i128<E: serde::de::Error>(self, _: i128) -> Result<FacesDef, E> {
                Err(E::custom(NO_FACES))
            }
            fn visit_u128<E: serde::de::Error>(self, _: u128) -> Result<FacesDef, E> {
                Err(E::custom(NO_FACES))
            }
            fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<FacesDef, E> {
                Err(E::custom(NO_FACES))
            }
            fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<FacesDef, E> {
                Err(E::custom(NO_FACES))
            }
            fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<FacesDef, E> {
                Err(E::custom(NO_FACES))
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<FacesDef, E> {
                Err(E::custom(NO_FACES))
            }
        }
        d.deserialize_any(Faces)
    }
}

const NO_FACES: &str = "data did not match any variant of untagged enum FacesDef";
