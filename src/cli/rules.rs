//! `tabula rules GAME`: everything a player or designer reads before playing.

use std::path::Path;

use tabula::definition::source::Settings;
use tabula::error::{Result, printable};
use tabula::format::AttrValue;

pub fn run(dir: &Path, game: &str, settings: &Settings) -> Result<i32> {
    let g = tabula::load(game, dir, settings)?;
    let d = g.def();
    println!("{} ({})", d.name, d.id);
    if !d.summary.is_empty() {
        println!("{}", d.summary);
    }
    if !d.applied.is_empty() {
        println!("variants applied: {}", d.applied.join(", "));
    }
    println!();
    if !d.rules.is_empty() {
        println!("{}", d.rules.trim_end());
        println!();
    }
    let players: Vec<String> = d
        .players
        .iter()
        .map(|p| format!("{} ({})", p.name, p.id))
        .collect();
    println!("Players: {}", players.join(", "));
    if !d.stats.is_empty() {
        println!("\nStats (start):");
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
            println!("  {:<14} {}{doc}", s.id, start.join(", "));
        }
    }
    if !d.dice.is_empty() {
        println!("\nDice:");
        for die in &d.dice {
            let count = match die.count {
                0 => String::new(),
                n => format!(" x{n}"),
            };
            println!(
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
        println!("\nCards:");
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
            println!("  {:<16} {}{copies}{aliases}", c.id, c.name);
            if !c.text.is_empty() {
                println!("  {:<16} {}", "", c.text);
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
                println!("  {:<16} [{}]", "", attrs.join(" "));
            }
        }
    }
    if !d.params.is_empty() {
        println!("\nParameters (--set K=V):");
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
            println!(
                "  {:<18} {} (default {}{bounds})  {}",
                p.id,
                p.show(p.value),
                p.show(p.default),
                p.doc
            );
        }
    }
    if !d.variants.is_empty() {
        println!("\nVariants (--variant V):");
        for v in &d.variants {
            println!("  {:<18} {}", v.id, v.name);
            if !v.doc.is_empty() {
                println!("  {:<18} {}", "", v.doc);
            }
        }
    }
    Ok(0)
}
