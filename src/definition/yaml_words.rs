//! A YAML parser's message in a designer's words: what is wrong with the
//! line, read from the text itself (its indentation against the keys above
//! it, a second `:`, a `{` or `[` never closed), and what to write instead.

/// The message, and notes, for a parse error at `line`:`col` (1-based) of
/// `src`; `None` where the parser's words are kept.
pub fn explain(msg: &str, src: &str, line: usize, col: usize) -> Option<(String, Vec<String>)> {
    let lines: Vec<&str> = src.lines().collect();
    let here = *lines.get(line.checked_sub(1)?)?;
    let mut notes = Vec::new();
    // An open quote or a mismatched bracket throws the count of brackets.
    // (An unclosed bracket the parser names itself.)
    let counts = msg != "unclosed quote"
        && !msg.starts_with("mismatched bracket")
        && !msg.starts_with("unclosed bracket");
    if counts && let Some(open) = unclosed_flow(&lines, line) {
        notes.push(open);
    }
    let said = if msg.contains("block mapping") && msg.contains("expected key") {
        misaligned(&lines, line).unwrap_or_else(|| msg.to_string())
    } else if msg.contains("expected '-' indicator") {
        let item = (0..line - 1)
            .rev()
            .find(|&i| lines[i].trim_start().starts_with("- "))
            .map(|i| format!(" (an item starts with `- `, as on line {})", i + 1))
            .unwrap_or_default();
        format!(
            "this line is inside a list{item} but is no item of it: start it with `- `, or indent it under the item it belongs to"
        )
    } else if msg.starts_with("tabs disallowed") {
        "a tab in the indentation: YAML indents with spaces only".to_string()
    } else if msg.contains("mapping values are not allowed") {
        let before = &here[..here.len().min(col.saturating_sub(1))];
        match before.find(": ") {
            Some(k) => {
                let key = before[..k].trim().trim_start_matches("- ");
                let value = here[k + 2..].trim();
                format!(
                    "a second `:` on this line: text that holds `: ` is quoted (`{key}: \"{value}\"`)"
                )
            }
            None => misindented(&lines, line).unwrap_or_else(|| msg.to_string()),
        }
    } else if msg.contains("flow mapping") && msg.contains("expected ',' or '}'") {
        "inside `{...}`, entries are `key: value` separated by commas and closed by `}`; text that holds `:` or `,` is quoted (`name: \"Cup: gold\"`)".to_string()
    } else if msg.contains("flow sequence") && msg.contains("expected ',' or ']'") {
        "inside `[...]`, items are separated by commas and closed by `]`; text that holds `:` or `,` is quoted".to_string()
    } else if let Some(pair) = msg.strip_prefix("mismatched bracket ") {
        // "'[' closed by '}'"
        let open = pair.chars().nth(1).unwrap_or('[');
        let want = if open == '[' { ']' } else { '}' };
        format!("a `{open}` closed by the wrong bracket: `{open}` closes with `{want}`")
    } else if msg == "unclosed quote" {
        "a quote opened here is never closed: end the text with the same quote".to_string()
    } else if notes.is_empty() {
        return None;
    } else {
        msg.to_string()
    };
    Some((said, notes))
}

/// The keys a value at `line`:`col` (1-based) is written under, outermost
/// first, read from the text: the keys of the lines that enclose it (each
/// less indented than the one below), then those on its own line before
/// it (`match: {wins: 0}` gives `match`, `wins`). A best guess, for
/// naming a field in a message.
pub fn keys_at(src: &str, line: usize, col: usize) -> Vec<String> {
    let lines: Vec<&str> = src.lines().collect();
    let Some(here) = line.checked_sub(1).and_then(|i| lines.get(i)) else {
        return Vec::new();
    };
    let mut keys: Vec<String> = Vec::new();
    let mut deepest = indent(here);
    for l in lines[..line - 1].iter().rev() {
        if !holds(l) || indent(l) >= deepest {
            continue;
        }
        deepest = indent(l);
        keys.insert(0, key_of(l));
        if deepest == 0 {
            break;
        }
    }
    let before: String = here.chars().take(col.saturating_sub(1)).collect();
    keys.extend(keys_on_line(&before));
    keys
}

/// The keys still open at the end of `text` (a line up to a value): one
/// per `{` or `[` left open, and the last key at the innermost level.
fn keys_on_line(text: &str) -> Vec<String> {
    // Each open level: the last key seen at it.
    let mut levels: Vec<Option<String>> = vec![None];
    let mut word = String::new();
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None => match c {
                '"' | '\'' => quote = Some(c),
                ':' => {
                    let key = word.trim().trim_start_matches("- ").trim();
                    if let Some(last) = levels.last_mut()
                        && !key.is_empty()
                    {
                        *last = Some(key.to_string());
                    }
                    word.clear();
                }
                '{' | '[' => {
                    levels.push(None);
                    word.clear();
                }
                '}' | ']' => {
                    if levels.len() > 1 {
                        levels.pop();
                    }
                    word.clear();
                }
                ',' => word.clear(),
                '#' if word.is_empty() || word.ends_with(' ') => break,
                _ => word.push(c),
            },
        }
    }
    levels.into_iter().flatten().collect()
}

fn indent(l: &str) -> usize {
    l.len() - l.trim_start_matches(' ').len()
}

/// A line that holds something (not blank, not only a comment).
fn holds(l: &str) -> bool {
    let t = l.trim();
    !t.is_empty() && !t.starts_with('#')
}

/// The key a line starts with (`- ` items included), for messages.
fn key_of(l: &str) -> String {
    let t = l.trim_start().trim_start_matches("- ");
    t.split(':').next().unwrap_or(t).trim().to_string()
}

/// Where a line starts: "is 3 spaces in", "starts at the margin".
fn placed(n: usize) -> String {
    match n {
        0 => "starts at the margin".into(),
        1 => "is 1 space in".into(),
        n => format!("is {n} spaces in"),
    }
}

/// The keys above `line` that enclose it, nearest first: (line index,
/// indentation), each less indented than the one before.
fn enclosing(lines: &[&str], line: usize) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for i in (0..line - 1).rev() {
        let l = lines[i];
        if !holds(l) {
            continue;
        }
        let n = indent(l);
        if out.last().is_none_or(|&(_, m)| n < m) {
            out.push((i, n));
        }
        if n == 0 || out.len() == 3 {
            break;
        }
    }
    out
}

/// A key that lines up with no key above it.
fn misaligned(lines: &[&str], line: usize) -> Option<String> {
    let l = lines[line - 1];
    let above = enclosing(lines, line);
    if above.is_empty() {
        return None;
    }
    let others: Vec<String> = above
        .iter()
        .map(|&(i, n)| format!("`{}` on line {} {}", key_of(lines[i]), i + 1, placed(n)))
        .collect();
    Some(format!(
        "`{}` {}, which lines it up with no key above it ({}): the keys of one map line up, and YAML counts the spaces",
        key_of(l),
        placed(indent(l)),
        others.join(", ")
    ))
}

/// A key indented under one that already has a value on its line.
fn misindented(lines: &[&str], line: usize) -> Option<String> {
    let l = lines[line - 1];
    let (i, n) = *enclosing(lines, line).first()?;
    Some(format!(
        "`{}` {}, deeper than `{}` on line {} (which {}) and its value on that line: line the keys of one map up, or give `{}` no value on its line to nest keys under it",
        key_of(l),
        placed(indent(l)),
        key_of(lines[i]),
        i + 1,
        placed(n),
        key_of(lines[i])
    ))
}

/// "the `{` at line 10, column 10 is not closed on its line", for the last
/// line up to `line` that leaves a `{` or `[` open while the next line is
/// no deeper (not a continuation of it).
fn unclosed_flow(lines: &[&str], line: usize) -> Option<String> {
    let last = line.min(lines.len());
    let mut found = None;
    for i in 0..last {
        let Some((ch, col)) = open_at_end(lines[i]) else {
            continue;
        };
        let next = lines[i + 1..].iter().find(|l| holds(l));
        if next.is_none_or(|n| indent(n) <= indent(lines[i])) {
            found = Some(format!(
                "the `{ch}` at line {}, column {} is not closed on its line (with `{}`)",
                i + 1,
                col,
                if ch == '{' { '}' } else { ']' }
            ));
        }
    }
    found
}

/// The innermost `{` or `[` a line leaves open (outside quotes and
/// comments), with its 1-based column.
fn open_at_end(l: &str) -> Option<(char, usize)> {
    let mut stack: Vec<(char, usize)> = Vec::new();
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for (i, c) in l.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '"' | '\'' if prev == ' ' || prev == '{' || prev == '[' || prev == ',' => {
                    quote = Some(c)
                }
                '#' if prev == ' ' => break,
                '{' | '[' => stack.push((c, i + 1)),
                '}' | ']' => {
                    let want = if c == '}' { '{' } else { '[' };
                    if stack.pop().is_some_and(|(o, _)| o != want) {
                        return None;
                    }
                }
                _ => {}
            },
        }
        prev = c;
    }
    stack.first().copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keys_above_a_value_are_read_from_the_text() {
        let src = "match: {wins: 9, max_games: 99}\nboard:\n  terrain:\n    agua: [1, 99]\nsetup:\n  - put: {zone: hand, count: 99}\n";
        let at = |line, col| keys_at(src, line, col);
        assert_eq!(at(1, 15), ["match", "wins"]);
        assert_eq!(at(1, 29), ["match", "max_games"]);
        assert_eq!(at(4, 15), ["board", "terrain", "agua"]);
        assert_eq!(at(6, 30), ["setup", "put", "count"]);
    }

    #[test]
    fn a_key_that_lines_up_with_none_above_names_the_keys_it_could_join() {
        let src = "cards:\n   trophy: {name: T}\n  cup: {name: C}\n";
        let Some((m, _)) = explain(
            "while parsing a block mapping, did not find expected key",
            src,
            3,
            3,
        ) else {
            panic!("no words")
        };
        assert_eq!(
            m,
            "`cup` is 2 spaces in, which lines it up with no key above it (`trophy` on line 2 is 3 spaces in, `cards` on line 1 starts at the margin): the keys of one map line up, and YAML counts the spaces"
        );
    }

    #[test]
    fn a_second_colon_is_answered_with_the_quoted_text() {
        let Some((m, _)) = explain(
            "mapping values are not allowed in this context",
            "name: The: game\n",
            1,
            10,
        ) else {
            panic!("no words")
        };
        assert_eq!(
            m,
            "a second `:` on this line: text that holds `: ` is quoted (`name: \"The: game\"`)"
        );
    }

    #[test]
    fn an_open_brace_is_pointed_at() {
        let src = "stats:\n  moves: {name: M, start: 0\nvars:\n  x: {start: 0}\n";
        let Some((_, notes)) = explain("this value has none of the allowed forms", src, 2, 29)
        else {
            panic!("no words")
        };
        assert_eq!(
            notes,
            ["the `{` at line 2, column 10 is not closed on its line (with `}`)"]
        );
        // Closed, or continued on deeper lines: nothing to say.
        assert!(open_at_end("  a: {b: \"{\", c: [1, 2]}  # {").is_none());
        let wrapped = "a: {b: 1,\n    c: 2}\nd: 1\n";
        assert!(unclosed_flow(&wrapped.lines().collect::<Vec<_>>(), 3).is_none());
    }
}
