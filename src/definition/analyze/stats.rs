//! Stats: per-player integers and where each player starts.

use super::Analyzer;
use super::names::{Kind, unknown};
use crate::definition::format::{At, GameFile, StartValue};
use crate::definition::{Param, Player, Stat};

pub(super) fn analyze(
    a: &mut Analyzer,
    file: &GameFile,
    players: &[Player],
    listed: &[String],
    params: &[Param],
) -> Vec<Stat> {
    let n = players.len();
    let mut stats = Vec::new();
    for (id, s) in &file.stats {
        let start = match &s.start {
            None => vec![0; n],
            Some(v) => match &v.value {
                StartValue::ByPlayer(m) => {
                    let mut start = vec![0; n];
                    for (pid, x) in m {
                        match players.iter().position(|p| p.id == *pid) {
                            Some(i) => start[i] = *x,
                            // A listed player left out by player_count.
                            None if listed.contains(pid) => {}
                            None => {
                                let name = At {
                                    value: pid.clone(),
                                    pos: v.pos.clone(),
                                };
                                a.problem(unknown("player", &name, a.names.ids(Kind::Player)));
                            }
                        }
                    }
                    start
                }
                _ => vec![
                    a.number(&format!("stat `{id}`: `start`"), v, params)
                        .unwrap_or(0);
                    n
                ],
            },
        };
        let names =
            super::cards::faction_names(a, &format!("stat `{id}`"), &s.names, players, listed);
        let limit =
            (s.limit.as_ref()).and_then(|l| a.number(&format!("stat `{id}`: `limit`"), l, params));
        let (show, shown) = super::show(a, &format!("stat `{id}`"), s.show.as_ref());
        stats.push(Stat {
            names,
            limit,
            show,
            shown,
            id: id.clone(),
            name: s.name.clone().unwrap_or_else(|| id.clone()),
            doc: s.doc.clone().unwrap_or_default(),
            start,
        });
    }
    a.names
        .declare(Kind::Stat, stats.iter().map(|s| s.id.clone()));
    stats
}
