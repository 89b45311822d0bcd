//! A game's rules as `tabula rules` prints them and the served page shows
//! them: its rules text, players, stats, dice, every card's text and
//! data, parameters and variants.

use crate::definition::Def;
use crate::definition::format::AttrValue;
use crate::error::printable;

macro_rules! say {
    ($out:expr) => {
        $out.push('\n')
    };
    ($out:expr, $($t:tt)*) => {{
        $out.push_str(&format!($($t)*));
        $out.push('\n');
    }};
}

/// Everything a player or designer reads before playing, as text. The
/// parameters' and variants' headings are the reader's (`tabula rules`
/// names its flags there; a page has none).
pub fn rules_text(d: &Def, params: &str, variants: &str) -> String {
    let mut out = String::new();
    say!(out, "{} ({})", d.name, d.id);
    if !d.summary.is_empty() {
        say!(out, "{}", d.summary);
    }
    if !d.applied.is_empty() {
        say!(out, "variants applied: {}", d.applied.join(", "));
    }
    say!(out);
    if !d.rules.is_empty() {
        say!(out, "{}", d.rules.trim_end());
        say!(out);
    }
    let players: Vec<String> = d
        .players
        .iter()
        .map(|p| format!("{} ({})", p.name, p.id))
        .collect();
    say!(out, "Players: {}", players.join(", "));
    if !d.stats.is_empty() {
        say!(out, "\nStats (start):");
        for s in &d.stats {
            let start: Vec<String> = d
                .players
                .iter()
                .zip(&s.start)
                .map(|(p, v)| format!("{} {v}", p.id))
                .collect();
            let doc = if s.doc.is_empty() {
                String::new()
            } else {
                format!("  - {}", s.doc)
            };
            say!(out, "  {:<14} {}{doc}", s.id, start.join(", "));
        }
    }
    if !d.dice.is_empty() {
        say!(out, "\nDice:");
        for die in &d.dice {
            let count = match die.count {
                0 => String::new(),
                n => format!(" x{n}"),
            };
            say!(
                out,
                "  {:<16} {}{count}: {}",
                die.id,
                die.name,
                die.faces.join(", ")
            );
        }
    }
    let cards: Vec<_> = (0..d.cards.len())
        .filter(|&c| d.die_of(c as _).is_none())
        .map(|c| &d.cards[c])
        .collect();
    if !cards.is_empty() {
        say!(out, "\nCards:");
        for c in cards {
            let aliases = if c.aliases.is_empty() {
                String::new()
            } else {
                format!(" (also: {})", c.aliases.join(", "))
            };
            let copies = if c.copies > 1 {
                format!(" x{}", c.copies)
            } else {
                String::new()
            };
            say!(out, "  {:<16} {}{copies}{aliases}", c.id, c.name);
            if !c.text.is_empty() {
                say!(out, "  {:<16} {}", "", c.text);
            }
            // Data for the script, not checked as ids or names are.
            let attrs: Vec<String> = c
                .attrs
                .iter()
                .map(|(k, v)| match v {
                    AttrValue::Int(i) => format!("{k}={i}"),
                    AttrValue::Bool(b) => format!("{k}={b}"),
                    AttrValue::Text(t) => format!("{k}={t}"),
                })
                .map(|a| printable(&a).into_owned())
                .collect();
            if !attrs.is_empty() {
                say!(out, "  {:<16} [{}]", "", attrs.join(" "));
            }
        }
    }
    if !d.params.is_empty() {
        say!(out, "\n{params}:");
        for p in &d.params {
            let bounds = match (p.min, p.max) {
                _ if !p.values.is_empty() => format!("; one of {}", p.values.join(", ")),
                (None, None) => String::new(),
                (lo, hi) => format!(
                    ", {}..={}",
                    lo.map_or(String::new(), |v| v.to_string()),
                    hi.map_or(String::new(), |v| v.to_string())
                ),
            };
            say!(
                out,
                "  {:<18} {} (default {}{bounds})  {}",
                p.id,
                p.show(p.value),
                p.show(p.default),
                p.doc
            );
        }
    }
    if !d.variants.is_empty() {
        say!(out, "\n{variants}:");
        for v in &d.variants {
            say!(out, "  {:<18} {}", v.id, v.name);
            if !v.doc.is_empty() {
                say!(out, "  {:<18} {}", "", v.doc);
            }
        }
    }
    out
}
