//! Charts of balance figures as SVG (drawn by `plotters`): figures against
//! a parameter (`sweep`), per column and lengths (`sim`). Each line is
//! named at its right end, in its colour, so no legend is needed.

mod figures;

pub use figures::{sim, sweep};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor;

use crate::error::{Error, Result};

/// A chart: a title and panels stacked top to bottom.
#[derive(Debug, Clone)]
pub struct Chart {
    pub title: String,
    pub panels: Vec<Panel>,
}

#[derive(Debug, Clone)]
pub struct Panel {
    pub title: String,
    pub x_label: String,
    /// Names of the x positions 0, 1, ... when x is not a number (sim's
    /// columns): points with error bars instead of lines with bands.
    pub categories: Option<Vec<String>>,
    pub left: Axis,
    /// A second y axis on the right (lengths beside rates).
    pub right: Option<Axis>,
    /// x takes whole numbers only (a parameter's values, turns).
    pub whole_x: bool,
}

#[derive(Debug, Clone)]
pub struct Axis {
    pub label: String,
    /// Fixed bounds, else from the data.
    pub range: Option<(f64, f64)>,
    pub lines: Vec<Line>,
}

#[derive(Debug, Clone)]
pub struct Line {
    pub name: String,
    pub look: Look,
    pub points: Vec<Point>,
}

/// How a line is drawn: seats in distinct colours, draws in grey,
/// lengths dashed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Look {
    Series(usize),
    /// An exact value in a series' colour, dashed (solve's, beside sim's).
    Exact(usize),
    Draws,
    Length,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
    /// A 95% confidence interval around `y`.
    pub band: Option<(f64, f64)>,
}

const WIDTH: u32 = 960;
const PANEL_HEIGHT: u32 = 440;
/// Room on the right for the lines' names.
const LABELS: u32 = 150;
/// Room for an axis's numbers and name.
const AXIS: u32 = 58;

fn color(look: Look) -> RGBColor {
    const SERIES: [RGBColor; 8] = [
        RGBColor(31, 119, 180),
        RGBColor(214, 39, 40),
        RGBColor(44, 160, 44),
        RGBColor(148, 103, 189),
        RGBColor(255, 127, 14),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(23, 190, 207),
    ];
    match look {
        Look::Series(i) | Look::Exact(i) => SERIES[i % SERIES.len()],
        Look::Draws => RGBColor(127, 127, 127),
        Look::Length => RGBColor(40, 40, 40),
    }
}

fn failed(e: impl std::fmt::Display) -> Error {
    Error::usage(format!("drawing the chart: {e}"))
}

/// The chart as an SVG document.
pub fn svg(chart: &Chart) -> Result<String> {
    let chart = &xml_safe(chart);
    let mut out = String::new();
    {
        let height = PANEL_HEIGHT * chart.panels.len().max(1) as u32 + 40;
        let root = SVGBackend::with_string(&mut out, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        let body = root
            .titled(&chart.title, ("sans-serif", 22))
            .map_err(failed)?;
        let areas = body.split_evenly((chart.panels.len().max(1), 1));
        let mut names = Vec::new();
        for (panel, area) in chart.panels.iter().zip(&areas) {
            names.extend(draw_panel(panel, area)?);
        }
        place_names(&root, names)?;
        root.present().map_err(failed)?;
    }
    Ok(out)
}

/// The chart with every text as XML 1.0 allows it: plotters escapes `<`
/// and `&` but writes a control character as it is (a player id from an
/// edited shard), which no XML reader accepts. Control characters are shown
/// escaped, as on a terminal; the non-characters U+FFFE and U+FFFF dropped.
fn xml_safe(c: &Chart) -> Chart {
    let t = |s: &String| -> String {
        (crate::error::printable(s).chars())
            .filter(|c| !matches!(c, '\u{fffe}' | '\u{ffff}'))
            .collect()
    };
    let axis = |a: &Axis| Axis {
        label: t(&a.label),
        lines: (a.lines.iter())
            .map(|l| Line {
                name: t(&l.name),
                ..l.clone()
            })
            .collect(),
        ..a.clone()
    };
    Chart {
        title: t(&c.title),
        panels: (c.panels.iter())
            .map(|p| Panel {
                title: t(&p.title),
                x_label: t(&p.x_label),
                categories: p.categories.as_ref().map(|v| v.iter().map(t).collect()),
                left: axis(&p.left),
                right: p.right.as_ref().map(axis),
                ..p.clone()
            })
            .collect(),
    }
}

/// A tick's number: whole numbers without a fraction.
fn number(x: &f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{}", x.round())
    } else {
        format!("{x:.1}")
    }
}

/// A line's name to write at a pixel beside its last point.
struct Name {
    text: String,
    at: (i32, i32),
    color: RGBColor,
}

/// The x and y bounds of some lines (with their bands), padded.
fn bounds(lines: &[Line], fixed: Option<(f64, f64)>) -> (f64, f64) {
    if let Some(r) = fixed {
        return r;
    }
    let ys = lines.iter().flat_map(|l| &l.points).flat_map(|p| {
        let (lo, hi) = p.band.unwrap_or((p.y, p.y));
        [p.y, lo, hi]
    });
    let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
        (a.min(y), b.max(y))
    });
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.08).max(0.5);
    // Rates and lengths are not negative: no axis below 0 for them.
    let bottom = if lo >= 0.0 {
        (lo - pad).max(0.0)
    } else {
        lo - pad
    };
    (bottom, hi + pad)
}

fn x_bounds(panel: &Panel) -> (f64, f64) {
    if let Some(c) = &panel.categories {
        return (-0.5, c.len() as f64 - 0.5);
    }
    let all = panel
        .left
        .lines
        .iter()
        .chain(panel.right.iter().flat_map(|a| &a.lines));
    let (lo, hi) = all
        .flat_map(|l| &l.points)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.x), b.max(p.x))
        });
    match (lo.is_finite(), lo == hi) {
        (false, _) => (0.0, 1.0),
        (true, true) => (lo - 1.0, hi + 1.0),
        (true, false) => (lo, hi),
    }
}

fn draw_panel(panel: &Panel, area: &DrawingArea<SVGBackend, Shift>) -> Result<Vec<Name>> {
    let (x0, x1) = x_bounds(panel);
    let (y0, y1) = bounds(&panel.left.lines, panel.left.range);
    let (r0, r1) = panel
        .right
        .as_ref()
        .map_or((0.0, 1.0), |a| bounds(&a.lines, a.range));
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, ("sans-serif", 17))
        .margin(12)
        .margin_right(LABELS)
        .x_label_area_size(42)
        .y_label_area_size(AXIS)
        .right_y_label_area_size(if panel.right.is_some() { AXIS } else { 0 })
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(failed)?
        .set_secondary_coord(x0..x1, r0..r1);
    let categories = panel.categories.clone().unwrap_or_default();
    let name_of = |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 {
            categories.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(&panel.x_label)
        .y_desc(&panel.left.label)
        .light_line_style(RGBColor(235, 235, 235))
        .y_label_formatter(&number)
        .x_label_formatter(&number);
    if panel.categories.is_some() {
        mesh.x_labels(categories.len() * 2 + 1)
            .x_label_formatter(&name_of);
    } else if panel.whole_x && x1 - x0 <= 12.0 {
        // A tick per whole number, none between.
        mesh.x_labels((x1 - x0) as usize + 1);
    }
    mesh.draw().map_err(failed)?;
    if let Some(right) = &panel.right {
        chart
            .configure_secondary_axes()
            .y_desc(&right.label)
            .y_label_formatter(&number)
            .draw()
            .map_err(failed)?;
    }
    let mut names = Vec::new();
    // Names go right of the plot, past the right axis's numbers.
    let px = chart.backend_coord(&(x1, y0)).0;
    let beyond = if panel.right.is_some() {
        8 + AXIS as i32
    } else {
        8
    };
    let n = panel.left.lines.len();
    for (i, line) in panel.left.lines.iter().enumerate() {
        let c = color(line.look);
        if panel.categories.is_some() {
            // Side by side within a column, each with its interval.
            let dx = (i as f64 - (n as f64 - 1.0) / 2.0) * 0.08;
            let at = |p: &Point| (p.x + dx, p.y);
            chart
                .draw_series(line.points.iter().map(|p| {
                    let (lo, hi) = p.band.unwrap_or((p.y, p.y));
                    ErrorBar::new_vertical(p.x + dx, lo, p.y, hi, c.stroke_width(2), 10)
                }))
                .map_err(failed)?;
            chart
                .draw_series(
                    line.points
                        .iter()
                        .map(|p| Circle::new(at(p), 4, c.filled())),
                )
                .map_err(failed)?;
            if let Some(p) = line.points.last() {
                let (_, py) = chart.backend_coord(&at(p));
                names.push(Name {
                    text: line.name.clone(),
                    at: (px + beyond, py),
                    color: c,
                });
            }
            continue;
        }
        let upper: Vec<(f64, f64)> = line
            .points
            .iter()
            .filter_map(|p| p.band.map(|(_, hi)| (p.x, hi)))
            .collect();
        if upper.len() == line.points.len() && !upper.is_empty() {
            let lower = line
                .points
                .iter()
                .rev()
                .filter_map(|p| p.band.map(|(lo, _)| (p.x, lo)));
            let outline: Vec<(f64, f64)> = upper.iter().copied().chain(lower).collect();
            chart
                .draw_series(std::iter::once(Polygon::new(outline, c.mix(0.18).filled())))
                .map_err(failed)?;
        }
        let pts = line.points.iter().map(|p| (p.x, p.y));
        if matches!(line.look, Look::Exact(_)) {
            chart
                .draw_series(DashedLineSeries::new(pts, 3, 4, c.stroke_width(2)))
                .map_err(failed)?;
        } else {
            chart
                .draw_series(LineSeries::new(pts, c.stroke_width(2)))
                .map_err(failed)?;
        }
        if let Some(p) = line.points.last() {
            let (_, py) = chart.backend_coord(&(p.x, p.y));
            names.push(Name {
                text: line.name.clone(),
                at: (px + beyond, py),
                color: c,
            });
        }
    }
    if let Some(right) = &panel.right {
        for line in &right.lines {
            let c = color(line.look);
            let pts: Vec<(f64, f64)> = line.points.iter().map(|p| (p.x, p.y)).collect();
            chart
                .draw_secondary_series(DashedLineSeries::new(pts, 7, 5, c.stroke_width(2)))
                .map_err(failed)?;
            if let Some(p) = line.points.last() {
                // The right axis's value at the left axis's scale.
                let y = y0 + (p.y - r0) / (r1 - r0) * (y1 - y0);
                let (_, py) = chart.backend_coord(&(p.x, y));
                names.push(Name {
                    text: line.name.clone(),
                    at: (px + beyond, py),
                    color: c,
                });
            }
        }
    }
    Ok(names)
}

/// Write the lines' names beside their ends, pushed apart where two ends
/// are closer than a line of text.
fn place_names(root: &DrawingArea<SVGBackend, Shift>, mut names: Vec<Name>) -> Result<()> {
    const GAP: i32 = 15;
    names.sort_by_key(|n| (n.at.0 / 4, n.at.1));
    for i in 1..names.len() {
        let (prev, rest) = names.split_at_mut(i);
        let (a, b) = (&prev[i - 1], &mut rest[0]);
        if (a.at.0 - b.at.0).abs() < 40 && b.at.1 - a.at.1 < GAP {
            b.at.1 = a.at.1 + GAP;
        }
    }
    for n in names {
        let style = ("sans-serif", 14)
            .into_font()
            .color(&n.color)
            .pos(text_anchor::Pos::new(
                text_anchor::HPos::Left,
                text_anchor::VPos::Center,
            ));
        root.draw(&Text::new(n.text, n.at, style)).map_err(failed)?;
    }
    Ok(())
}
