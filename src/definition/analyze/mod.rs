//! From a merged game file to a validated definition: the analyzer. One
//! part per section of the file, each resolving names through one table
//! (names.rs) and adding what is wrong to one list of problems, so that
//! every independent problem is reported, each with its position. A
//! section whose own input is broken still yields its best guess, so that
//! the sections after it are checked too.

mod board;
mod cards;
mod dice;
mod flow;
mod names;
mod params;
mod players;
mod setup;
mod stats;
mod variants;
mod zones;

use std::path::{Path, PathBuf};

use super::bounds::{self, Bound};
use super::def::*;
use super::expr;
use super::format::{At, GameFile, StartValue, TurnKind};
use super::source::Settings;
use crate::error::{Error, ErrorKind, Pos};
use names::{Kind, Names};

/// A definition, or the problems that keep it from being one; and the
/// script the file names (even when it has problems, so that the script's
/// own problems can be reported with them).
#[derive(Debug)]
pub struct Analysis {
    pub def: Option<Def>,
    pub script: ScriptRef,
    pub problems: Vec<Error>,
}

/// What every part of the analysis shares: the file's path, the name
/// table, the problems found so far, and the hooks named so far.
struct Analyzer<'a> {
    path: &'a Path,
    names: Names,
    problems: Vec<Error>,
    hooks: Vec<HookRef>,
}

impl Analyzer<'_> {
    fn problem(&mut self, e: Error) {
        self.problems.push(e);
    }
    fn invalid(&mut self, msg: impl Into<String>, at: &Option<Pos>) {
        self.problem(Error::new(ErrorKind::Invalid, msg).at(at.clone()));
    }
    /// The index of a name of `kind`, or None with the problem noted.
    fn find(&mut self, kind: Kind, name: &At<String>) -> Option<usize> {
        match self.names.find(kind, name) {
            Ok(i) => Some(i),
            Err(e) => {
                self.problem(e);
                None
            }
        }
    }
    /// A hook the script must define.
    fn hook(&mut self, name: &At<String>, arity: usize) {
        self.hooks.push(HookRef {
            name: name.value.clone(),
            arity,
            pos: name.pos.clone(),
        });
    }
    /// A number given as itself or as `{param: NAME}`: None (noted) if it
    /// names no parameter or is a map. `what` names the field as a
    /// designer reads it (`` card `x`: `copies` ``).
    fn number(&mut self, what: &str, v: &At<StartValue>, params: &[Param]) -> Option<i64> {
        match &v.value {
            StartValue::All(n) => Some(*n),
            StartValue::Param { param } => {
                let name = At {
                    value: param.value.clone(),
                    pos: param.pos.clone().or(v.pos.clone()),
                };
                self.find(Kind::Param, &name).map(|i| params[i].value)
            }
            StartValue::Expr { expr } => self.expr(what, expr, &v.pos, params),
            StartValue::ByPlayer(_) => {
                self.invalid(
                    format!(
                        "{what} is a number, `{{param: NAME}}` or `{{expr: TEXT}}`, not a number per player"
                    ),
                    &v.pos,
                );
                None
            }
        }
    }
    /// `number`, within `bound`: None (noted, with the range to give) outside
    /// it. A parameter's value is said as coming from the parameter.
    fn bounded(
        &mut self,
        what: &str,
        v: &At<StartValue>,
        params: &[Param],
        bound: Bound,
    ) -> Option<i64> {
        let n = self.number(what, v, params)?;
        let from = match &v.value {
            StartValue::Param { param } => format!(" (parameter `{}`)", param.value),
            StartValue::Expr { expr } => expr_said(&expr.value, params),
            _ => String::new(),
        };
        self.within(&format!("{what} is {n}{from}"), n, bound, &v.pos)
    }
    /// An expression's value, parameters read from `params`: None (noted
    /// at its column in the file) if it does not parse, names no parameter
    /// or cannot be worked out (a division by zero). `field` is where the
    /// field's value is written, for an expression with no place of its own.
    fn expr(
        &mut self,
        what: &str,
        expr: &At<String>,
        field: &Option<Pos>,
        params: &[Param],
    ) -> Option<i64> {
        let at = |offset: usize| match &expr.pos {
            Some(p) => Some(expr_pos(p, offset)),
            None => field.clone(),
        };
        let parsed = match expr::parse(&expr.value) {
            Ok(e) => e,
            Err(e) => {
                let msg = format!("{what}: in `{}`: {}", expr.value, e.message);
                self.invalid(msg, &at(e.at));
                return None;
            }
        };
        let mut known = true;
        for (name, offset) in parsed.names() {
            let name = At {
                value: name.to_string(),
                pos: at(offset),
            };
            known &= self.find(Kind::Param, &name).is_some();
        }
        if !known {
            return None;
        }
        let value = |n: &str| params.iter().find(|p| p.id == n).map_or(0, |p| p.value);
        match parsed.eval(&value) {
            Ok(n) => Some(n),
            Err(e) => {
                let msg = format!(
                    "{what}: `{}` with {}: {}",
                    expr.value,
                    param_values(&expr.value, params),
                    e.message
                );
                self.invalid(msg, &at(e.at));
                None
            }
        }
    }
    /// `n` if `bound` holds it, else None with "`said`: give 1 to 99" noted
    /// at `at` (`said` names the field and the value given).
    fn within(&mut self, said: &str, n: i64, bound: Bound, at: &Option<Pos>) -> Option<i64> {
        if bound.contains(n) {
            return Some(n);
        }
        self.invalid(format!("{said}: give {}", bound.allowed()), at);
        None
    }
    /// The start of the file: where a problem of the whole file points.
    fn top(&self) -> Option<Pos> {
        Pos::new(self.path, 1, 1)
    }
}

/// " (`2 * rows + 1`, rows = 3)": an expression and the values of the
/// parameters it reads, for a message about its value.
fn expr_said(text: &str, params: &[Param]) -> String {
    match param_values(text, params) {
        v if v.is_empty() => format!(" (`{text}`)"),
        v => format!(" (`{text}`, {v})"),
    }
}

/// "rows = 3, columns = 2": the parameters an expression reads, each once.
fn param_values(text: &str, params: &[Param]) -> String {
    let Ok(e) = expr::parse(text) else {
        return String::new();
    };
    let mut seen: Vec<&str> = Vec::new();
    for (n, _) in e.names() {
        if !seen.contains(&n) {
            seen.push(n);
        }
    }
    let values: Vec<String> = seen
        .iter()
        .filter_map(|n| params.iter().find(|p| p.id == *n))
        .map(|p| format!("{} = {}", p.id, p.value))
        .collect();
    values.join(", ")
}

/// Where the character `offset` of an expression written at `p` is: past
/// its opening quote, when it is quoted (an escape in a quoted string
/// shifts the column; the line is right).
fn expr_pos(p: &Pos, offset: usize) -> Pos {
    let quoted = crate::files::read_text(&p.file).ok().is_some_and(|src| {
        let line = src
            .lines()
            .nth(p.line.saturating_sub(1) as usize)
            .unwrap_or("");
        matches!(
            line.chars().nth(p.col.saturating_sub(1) as usize),
            Some('"' | '\'')
        )
    });
    Pos {
        file: p.file.clone(),
        line: p.line,
        col: p.col + u32::from(quoted) + offset as u32,
    }
}

/// Analyse a merged game file with `settings` applied.
pub fn analyze(path: &Path, file: GameFile, settings: &Settings) -> Analysis {
    let mut a = Analyzer {
        path,
        names: Names::default(),
        problems: Vec::new(),
        hooks: Vec::new(),
    };
    let v = variants::apply(&mut a, file, settings);
    let mut file = v.file;
    let params = params::analyze(&mut a, &file, &v.sets);
    variants::check_sets(&mut a, &v.all);
    let (players, listed) = players::analyze(&mut a, &file, &params);
    let stats = stats::analyze(&mut a, &file, &players, &listed, &params);
    let vars = vars(&mut a, &file, &params);
    let mut dice = dice::desugar(&mut a, &mut file, &params);
    let cards = cards::analyze(&mut a, &file, &players, &listed, &params);
    let (zones, slots, grid) = zones::analyze(&mut a, &file, players.len(), &params, &cards);
    dice::link(&mut dice, &cards, &zones);
    let board = board::analyze(&mut a, &file, &params);
    let setup = setup::analyze(&mut a, &file, &cards, &zones, grid.as_ref(), &params);
    let flow = flow::analyze(&mut a, &file, &params, &cards, &zones);
    let max_turns = file
        .flow
        .as_ref()
        .and_then(|f| f.max_turns.as_ref())
        .and_then(|m| a.bounded("`max_turns`", m, &params, bounds::MAX_TURNS));
    let (match_wins, match_max_games) = match_length(&mut a, &file, &params);
    let payoff = file.payoff.as_ref().and_then(|n| a.find(Kind::Stat, n));
    let mut files: Vec<PathBuf> = Vec::new();
    match &file.script {
        Some(s) => files.push(PathBuf::from(&s.value)),
        None => {
            let at = a.top();
            a.invalid(
                format!(
                    "{}: the game has no `id` and no `script`",
                    crate::error::path_text(path)
                ),
                &at,
            );
        }
    }
    if !files.is_empty() {
        files.extend(v.extra_scripts);
    }
    let script = ScriptRef {
        files,
        hooks: std::mem::take(&mut a.hooks),
    };
    let capabilities = Capabilities {
        players: players.len(),
        simultaneous: players.len() > 1
            && flow.iter().any(|s| {
                matches!(
                    s,
                    Step::Decide {
                        who: Who::All,
                        simultaneous: true,
                        ..
                    }
                )
            }),
        chance_after_setup: flow.iter().any(|s| matches!(s, Step::Roll { .. })),
        hidden_information: zones.iter().any(Zone::may_hide)
            || flow
                .iter()
                .any(|s| matches!(s, Step::Decide { secret: true, .. })),
    };
    let def = Def {
        id: file
            .id
            .as_ref()
            .map(|i| i.value.clone())
            .or_else(|| path.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .unwrap_or_default(),
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
        grid,
        setup,
        flow,
        turns: file
            .flow
            .as_ref()
            .and_then(|f| f.turns)
            .unwrap_or(TurnKind::All),
        max_turns,
        reads_turn: true,
        variants: v.offered,
        applied: settings.variants.clone(),
        sets: settings.sets.clone(),
        match_wins,
        match_max_games,
        match_keep: match_keep(&mut a, &file),
        match_starts: file
            .match_
            .as_ref()
            .and_then(|m| m.starts)
            .unwrap_or_default(),
        payoff,
        auto_forced: file.forced_moves == Some(crate::definition::format::ForcedMoves::Auto),
        slots,
        script: script.clone(),
        capabilities,
        ids: crate::definition::Ids::default(),
    };
    let mut def = def;
    fill_params(&mut def);
    typeable_ids(&mut a, &def);
    printable_texts(&mut def);
    def.ids = crate::definition::Ids::new(crate::definition::Lists {
        players: &def.players,
        stats: &def.stats,
        vars: &def.vars,
        params: &def.params,
        zones: &def.zones,
        dice: &def.dice,
        cards: &def.cards,
    });
    Analysis {
        def: a.problems.is_empty().then_some(def),
        script,
        problems: a.problems,
    }
}

/// Games a match plays at most when the file does not say (docs/format.md).
const MATCH_MAX_GAMES: u32 = 20;

/// `match: wins` and `max_games`, each in its range, and no more wins
/// than games (no one could win the match). Out of range: 1 win, and the
/// default number of games (noted).
fn match_length(a: &mut Analyzer, file: &GameFile, params: &[Param]) -> (Option<u32>, u32) {
    let Some(m) = &file.match_ else {
        return (None, MATCH_MAX_GAMES);
    };
    let wins = a.bounded("`match: wins`", &m.wins, params, bounds::WINS);
    let games = (m.max_games.as_ref())
        .and_then(|g| a.bounded("`match: max_games`", g, params, bounds::MAX_GAMES));
    if let Some(w) = wins
        && let Some(g) = games.or((m.max_games.is_none()).then_some(i64::from(MATCH_MAX_GAMES)))
        && w > g
    {
        let (games, at, said) = match &m.max_games {
            Some(x) => (g, &x.pos, ""),
            None => (g, &m.wins.pos, " (the default)"),
        };
        a.invalid(
            format!(
                "`match: max_games` is {games}{said}, fewer than the {w} `wins` that win the match: no one could win it; give `max_games` at least {w}"
            ),
            at,
        );
    }
    let as_u32 = |n: Option<i64>| n.and_then(|n| u32::try_from(n).ok());
    (
        Some(as_u32(wins).unwrap_or(1)),
        as_u32(games).unwrap_or(MATCH_MAX_GAMES),
    )
}

/// `match: keep:`: each id a stat, a var or a zone.
fn match_keep(a: &mut Analyzer, file: &GameFile) -> crate::definition::MatchKeep {
    let mut keep = crate::definition::MatchKeep::default();
    for name in file.match_.iter().flat_map(|m| &m.keep) {
        let ids = |k| a.names.ids(k).iter().position(|i| *i == name.value);
        if let Some(s) = ids(Kind::Stat) {
            keep.stats.push(s);
        } else if let Some(v) = ids(Kind::Var) {
            keep.vars.push(v);
        } else if let Some(z) = ids(Kind::Zone) {
            keep.zones.push(z);
        } else {
            let known: Vec<&str> = [Kind::Stat, Kind::Var, Kind::Zone]
                .into_iter()
                .flat_map(|k| a.names.ids(k).iter().map(String::as_str))
                .collect();
            let hint = crate::error::did_you_mean(&name.value, known.iter().copied())
                .map(|h| format!("; {h}"))
                .unwrap_or_default();
            a.invalid(
                format!(
                    "`match: keep` has `{}`, which is no stat, var or zone (known: {}){hint}",
                    name.value,
                    known.join(", ")
                ),
                &name.pos,
            );
        }
    }
    keep
}

/// Vars: game-wide integers (nothing to resolve).
fn vars(a: &mut Analyzer, file: &GameFile, params: &[Param]) -> Vec<Var> {
    a.names.declare(Kind::Var, file.vars.keys().cloned());
    let mut vars = Vec::new();
    for (id, v) in &file.vars {
        let start = (v.start.as_ref())
            .and_then(|s| a.number(&format!("var `{id}`: `start`"), s, params))
            .unwrap_or(0);
        let (show, shown) = show(a, &format!("var `{id}`"), v.show.as_ref());
        vars.push(Var {
            id: id.clone(),
            name: v.name.clone().unwrap_or_else(|| id.clone()),
            show,
            shown,
            start,
            doc: v.doc.clone().unwrap_or_default(),
        });
    }
    vars
}

/// A var's or stat's `show:`: whether it is shown and how it reads (the
/// number where the problem is noted).
fn show(
    a: &mut Analyzer,
    what: &str,
    def: Option<&crate::definition::format::At<crate::definition::display::ShowDef>>,
) -> (bool, crate::definition::display::Shown) {
    use crate::definition::display::{Shown, shown};
    let Some(def) = def else {
        return (true, Shown::Number);
    };
    match shown(&def.value) {
        Ok(s) => s,
        Err(msg) => {
            a.invalid(format!("{what}: {msg}"), &def.pos);
            (true, Shown::Number)
        }
    }
}

/// `{param}` in the texts players read (rules, summary, card texts, variant
/// docs) becomes the parameter's value in this game: `--set wound_limit=20`
/// makes the rules say 20. `{card:ID}` in a card text becomes a card's name.
fn fill_params(def: &mut Def) {
    let params: Vec<(String, String)> = def
        .params
        .iter()
        .map(|p| (format!("{{{}}}", p.id), p.show(p.value)))
        .collect();
    let fill = |s: &mut String| {
        for (k, v) in &params {
            if s.contains(k.as_str()) {
                *s = s.replace(k.as_str(), v);
            }
        }
    };
    fill(&mut def.rules);
    fill(&mut def.summary);
    def.cards.iter_mut().for_each(|c| fill(&mut c.text));
    def.variants.iter_mut().for_each(|v| fill(&mut v.doc));
    // `{card:ID}` in a card text: that card's name in this game, so a
    // re-theme that renames the cards keeps the texts it inherits right.
    let names: Vec<(String, String)> = def
        .cards
        .iter()
        .map(|c| (format!("{{card:{}}}", c.id), c.name.clone()))
        .collect();
    for c in &mut def.cards {
        if c.text.contains("{card:") {
            for (k, v) in &names {
                c.text = c.text.replace(k.as_str(), v);
            }
        }
    }
}

/// Whether a word (an alias, an option) can be typed as it is: no spaces
/// at its ends, no control character, not empty.
fn typeable(w: &str) -> bool {
    !w.is_empty() && w.trim() == w && !w.chars().any(char::is_control)
}

/// No id holds a control character: no one could type it (a move, `--as`,
/// `--set`, a variant), and ids reach terminals, charts and spreadsheets as
/// they are (names are escaped instead: see `printable_texts`).
fn typeable_ids(a: &mut Analyzer, def: &Def) {
    let decisions = def.flow.iter().filter_map(|s| match s {
        Step::Decide { name, .. } => Some(("decision", &**name)),
        _ => None,
    });
    let bad: Vec<String> = std::iter::once(("game", def.id.as_str()))
        .chain(a.names.all())
        .chain(def.variants.iter().map(|v| ("variant", v.id.as_str())))
        .chain(decisions)
        .chain(
            (def.params.iter())
                .flat_map(|p| p.values.iter().map(|v| ("parameter value", v.as_str()))),
        )
        .filter(|(_, id)| id.chars().any(char::is_control))
        .map(|(kind, id)| format!("{kind} `{}`", id.escape_debug()))
        .collect();
    let at = a.top();
    for b in bad {
        a.invalid(
            format!("{b} has a control character: no one can type it"),
            &at,
        );
    }
}

/// Every text a player reads, with control characters escaped: a name or
/// a card text cannot move the cursor or clear a terminal.
fn printable_texts(def: &mut Def) {
    fn fix(s: &mut String) {
        if let std::borrow::Cow::Owned(o) = crate::error::printable(s) {
            *s = o;
        }
    }
    fix(&mut def.name);
    fix(&mut def.summary);
    fix(&mut def.rules);
    def.players.iter_mut().for_each(|p| fix(&mut p.name));
    for s in &mut def.stats {
        fix(&mut s.name);
        fix(&mut s.doc);
    }
    for v in &mut def.vars {
        fix(&mut v.name);
        fix(&mut v.doc);
    }
    def.params.iter_mut().for_each(|p| fix(&mut p.doc));
    for c in &mut def.cards {
        fix(&mut c.name);
        fix(&mut c.text);
        c.names.iter_mut().for_each(fix);
    }
    def.zones.iter_mut().for_each(|z| fix(&mut z.name));
    def.dice
        .iter_mut()
        .for_each(|d| d.faces.iter_mut().for_each(fix));
    for v in &mut def.variants {
        fix(&mut v.name);
        fix(&mut v.doc);
    }
    for s in &mut def.flow {
        if let Step::Decide { prompt, .. } = s
            && let std::borrow::Cow::Owned(o) = crate::error::printable(prompt)
        {
            *prompt = o.into();
        }
    }
}
