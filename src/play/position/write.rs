//! A position written back as a file's section (ids, YAML).

use indexmap::IndexMap;

use super::{CardFile, MatchFile, PositionFile, StepRef, ZoneFile, owner_name, step_name};
use crate::core::{AsDef, Position};
use crate::definition::format::{At, Per};
use crate::definition::{FACE_DOWN, PlayerIx};

impl PositionFile {
    /// A position as written in a file (ids; no places).
    pub fn from_position(game: &(impl AsDef + ?Sized), pos: &Position) -> PositionFile {
        let def = game.def();
        let at = |s: &str| At::new(s.to_string());
        let pid = |p: PlayerIx| at(&def.players[p].id);
        let mut f = PositionFile {
            turn: Some(At::new(pos.turn)),
            active: Some(pid(pos.active)),
            ..PositionFile::default()
        };
        let name = step_name(def, &def.flow[pos.step]);
        let unique = def
            .flow
            .iter()
            .filter(|s| step_name(def, s) == name)
            .count()
            == 1;
        f.step = Some(At::new(if unique {
            StepRef::Name(name)
        } else {
            StepRef::Number(pos.step as u64 + 1)
        }));
        if pos.draws > 0 {
            // A game draws far fewer than 2^64 words.
            f.draws = Some(At::new(u64::try_from(pos.draws).unwrap_or(u64::MAX)));
        }
        if pos.order != (0..def.nplayers()).collect::<Vec<_>>() {
            f.order = Some(At::new(pos.order.iter().map(|&p| pid(p)).collect()));
        }
        f.reveals_first = pos.reveal_first.map(pid);
        if def.match_wins.is_some() {
            f.in_match = Some(At::new(MatchFile {
                game: Some(At::new(pos.game_no)),
                wins: (pos.match_wins.iter().enumerate())
                    .map(|(p, &w)| (pid(p), At::new(w)))
                    .collect(),
                starter: Some(pid(pos.starter)),
            }));
        }
        let ns = def.stats.len();
        if ns > 0 {
            for (p, player) in def.players.iter().enumerate() {
                let row = (def.stats.iter().enumerate())
                    .map(|(s, stat)| (at(&stat.id), At::new(pos.stats[p * ns + s])))
                    .collect();
                f.stats.insert(at(&player.id), row);
            }
        }
        for (v, var) in def.vars.iter().enumerate() {
            f.vars.insert(at(&var.id), At::new(pos.vars[v]));
        }
        for (z, zone) in def.zones.iter().enumerate() {
            let cards_of = |o: usize| -> Vec<At<CardFile>> {
                let slot = def.slot(z, o);
                let recs = &pos.records[slot];
                let plain = zone.entry(0);
                (pos.zones[slot].iter().enumerate())
                    .map(|(i, &c)| {
                        let mut cf = CardFile {
                            card: def.cards[c as usize].id.clone(),
                            ..CardFile::default()
                        };
                        if let Some(&r) = recs.get(i)
                            && Some(r) != plain
                        {
                            if zone.faces.is_some() {
                                cf.down = Some(r & FACE_DOWN != 0);
                            }
                            let from = r & !FACE_DOWN;
                            if zone.records_from && from > 0 {
                                cf.from = Some(def.players[from as usize - 1].id.clone());
                            }
                        }
                        let mask = pos.known.get(slot).and_then(|k| k.get(i)).copied();
                        if let Some(m) = mask.filter(|&m| m != 0) {
                            let who = (0..def.nplayers())
                                .filter(|&p| m & crate::core::knowledge::bit(p) != 0)
                                .map(|p| def.players[p].id.clone());
                            cf.known = Some(who.collect());
                        }
                        At::new(cf)
                    })
                    .collect()
            };
            let value = match zone.per {
                Per::Game => {
                    let cards = cards_of(0);
                    if cards.is_empty() {
                        continue;
                    }
                    ZoneFile::Cards(cards)
                }
                _ => {
                    let places: IndexMap<_, _> = (def.owners(z))
                        .map(|o| (at(&owner_name(def, z, o)), At::new(cards_of(o))))
                        .filter(|(_, c)| !c.value.is_empty())
                        .collect();
                    if places.is_empty() {
                        continue;
                    }
                    ZoneFile::Places(places)
                }
            };
            f.zones.insert(at(&zone.id), At::new(value));
        }
        f
    }

    /// The section as YAML (`position:` and its entries, indented).
    pub fn to_yaml(&self) -> String {
        use crate::play::replay::scalar;
        let mut out = String::from("position:\n");
        if let Some(t) = &self.turn {
            out += &format!("  turn: {}\n", t.value);
        }
        if let Some(a) = &self.active {
            out += &format!("  active: {}\n", scalar(&a.value));
        }
        if let Some(s) = &self.step {
            match &s.value {
                StepRef::Name(n) => out += &format!("  step: {}\n", scalar(n)),
                StepRef::Number(n) => out += &format!("  step: {n}\n"),
            }
        }
        if let Some(d) = &self.draws {
            out += &format!("  draws: {}\n", d.value);
        }
        if let Some(o) = &self.order {
            let v: Vec<String> = o.value.iter().map(|p| scalar(&p.value)).collect();
            out += &format!("  order: [{}]\n", v.join(", "));
        }
        if let Some(r) = &self.reveals_first {
            out += &format!("  reveals_first: {}\n", scalar(&r.value));
        }
        if let Some(m) = &self.in_match {
            let m = &m.value;
            let wins: Vec<String> = (m.wins.iter())
                .map(|(p, w)| format!("{}: {}", scalar(&p.value), w.value))
                .collect();
            out += &format!(
                "  match: {{game: {}, wins: {{{}}}",
                m.game.as_ref().map_or(1, |g| g.value),
                wins.join(", ")
            );
            if let Some(s) = &m.starter {
                out += &format!(", starter: {}", scalar(&s.value));
            }
            out += "}\n";
        }
        if !self.stats.is_empty() {
            out += "  stats:\n";
            for (p, row) in &self.stats {
                let v: Vec<String> = (row.iter())
                    .map(|(s, x)| format!("{}: {}", scalar(&s.value), x.value))
                    .collect();
                out += &format!("    {}: {{{}}}\n", scalar(&p.value), v.join(", "));
            }
        }
        if !self.vars.is_empty() {
            out += "  vars:\n";
            for (v, x) in &self.vars {
                out += &format!("    {}: {}\n", scalar(&v.value), x.value);
            }
        }
        if !self.zones.is_empty() {
            out += "  zones:\n";
            for (z, cards) in &self.zones {
                match &cards.value {
                    ZoneFile::Cards(list) => {
                        out += &format!("    {}: {}\n", scalar(&z.value), card_list(list));
                    }
                    ZoneFile::Places(places) => {
                        out += &format!("    {}:\n", scalar(&z.value));
                        for (o, list) in places {
                            out += &format!(
                                "      {}: {}\n",
                                scalar(&o.value),
                                card_list(&list.value)
                            );
                        }
                    }
                }
            }
        }
        out
    }
}

/// `[a, b, {card: c, down: true}]`.
fn card_list(list: &[At<CardFile>]) -> String {
    use crate::play::replay::scalar;
    let v: Vec<String> = list
        .iter()
        .map(|c| {
            let c = &c.value;
            if c.down.is_none() && c.from.is_none() && c.known.is_none() {
                return scalar(&c.card);
            }
            let mut s = format!("{{card: {}", scalar(&c.card));
            if let Some(d) = c.down {
                s += &format!(", down: {d}");
            }
            if let Some(f) = &c.from {
                s += &format!(", from: {}", scalar(f));
            }
            if let Some(k) = &c.known {
                let k: Vec<String> = k.iter().map(|p| scalar(p)).collect();
                s += &format!(", known: [{}]", k.join(", "));
            }
            s + "}"
        })
        .collect();
    format!("[{}]", v.join(", "))
}
