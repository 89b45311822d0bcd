//! Dice: each with at least one face, all numbers or all words. A die with
//! a `count` becomes cards, one per face, and a hidden zone that holds the
//! dice not rolled: a roll into a zone is a card moved out of that zone, so
//! a cup only its owner sees, dice kept aside and dice shown are zones like
//! any other (their visibility, the state's key, the memo, solve).

use super::Analyzer;
use super::names::Kind;
use crate::definition::bounds;
use crate::definition::format::{
    At, AttrValue, CardDef, CardSelection, FaceValue, FacesDef, GameFile, PutStep, SetupStep,
    StartValue, Visibility, ZoneDef,
};
use crate::definition::{Card, Die, Param, Zone};

/// The dice, their faces resolved; for each die with a count, its cards, its
/// zone and a first setup step that fills the zone are added to `file`.
pub(super) fn desugar(a: &mut Analyzer, file: &mut GameFile, params: &[Param]) -> Vec<Die> {
    let mut dice = Vec::new();
    let counted = file.dice.values().filter(|d| d.count.is_some()).count();
    let mut fills = Vec::new();
    for (id, d) in &file.dice {
        let (faces, values) = faces(a, id, &d.faces, params);
        let name = d.name.clone().unwrap_or_else(|| id.clone());
        let count = match &d.count {
            None => 0,
            Some(c) => (a.bounded(&format!("die `{id}`: `count`"), c, params, bounds::DICE))
                .map_or(0, |n| n as u32),
        };
        if count > 0 {
            let home = format!("{id}-box");
            let mut ids = Vec::new();
            for (i, face) in faces.iter().enumerate() {
                if faces[..i].contains(face) {
                    continue;
                }
                let card = face_card(id, face);
                let card_name = if counted == 1 {
                    face.clone()
                } else {
                    format!("{name} {face}")
                };
                let attr = match &values[i] {
                    FaceValue::Number(n) => AttrValue::Int(*n),
                    FaceValue::Word(w) => AttrValue::Text(w.clone()),
                };
                let def = CardDef {
                    name: Some(card_name),
                    copies: Some(At::new(StartValue::All(i64::from(count)))),
                    attrs: [
                        ("die".to_string(), AttrValue::Text(id.clone())),
                        ("face".into(), attr),
                    ]
                    .into_iter()
                    .collect(),
                    ..CardDef::default()
                };
                if file.cards.insert(card.clone(), def).is_some() {
                    a.invalid(
                        format!("die `{id}` makes a card `{card}` for its face, and the game has a card `{card}` too"),
                        &d.faces.pos,
                    );
                }
                ids.push(At {
                    value: card,
                    pos: d.faces.pos.clone(),
                });
            }
            let zone = ZoneDef {
                name: Some(format!("{name}: dice not rolled")),
                visibility: Some(Visibility::Hidden),
                show: Some(false),
                holds: [("die".to_string(), AttrValue::Text(id.clone()))]
                    .into_iter()
                    .collect(),
                unordered: Some(true),
                ..ZoneDef::default()
            };
            if file.zones.insert(home.clone(), zone).is_some() {
                a.invalid(
                    format!("die `{id}` keeps its dice in a zone `{home}`, and the game has a zone `{home}` too"),
                    &d.faces.pos,
                );
            }
            fills.push(SetupStep::Put(Box::new(PutStep {
                zone: At {
                    value: home,
                    pos: d.faces.pos.clone(),
                },
                cards: At {
                    value: CardSelection::List(ids),
                    pos: d.faces.pos.clone(),
                },
                filter: Default::default(),
                count: None,
                times: None,
                cell: None,
            })));
        }
        dice.push(Die {
            id: id.clone(),
            name,
            faces,
            values,
            count,
            cards: Vec::new(),
            home: None,
        });
    }
    if !fills.is_empty() {
        let setup = file.setup.get_or_insert_with(Vec::new);
        setup.splice(0..0, fills);
    }
    a.names
        .declare(Kind::Die, dice.iter().map(|d| d.id.clone()));
    dice
}

/// Each die's face cards and zone, once cards and zones are indexed.
pub(super) fn link(dice: &mut [Die], cards: &[Card], zones: &[Zone]) {
    for d in dice.iter_mut().filter(|d| d.count > 0) {
        d.cards = d
            .faces
            .iter()
            .map(|f| {
                let id = face_card(&d.id, f);
                cards.iter().position(|c| c.id == id).unwrap_or(0) as _
            })
            .collect();
        let home = format!("{}-box", d.id);
        d.home = zones.iter().position(|z| z.id == home);
    }
}

/// The id of the card that stands for a face: `d6-3`, `fate-dragon`.
fn face_card(die: &str, face: &str) -> String {
    let face: String = face
        .chars()
        .map(|c| if c.is_whitespace() { '-' } else { c })
        .collect();
    format!("{die}-{face}")
}

/// The faces as text and as script values.
fn faces(
    a: &mut Analyzer,
    id: &str,
    faces: &At<FacesDef>,
    params: &[Param],
) -> (Vec<String>, Vec<FaceValue>) {
    let list: Vec<FaceValue> = match &faces.value {
        FacesDef::List(l) => l.clone(),
        FacesDef::Sides(s) => {
            let at = At {
                value: s.clone(),
                pos: faces.pos.clone(),
            };
            match a.bounded(&format!("die `{id}`: `faces`"), &at, params, bounds::SIDES) {
                Some(n) => (1..=n).map(FaceValue::Number).collect(),
                None => return (vec!["?".into()], vec![FaceValue::Number(0)]),
            }
        }
    };
    if list.is_empty() {
        a.invalid(format!("die `{id}` has no faces"), &faces.pos);
        return (vec!["?".into()], vec![FaceValue::Number(0)]);
    }
    if list.len() as i64 > bounds::SIDES.max {
        a.invalid(
            format!(
                "die `{id}`: `faces` lists {} faces: give at most {}",
                list.len(),
                bounds::SIDES.max
            ),
            &faces.pos,
        );
    }
    let numbers = list
        .iter()
        .filter(|f| matches!(f, FaceValue::Number(_)))
        .count();
    if numbers > 0 && numbers < list.len() {
        a.invalid(
            format!("die `{id}` mixes numbers and words in its faces: give all numbers (a script then gets integers) or all words"),
            &faces.pos,
        );
    }
    let text = list
        .iter()
        .map(|f| match f {
            FaceValue::Number(n) => n.to_string(),
            FaceValue::Word(w) => w.clone(),
        })
        .collect();
    (text, list)
}
