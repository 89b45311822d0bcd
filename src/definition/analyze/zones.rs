//! Zones: where cards lie, one per player or one shared, who sees them,
//! and the slots they take in a state.

use super::Analyzer;
use super::names::Kind;
use crate::definition::format::{Face, FaceDown, GameFile, Per, Visibility};
use crate::definition::{Faces, Zone};

/// The zones and the number of slots they take.
pub(super) fn analyze(a: &mut Analyzer, file: &GameFile, nplayers: usize) -> (Vec<Zone>, usize) {
    let mut zones = Vec::new();
    let mut slots = 0;
    for (id, z) in &file.zones {
        let per = z.per.unwrap_or(Per::Player);
        zones.push(Zone {
            id: id.clone(),
            name: z.name.clone().unwrap_or_else(|| id.clone()),
            per,
            visibility: z.visibility.unwrap_or(Visibility::Public),
            unordered: z.unordered.unwrap_or(false),
            show: z.show.unwrap_or(true),
            records_from: z.records_from.unwrap_or(false),
            faces: (z.faces.is_some() || z.face_down.is_some()).then(|| Faces {
                enter_down: z.faces == Some(Face::Down),
                down: match z.face_down {
                    Some(FaceDown::Owner) => Visibility::Owner,
                    Some(FaceDown::Hidden) => Visibility::Hidden,
                    None if per == Per::Player => Visibility::Owner,
                    None => Visibility::Hidden,
                },
            }),
            holds: (!z.holds.is_empty()).then(|| {
                z.holds
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            }),
            slot: slots,
        });
        slots += if per == Per::Player { nplayers } else { 1 };
    }
    a.names
        .declare(Kind::Zone, zones.iter().map(|z| z.id.clone()));
    (zones, slots)
}
