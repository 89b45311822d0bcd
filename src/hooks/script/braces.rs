//! Where a script's braces fail to pair, for a parse error's note: Rhai
//! reports a missing `}` where the text ends or the next function starts,
//! often many lines later; the brace left open is where to look.

/// The first `{` never closed, or the first `}` that closes nothing, as
/// (line, column, is_open), both from 1. Text in strings, characters and
/// comments is skipped (`${...}` inside a back-tick string is code).
pub fn unpaired(src: &str) -> Option<(usize, usize, bool)> {
    #[derive(PartialEq)]
    enum In {
        Code,
        Str(char),
        Line,
        Block(usize),
    }
    let mut state = vec![In::Code];
    // Open braces: position, and whether it opens `${` in a template.
    let mut open: Vec<(usize, usize, bool)> = Vec::new();
    let (mut line, mut col) = (1, 0);
    let mut chars = src.chars().peekable();
    while let Some(c) = chars.next() {
        col += 1;
        let next = chars.peek().copied();
        match state.last() {
            Some(In::Code) | None => match c {
                '"' | '`' | '\'' => state.push(In::Str(c)),
                '/' if next == Some('/') => state.push(In::Line),
                '/' if next == Some('*') => {
                    chars.next();
                    col += 1;
                    state.push(In::Block(1));
                }
                '{' => open.push((line, col, false)),
                '}' => match open.pop() {
                    Some((.., true)) => {
                        state.pop(); // back into the template string
                    }
                    Some(_) => {}
                    None => return Some((line, col, false)),
                },
                _ => {}
            },
            Some(In::Str(q)) => {
                let q = *q;
                if c == '\\' {
                    if chars.next() == Some('\n') {
                        line += 1;
                        col = 0;
                    } else {
                        col += 1;
                    }
                } else if c == q {
                    state.pop();
                } else if q == '`' && c == '$' && next == Some('{') {
                    chars.next();
                    col += 1;
                    open.push((line, col, true));
                    state.push(In::Code);
                }
            }
            Some(In::Line) => {
                if c == '\n' {
                    state.pop();
                }
            }
            Some(In::Block(depth)) => {
                let depth = *depth;
                if c == '*' && next == Some('/') {
                    chars.next();
                    col += 1;
                    state.pop();
                    if depth > 1 {
                        state.push(In::Block(depth - 1));
                    }
                } else if c == '/' && next == Some('*') {
                    chars.next();
                    col += 1;
                    state.pop();
                    state.push(In::Block(depth + 1));
                }
            }
        }
        if c == '\n' {
            line += 1;
            col = 0;
        }
    }
    open.first().map(|&(l, c, _)| (l, c, true))
}

#[cfg(test)]
mod tests {
    use super::unpaired;

    #[test]
    fn the_brace_left_open_is_found() {
        let src = "fn a() {\n    if x {\n        f();\n\n}\nfn b() { g(`${1 + 2} }`); }\n";
        assert_eq!(unpaired(src), Some((1, 8, true)));
        assert_eq!(unpaired("fn a() { \"}\" // }\n /* { */ }"), None);
        assert_eq!(unpaired("fn a() { 1 }\n}"), Some((2, 1, false)));
        assert_eq!(unpaired("let s = `a ${ #{x: 1}.x } b`;"), None);
    }
}
