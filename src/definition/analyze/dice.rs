//! Dice: each with at least one face.

use super::Analyzer;
use super::names::Kind;
use crate::definition::Die;
use crate::definition::format::GameFile;

pub(super) fn analyze(a: &mut Analyzer, file: &GameFile) -> Vec<Die> {
    let mut dice = Vec::new();
    for (id, d) in &file.dice {
        if d.faces.value.is_empty() {
            a.invalid(format!("die `{id}` has no faces"), &d.faces.pos);
        }
        dice.push(Die {
            id: id.clone(),
            faces: d.faces.value.clone(),
        });
    }
    a.names
        .declare(Kind::Die, dice.iter().map(|d| d.id.clone()));
    dice
}
