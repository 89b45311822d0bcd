//! Sim reports as text and CSV: one run, or columns side by side
//! (`sim --compare`, `merge`). Every section of a single run is in the
//! side-by-side form too.

use tabula::sim::{Rate, Report};

pub fn pct(r: &Rate) -> String {
    format!("{:5.1}% [{:4.1}, {:4.1}]", r.percent, r.low, r.high)
}

fn params(r: &Report) -> String {
    let sets: Vec<String> = (r.params.iter()).map(|(k, v)| format!("{k}={v}")).collect();
    sets.join(" ")
}

/// "GAME - N games, seed S, variants V[, K=V]".
fn header(r: &Report, with_variants: bool) -> String {
    let mut h = format!("{} - {} games, seed {}", r.game, r.games, r.seed);
    if with_variants {
        let v = if r.variants.is_empty() {
            "-".to_string()
        } else {
            r.variants.join(", ")
        };
        h += &format!(", variants {v}");
    }
    if !r.params.is_empty() {
        h += &format!(", {}", params(r));
    }
    h
}

fn advantage(a: Option<(f64, f64)>) -> String {
    a.map_or("-".into(), |(d, ci)| format!("{d:+.1} +/- {ci:.1}"))
}

fn ordinal(i: usize) -> String {
    let n = i + 1;
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn reason_name(reason: &str) -> &str {
    if reason.is_empty() {
        "(no reason given)"
    } else {
        reason
    }
}

pub fn print_report(r: &Report) {
    println!("{}", header(r, true));
    println!();
    println!(
        "{:<14} {:<8} {:>8}  win rate (95% CI)",
        "seat", "bot", "wins"
    );
    for s in &r.seats {
        println!(
            "{:<14} {:<8} {:>8}  {}",
            s.player,
            s.bot,
            s.wins.count,
            pct(&s.wins)
        );
    }
    println!(
        "{:<14} {:<8} {:>8}  {}",
        "draws",
        "",
        r.draws.count,
        pct(&r.draws)
    );
    if r.unfinished > 0 {
        println!("{:<14} {:<8} {:>8}", "unfinished", "", r.unfinished);
    }
    if r.failed > 0 {
        println!("{:<14} {:<8} {:>8}", "rules error", "", r.failed);
    }
    if let Some(places) = &r.places {
        println!(
            "\n{:<23} {:>8}  win rate (95% CI)",
            "place in turn order", "wins"
        );
        for (i, w) in places.iter().enumerate() {
            println!("{:<23} {:>8}  {}", ordinal(i), w.count, pct(w));
        }
        println!(
            "first place advantage: {} points (95% CI)",
            advantage(r.first_place_advantage)
        );
    }
    if let Some((d, ci)) = r.first_seat_advantage {
        println!("\nfirst seat advantage: {d:+.1} points (95% CI +/- {ci:.1})");
    }
    for s in &r.seats {
        if let Some((m, ci)) = s.payoff {
            println!("mean payoff of {}: {m:+.3} (95% CI +/- {ci:.3})", s.player);
        }
    }
    println!(
        "length: turns mean {:.1}, median {}, p95 {}; decisions mean {:.1}, median {}, p95 {}",
        r.turns.mean,
        r.turns.median,
        r.turns.p95,
        r.decisions.mean,
        r.decisions.median,
        r.decisions.p95
    );
    if let Some(d) = &r.decided {
        println!(
            "decided: at {:.0}% of a game's decisions on average (95% CI {:.0}-{:.0}; {} games, from where {} random continuations all reach the game's result)",
            d.percent, d.low, d.high, d.games, d.tries
        );
    }
    if r.end_reasons.iter().any(|e| !e.reason.is_empty()) {
        println!(
            "\n{:<24} {:>8}  share of games (95% CI)",
            "how games ended", "games"
        );
        for e in &r.end_reasons {
            let k = reason_name(&e.reason);
            println!("{k:<24} {:>8}  {}", e.share.count, pct(&e.share));
        }
    }
    if !r.cards.is_empty() {
        println!(
            "\n{:<18} {:>9}  player won the game (95% CI)",
            "card", "played"
        );
        for c in &r.cards {
            println!("{:<18} {:>9}  {}", c.card, c.played, pct(&c.won_game));
        }
    }
    let warnings = tabula::sim::warnings(r);
    if !warnings.is_empty() {
        println!();
        for w in warnings {
            println!("warning: {w}");
        }
    }
}

/// Columns side by side: the header, the seats, places, lengths, how
/// games ended and the cards, each row a figure and each column a run.
pub fn print_compare(reports: &[Report]) {
    let first = &reports[0];
    println!("{}", header(first, false));
    let bots: Vec<String> = (first.seats.iter())
        .map(|s| format!("{} {}", s.player, s.bot))
        .collect();
    println!("bots: {}", bots.join(", "));
    // Rows of (name, a cell per column); a row without cells is a heading.
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    let mut row = |name: &str, f: &dyn Fn(&Report) -> String| {
        rows.push((name.to_string(), reports.iter().map(f).collect()));
    };
    row("", &Report::label);
    for (i, s) in first.seats.iter().enumerate() {
        row(&format!("{} wins", s.player), &|r| pct(&r.seats[i].wins));
    }
    row("draws", &|r| pct(&r.draws));
    if reports.iter().any(|r| r.unfinished > 0) {
        row("unfinished", &|r| r.unfinished.to_string());
    }
    if reports.iter().any(|r| r.failed > 0) {
        row("rules error", &|r| r.failed.to_string());
    }
    row("first seat advantage", &|r| {
        advantage(r.first_seat_advantage)
    });
    if reports.iter().any(|r| r.places.is_some()) {
        for i in 0..first.seats.len() {
            row(&format!("{} in turn order wins", ordinal(i)), &|r| {
                r.places.as_ref().map_or("-".into(), |p| pct(&p[i]))
            });
        }
        row("first place advantage", &|r| {
            advantage(r.first_place_advantage)
        });
    }
    for (i, s) in first.seats.iter().enumerate() {
        if s.payoff.is_some() {
            row(&format!("{} mean payoff", s.player), &|r| {
                r.seats[i]
                    .payoff
                    .map_or("-".into(), |(m, ci)| format!("{m:+.3} +/- {ci:.3}"))
            });
        }
    }
    row("turns (mean)", &|r| format!("{:.1}", r.turns.mean));
    row("turns (median, p95)", &|r| {
        format!("{}, {}", r.turns.median, r.turns.p95)
    });
    row("decisions (mean)", &|r| format!("{:.1}", r.decisions.mean));
    let reasons = union(
        reports
            .iter()
            .flat_map(|r| r.end_reasons.iter().map(|e| &e.reason)),
    );
    if reasons.iter().any(|k| !k.is_empty()) {
        row("", &|_| String::new());
        row("how games ended", &|_| String::new());
        for k in reasons {
            row(reason_name(k), &|r| {
                (r.end_reasons.iter().find(|e| e.reason == k)).map_or("-".into(), |e| pct(&e.share))
            });
        }
    }
    let cards = union(reports.iter().flat_map(|r| r.cards.iter().map(|c| &c.card)));
    if !cards.is_empty() {
        row("", &|_| String::new());
        row(
            "card: its player won the game (95% CI), x times played",
            &|_| String::new(),
        );
        for k in cards {
            row(k, &|r| {
                (r.cards.iter().find(|c| c.card == k)).map_or("-".into(), |c| {
                    format!("{} x{}", pct(&c.won_game), c.played)
                })
            });
        }
    }
    // A heading (no figures) does not widen the names' column.
    let heading = |cells: &[String]| cells.iter().all(String::is_empty);
    let name_w = (rows.iter())
        .filter(|(_, c)| !heading(c))
        .map(|(n, _)| n.len())
        .max()
        .unwrap_or(0);
    let cell_w = rows
        .iter()
        .flat_map(|(_, c)| c.iter().map(String::len))
        .max()
        .unwrap_or(0);
    for (name, cells) in rows {
        if heading(&cells) {
            println!("{name}");
            continue;
        }
        let cells: Vec<String> = cells.iter().map(|c| format!("{c:>cell_w$}")).collect();
        println!(
            "{}",
            format!("{name:<name_w$}  {}", cells.join("  ")).trim_end()
        );
    }
}

/// Distinct names in order of first appearance.
fn union<'a>(names: impl Iterator<Item = &'a String>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for n in names {
        if !out.contains(&n.as_str()) {
            out.push(n);
        }
    }
    out
}

/// One row per column and seat.
pub fn print_csv(reports: &[Report]) {
    println!(
        "variants,params,seat,bot,games,wins,win_rate,ci_low,ci_high,draws,turns_mean,turns_median,turns_p95"
    );
    for r in reports {
        let (v, p) = (csv_field(&r.label()), csv_field(&params(r)));
        for s in &r.seats {
            println!(
                "{v},{p},{},{},{},{},{:.4},{:.4},{:.4},{},{:.3},{},{}",
                csv_field(&s.player),
                csv_field(&s.bot),
                r.games,
                s.wins.count,
                s.wins.percent / 100.0,
                s.wins.low / 100.0,
                s.wins.high / 100.0,
                r.draws.count,
                r.turns.mean,
                r.turns.median,
                r.turns.p95
            );
        }
    }
}

/// A CSV field, quoted when it holds a comma, a quote or a line break
/// (`\r` too: a spreadsheet ends the row there). A text a spreadsheet would
/// run as a formula (`=1+2`, starting with `=`, `+`, `-`, `@`, a tab or
/// `\r`) is prefixed with `'`, as OWASP advises; a number is left alone.
pub fn csv_field(s: &str) -> String {
    let formula = s.starts_with(['=', '+', '-', '@', '\t', '\r']) && s.parse::<f64>().is_err();
    let s = if formula {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}
