//! Arithmetic over parameters, where the format takes a number:
//! `{expr: "2 * num_rows + 1"}`. Whole numbers, `+ - * / %`, unary minus,
//! parentheses, parameters by name, and `min(a, b, ...)`, `max(...)`,
//! `abs(a)`. `/` and `%` round toward zero, as a script's do. Every problem
//! says where in the text it is (a character offset), so that the analyzer
//! can point at the column in the file.

/// A parsed expression: what it computes and where each part is written.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Number(i64),
    /// A parameter, at its offset.
    Name(String, usize),
    /// `-a`, the minus at the offset.
    Neg(Box<Expr>, usize),
    /// `a op b`, the operator at the offset.
    Binary(Op, Box<Expr>, Box<Expr>, usize),
    /// `min(...)`, `max(...)`, `abs(...)`, the name at the offset.
    Call(Func, Vec<Expr>, usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Min,
    Max,
    Abs,
}

/// What is wrong with an expression, and where in its text (characters
/// from the start).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExprError {
    pub at: usize,
    pub message: String,
}

fn fail<T>(at: usize, message: impl Into<String>) -> Result<T, ExprError> {
    Err(ExprError {
        at,
        message: message.into(),
    })
}

/// The longest expression read (a guard against a pasted megabyte and a
/// parser's recursion).
pub const MAX_LEN: usize = 500;

/// How deep parentheses and unary minus may nest.
const MAX_DEPTH: usize = 50;

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Number(i64),
    Name(String),
    Sym(char),
    End,
}

struct Parser {
    tokens: Vec<(Token, usize)>,
    next: usize,
    depth: usize,
    /// The length of the text in characters: where "the end" is.
    len: usize,
}

fn lex(text: &str) -> Result<Vec<(Token, usize)>, ExprError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            if i < chars.len() && (chars[i] == '.' || chars[i].is_alphabetic() || chars[i] == '_') {
                return fail(
                    start,
                    "a number here is a whole number (digits only): `/` divides, rounding toward zero",
                );
            }
            let digits: String = chars[start..i].iter().collect();
            match digits.parse::<i64>() {
                Ok(n) => out.push((Token::Number(n), start)),
                Err(_) => {
                    return fail(
                        start,
                        format!("{digits} is too large: numbers go up to {}", i64::MAX),
                    );
                }
            }
        } else if c.is_alphabetic() || c == '_' {
            // `-` is always minus: `rows-1` is `rows - 1`.
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push((Token::Name(chars[start..i].iter().collect()), start));
        } else if "+-*/%(),".contains(c) {
            out.push((Token::Sym(c), start));
            i += 1;
        } else {
            return fail(
                start,
                format!(
                    "`{c}` has no meaning here: an expression has whole numbers, parameters, `+ - * / %`, parentheses, `min`, `max` and `abs`"
                ),
            );
        }
    }
    out.push((Token::End, chars.len()));
    Ok(out)
}

/// Parse `text`, or say what is wrong and where.
pub fn parse(text: &str) -> Result<Expr, ExprError> {
    let len = text.chars().count();
    if len > MAX_LEN {
        return fail(0, format!("an expression is at most {MAX_LEN} characters"));
    }
    let mut p = Parser {
        tokens: lex(text)?,
        next: 0,
        depth: 0,
        len,
    };
    if p.peek().0 == Token::End {
        return fail(
            0,
            "the expression is empty: give a number, a parameter or a sum (`2 * rows + 1`)",
        );
    }
    let e = p.sum()?;
    match p.peek() {
        (Token::End, _) => Ok(e),
        (Token::Sym(')'), at) => fail(at, "a `)` with no `(` before it"),
        (t, at) => fail(
            at,
            format!(
                "{} after a complete expression: join them with an operator (`+ - * / %`)",
                said(&t)
            ),
        ),
    }
}

fn said(t: &Token) -> String {
    match t {
        Token::Number(n) => format!("the number {n}"),
        Token::Name(n) => format!("`{n}`"),
        Token::Sym(c) => format!("`{c}`"),
        Token::End => "the end".into(),
    }
}

impl Parser {
    fn peek(&self) -> (Token, usize) {
        self.tokens[self.next].clone()
    }
    fn bump(&mut self) -> (Token, usize) {
        let t = self.peek();
        if t.0 != Token::End {
            self.next += 1;
        }
        t
    }
    fn eat(&mut self, c: char) -> Option<usize> {
        match self.peek() {
            (Token::Sym(s), at) if s == c => {
                self.next += 1;
                Some(at)
            }
            _ => None,
        }
    }
    fn deeper(&mut self, at: usize) -> Result<(), ExprError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return fail(at, format!("nested more than {MAX_DEPTH} deep"));
        }
        Ok(())
    }

    fn sum(&mut self) -> Result<Expr, ExprError> {
        let mut e = self.product()?;
        loop {
            let op = match self.peek() {
                (Token::Sym('+'), at) => (Op::Add, at),
                (Token::Sym('-'), at) => (Op::Sub, at),
                _ => return Ok(e),
            };
            self.bump();
            let r = self.product()?;
            e = Expr::Binary(op.0, Box::new(e), Box::new(r), op.1);
        }
    }

    fn product(&mut self) -> Result<Expr, ExprError> {
        let mut e = self.unary()?;
        loop {
            let op = match self.peek() {
                (Token::Sym('*'), at) => (Op::Mul, at),
                (Token::Sym('/'), at) => (Op::Div, at),
                (Token::Sym('%'), at) => (Op::Rem, at),
                _ => return Ok(e),
            };
            self.bump();
            let r = self.unary()?;
            e = Expr::Binary(op.0, Box::new(e), Box::new(r), op.1);
        }
    }

    fn unary(&mut self) -> Result<Expr, ExprError> {
        if let Some(at) = self.eat('-') {
            self.deeper(at)?;
            let e = self.unary()?;
            self.depth -= 1;
            return Ok(Expr::Neg(Box::new(e), at));
        }
        if let Some(at) = self.eat('+') {
            return fail(at, "a `+` with nothing before it: give the number alone");
        }
        self.atom()
    }

    fn atom(&mut self) -> Result<Expr, ExprError> {
        match self.bump() {
            (Token::Number(n), _) => Ok(Expr::Number(n)),
            (Token::Name(name), at) => {
                if self.eat('(').is_none() {
                    return Ok(Expr::Name(name, at));
                }
                let f = match name.as_str() {
                    "min" => Func::Min,
                    "max" => Func::Max,
                    "abs" => Func::Abs,
                    _ => {
                        return fail(
                            at,
                            format!(
                                "unknown function `{name}`: an expression has `min`, `max` and `abs`"
                            ),
                        );
                    }
                };
                self.deeper(at)?;
                let mut args = vec![self.sum()?];
                while self.eat(',').is_some() {
                    args.push(self.sum()?);
                }
                self.close(at)?;
                self.depth -= 1;
                let n = args.len();
                match f {
                    Func::Abs if n != 1 => fail(at, format!("`abs` takes one number, not {n}")),
                    Func::Min | Func::Max if n < 2 => {
                        fail(at, format!("`{name}` takes two numbers or more, not {n}"))
                    }
                    _ => Ok(Expr::Call(f, args, at)),
                }
            }
            (Token::Sym('('), at) => {
                self.deeper(at)?;
                let e = self.sum()?;
                self.close(at)?;
                self.depth -= 1;
                Ok(e)
            }
            (Token::End, _) => fail(
                self.len,
                "the expression ends where a number or a parameter is due",
            ),
            (t, at) => fail(
                at,
                format!("{} where a number or a parameter is due", said(&t)),
            ),
        }
    }

    /// The `)` of the `(` (or call) at `open`.
    fn close(&mut self, open: usize) -> Result<(), ExprError> {
        if self.eat(')').is_some() {
            return Ok(());
        }
        match self.peek() {
            (Token::End, at) => fail(
                at,
                format!("the `(` at character {} is not closed: add `)`", open + 1),
            ),
            (t, at) => fail(at, format!("{} where `)` or an operator is due", said(&t))),
        }
    }
}

impl Expr {
    /// The parameters it reads, each with where it is written, in order.
    pub fn names(&self) -> Vec<(&str, usize)> {
        let mut out = Vec::new();
        self.walk(&mut |e| {
            if let Expr::Name(n, at) = e {
                out.push((n.as_str(), *at));
            }
        });
        out
    }

    fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        f(self);
        match self {
            Expr::Number(_) | Expr::Name(..) => {}
            Expr::Neg(e, _) => e.walk(f),
            Expr::Binary(_, l, r, _) => {
                l.walk(f);
                r.walk(f);
            }
            Expr::Call(_, args, _) => args.iter().for_each(|a| a.walk(f)),
        }
    }

    /// Its value, parameters read through `param` (every name must have
    /// one: resolve them first). A division by zero or a result past the
    /// whole numbers is an error at the operator.
    pub fn eval(&self, param: &impl Fn(&str) -> i64) -> Result<i64, ExprError> {
        let too_big = |at: usize| {
            fail(
                at,
                format!(
                    "the result is past the whole numbers a game holds ({} to {})",
                    i64::MIN,
                    i64::MAX
                ),
            )
        };
        match self {
            Expr::Number(n) => Ok(*n),
            Expr::Name(n, _) => Ok(param(n)),
            Expr::Neg(e, at) => e
                .eval(param)?
                .checked_neg()
                .map_or_else(|| too_big(*at), Ok),
            Expr::Binary(op, l, r, at) => {
                let (a, b) = (l.eval(param)?, r.eval(param)?);
                if b == 0 && matches!(op, Op::Div | Op::Rem) {
                    let sym = if *op == Op::Div { '/' } else { '%' };
                    return fail(*at, format!("division by zero: the right of `{sym}` is 0"));
                }
                let v = match op {
                    Op::Add => a.checked_add(b),
                    Op::Sub => a.checked_sub(b),
                    Op::Mul => a.checked_mul(b),
                    Op::Div => a.checked_div(b),
                    Op::Rem => a.checked_rem(b),
                };
                v.map_or_else(|| too_big(*at), Ok)
            }
            Expr::Call(f, args, at) => {
                let vals = args
                    .iter()
                    .map(|a| a.eval(param))
                    .collect::<Result<Vec<_>, _>>()?;
                match f {
                    Func::Min => Ok(vals.into_iter().min().unwrap_or(0)),
                    Func::Max => Ok(vals.into_iter().max().unwrap_or(0)),
                    Func::Abs => vals[0].checked_abs().map_or_else(|| too_big(*at), Ok),
                }
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn value(text: &str) -> Result<i64, ExprError> {
        let params = |n: &str| match n {
            "rows" => 3,
            "cols" => 4,
            "zero" => 0,
            _ => panic!("unknown {n}"),
        };
        parse(text)?.eval(&params)
    }

    #[test]
    fn arithmetic_reads_as_written() {
        assert_eq!(value("2 * rows + 1"), Ok(7));
        assert_eq!(value("2*(rows+1)"), Ok(8));
        assert_eq!(value("-rows - -2"), Ok(-1));
        assert_eq!(value("7 / 2 + 7 % 2 + -7 / 2"), Ok(1));
        assert_eq!(value("min(rows, cols) * max(1, 2, 9) + abs(0 - 5)"), Ok(32));
        assert_eq!(value("cols-1"), Ok(3));
        assert_eq!(value("  42 "), Ok(42));
    }

    #[test]
    fn each_problem_says_where() {
        let at = |t: &str| value(t).unwrap_err().at;
        assert_eq!(at("2 * (rows + 1"), 13);
        assert_eq!(at("2 * rows +"), 10);
        assert_eq!(at("2 ** rows"), 3);
        assert_eq!(at("rows / zero"), 5);
        assert_eq!(at("rows % (zero * 2)"), 5);
        assert_eq!(at("2.5 * rows"), 0);
        assert_eq!(at("rows 2"), 5);
        assert_eq!(at("rows)"), 4);
        assert_eq!(at("floor(rows)"), 0);
        assert_eq!(at("9223372036854775807 + rows"), 20);
        assert_eq!(at("99999999999999999999"), 0);
        assert_eq!(at(""), 0);
        assert_eq!(at("rows ^ 2"), 5);
        assert_eq!(at(&"(".repeat(60)), 50);
        assert!(
            value("abs(1, 2)")
                .unwrap_err()
                .message
                .contains("one number")
        );
        assert!(
            value("rows / zero")
                .unwrap_err()
                .message
                .contains("division by zero")
        );
    }

    #[test]
    fn names_are_listed_with_their_places() {
        let e = parse("2 * rows + min(rows, cols)").unwrap();
        assert_eq!(e.names(), vec![("rows", 4), ("rows", 15), ("cols", 21)]);
    }
}
