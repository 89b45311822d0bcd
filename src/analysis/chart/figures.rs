//! The charts of sim reports and sweeps, as data for `svg`.

use super::{Axis, Chart, Line, Look, Panel, Point};
use crate::analysis::sim::{Rate, Report};
use crate::analysis::solve::Worth;
use crate::analysis::sweep::{Exact, Row, Sweep};
use crate::definition::format::ParamValue;
use crate::error::{Error, Result};

fn point(x: f64, r: &Rate) -> Point {
    Point {
        x,
        y: r.percent,
        band: Some((r.low, r.high)),
    }
}

/// `sim`: win rates and draws with their intervals per column, and the
/// distribution of game lengths (share of games per number of turns) of
/// each column.
pub fn sim(reports: &[Report]) -> Chart {
    let Some(first) = reports.first() else {
        return Chart {
            title: String::new(),
            panels: Vec::new(),
        };
    };
    let mut rates: Vec<Line> = (first.seats.iter().enumerate())
        .map(|(i, s)| Line {
            name: format!("{} ({})", s.player, s.bot),
            look: Look::Series(i),
            points: (reports.iter().enumerate())
                .map(|(x, r)| point(x as f64, &r.seats[i].wins))
                .collect(),
        })
        .collect();
    rates.push(Line {
        name: "draws".into(),
        look: Look::Draws,
        points: (reports.iter().enumerate())
            .map(|(x, r)| point(x as f64, &r.draws))
            .collect(),
    });
    let lengths = (reports.iter().enumerate())
        .map(|(i, r)| Line {
            name: r.label(),
            look: Look::Series(i + first.seats.len()),
            points: r
                .turn_counts
                .iter()
                .map(|&(t, n)| Point {
                    x: f64::from(t),
                    y: 100.0 * n as f64 / r.games.max(1) as f64,
                    band: None,
                })
                .collect(),
        })
        .collect();
    Chart {
        title: format!(
            "{}: {} games per column, seed {}",
            first.game, first.games, first.seed
        ),
        panels: vec![
            Panel {
                title: "Win rates (95% CI)".into(),
                x_label: "variants".into(),
                categories: Some(reports.iter().map(Report::label).collect()),
                left: Axis {
                    label: "% of games".into(),
                    range: None,
                    lines: rates,
                },
                right: None,
                whole_x: true,
            },
            Panel {
                title: "Game length (share of games by turns)".into(),
                x_label: "turns".into(),
                categories: None,
                left: Axis {
                    label: "% of games".into(),
                    range: None,
                    lines: lengths,
                },
                right: None,
                whole_x: true,
            },
        ],
    }
}

/// Panels a sweep chart draws at most (one per value of the axes after
/// the first).
pub const MAX_PANELS: usize = 12;

/// `sweep`: against the first parameter, a line per seat (win rate with
/// its band), draws, the exact chances where solved (dashed), and the
/// mean length on the right axis; one panel per setting of the other
/// parameters.
pub fn sweep(s: &Sweep) -> Result<Chart> {
    let Some(axis) = s.axes.first() else {
        return Err(Error::usage("a sweep chart needs a parameter to sweep"));
    };
    let numeric = axis.values.iter().all(|v| matches!(v, ParamValue::Int(_)));
    let x_of = |row: &Row| -> f64 {
        let v = &row.setting[0].1;
        match v {
            ParamValue::Int(i) if numeric => *i as f64,
            _ => axis.values.iter().position(|w| w == v).unwrap_or(0) as f64,
        }
    };
    // Rows grouped by the other parameters' values, in sweep order.
    let mut groups: Vec<(String, Vec<&Row>)> = Vec::new();
    for row in &s.rows {
        let key: Vec<String> = row.setting[1..]
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let key = key.join(", ");
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, rows)) => rows.push(row),
            None => groups.push((key, vec![row])),
        }
    }
    if groups.len() > MAX_PANELS {
        return Err(Error::usage(format!(
            "the chart would have {} panels (one per setting of the parameters after `{}`), more than {MAX_PANELS}: sweep fewer values",
            groups.len(),
            axis.param
        )));
    }
    let panels = groups
        .into_iter()
        .map(|(key, rows)| panel(&axis.param, key, &rows, &x_of, numeric))
        .collect();
    let variants = if s.variants.is_empty() {
        String::new()
    } else {
        format!(" ({})", s.variants.join("+"))
    };
    Ok(Chart {
        title: format!(
            "{}{variants}: {} games per setting, seed {}",
            s.game, s.games, s.seed
        ),
        panels,
    })
}

fn panel(
    param: &str,
    key: String,
    rows: &[&Row],
    x_of: &dyn Fn(&Row) -> f64,
    numeric: bool,
) -> Panel {
    let Some(first) = rows.first() else {
        return Panel {
            title: key,
            x_label: param.into(),
            categories: None,
            left: Axis {
                label: String::new(),
                range: None,
                lines: Vec::new(),
            },
            right: None,
            whole_x: false,
        };
    };
    let mut lines: Vec<Line> = (first.report.seats.iter().enumerate())
        .map(|(i, seat)| Line {
            name: format!("{} wins", seat.player),
            look: Look::Series(i),
            points: rows
                .iter()
                .map(|r| point(x_of(r), &r.report.seats[i].wins))
                .collect(),
        })
        .collect();
    lines.push(Line {
        name: "draws".into(),
        look: Look::Draws,
        points: rows
            .iter()
            .map(|r| point(x_of(r), &r.report.draws))
            .collect(),
    });
    // The exact chances of the two seats where the setting was solved.
    let solved = |f: &dyn Fn(&Worth) -> f64| -> Vec<Point> {
        rows.iter()
            .filter_map(|r| match &r.exact {
                Some(Exact::Solved { worth, .. }) => Some(Point {
                    x: x_of(r),
                    y: 100.0 * f(worth),
                    band: None,
                }),
                _ => None,
            })
            .collect()
    };
    let (win, loss) = (solved(&|w| w.win), solved(&|w| w.loss));
    if !win.is_empty() && first.report.seats.len() == 2 {
        for (i, points) in [win, loss].into_iter().enumerate() {
            lines.push(Line {
                name: format!("{} wins (exact)", first.report.seats[i].player),
                look: Look::Exact(i),
                points,
            });
        }
    }
    let length = Line {
        name: "turns (mean)".into(),
        look: Look::Length,
        points: rows
            .iter()
            .map(|r| Point {
                x: x_of(r),
                y: r.report.turns.mean,
                band: None,
            })
            .collect(),
    };
    let bots: Vec<String> = (first.report.seats.iter())
        .map(|seat| seat.bot.clone())
        .collect();
    let title = if key.is_empty() {
        format!("bots: {}", bots.join(" vs "))
    } else {
        format!("{key}; bots: {}", bots.join(" vs "))
    };
    Panel {
        title,
        x_label: param.into(),
        categories: (!numeric).then(|| rows.iter().map(|r| r.setting[0].1.to_string()).collect()),
        left: Axis {
            label: "% of games (95% CI)".into(),
            range: None,
            lines,
        },
        right: Some(Axis {
            label: "turns".into(),
            range: None,
            lines: vec![length],
        }),
        whole_x: numeric,
    }
}
