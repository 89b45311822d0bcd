//! A golden playthrough, in the manner of OpenSpiel's: a seeded game between
//! random bots, written step by step (options, choices, log, stats) so that a
//! reviewed snapshot pins down the rules' behaviour.

use std::fmt::Write;

use crate::analysis::bot::{Bot, RandomBot};
use crate::core::{Outcome, State};
use crate::definition::format::Per;
use crate::error::Result;
use crate::game::Game;

/// Play `game` from `seed` with random bots (seeded from `seed`) for at most
/// `max_decisions`, and write what happened.
pub fn record(game: &Game, seed: u64, max_decisions: usize) -> Result<String> {
    let def = game.def();
    let mut out = String::new();
    let (mut state, events) = State::new(game, seed)?;
    let variants = if def.applied.is_empty() {
        "-".to_string()
    } else {
        def.applied.join(", ")
    };
    let _ = writeln!(out, "game {} seed {seed} variants {variants}", def.id);
    write_events(&mut out, game, &events);
    write_state(&mut out, game, &state);
    let mut bots: Vec<RandomBot> = (0..def.nplayers())
        .map(|p| RandomBot::new(seed.wrapping_mul(31).wrapping_add(p as u64)))
        .collect();
    let mut decisions = 0;
    while let Some(d) = state.decision() {
        if decisions == max_decisions {
            let _ = writeln!(out, "(stopped after {max_decisions} decisions)");
            return Ok(out);
        }
        decisions += 1;
        let _ = writeln!(out, "turn {} - {}", state.turn(), d.name);
        let d = d.clone();
        for &p in d.players.iter() {
            let opts: Vec<&str> = d.options_of(p).iter().map(|c| c.text(game)).collect();
            let _ = writeln!(out, "  {} may: {}", def.players[p].id, opts.join(" "));
        }
        let mut chosen = Vec::new();
        let mut events = Vec::new();
        // One decision: as many choices as it has deciders.
        for _ in 0..d.players.len() {
            let Some(&p) = state.waiting().first() else {
                break;
            };
            let Some(c) = bots[p].choose(game, &state, p) else {
                break;
            };
            chosen.push(format!("{} {}", def.players[p].id, c.text(game)));
            events.extend(state.act(game, p, c)?);
        }
        let _ = writeln!(out, "  chose: {}", chosen.join(", "));
        for e in &events {
            let to = e
                .to()
                .map_or(String::new(), |p| format!(" (to {})", def.players[p].id));
            let _ = writeln!(out, "  log{to}: {}", crate::text::phrase(game, e));
        }
        write_state(&mut out, game, &state);
    }
    let _ = match state.outcome() {
        Some(Outcome::Win(p)) => writeln!(out, "over: {} wins", def.players[p].id),
        Some(Outcome::Draw) => writeln!(out, "over: draw"),
        None => writeln!(out, "not over"),
    };
    Ok(out)
}

fn write_events(out: &mut String, game: &Game, events: &[crate::core::Event]) {
    for e in events {
        let to = e.to().map_or(String::new(), |p| {
            format!(" (to {})", game.def().players[p].id)
        });
        let _ = writeln!(out, "  log{to}: {}", crate::text::phrase(game, e));
    }
}

fn write_state(out: &mut String, game: &Game, state: &State) {
    let def = game.def();
    for (p, pl) in def.players.iter().enumerate() {
        let stats: Vec<String> = def
            .stats
            .iter()
            .enumerate()
            .map(|(s, st)| format!("{} {}", st.id, state.stat(game, p, s)))
            .collect();
        let zones: Vec<String> = def
            .zones
            .iter()
            .enumerate()
            .filter(|(z, zone)| zone.per == Per::Player && !state.zone(game, *z, p).is_empty())
            .map(|(z, zone)| {
                let slot = def.slot(z, p);
                let here = entries(game, state, slot, Some(p));
                format!("{} [{here}]", zone.id)
            })
            .collect();
        let _ = writeln!(
            out,
            "  {}: {} | {}",
            pl.id,
            stats.join(", "),
            zones.join(" ")
        );
    }
    for (z, zone) in def.zones.iter().enumerate() {
        let here = state.zone(game, z, 0);
        if zone.per != Per::Game || here.is_empty() {
            continue;
        }
        // A shared hidden pile (a deck) by its size: its order shows in what
        // is drawn.
        if zone.visibility == crate::definition::format::Visibility::Hidden {
            let n = here.len();
            let _ = writeln!(
                out,
                "  {}: {n} card{}",
                zone.id,
                if n == 1 { "" } else { "s" }
            );
        } else {
            let here = entries(game, state, def.slot(z, 0), None);
            let _ = writeln!(out, "  {}: [{here}]", zone.id);
        }
    }
    // A grid: each cell that holds cards, by name.
    if let Some(g) = &def.grid {
        let cells: Vec<String> = g
            .cells()
            .filter(|&c| !state.zone(game, g.zone, c).is_empty())
            .map(|c| {
                let here = entries(game, state, def.slot(g.zone, c), None);
                format!("{} [{here}]", g.names[c])
            })
            .collect();
        let _ = writeln!(out, "  {}: {}", def.zones[g.zone].id, cells.join(" "));
    }
    let shown: Vec<String> = def
        .vars
        .iter()
        .enumerate()
        .filter(|(_, v)| v.show)
        .map(|(i, v)| format!("{} {}", v.id, state.var(i)))
        .collect();
    if !shown.is_empty() {
        let _ = writeln!(out, "  vars: {}", shown.join(", "));
    }
}

/// A slot's cards, all shown: `goblin<p2` put here by another player,
/// `~rose` lying face down.
fn entries(game: &Game, state: &State, slot: usize, owner: Option<usize>) -> String {
    let def = game.def();
    state
        .slot(slot)
        .iter()
        .zip(state.origins(slot))
        .zip(state.face_down(slot))
        .map(|((&c, from), down)| {
            let id = &def.cards[c as usize].id;
            let face = if down { "~" } else { "" };
            match from.filter(|&f| Some(f) != owner) {
                Some(f) => format!("{face}{id}<{}", def.players[f].id),
                None => format!("{face}{id}"),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
