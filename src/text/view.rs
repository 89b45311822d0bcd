//! What one player (or a spectator) may see of a state. The REPL, bots and
//! `--json` all go through here, so hidden cards never leak by accident.

use indexmap::IndexMap;
use serde::Serialize;

use crate::core::{Outcome, State, face_down_visible, zone_visible};
use crate::definition::format::Per;
use crate::definition::{Board, CardIx, PlayerIx};
use crate::error::{Error, Result};
use crate::game::Game;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct View {
    pub game: String,
    /// The player this view is for; null for a spectator (public only).
    pub viewer: Option<String>,
    pub turn: u32,
    pub over: bool,
    /// The winner's id, or null for a draw or an unfinished game.
    pub winner: Option<String>,
    pub draw: bool,
    /// Why the game ended, once over, when the script said (or "turn
    /// limit").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Player id -> their return, once over, when the game declares a
    /// payoff stat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payoff: Option<IndexMap<String, i64>>,
    /// Player id -> stat id -> value.
    pub players: IndexMap<String, IndexMap<String, i64>>,
    pub vars: IndexMap<String, i64>,
    /// Zone id -> owner (player id, or "" for a shared zone) -> contents.
    pub zones: IndexMap<String, IndexMap<String, ZoneView>>,
    /// Zone id -> owner -> for each card listed in `zones`, the player it
    /// came from (who played it), or null: zones that record it
    /// (`records_from`), where the viewer sees the cards.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub from: IndexMap<String, IndexMap<String, Vec<Option<String>>>>,
    /// The grid board, row by row, when the game has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grid: Option<super::grid::GridView>,
    pub decision: Option<DecisionView>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(untagged)]
pub enum ZoneView {
    /// Card ids, bottom to top, or in the zone's `sort:` order when it has
    /// one (a hand only its owner sees: the game's card order).
    Cards(Vec<String>),
    /// Hidden: only how many.
    Count { count: usize },
    /// Hidden, but some of its cards are known to the viewer (shown to
    /// them, or passed by them): how many in all, and those they know,
    /// bottom to top.
    Known { count: usize, known: Vec<String> },
    /// A zone that keeps faces: card ids bottom to top, null for a card
    /// lying face down that the viewer may not see.
    Faces(Vec<Option<String>>),
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DecisionView {
    pub name: String,
    pub prompt: String,
    /// Who may choose now.
    pub waiting: Vec<String>,
    /// Player -> their choice if this viewer may see it, "(chosen)" if made
    /// but secret, null if not made yet.
    pub chosen: IndexMap<String, Option<String>>,
    /// The viewer's legal choices now (each as typed, and as a replay
    /// records it).
    pub options: Vec<String>,
    /// What the asker says an option of the viewer's means, by option.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub labels: IndexMap<String, String>,
    /// A structured option's value (what the script receives), by option.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub values: IndexMap<String, crate::core::Value>,
    /// A choice of several options at once (`pick: K`): each option above
    /// is K of these, with spaces between.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pick: Option<PickView>,
}

/// What a pick asks of the viewer: `count` of the options in `from`
/// (as typed, in the order offered; an option a choice may hold twice is
/// listed twice), the order counting when `ordered`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PickView {
    pub count: u32,
    pub ordered: bool,
    pub from: Vec<String>,
}

/// What `viewer` sees (None: a spectator, who sees what is public). An
/// error names a viewer who is no player of the game.
pub fn view(game: &Game, state: &State, viewer: Option<PlayerIx>) -> Result<View> {
    if let Some(p) = viewer {
        Error::check_player(p, game.def().nplayers())?;
    }
    Ok(seen(game, state, viewer))
}

/// `view` of a viewer known to be a player of the game (or None).
pub(crate) fn seen(game: &Game, state: &State, viewer: Option<PlayerIx>) -> View {
    let def = game.def();
    let mut players = IndexMap::new();
    for (p, pl) in def.players.iter().enumerate() {
        let stats = def
            .stats
            .iter()
            .enumerate()
            .map(|(s, st)| (st.id.clone(), state.stat(game, p, s)))
            .collect();
        players.insert(pl.id.clone(), stats);
    }
    let mut zones = IndexMap::new();
    let mut from = IndexMap::new();
    for (z, zone) in def.zones.iter().enumerate() {
        let mut by_owner = IndexMap::new();
        let mut from_owner = IndexMap::new();
        for p in def.owners(z) {
            let owner = (zone.per == Per::Player).then_some(p);
            let cell = def.grid.as_ref().filter(|_| zone.per == Per::Cell);
            if cell.is_some_and(|g| g.holes[p]) {
                continue;
            }
            let cards = state.zone(game, z, p);
            let slot = def.slot(z, p);
            let knows = |i: usize| state.knows(slot, i, viewer);
            let v = if !zone_visible(zone.visibility, owner, viewer) {
                let known: Vec<String> = (cards.iter().enumerate())
                    .filter(|&(i, _)| knows(i))
                    .map(|(_, &c)| def.cards[c as usize].id.clone())
                    .collect();
                match known.is_empty() {
                    true => ZoneView::Count { count: cards.len() },
                    false => ZoneView::Known {
                        count: cards.len(),
                        known,
                    },
                }
            } else if zone.faces.is_some() {
                let down_seen = face_down_visible(zone, owner, viewer);
                ZoneView::Faces(
                    (cards.iter().zip(state.face_down(slot)).enumerate())
                        .map(|(i, (&c, down))| {
                            (!down || down_seen || knows(i))
                                .then(|| def.cards[c as usize].id.clone())
                        })
                        .collect(),
                )
            } else {
                let order = super::cards::listed(def, z, cards, owner);
                ZoneView::Cards(
                    (order.iter())
                        .map(|&i| def.cards[cards[i] as usize].id.clone())
                        .collect(),
                )
            };
            let key = match (owner, cell) {
                (Some(o), _) => def.players[o].id.clone(),
                (None, Some(g)) => g.names[p].clone(),
                (None, None) => String::new(),
            };
            if zone.records_from && matches!(v, ZoneView::Cards(_) | ZoneView::Faces(_)) {
                let origins: Vec<Option<PlayerIx>> = state.origins(def.slot(z, p)).collect();
                let order = match zone.faces {
                    Some(_) => (0..cards.len()).collect(),
                    None => super::cards::listed(def, z, cards, owner),
                };
                let who: Vec<Option<String>> = (order.iter())
                    .map(|&i| origins[i].map(|f| def.players[f].id.clone()))
                    .collect();
                if who.iter().any(Option::is_some) {
                    from_owner.insert(key.clone(), who);
                }
            }
            by_owner.insert(key, v);
        }
        zones.insert(zone.id.clone(), by_owner);
        if !from_owner.is_empty() {
            from.insert(zone.id.clone(), from_owner);
        }
    }
    let decision = decision_view(game, state, viewer);
    View {
        game: def.id.clone(),
        viewer: viewer.map(|v| def.players[v].id.clone()),
        turn: state.turn(),
        over: state.is_over(),
        winner: match state.outcome() {
            Some(Outcome::Win(p)) => Some(def.players[p].id.clone()),
            _ => None,
        },
        draw: state.outcome() == Some(Outcome::Draw),
        reason: state.end_reason().map(|r| r.to_string()),
        payoff: state.payoff(game).map(|r| {
            def.players
                .iter()
                .zip(r)
                .map(|(p, x)| (p.id.clone(), x))
                .collect()
        }),
        players,
        vars: def
            .vars
            .iter()
            .enumerate()
            .map(|(i, v)| (v.id.clone(), state.var(i)))
            .collect(),
        zones,
        from,
        grid: super::grid::grid_view(game, state, viewer),
        decision,
    }
}

/// The view as text for a terminal: stats, zones, what is being decided.
/// An error names a viewer who is no player of the game.
pub fn render(game: &Game, state: &State, viewer: Option<PlayerIx>) -> Result<String> {
    use std::fmt::Write;
    let def = game.def();
    let v = view(game, state, viewer)?;
    let mut out = String::new();
    let _ = write!(out, "{} - turn {}", def.name, v.turn);
    // Parameters the player set away from their defaults (`--set`).
    let set: Vec<String> = def
        .params
        .iter()
        .filter(|p| p.value != p.default && def.sets.iter().any(|(k, _)| *k == p.id))
        .map(|p| format!("{} {}", p.id, p.show(p.value)))
        .collect();
    if !set.is_empty() {
        let _ = write!(out, " ({})", set.join(", "));
    }
    // In a match: which game, and the score so far.
    if let Some(to) = def.match_wins {
        let score: Vec<String> = def
            .players
            .iter()
            .zip(state.match_wins())
            .map(|(p, w)| format!("{} {w}", p.name))
            .collect();
        let _ = write!(
            out,
            " - game {} of the match, {} (first to {to})",
            state.game_no(),
            score.join(" : ")
        );
    }
    let _ = writeln!(out);
    for (p, pl) in def.players.iter().enumerate() {
        let me = if viewer == Some(p) { " (you)" } else { "" };
        let stats: Vec<String> = (def.stats.iter().enumerate())
            .filter(|(_, st)| st.show)
            .map(|(s, st)| {
                let limit = st.limit.map(|l| format!("/{l}")).unwrap_or_default();
                let value = st.shown.text(state.stat(game, p, s));
                format!("{} {value}{limit}", st.name_for(Some(p)))
            })
            .collect();
        match stats.is_empty() {
            true => writeln!(out, "  {}{me}", pl.name),
            false => writeln!(out, "  {}{me}: {}", pl.name, stats.join(", ")),
        }
        .ok();
        for (z, zone) in def.zones.iter().enumerate() {
            if zone.per != Per::Player || !zone.show || state.zone(game, z, p).is_empty() {
                continue;
            }
            let line = format!(
                "    {}: {}",
                zone.name,
                zone_text(game, state, z, p, viewer)
            );
            let _ = writeln!(out, "{}", wrap(&line, 6));
        }
    }
    for (z, zone) in def.zones.iter().enumerate() {
        if zone.per == Per::Game && zone.show && !state.zone(game, z, 0).is_empty() {
            let line = format!("  {}: {}", zone.name, zone_text(game, state, z, 0, viewer));
            let _ = writeln!(out, "{}", wrap(&line, 4));
        }
    }
    if let Some(b) = &def.board {
        let _ = writeln!(out, "  {}", track(game, state, b));
    }
    if def.grid.as_ref().is_some_and(|g| def.zones[g.zone].show) {
        let _ = writeln!(out, "{}", super::grid::grid_text(game, state, viewer, "  "));
    }
    for (i, var) in def.vars.iter().enumerate().filter(|(_, v)| v.show) {
        let _ = writeln!(out, "  {}: {}", var.name, var.shown.text(state.var(i)));
    }
    Ok(out.trim_end().to_string())
}

/// A long list broken after its commas (never inside a name), the
/// following lines indented by `indent`.
fn wrap(line: &str, indent: usize) -> String {
    const WIDTH: usize = 100;
    if line.chars().count() <= WIDTH {
        return line.to_string();
    }
    let mut out = String::new();
    let mut width = 0;
    for (i, part) in line.split_inclusive(", ").enumerate() {
        let n = part.chars().count();
        if i > 0 && width + n > WIDTH {
            out = out.trim_end().to_string();
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            width = indent;
        }
        out.push_str(part);
        width += n;
    }
    out
}

/// The board as one line: a character per square (its terrain's symbol,
/// `.` otherwise), players' seat numbers on their squares (`*` if several).
fn track(game: &Game, state: &State, b: &Board) -> String {
    let mut chars: Vec<char> = b
        .squares
        .iter()
        .map(|t| {
            b.symbols
                .iter()
                .find(|(k, _)| k == t)
                .and_then(|(_, v)| v.chars().next())
                .unwrap_or('.')
        })
        .collect();
    let mut at = Vec::new();
    if let Some(pos) = b.position {
        // Seat numbers on their squares; `*` where several stand.
        let mut here = vec![0usize; chars.len()];
        for (p, pl) in game.def().players.iter().enumerate() {
            let sq = state.stat(game, p, pos);
            if let Some(n) = usize::try_from(sq).ok().and_then(|s| here.get_mut(s)) {
                *n += 1;
                chars[sq as usize] = if *n > 1 {
                    '*'
                } else {
                    char::from_digit((p + 1) as u32 % 10, 10).unwrap_or('?')
                };
            }
            at.push(format!("{} {}", pl.id, sq));
        }
    }
    let legend: Vec<String> = b.symbols.iter().map(|(k, v)| format!("{v} {k}")).collect();
    format!(
        "Board: 0 {} {}  ({}; {})",
        chars.into_iter().collect::<String>(),
        b.squares.len().saturating_sub(1),
        legend.join(", "),
        at.join(", ")
    )
}

fn zone_text(
    game: &Game,
    state: &State,
    z: usize,
    p: PlayerIx,
    viewer: Option<PlayerIx>,
) -> String {
    let def = game.def();
    let zone = &def.zones[z];
    let owner = (zone.per == Per::Player).then_some(p);
    let cards = state.zone(game, z, p);
    if cards.is_empty() {
        return "-".into();
    }
    if !zone_visible(zone.visibility, owner, viewer) {
        // Dice under a cup are dice, not cards.
        let what = match cards.iter().all(|&c| def.die_of(c).is_some()) {
            true if cards.len() == 1 => "die",
            true => "dice",
            false => "card(s)",
        };
        let slot = def.slot(z, p);
        // The cards hidden here that the viewer knows, by name.
        let known: Vec<&str> = (cards.iter().enumerate())
            .filter(|&(i, _)| state.knows(slot, i, viewer))
            .map(|(_, &c)| def.cards[c as usize].name_for(owner))
            .collect();
        if !known.is_empty() {
            return format!(
                "{} {what}, hidden; you know {} among them",
                cards.len(),
                known.join(", ")
            );
        }
        return format!("{} {what}, hidden", cards.len());
    }
    let slot = def.slot(z, p);
    let down_seen = face_down_visible(zone, owner, viewer);
    let cards: Vec<_> = (cards.iter())
        .zip(state.origins(slot))
        .zip(state.face_down(slot))
        .collect();
    let ids: Vec<CardIx> = cards.iter().map(|((c, _), _)| **c).collect();
    super::cards::listed(def, z, &ids, owner)
        .into_iter()
        .map(|i| {
            let ((&c, from), down) = cards[i];
            if down && !down_seen && !state.knows(slot, i, viewer) {
                return "a face-down card".to_string();
            }
            let name = def.cards[c as usize].name_for(owner);
            // A card another player put here says who (an enemy played
            // on you); a player's own cards do not. In a shared zone
            // (a trick) each card says who played it.
            let from = match (from, owner) {
                (Some(f), Some(o)) if o != f => format!(" (from {})", def.players[f].name),
                (Some(f), None) => format!(" ({})", def.players[f].name),
                _ => String::new(),
            };
            let face = if down { " (face down)" } else { "" };
            format!("{name}{from}{face}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// "Human: Quick sword" for each visible choice already made, for prompts.
pub fn chosen_text(game: &Game, state: &State, viewer: Option<PlayerIx>) -> Vec<String> {
    let Some(d) = state.decision() else {
        return Vec::new();
    };
    d.players
        .iter()
        .filter_map(|&p| {
            let c = d.visible_choice(p, viewer)?;
            Some(format!(
                "{}: {}",
                game.def().players[p].name,
                c.name(game, Some(p))
            ))
        })
        .collect()
}

/// The decision open now as `viewer` sees it.
fn decision_view(game: &Game, state: &State, viewer: Option<PlayerIx>) -> Option<DecisionView> {
    let def = game.def();
    let mine = viewer.map_or(Vec::new(), |v| {
        super::cards::offered(game, state, v, state.legal(v))
    });
    state.decision().map(|d| DecisionView {
        name: d.name.to_string(),
        prompt: d.prompt.to_string(),
        waiting: d
            .waiting()
            .iter()
            .map(|&p| def.players[p].id.clone())
            .collect(),
        chosen: d
            .players
            .iter()
            .zip(&d.chosen)
            .map(|(&p, c)| {
                let shown = match (c, d.visible_choice(p, viewer)) {
                    (_, Some(v)) => Some(v.text(game).to_string()),
                    (Some(_), None) => Some("(chosen)".to_string()),
                    (None, _) => None,
                };
                (def.players[p].id.clone(), shown)
            })
            .collect(),
        options: mine.iter().map(|c| c.text(game).to_string()).collect(),
        labels: mine
            .iter()
            .filter_map(|c| Some((c.text(game).to_string(), d.label(c)?.to_string())))
            .collect(),
        values: mine
            .iter()
            .filter_map(|c| match c {
                crate::core::Choice::Data(x) => Some((x.text.to_string(), x.value.clone())),
                _ => None,
            })
            .collect(),
        pick: viewer
            .and_then(|v| super::cards::pick_of(game, state, v))
            .map(|(pick, parts)| PickView {
                count: pick.k,
                ordered: pick.ordered,
                from: parts.iter().map(|c| c.text(game).to_string()).collect(),
            }),
    })
}
