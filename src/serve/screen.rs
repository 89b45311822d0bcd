//! What one link's browser is sent: the position as that seat (or a
//! spectator) sees it, ready to draw. Everything here is built from
//! [`view::view`] for that viewer and from the game's public tables, so
//! what the REPL and `--json --as` hide is never in it.

use serde::Serialize;

use crate::core::{Choice, Decision, Outcome, State};
use crate::definition::PlayerIx;
use crate::definition::format::Per;
use crate::game::Game;
use crate::play::session::{Seat, Session};
use crate::text::view::{self, View, ZoneView};

/// Who a link is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// The table's maker: seat links, reload, saves; sees what a spectator sees.
    Host,
    Spectator,
    Seat(PlayerIx),
}

impl Role {
    pub fn viewer(self) -> Option<PlayerIx> {
        match self {
            Role::Seat(p) => Some(p),
            _ => None,
        }
    }
    pub fn word(self) -> &'static str {
        match self {
            Role::Host => "host",
            Role::Spectator => "spectator",
            Role::Seat(_) => "seat",
        }
    }
}

/// The table's state beside the game: what every screen shows of it.
pub struct TableShow<'a> {
    pub id: &'a str,
    pub version: u64,
    /// Connections open, by seat.
    pub connected: &'a [usize],
    pub undo: Option<&'a UndoAsk>,
    pub notice: Option<&'a Notice>,
    /// The log's length at each seat's last move.
    pub moved_at: &'a [usize],
    /// Seat links, for the host.
    pub links: Option<Links>,
    /// The host closed the table: this is its last screen.
    pub closed: bool,
}

/// An undo one person asked for, and who has agreed.
#[derive(Debug, Clone)]
pub struct UndoAsk {
    pub by: PlayerIx,
    pub agreed: Vec<PlayerIx>,
}

/// The table's last word to everyone.
#[derive(Debug, Clone, Serialize)]
pub struct Notice {
    pub seq: u64,
    pub text: String,
    pub error: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Links {
    pub seats: indexmap::IndexMap<String, Option<String>>,
    pub spectator: String,
}

#[derive(Serialize)]
pub struct Screen {
    #[serde(rename = "type")]
    kind: &'static str,
    table: String,
    role: &'static str,
    you: Option<String>,
    title: String,
    version: u64,
    status: String,
    over: bool,
    result: Option<String>,
    prompt: Option<String>,
    options: Vec<OptionShow>,
    /// A choice of several options at once (`pick: K`): the page offers
    /// these to select K of, and sends the one option (above) they make.
    pick: Option<PickShow>,
    chosen: Option<String>,
    players: Vec<PlayerShow>,
    zones: Vec<ZoneShow>,
    board: Option<BoardShow>,
    grid: Option<GridShow>,
    vars: Vec<StatShow>,
    new_from: usize,
    undo: Option<UndoShow>,
    notice: Option<Notice>,
    links: Option<Links>,
    downloads: bool,
    closed: bool,
    view: View,
}

#[derive(Serialize)]
struct OptionShow {
    text: String,
    name: String,
    detail: Option<String>,
    card: Option<String>,
    cell: Option<String>,
    /// The grid column the option names (a disc dropped into it).
    column: Option<String>,
}

/// `count` of `from` make one choice, in the order selected when
/// `ordered`; each option's text is its parts' texts with spaces between.
#[derive(Serialize)]
struct PickShow {
    count: u32,
    ordered: bool,
    from: Vec<OptionShow>,
}

#[derive(Serialize)]
struct PlayerShow {
    id: String,
    name: String,
    you: bool,
    seat: String,
    connected: bool,
    waiting: bool,
    stats: Vec<StatShow>,
    zones: Vec<ZoneShow>,
}

#[derive(Serialize)]
struct StatShow {
    id: String,
    name: String,
    value: i64,
    /// The value as the game shows it (`yes`, a word, the number).
    text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<i64>,
}

#[derive(Serialize)]
struct ZoneShow {
    id: String,
    name: String,
    hidden: bool,
    count: usize,
    cards: Option<Vec<CardShow>>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum CardShow {
    Seen {
        id: String,
        name: String,
        text: String,
        /// Who played it (a trick's cards), in zones that record it.
        #[serde(skip_serializing_if = "Option::is_none")]
        from: Option<String>,
    },
    Hidden {
        hidden: bool,
    },
}

#[derive(Serialize)]
struct BoardShow {
    squares: Vec<Square>,
    pieces: Vec<Piece>,
}

#[derive(Serialize)]
struct Square {
    terrain: String,
    symbol: String,
}

#[derive(Serialize)]
struct Piece {
    player: String,
    square: i64,
}

#[derive(Serialize)]
struct GridShow {
    columns: Vec<String>,
    row_numbers: Vec<usize>,
    rows: Vec<Vec<CellShow>>,
    /// `hex`: the page draws hexagons, each row half a cell right of the
    /// row below.
    #[serde(skip_serializing_if = "Option::is_none")]
    shape: Option<&'static str>,
}

#[derive(Serialize)]
struct CellShow {
    cell: String,
    hole: bool,
    piece: Option<PieceShow>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum PieceShow {
    Seen {
        id: String,
        name: String,
        symbol: String,
    },
    Hidden {
        hidden: bool,
    },
}

#[derive(Serialize)]
struct UndoShow {
    by: String,
    waiting: Vec<String>,
    you_agree: Option<bool>,
}

/// The log as `viewer` may read it: public lines and their own.
pub fn log_lines(s: &Session, viewer: Option<PlayerIx>) -> Vec<String> {
    s.log
        .iter()
        .filter(|e| e.to().is_none() || e.to() == viewer)
        .map(|e| crate::text::phrase::phrase(&s.game, e))
        .collect()
}

/// How many of the first `upto` events `viewer` may read.
fn visible_before(s: &Session, viewer: Option<PlayerIx>, upto: usize) -> usize {
    s.log
        .iter()
        .take(upto)
        .filter(|e| e.to().is_none() || e.to() == viewer)
        .count()
}

pub fn screen(s: &Session, t: &TableShow, role: Role) -> Screen {
    let (game, state) = (&s.game, &s.state);
    let def = game.def();
    let viewer = role.viewer();
    // A role's viewer is a seat of the table's game.
    let v = view::seen(game, state, viewer);
    let seat_word = |p: PlayerIx| match &s.seats[p] {
        Seat::Person => "person".to_string(),
        Seat::Bot(k) => k.clone(),
    };
    let waiting = state.waiting();
    let players = (def.players.iter().enumerate())
        .map(|(p, pl)| PlayerShow {
            id: pl.id.clone(),
            name: pl.name.clone(),
            you: viewer == Some(p),
            seat: seat_word(p),
            connected: t.connected.get(p).is_some_and(|&n| n > 0),
            waiting: waiting.contains(&p),
            stats: (def.stats.iter().enumerate())
                .filter(|(_, st)| st.show)
                .map(|(i, st)| StatShow {
                    id: st.id.clone(),
                    name: st.name_for(Some(p)).to_string(),
                    value: state.stat(game, p, i),
                    text: st.shown.text(state.stat(game, p, i)),
                    limit: st.limit,
                })
                .collect(),
            zones: zones_of(game, &v, Per::Player, &pl.id, Some(p)),
        })
        .collect();
    let options = options(game, state, viewer);
    let pick = viewer
        .and_then(|p| crate::text::cards::pick_of(game, state, p).map(|x| (p, x)))
        .map(|(p, (pick, parts))| PickShow {
            count: pick.k,
            ordered: pick.ordered,
            from: parts
                .iter()
                .map(|c| option_show(game, None, c, p))
                .collect(),
        });
    let chosen = viewer.and_then(|p| {
        let d = state.decision()?;
        Some(
            d.visible_choice(p, Some(p))?
                .name(game, Some(p))
                .to_string(),
        )
    });
    Screen {
        kind: "state",
        table: t.id.to_string(),
        role: role.word(),
        you: viewer.map(|p| def.players[p].id.clone()),
        title: def.name.clone(),
        version: t.version,
        status: status(s, viewer),
        over: state.is_over(),
        result: state.is_over().then(|| result(s, viewer)),
        prompt: (!options.is_empty())
            .then(|| state.decision().map(|d| d.prompt.to_string()))
            .flatten(),
        options,
        pick,
        chosen,
        players,
        zones: zones_of(game, &v, Per::Game, "", None),
        board: board(game, state),
        grid: grid(game, &v),
        vars: (def.vars.iter().enumerate())
            .filter(|(_, x)| x.show)
            .map(|(i, x)| StatShow {
                id: x.id.clone(),
                name: x.name.clone(),
                value: state.var(i),
                text: x.shown.text(state.var(i)),
                limit: None,
            })
            .collect(),
        new_from: viewer.map_or(0, |p| {
            visible_before(s, viewer, t.moved_at.get(p).copied().unwrap_or(0))
        }),
        undo: t.undo.map(|u| UndoShow {
            by: def.players[u.by].id.clone(),
            waiting: undo_waiting(s, u)
                .map(|p| def.players[p].id.clone())
                .collect(),
            you_agree: viewer.and_then(|p| {
                if p == u.by || u.agreed.contains(&p) {
                    Some(true)
                } else {
                    None
                }
            }),
        }),
        notice: t.notice.cloned(),
        links: t.links.clone().filter(|_| role == Role::Host),
        downloads: may_download(s, role) && !t.closed,
        closed: t.closed,
        view: v,
    }
}

/// The people who have still to agree to an undo.
pub fn undo_waiting<'a>(s: &'a Session, u: &'a UndoAsk) -> impl Iterator<Item = PlayerIx> + 'a {
    s.people()
        .into_iter()
        .filter(move |p| *p != u.by && !u.agreed.contains(p))
}

/// A save tells the seed, so every hidden card: the host may have it at
/// any time, everyone once the game is over.
pub fn may_download(s: &Session, role: Role) -> bool {
    role == Role::Host || s.state.is_over()
}

/// The viewer's legal choices, each with what it plays and says.
fn options(game: &Game, state: &State, viewer: Option<PlayerIx>) -> Vec<OptionShow> {
    let (Some(p), Some(d)) = (viewer, state.decision()) else {
        return Vec::new();
    };
    let def = game.def();
    let cell_names = def.grid.as_ref().map(|g| &g.names);
    let columns = def.grid.as_ref().map_or(0, |g| g.columns);
    crate::text::cards::offered(game, state, p, state.legal(p))
        .into_iter()
        .map(|c| {
            let mut o = option_show(game, Some(d), c, p);
            o.cell = cell_names
                .and_then(|n| n.iter().find(|n| **n == o.text))
                .cloned();
            o.column = (0..columns)
                .map(|c| crate::definition::column_name(c).to_string())
                .find(|n| *n == o.text);
            o
        })
        .collect()
}

/// One option as the page shows it: what it plays (`text`), its name, a
/// label or the card's text, and the card.
fn option_show(game: &Game, d: Option<&Decision>, c: &Choice, p: PlayerIx) -> OptionShow {
    let def = game.def();
    let text = c.text(game).to_string();
    let card = match c {
        Choice::Card(ix) => Some(&def.cards[*ix as usize]),
        _ => None,
    };
    OptionShow {
        name: c.name(game, Some(p)).to_string(),
        detail: d
            .and_then(|d| d.label(c))
            .map(str::to_string)
            .or_else(|| card.map(|k| k.text.clone()).filter(|t| !t.is_empty())),
        card: card.map(|k| k.id.clone()),
        cell: None,
        column: None,
        text,
    }
}

/// The zones of one owner (a player's, or the shared ones) that the
/// game shows, from the view (which already hid what this viewer may not
/// see).
fn zones_of(
    game: &Game,
    v: &View,
    per: Per,
    owner: &str,
    owner_ix: Option<PlayerIx>,
) -> Vec<ZoneShow> {
    let def = game.def();
    let card = |id: &str, from: Option<&String>| {
        let c = def.card(id).map(|i| &def.cards[i as usize]);
        // Who played it, unless it is the owner's own card.
        let from = from
            .filter(|f| f.as_str() != owner)
            .and_then(|f| def.players.iter().find(|p| p.id == *f))
            .map(|p| p.name.clone());
        CardShow::Seen {
            id: id.to_string(),
            name: c.map_or(id, |c| c.name_for(owner_ix)).to_string(),
            text: c.map(|c| c.text.clone()).unwrap_or_default(),
            from,
        }
    };
    def.zones
        .iter()
        .filter(|z| z.per == per && z.show)
        .filter_map(|z| {
            let seen = v.zones.get(&z.id)?.get(owner)?;
            let from = v.from.get(&z.id).and_then(|f| f.get(owner));
            let from = |i: usize| from.and_then(|f| f.get(i)?.as_ref());
            let (hidden, count, cards) = match seen {
                ZoneView::Count { count } => (true, *count, None),
                // The cards this seat knows, then the others face down.
                ZoneView::Known { count, known } => (
                    false,
                    *count,
                    Some(
                        (known.iter().map(|c| card(c, None)))
                            .chain((known.len()..*count).map(|_| CardShow::Hidden { hidden: true }))
                            .collect(),
                    ),
                ),
                ZoneView::Cards(ids) => (
                    false,
                    ids.len(),
                    Some(
                        ids.iter()
                            .enumerate()
                            .map(|(i, c)| card(c, from(i)))
                            .collect(),
                    ),
                ),
                ZoneView::Faces(ids) => (
                    false,
                    ids.len(),
                    Some(
                        (ids.iter().enumerate())
                            .map(|(i, c)| match c {
                                Some(c) => card(c, from(i)),
                                None => CardShow::Hidden { hidden: true },
                            })
                            .collect(),
                    ),
                ),
            };
            // As the REPL: an empty zone is not shown.
            if count == 0 {
                return None;
            }
            Some(ZoneShow {
                id: z.id.clone(),
                name: z.name.clone(),
                hidden,
                count,
                cards,
            })
        })
        .collect()
}

fn board(game: &Game, state: &State) -> Option<BoardShow> {
    let def = game.def();
    let b = def.board.as_ref()?;
    let symbol = |t: &str| {
        b.symbols
            .iter()
            .find(|(k, _)| k == t)
            .map_or(String::new(), |(_, v)| v.clone())
    };
    Some(BoardShow {
        squares: b
            .squares
            .iter()
            .map(|t| Square {
                terrain: t.clone(),
                symbol: symbol(t),
            })
            .collect(),
        pieces: b.position.map_or(Vec::new(), |pos| {
            (def.players.iter().enumerate())
                .map(|(p, pl)| Piece {
                    player: pl.id.clone(),
                    square: state.stat(game, p, pos),
                })
                .collect()
        }),
    })
}

fn grid(game: &Game, v: &View) -> Option<GridShow> {
    let def = game.def();
    let (g, gv) = (def.grid.as_ref()?, v.grid.as_ref()?);
    let rows = (gv.rows.iter().zip(&gv.row_numbers))
        .map(|(row, &r)| {
            row.iter()
                .enumerate()
                .map(|(c, piece)| {
                    let cell = (r - 1) * g.columns + c;
                    CellShow {
                        cell: g.names[cell].clone(),
                        hole: g.holes[cell],
                        piece: piece.as_deref().map(|id| match def.card(id) {
                            Some(i) => PieceShow::Seen {
                                id: id.to_string(),
                                name: def.cards[i as usize].name.clone(),
                                symbol: def.cards[i as usize].symbol.to_string(),
                            },
                            None => PieceShow::Hidden { hidden: true },
                        }),
                    }
                })
                .collect()
        })
        .collect();
    Some(GridShow {
        columns: gv.columns.clone(),
        row_numbers: gv.row_numbers.clone(),
        rows,
        shape: gv.shape,
    })
}

/// The one line to show the person: whose turn, or how it ended.
fn status(s: &Session, viewer: Option<PlayerIx>) -> String {
    let (game, state) = (&s.game, &s.state);
    let def = game.def();
    if state.is_over() {
        return result(s, viewer);
    }
    let Some(d) = state.decision() else {
        return String::new();
    };
    let waiting = d.waiting();
    if viewer.is_some_and(|p| waiting.contains(&p)) {
        return format!("Your turn: {}", d.prompt);
    }
    let names: Vec<&str> = waiting
        .iter()
        .map(|&p| def.players[p].name.as_str())
        .collect();
    let mine = viewer.is_some_and(|p| d.visible_choice(p, Some(p)).is_some());
    let head = if mine {
        "You have chosen; waiting"
    } else {
        "Waiting"
    };
    format!("{head} for {}", names.join(" and "))
}

/// The end, said to the one who reads it.
fn result(s: &Session, viewer: Option<PlayerIx>) -> String {
    let (game, state) = (&s.game, &s.state);
    let def = game.def();
    let why = state
        .end_reason()
        .map(|r| format!(" ({r})"))
        .unwrap_or_default();
    match state.outcome() {
        Some(Outcome::Win(p)) if viewer == Some(p) => format!("You win{why}."),
        Some(Outcome::Win(p)) if viewer.is_some() => {
            format!("You lose: {} wins{why}.", def.players[p].name)
        }
        Some(Outcome::Win(p)) => format!("{} wins{why}.", def.players[p].name),
        Some(Outcome::Draw) => format!("A draw{why}."),
        None => String::new(),
    }
}
