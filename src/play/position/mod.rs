//! The `position:` section of a save or replay file (docs/positions.md):
//! a game given as it stands (zones and their cards with faces and where
//! they came from, grid cells, stats, vars, the turn, who is active and the
//! flow step to run next) rather than as the moves from a seed. As written
//! (ids, each with where it was written), resolved against a game into a
//! `core::Position`, and written back.

mod file;
mod write;

pub use file::{CardFile, MatchFile, PositionFile, StepRef, ZoneFile};

use crate::core::{AsDef, Position};
use crate::definition::format::{At, Per};
use crate::definition::{CardIx, Def, FACE_DOWN, PlayerIx, Step};
use crate::error::{Error, ErrorKind, Pos, Result, did_you_mean};

/// The problems found so far, each with its place.
struct Problems<'a> {
    def: &'a Def,
    /// Where the section starts, for a problem with no entry of its own.
    at: Option<Pos>,
    list: Vec<Error>,
}

impl Problems<'_> {
    fn add(&mut self, at: &Option<Pos>, msg: String) {
        let at = at.clone().or_else(|| self.at.clone());
        self.list.push(Error::new(ErrorKind::Invalid, msg).at(at));
    }
    /// A player by id, or a problem saying which there are.
    fn player(&mut self, id: &At<String>, what: &str) -> Option<PlayerIx> {
        let p = self.def.player(&id.value);
        if p.is_none() {
            let ids: Vec<&str> = self.def.players.iter().map(|p| p.id.as_str()).collect();
            self.add(&id.pos, unknown(what, &id.value, &ids));
        }
        p
    }
}

/// "no X `id`: did you mean ...? (Xs: a, b)".
fn unknown(what: &str, id: &str, known: &[&str]) -> String {
    let mut msg = format!("no {what} `{}`", crate::text::clip(id));
    match did_you_mean(id, known.iter().copied()) {
        Some(h) => msg += &format!(": {h}"),
        None if known.is_empty() => msg += " (the game has none)",
        None if known.len() <= 12 => msg += &format!(" (there are: {})", known.join(", ")),
        None => {}
    }
    msg
}

/// The name a flow step goes by in a position: a decision's or a hook's
/// name, or a roll's die.
pub fn step_name(def: &Def, step: &Step) -> String {
    match step {
        Step::Decide { name, .. } => name.to_string(),
        Step::Hook { name } => name.clone(),
        Step::Roll { die, .. } => def.dice[*die].id.clone(),
    }
}

/// The owners' names of a zone: players' ids or cells' names.
fn owner_name(def: &Def, zone: usize, owner: usize) -> String {
    match def.zones[zone].per {
        Per::Player => def.players[owner].id.clone(),
        Per::Cell => def
            .grid
            .as_ref()
            .map_or(String::new(), |g| g.names[owner].clone()),
        Per::Game => String::new(),
    }
}

impl PositionFile {
    /// The position this file gives in `game`, whose start (`start`, a
    /// fresh game's state) holds every card the game has: every problem
    /// found, each at its line and column (`at`: where the section is).
    pub fn resolve(
        &self,
        game: &(impl AsDef + ?Sized),
        start: &crate::core::State,
        seed: u64,
        at: Option<Pos>,
    ) -> Result<Position> {
        let def = game.def();
        let mut pr = Problems {
            def,
            at,
            list: Vec::new(),
        };
        let mut pos = Position::empty(game);
        pos.seed = seed;
        pos.draws = self.draws.as_ref().map_or(0, |d| u128::from(d.value));
        if let Some(t) = &self.turn {
            let most = crate::definition::bounds::MAX_TURNS.max;
            if t.value == 0 {
                pr.add(&t.pos, "the turn counts from 1".into());
            } else if i64::from(t.value) > most {
                pr.add(
                    &t.pos,
                    format!("a turn past {most} (the most `max_turns` allows): give a turn from 1 to {most}"),
                );
            }
            pos.turn = t.value.clamp(1, most as u32);
        }
        if let Some(a) = &self.active {
            pos.active = pr.player(a, "player").unwrap_or(0);
        }
        if let Some(r) = &self.reveals_first {
            pos.reveal_first = pr.player(r, "player");
        }
        if let Some(s) = &self.step {
            pos.step = resolve_step(def, s, &mut pr);
        }
        if let Some(o) = &self.order {
            let ps: Vec<Option<PlayerIx>> =
                o.value.iter().map(|p| pr.player(p, "player")).collect();
            let ps: Vec<PlayerIx> = ps.into_iter().flatten().collect();
            let mut sorted = ps.clone();
            sorted.sort_unstable();
            if sorted != (0..def.nplayers()).collect::<Vec<_>>() {
                pr.add(&o.pos, "the order must name every player once".into());
            } else {
                pos.order = ps;
            }
        }
        if let Some(m) = &self.in_match {
            resolve_match(m, &mut pr, &mut pos);
        }
        for (p, stats) in &self.stats {
            let Some(p) = pr.player(p, "player") else {
                continue;
            };
            for (s, v) in stats {
                match def.stat(&s.value) {
                    Some(i) => pos.stats[p * def.stats.len() + i] = v.value,
                    None => {
                        let ids: Vec<&str> = def.stats.iter().map(|s| s.id.as_str()).collect();
                        pr.add(&s.pos, unknown("stat", &s.value, &ids));
                    }
                }
            }
        }
        for (v, x) in &self.vars {
            match def.var(&v.value) {
                Some(i) => pos.vars[i] = x.value,
                None => {
                    let ids: Vec<&str> = def.vars.iter().map(|v| v.id.as_str()).collect();
                    pr.add(&v.pos, unknown("var", &v.value, &ids));
                }
            }
        }
        // Where each copy of each card was placed, to count them.
        let mut placed: Vec<Vec<Option<Pos>>> = vec![Vec::new(); def.cards.len()];
        for (z, cards) in &self.zones {
            let Some(zi) = def.zone(&z.value) else {
                let ids: Vec<&str> = def.zones.iter().map(|z| z.id.as_str()).collect();
                pr.add(&z.pos, unknown("zone", &z.value, &ids));
                continue;
            };
            let zone = &def.zones[zi];
            match (&cards.value, zone.per) {
                (ZoneFile::Cards(list), Per::Game) => {
                    let slot = def.slot(zi, 0);
                    put(&mut pr, &mut pos, &mut placed, zi, slot, list);
                }
                (ZoneFile::Places(places), Per::Player | Per::Cell) => {
                    for (owner, list) in places {
                        let Some(o) = def.place(zi, &owner.value) else {
                            let names: Vec<String> =
                                def.owners(zi).map(|o| owner_name(def, zi, o)).collect();
                            let names: Vec<&str> = names.iter().map(String::as_str).collect();
                            let what = if zone.per == Per::Cell { "cell" } else { "player" };
                            pr.add(&owner.pos, unknown(what, &owner.value, &names));
                            continue;
                        };
                        let slot = def.slot(zi, o);
                        put(&mut pr, &mut pos, &mut placed, zi, slot, &list.value);
                    }
                }
                (ZoneFile::Cards(_), _) => {
                    let (whose, e) = match zone.per {
                        Per::Cell => ("cell", "a1"),
                        _ => ("player", def.players[0].id.as_str()),
                    };
                    pr.add(
                        &cards.pos,
                        format!(
                            "zone `{}` has a pile per {whose}: give its cards by {whose}, e.g. `{}: {{{e}: [...]}}`",
                            zone.id, zone.id
                        ),
                    );
                }
                (ZoneFile::Places(_), _) => pr.add(
                    &cards.pos,
                    format!(
                        "zone `{}` is one shared pile: give its cards as one list, e.g. `{}: [...]`",
                        zone.id, zone.id
                    ),
                ),
            }
        }
        if !pos.known.is_empty() {
            for (k, z) in pos.known.iter_mut().zip(&pos.zones) {
                k.resize(z.len(), 0);
            }
        }
        count_cards(&mut pr, start, &placed);
        if pr.list.is_empty() {
            Ok(pos)
        } else {
            Err(Error::collect(pr.list))
        }
    }
}

/// A match's entries: the game being played, the wins, who began it.
fn resolve_match(m: &At<MatchFile>, pr: &mut Problems, pos: &mut Position) {
    let def = pr.def;
    if def.match_wins.is_none() {
        pr.add(&m.pos, format!("`{}` is not played as a match", def.id));
    }
    if let Some(g) = &m.value.game {
        let most = crate::definition::bounds::MAX_GAMES.max;
        if g.value == 0 {
            pr.add(&g.pos, "a match's games count from 1".into());
        } else if i64::from(g.value) > most {
            pr.add(
                &g.pos,
                format!("a match plays at most {most} games: give a game from 1 to {most}"),
            );
        }
        pos.game_no = g.value.max(1);
    }
    for (p, w) in &m.value.wins {
        if let Some(p) = pr.player(p, "player") {
            pos.match_wins[p] = w.value;
        }
    }
    if let Some(s) = &m.value.starter {
        pos.starter = pr.player(s, "player").unwrap_or(0);
    }
}

fn resolve_step(def: &Def, s: &At<StepRef>, pr: &mut Problems) -> usize {
    let n = def.flow.len();
    match &s.value {
        StepRef::Number(k) if (1..=n as u64).contains(k) => *k as usize - 1,
        StepRef::Number(k) => {
            pr.add(
                &s.pos,
                format!("no step {k}: the turn has {n} step(s), from 1"),
            );
            0
        }
        StepRef::Name(name) => {
            let at: Vec<usize> = (0..n)
                .filter(|&i| step_name(def, &def.flow[i]) == *name)
                .collect();
            match at[..] {
                [i] => i,
                [] => {
                    let names: Vec<String> = def.flow.iter().map(|s| step_name(def, s)).collect();
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    pr.add(&s.pos, unknown("step", name, &names));
                    0
                }
                _ => {
                    let nums: Vec<String> = at.iter().map(|i| (i + 1).to_string()).collect();
                    pr.add(
                        &s.pos,
                        format!(
                            "the turn has several steps `{name}`: give the step's number instead ({})",
                            nums.join(" or ")
                        ),
                    );
                    0
                }
            }
        }
    }
}

/// Put a list of cards in `slot` (a place of zone `z`).
fn put(
    pr: &mut Problems,
    pos: &mut Position,
    placed: &mut [Vec<Option<Pos>>],
    z: usize,
    slot: usize,
    list: &[At<CardFile>],
) {
    let def = pr.def;
    let zone = &def.zones[z];
    let mut cards: Vec<CardIx> = Vec::new();
    let mut recs: Vec<u8> = Vec::new();
    for c in list {
        let cf = &c.value;
        let Some(ci) = def.card(&cf.card) else {
            let ids: Vec<&str> = def.cards.iter().map(|c| c.id.as_str()).collect();
            pr.add(&c.pos, unknown("card", &cf.card, &ids));
            continue;
        };
        placed[ci as usize].push(c.pos.clone());
        let mut rec = zone.entry(0).unwrap_or(0);
        if let Some(d) = cf.down {
            if zone.faces.is_none() {
                pr.add(
                    &c.pos,
                    format!("zone `{}` keeps no faces: its cards lie as the zone shows them (drop `down`)", zone.id),
                );
            }
            rec = if d { rec | FACE_DOWN } else { rec & !FACE_DOWN };
        }
        if let Some(f) = &cf.from {
            if !zone.records_from {
                pr.add(
                    &c.pos,
                    format!(
                        "zone `{}` does not record where cards came from (drop `from`)",
                        zone.id
                    ),
                );
            }
            if let Some(p) = pr.player(
                &At {
                    value: f.clone(),
                    pos: c.pos.clone(),
                },
                "player",
            ) {
                rec = (rec & FACE_DOWN) | (p as u8 + 1);
            }
        }
        let mut mask = 0u64;
        for p in cf.known.iter().flatten() {
            let id = At {
                value: p.clone(),
                pos: c.pos.clone(),
            };
            if let Some(p) = pr.player(&id, "player") {
                mask |= crate::core::knowledge::bit(p);
            }
        }
        if mask != 0 {
            if pos.known.is_empty() {
                pos.known = pos.zones.iter().map(|z| vec![0; z.len()]).collect();
            }
            pos.known[slot].resize(cards.len(), 0);
            pos.known[slot].push(mask);
        }
        cards.push(ci);
        recs.push(rec);
    }
    if let Some(k) = pos.known.get_mut(slot) {
        k.resize(cards.len(), 0);
    }
    pos.zones[slot] = cards;
    pos.records[slot] = if zone.records() { recs } else { Vec::new() };
}

/// Every copy of every card the game has must be placed once: too many
/// copies of a card is said where the one too many is, too few where the
/// section starts (with where the game's start keeps them).
fn count_cards(pr: &mut Problems, start: &crate::core::State, placed: &[Vec<Option<Pos>>]) {
    let def = pr.def;
    let mut has = vec![0usize; def.cards.len()];
    let mut home: Vec<Option<usize>> = vec![None; def.cards.len()];
    for slot in 0..def.slots {
        for &c in start.slot(slot) {
            has[c as usize] += 1;
            home[c as usize].get_or_insert(slot);
        }
    }
    for (c, at) in placed.iter().enumerate() {
        let id = &def.cards[c].id;
        let n = has[c];
        if at.len() > n {
            let first = at[0].as_ref().map_or(String::new(), |p| {
                format!(" (first at line {}, column {})", p.line, p.col)
            });
            let msg = match n {
                0 => format!("card `{id}` is not in this game's start: the game never deals it"),
                1 => format!("card `{id}` is in two places: the game has one copy{first}"),
                _ => format!(
                    "card `{id}` is placed {} times: the game has {n} copies{first}",
                    at.len()
                ),
            };
            pr.add(&at[n], msg);
        }
    }
    for (c, &n) in has.iter().enumerate() {
        let k = placed[c].len();
        if k < n {
            let id = &def.cards[c].id;
            let whose = home[c].map_or(String::new(), |slot| {
                let z = def.zone_of_slot(slot);
                format!(" (at the start they lie in `{}`)", def.zones[z].id)
            });
            pr.add(
                &None,
                format!(
                    "card `{id}` is placed {k} time(s): the game has {n} {}; put every card somewhere{whose}",
                    if n == 1 { "copy" } else { "copies" }
                ),
            );
        }
    }
}
