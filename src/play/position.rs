//! The `position:` section of a save or replay file (docs/positions.md):
//! a game given as it stands (zones and their cards with faces and where
//! they came from, grid cells, stats, vars, the turn, who is active and the
//! flow step to run next) rather than as the moves from a seed. As written
//! (ids, each with where it was written), resolved against a game into a
//! `core::Position`, and written back.

use std::fmt;

use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{self, MapAccess, SeqAccess, Visitor};

use crate::core::{AsDef, Position};
use crate::definition::format::{At, Per};
use crate::definition::{CardIx, Def, FACE_DOWN, PlayerIx, Step};
use crate::error::{Error, ErrorKind, Pos, Result, did_you_mean};

/// A position as written: every entry an id, with its place in the file.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionFile {
    /// The turn (from 1).
    pub turn: Option<At<u32>>,
    /// Whose turn it is (a player's id).
    pub active: Option<At<String>>,
    /// The flow step to run next: its name, or its number from 1.
    pub step: Option<At<StepRef>>,
    /// The RNG's place: words drawn from the seed's stream.
    pub draws: Option<At<u64>>,
    /// The turn order (`turns: rotate`), when not the seats'.
    pub order: Option<At<Vec<At<String>>>>,
    /// The player who reveals first at the next simultaneous decision.
    pub reveals_first: Option<At<String>>,
    /// In a match: the game being played, the wins and who began it.
    #[serde(rename = "match")]
    pub in_match: Option<At<MatchFile>>,
    /// Player -> stat -> value; a stat not given keeps its start.
    #[serde(default)]
    pub stats: IndexMap<At<String>, IndexMap<At<String>, At<i64>>>,
    /// Var -> value; a var not given keeps its start.
    #[serde(default)]
    pub vars: IndexMap<At<String>, At<i64>>,
    /// Zone -> its cards (a shared zone), or owner (player or cell) ->
    /// cards; a zone or place not given is empty.
    #[serde(default)]
    pub zones: IndexMap<At<String>, At<ZoneFile>>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchFile {
    pub game: Option<At<u32>>,
    #[serde(default)]
    pub wins: IndexMap<At<String>, At<u32>>,
    pub starter: Option<At<String>>,
}

/// A step by name or by number (from 1).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum StepRef {
    Number(u64),
    Name(String),
}

/// A zone's cards: one list (a shared zone), or one per owner.
#[derive(Debug, Clone, PartialEq)]
pub enum ZoneFile {
    Cards(Vec<At<CardFile>>),
    Places(IndexMap<At<String>, At<Vec<At<CardFile>>>>),
}

/// A card: its id, or `{card: ID, down: true, from: PLAYER}`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CardFile {
    pub card: String,
    pub down: Option<bool>,
    pub from: Option<String>,
}

impl<'de> Deserialize<'de> for ZoneFile {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ZoneFile;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a list of cards, or a map from each owner (player or cell) to a list of cards",
                )
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<ZoneFile, A::Error> {
                let mut cards = Vec::new();
                while let Some(c) = seq.next_element()? {
                    cards.push(c);
                }
                Ok(ZoneFile::Cards(cards))
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<ZoneFile, A::Error> {
                let mut places = IndexMap::new();
                while let Some((k, v)) = map.next_entry()? {
                    places.insert(k, v);
                }
                Ok(ZoneFile::Places(places))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for CardFile {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CardFile;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a card's id, or {card: ID, down: true, from: PLAYER}")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<CardFile, E> {
                Ok(CardFile {
                    card: v.to_string(),
                    ..CardFile::default()
                })
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<CardFile, E> {
                self.visit_str(&v.to_string())
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<CardFile, E> {
                self.visit_str(&v.to_string())
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<CardFile, A::Error> {
                let mut c = CardFile::default();
                let mut card = None;
                while let Some(k) = map.next_key::<String>()? {
                    match k.as_str() {
                        "card" => card = Some(map.next_value::<String>()?),
                        "down" => c.down = Some(map.next_value()?),
                        "from" => c.from = Some(map.next_value()?),
                        _ => return Err(de::Error::unknown_field(&k, &["card", "down", "from"])),
                    }
                }
                c.card = card.ok_or_else(|| de::Error::missing_field("card"))?;
                Ok(c)
            }
        }
        d.deserialize_any(V)
    }
}

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
            if t.value == 0 {
                pr.add(&t.pos, "the turn counts from 1".into());
            }
            pos.turn = t.value.max(1);
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
            if def.match_wins.is_none() {
                pr.add(&m.pos, format!("`{}` is not played as a match", def.id));
            }
            if let Some(g) = &m.value.game {
                if g.value == 0 {
                    pr.add(&g.pos, "a match's games count from 1".into());
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
        count_cards(&mut pr, start, &placed);
        if pr.list.is_empty() {
            Ok(pos)
        } else {
            Err(Error::collect(pr.list))
        }
    }

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
        use super::replay::scalar;
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
    use super::replay::scalar;
    let v: Vec<String> = list
        .iter()
        .map(|c| {
            let c = &c.value;
            if c.down.is_none() && c.from.is_none() {
                return scalar(&c.card);
            }
            let mut s = format!("{{card: {}", scalar(&c.card));
            if let Some(d) = c.down {
                s += &format!(", down: {d}");
            }
            if let Some(f) = &c.from {
                s += &format!(", from: {}", scalar(f));
            }
            s + "}"
        })
        .collect();
    format!("[{}]", v.join(", "))
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
        cards.push(ci);
        recs.push(rec);
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
