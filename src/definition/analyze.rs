//! From a merged game file to a validated definition: variants and
//! parameter settings applied, every name resolved.

use std::path::{Path, PathBuf};

use super::def::*;
use super::format::{self, At, CardSelection, GameFile, Per, StartValue, TurnKind, Visibility};
use super::source::Settings;
use crate::error::{Error, ErrorKind, Pos, Result, did_you_mean};

fn invalid(msg: impl Into<String>, at: &Option<Pos>) -> Error {
    Error::new(ErrorKind::Invalid, msg).at(at.clone())
}

fn unknown(what: &str, name: &At<String>, known: &[String]) -> Error {
    let mut e = invalid(format!("unknown {what} `{}`", name.value), &name.pos);
    if let Some(h) = did_you_mean(&name.value, known.iter().map(String::as_str)) {
        e = e.note(h);
    }
    e.note(format!("known: {}", known.join(", ")))
}

/// A definition, or the problems that keep it from being one; and the
/// script the file names (even when it has problems, so that the script's
/// own problems can be reported with them).
#[derive(Debug)]
pub struct Analysis {
    pub def: Option<Def>,
    pub script: ScriptRef,
    pub problems: Vec<Error>,
}

/// Analyse a merged game file with `settings` applied.
pub fn analyze(path: &Path, file: GameFile, settings: &Settings) -> Analysis {
    match analyze_inner(path, file, settings) {
        Ok(a) => a,
        Err(e) => Analysis {
            def: None,
            script: ScriptRef::default(),
            problems: vec![e],
        },
    }
}

fn analyze_inner(path: &Path, mut file: GameFile, settings: &Settings) -> Result<Analysis> {
    let variants_offered: Vec<VariantInfo> = file
        .variants
        .iter()
        .map(|(id, v)| VariantInfo {
            id: id.clone(),
            name: v.name.clone().unwrap_or_else(|| id.clone()),
            doc: v.doc.clone().unwrap_or_default(),
            sets: v
                .set
                .iter()
                .map(|(k, x)| (k.value.clone(), x.value))
                .collect(),
        })
        .collect();

    // Variants: overlays merged in order; their `set`s collected.
    let mut sets: Vec<(At<String>, At<i64>)> = Vec::new();
    let mut extra_scripts = Vec::new();
    for vid in &settings.variants {
        let Some(v) = file.variants.get(vid).cloned() else {
            let known: Vec<String> = file.variants.keys().cloned().collect();
            let mut e = Error::usage(format!("unknown variant `{vid}`"));
            if let Some(h) = did_you_mean(vid, known.iter().map(String::as_str)) {
                e = e.note(h);
            }
            return Err(e.note(format!("variants: {}", known.join(", "))));
        };
        if let Some(mut o) = v.overlay.map(|b| *b) {
            if let Some(s) = o.script.take() {
                extra_scripts.push(PathBuf::from(s.value));
            }
            o.variants.clear();
            file = format::merge(file, o);
        }
        sets.extend(v.set);
    }
    let cli_sets: Vec<(At<String>, At<i64>)> = settings
        .sets
        .iter()
        .map(|(k, v)| (At::new(k.clone()), At::new(*v)))
        .collect();

    let id = file
        .id
        .as_ref()
        .map(|i| i.value.clone())
        .or_else(|| path.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_default();

    // Players
    let players: Vec<Player> = file
        .players
        .clone()
        .unwrap_or_default()
        .into_iter()
        .map(|p| Player {
            name: p.name.unwrap_or_else(|| p.id.value.clone()),
            id: p.id.value,
        })
        .collect();
    if players.is_empty() {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!("{}: the game has no `players`", path.display()),
        ));
    }
    let player_ids: Vec<String> = players.iter().map(|p| p.id.clone()).collect();
    for (i, p) in file.players.iter().flatten().enumerate() {
        if player_ids[..i].contains(&p.id.value) {
            return Err(invalid(
                format!("duplicate player `{}`", p.id.value),
                &p.id.pos,
            ));
        }
    }

    // Parameters: default, then variant sets, then the command line.
    let mut params: Vec<Param> = Vec::new();
    for (pid, p) in &file.params {
        let default = p.default.as_ref().map_or(0, |d| d.value);
        params.push(Param {
            id: pid.clone(),
            value: default,
            default,
            min: p.min,
            max: p.max,
            doc: p.doc.clone().unwrap_or_default(),
        });
    }
    let param_ids: Vec<String> = params.iter().map(|p| p.id.clone()).collect();
    for (k, v) in sets.iter().chain(&cli_sets) {
        let Some(p) = params.iter_mut().find(|p| p.id == k.value) else {
            let e = unknown("parameter", k, &param_ids);
            return Err(if k.pos.is_none() {
                Error {
                    kind: ErrorKind::Usage,
                    ..e
                }
            } else {
                e
            });
        };
        p.value = v.value;
    }
    // Problems in independent parts are collected, so that `check` can
    // report all of them at once.
    let mut problems: Vec<Error> = Vec::new();
    for p in &params {
        let low = p.min.is_some_and(|m| p.value < m);
        let high = p.max.is_some_and(|m| p.value > m);
        if low || high {
            let range = format!(
                "{}..={}",
                p.min.map_or(String::new(), |m| m.to_string()),
                p.max.map_or(String::new(), |m| m.to_string())
            );
            let at = file
                .params
                .get(&p.id)
                .and_then(|d| d.default.as_ref())
                .and_then(|d| (d.value == p.value).then(|| d.pos.clone()).flatten());
            problems.push(
                Error::new(
                    if at.is_some() {
                        ErrorKind::Invalid
                    } else {
                        ErrorKind::Usage
                    },
                    format!(
                        "parameter `{}` = {} is outside its bounds {range}",
                        p.id, p.value
                    ),
                )
                .at(at),
            );
        }
    }

    // Only the first N players take part, if the file says so.
    let mut players = players;
    let mut player_ids = player_ids;
    if let Some(c) = &file.player_count {
        let n = match &c.value {
            StartValue::All(n) => *n,
            StartValue::Param { param } => match params.iter().find(|p| p.id == param.value) {
                Some(p) => p.value,
                None => {
                    let name = At {
                        value: param.value.clone(),
                        pos: c.pos.clone(),
                    };
                    return Err(unknown("parameter", &name, &param_ids));
                }
            },
            StartValue::ByPlayer(_) => {
                return Err(invalid(
                    "`player_count` is a number or {param: NAME}",
                    &c.pos,
                ));
            }
        };
        if n < 1 || n as usize > players.len() {
            return Err(invalid(
                format!(
                    "player_count {n} is not between 1 and the {} players listed",
                    players.len()
                ),
                &c.pos,
            ));
        }
        players.truncate(n as usize);
        player_ids.truncate(n as usize);
    }

    // Stats
    let mut stats = Vec::new();
    for (sid, s) in &file.stats {
        let at = s.start.as_ref().and_then(|v| v.pos.clone());
        let start = match s.start.as_ref().map(|v| &v.value) {
            None => vec![0; players.len()],
            Some(StartValue::All(v)) => vec![*v; players.len()],
            Some(StartValue::Param { param }) => {
                let Some(p) = params.iter().find(|p| p.id == param.value) else {
                    let name = At {
                        value: param.value.clone(),
                        pos: at.clone(),
                    };
                    problems.push(unknown("parameter", &name, &param_ids));
                    continue;
                };
                vec![p.value; players.len()]
            }
            Some(StartValue::ByPlayer(m)) => {
                let mut v = vec![0; players.len()];
                for (pid, x) in m {
                    match player_ids.iter().position(|p| p == pid) {
                        Some(i) => v[i] = *x,
                        // A listed player left out by player_count.
                        None if file.players.iter().flatten().any(|p| p.id.value == *pid) => {}
                        None => {
                            let name = At {
                                value: pid.clone(),
                                pos: at.clone(),
                            };
                            problems.push(unknown("player", &name, &player_ids));
                        }
                    }
                }
                v
            }
        };
        stats.push(Stat {
            id: sid.clone(),
            name: s.name.clone().unwrap_or_else(|| sid.clone()),
            doc: s.doc.clone().unwrap_or_default(),
            start,
        });
    }

    let vars = file
        .vars
        .iter()
        .map(|(vid, v)| Var {
            id: vid.clone(),
            name: v.name.clone().unwrap_or_else(|| vid.clone()),
            show: v.show.unwrap_or(true),
            start: v.start,
            doc: v.doc.clone().unwrap_or_default(),
        })
        .collect();

    let cards: Vec<Card> = file
        .cards
        .iter()
        .map(|(cid, c)| Card {
            id: cid.clone(),
            name: c.name.clone().unwrap_or_else(|| cid.clone()),
            aliases: c.aliases.clone(),
            copies: c.copies.unwrap_or(1),
            text: c.text.clone().unwrap_or_default(),
            attrs: c
                .attrs
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            names: player_ids
                .iter()
                .map(|p| c.names.get(p).cloned().unwrap_or_default())
                .collect(),
        })
        .collect();
    let card_ids: Vec<String> = cards.iter().map(|c| c.id.clone()).collect();
    for (cid, c) in &file.cards {
        let listed = |p: &String| file.players.iter().flatten().any(|x| x.id.value == *p);
        if let Some(p) = c.names.keys().find(|p| !listed(p)) {
            problems.push(
                Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "card `{cid}`: `names` has no player `{p}` (players: {})",
                        player_ids.join(", ")
                    ),
                )
                .note(format!("in {}", path.display())),
            );
        }
    }

    let mut zones = Vec::new();
    let mut slots = 0;
    for (zid, z) in &file.zones {
        let per = z.per.unwrap_or(Per::Player);
        zones.push(Zone {
            id: zid.clone(),
            name: z.name.clone().unwrap_or_else(|| zid.clone()),
            per,
            visibility: z.visibility.unwrap_or(Visibility::Public),
            unordered: z.unordered,
            holds: (!z.holds.is_empty()).then(|| {
                z.holds
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            }),
            slot: slots,
        });
        slots += if per == Per::Player { players.len() } else { 1 };
    }
    let zone_ids: Vec<String> = zones.iter().map(|z| z.id.clone()).collect();
    let zone_of = |n: &At<String>| {
        zone_ids
            .iter()
            .position(|z| *z == n.value)
            .ok_or_else(|| unknown("zone", n, &zone_ids))
    };

    let dice: Vec<Die> = file
        .dice
        .iter()
        .map(|(did, d)| Die {
            id: did.clone(),
            faces: d.faces.clone(),
        })
        .collect();
    for d in &dice {
        if d.faces.is_empty() {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!("die `{}` has no faces", d.id),
            ));
        }
    }
    let die_ids: Vec<String> = dice.iter().map(|d| d.id.clone()).collect();

    let board = match file.board.as_ref() {
        None => None,
        Some(b) => {
            let mut squares =
                vec![b.default.clone().unwrap_or_else(|| "plain".into()); b.size as usize];
            for (t, list) in &b.terrain {
                for &s in list {
                    if let Some(sq) = squares.get_mut(s as usize) {
                        *sq = t.clone();
                    }
                }
            }
            let stat_ids: Vec<String> = stats.iter().map(|s: &Stat| s.id.clone()).collect();
            let position = match &b.position {
                None => None,
                Some(n) => Some(
                    stat_ids
                        .iter()
                        .position(|s| *s == n.value)
                        .ok_or_else(|| unknown("stat", n, &stat_ids))?,
                ),
            };
            Some(Board {
                squares,
                position,
                symbols: b
                    .symbols
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            })
        }
    };

    // Hooks named in the YAML must exist in the script with this arity.
    let mut hooks: Vec<(At<String>, usize)> = Vec::new();

    let mut setup = Vec::new();
    for step in file.setup.iter().flatten() {
        let one = (|| -> Result<Setup> {
            Ok(match step {
                format::SetupStep::Put(put) => {
                    let zone = zone_of(&put.zone)?;
                    // Inside the untagged selection names carry no position:
                    // point at the selection itself.
                    let at = |w: &At<String>| At {
                        value: w.value.clone(),
                        pos: w.pos.clone().or(put.cards.pos.clone()),
                    };
                    let chosen: Vec<usize> = match &put.cards.value {
                        CardSelection::Word(w) if w.value == "all" => (0..cards.len()).collect(),
                        CardSelection::Word(w) => vec![card_index(&cards, &at(w), &card_ids)?],
                        CardSelection::List(l) => l
                            .iter()
                            .map(|w| card_index(&cards, &at(w), &card_ids))
                            .collect::<Result<_>>()?,
                    };
                    let mut list = Vec::new();
                    for c in chosen {
                        let card = &cards[c];
                        if put.filter.iter().all(|(k, v)| card.attr(k) == Some(v)) {
                            for _ in 0..put.count.unwrap_or(card.copies) {
                                list.push(c as CardIx);
                            }
                        }
                    }
                    Setup::Put { zone, cards: list }
                }
                format::SetupStep::Shuffle(z) => Setup::Shuffle { zone: zone_of(z)? },
                format::SetupStep::Order(o) if o.value == "random" => Setup::RandomOrder,
                format::SetupStep::Order(o) => {
                    return Err(invalid(
                        format!(
                            "`order: {}`: the only order setup knows is `random`",
                            o.value
                        ),
                        &o.pos,
                    ));
                }
                format::SetupStep::Hook(h) => {
                    hooks.push((h.clone(), 0));
                    Setup::Hook {
                        name: h.value.clone(),
                    }
                }
            })
        })();
        match one {
            Ok(s) => setup.push(s),
            Err(e) => problems.push(e),
        }
    }

    let flow_def = file.flow.clone().unwrap_or_default();
    let mut flow = Vec::new();
    for (i, s) in flow_def.turn.iter().enumerate() {
        let one = (|| -> Result<Option<Step>> {
            if let Some(w) = &s.when {
                match params.iter().find(|p| p.id == w.param.value) {
                    Some(p) if p.value == 0 => return Ok(None),
                    Some(_) => {}
                    None => return Err(unknown("parameter", &w.param, &param_ids)),
                }
            }
            let kinds = [s.decide.is_some(), s.roll.is_some(), s.hook.is_some()];
            if kinds.iter().filter(|k| **k).count() != 1 {
                let at = s
                    .decide
                    .as_ref()
                    .or(s.roll.as_ref())
                    .or(s.hook.as_ref())
                    .and_then(|n| n.pos.clone());
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "flow step {}: give exactly one of `decide`, `roll` or `hook`",
                        i + 1
                    ),
                )
                .at(at)
                .note(format!("in {}", path.display())));
            }
            let then = |what: &At<String>| {
                s.then.clone().ok_or_else(|| {
                invalid(format!("flow step `{}` needs `then:` (the script function that receives the result)", what.value), &what.pos)
            })
            };
            if let Some(name) = &s.decide {
                let who = match &s.who {
                    None => Who::All,
                    Some(w) if w.value == "all" => Who::All,
                    Some(w) if w.value == "active" => Who::Active,
                    Some(w) => match player_ids.iter().position(|p| *p == w.value) {
                        Some(p) => Who::Player(p),
                        None => {
                            let mut known = vec!["all".to_string(), "active".to_string()];
                            known.extend(player_ids.iter().cloned());
                            return Err(unknown("`who`", w, &known));
                        }
                    },
                };
                let options = match (&s.from, &s.options) {
                    (Some(z), None) => Options::Zone(zone_of(z)?),
                    (None, Some(words)) if !words.is_empty() => Options::Words(words.clone()),
                    _ => {
                        return Err(invalid(
                            format!(
                                "decision `{}`: give its options as `from: ZONE` or `options: [..]`",
                                name.value
                            ),
                            &name.pos,
                        ));
                    }
                };
                let then = then(name)?;
                hooks.push((then.clone(), 1));
                return Ok(Some(Step::Decide {
                    name: name.value.as_str().into(),
                    who,
                    simultaneous: s.simultaneous,
                    options,
                    then: then.value.as_str().into(),
                    prompt: s.prompt.as_deref().unwrap_or(&name.value).into(),
                }));
            } else if let Some(die) = &s.roll {
                let d = die_ids
                    .iter()
                    .position(|d| *d == die.value)
                    .ok_or_else(|| unknown("die", die, &die_ids))?;
                let set = match &s.set {
                    None => None,
                    Some(v) => {
                        let var_ids: Vec<String> = file.vars.keys().cloned().collect();
                        Some(
                            var_ids
                                .iter()
                                .position(|x| *x == v.value)
                                .ok_or_else(|| unknown("var", v, &var_ids))?,
                        )
                    }
                };
                let then = match (&s.then, set) {
                    (Some(t), _) => {
                        hooks.push((t.clone(), 1));
                        Some(t.value.clone())
                    }
                    (None, Some(_)) => None,
                    (None, None) => Some(then(die)?.value),
                };
                return Ok(Some(Step::Roll { die: d, then, set }));
            } else if let Some(h) = &s.hook {
                hooks.push((h.clone(), 0));
                return Ok(Some(Step::Hook {
                    name: h.value.clone(),
                }));
            }
            Ok(None)
        })();
        match one {
            Ok(Some(step)) => flow.push(step),
            Ok(None) => {}
            Err(e) => problems.push(e),
        }
    }
    if flow.is_empty() && problems.is_empty() {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!("{}: the game has no `flow: turn:` steps", path.display()),
        ));
    }

    let max_turns = match flow_def.max_turns.as_ref().map(|m| (&m.value, &m.pos)) {
        None => None,
        Some((StartValue::All(n), _)) => Some(*n),
        Some((StartValue::Param { param }, at)) => {
            match params.iter().find(|p| p.id == param.value) {
                Some(p) => Some(p.value),
                None => {
                    let name = At {
                        value: param.value.clone(),
                        pos: at.clone(),
                    };
                    return Err(unknown("parameter", &name, &param_ids));
                }
            }
        }
        Some((StartValue::ByPlayer(_), at)) => {
            return Err(invalid("`max_turns` is a number or {param: NAME}", at));
        }
    };

    let Some(script_path) = file.script.as_ref().map(|s| PathBuf::from(&s.value)) else {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!("{}: the game has no `id` and no `script`", path.display()),
        ));
    };
    let mut files = vec![script_path];
    files.extend(extra_scripts);
    let capabilities = Capabilities {
        players: players.len(),
        simultaneous: flow.iter().any(|s| {
            matches!(
                s,
                Step::Decide {
                    who: Who::All,
                    simultaneous: true,
                    ..
                }
            )
        }) && players.len() > 1,
        chance_after_setup: flow.iter().any(|s| matches!(s, Step::Roll { .. })),
        hidden_information: zones.iter().any(|z| z.visibility != Visibility::Public),
    };

    let def = Def {
        id,
        name: file.name.clone().unwrap_or_default(),
        summary: file.summary.clone().unwrap_or_default(),
        rules: file.rules.clone().unwrap_or_default(),
        path: path.to_path_buf(),
        players,
        stats,
        vars,
        params,
        cards,
        zones,
        dice,
        board,
        setup,
        flow,
        turns: flow_def.turns.unwrap_or(TurnKind::All),
        max_turns,
        variants: variants_offered,
        applied: settings.variants.clone(),
        sets: settings.sets.clone(),
        match_wins: file.match_.as_ref().map(|m| m.wins.max(1)),
        match_max_games: file
            .match_
            .as_ref()
            .and_then(|m| m.max_games)
            .unwrap_or(20)
            .max(1),
        slots,
        script: ScriptRef {
            files,
            hooks: hooks
                .into_iter()
                .map(|(h, arity)| HookRef {
                    name: h.value,
                    arity,
                    pos: h.pos,
                })
                .collect(),
        },
        capabilities,
    };
    Ok(Analysis {
        script: def.script.clone(),
        def: problems.is_empty().then_some(def),
        problems,
    })
}

fn card_index(cards: &[Card], w: &At<String>, ids: &[String]) -> Result<usize> {
    cards
        .iter()
        .position(|c| c.id == w.value)
        .ok_or_else(|| unknown("card", w, ids))
}
