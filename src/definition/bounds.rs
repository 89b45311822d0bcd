//! The range of every number a game file gives, in one table: the
//! analyzer checks each value against its range where it is written (a
//! parameter's value where the parameter is used), the YAML reader names
//! it when a number is too large to read at all, and the JSON Schema
//! states it (docs/format.md says each where the field is described).

/// Cards all `put` steps of setup may place, copies counted (docs/format.md,
/// limits): a total, checked as setup adds up.
pub const MAX_SETUP_CARDS: u64 = 100_000;

/// A whole number's range, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bound {
    pub min: i64,
    pub max: i64,
}

/// Game wins that win a match (`match: wins`).
pub const WINS: Bound = Bound::new(1, 1_000);
/// Games a match plays before it is a draw (`match: max_games`).
pub const MAX_GAMES: Bound = Bound::new(1, 10_000);
/// Turns before a game is a draw (`flow: max_turns`).
pub const MAX_TURNS: Bound = Bound::new(1, 1_000_000);
/// Seats that take part (`player_count`); at most the players listed.
pub const PLAYER_COUNT: Bound = Bound::new(1, i64::MAX);
/// A card's `copies` and a setup `put`'s `count`: no more than setup may
/// place in all.
pub const COPIES: Bound = Bound::new(0, MAX_SETUP_CARDS as i64);
/// A setup `put`'s `times`.
pub const TIMES: Bound = Bound::new(1, 100);
/// A die's faces, as a number of sides (or the length of its list).
pub const SIDES: Bound = Bound::new(1, 1_000);
/// Dice of one kind that lie in zones (a die's `count`).
pub const DICE: Bound = Bound::new(1, 1_000);
/// Squares on a board (`board: size`).
pub const SQUARES: Bound = Bound::new(1, 100_000);
/// A square of a board's terrain (one past the end is left out).
pub const SQUARE: Bound = Bound::new(0, i64::MAX);
/// A grid's rows (numbered 1 to 99).
pub const ROWS: Bound = Bound::new(1, 99);
/// A grid's columns (lettered `a` to `z`).
pub const COLUMNS: Bound = Bound::new(1, 26);
/// Options a flow step's `pick` takes at once (at most the options there
/// can ever be, checked apart).
pub const PICK: Bound = Bound::new(1, 1_000);
/// Any whole number a script can hold: stat and var starts, limits,
/// parameters' values and bounds, attributes, a die's listed faces,
/// a numbered family's ends.
pub const INTEGER: Bound = Bound::new(i64::MIN, i64::MAX);

impl Bound {
    pub const fn new(min: i64, max: i64) -> Bound {
        Bound { min, max }
    }

    pub fn contains(self, n: i64) -> bool {
        (self.min..=self.max).contains(&n)
    }

    /// What to give, in a designer's words: "1 to 99", "0 or more", "at
    /// most 9", "any whole number".
    pub fn allowed(self) -> String {
        match (self.min, self.max) {
            (i64::MIN, i64::MAX) => format!("a whole number from {} to {}", i64::MIN, i64::MAX),
            (0, i64::MAX) => "0 or more".into(),
            (min, i64::MAX) => format!("at least {min}"),
            (i64::MIN, max) => format!("at most {max}"),
            (min, max) => format!("{min} to {max}"),
        }
    }

    /// The JSON Schema says the range: a number gets `minimum` and
    /// `maximum`; a number-or-`{param: NAME}` field is that number or a
    /// parameter (`#[schemars(transform = bounds::X.schema())]`).
    pub fn schema(self) -> impl FnMut(&mut schemars::Schema) {
        move |s: &mut schemars::Schema| {
            if let Some(o) = s.as_object_mut() {
                self.bound_value(o);
            }
        }
    }

    /// The JSON Schema says how many items a list holds (a die's faces
    /// listed).
    pub fn list_schema(self) -> impl FnMut(&mut schemars::Schema) {
        move |s: &mut schemars::Schema| {
            s.insert("minItems".into(), self.min.max(0).into());
            s.insert("maxItems".into(), self.max.into());
        }
    }

    /// `bound_value` on a schema object and every schema inside it.
    fn bound_value(self, o: &mut serde_json::Map<String, serde_json::Value>) {
        let integer = match o.get("type") {
            Some(serde_json::Value::String(t)) => t == "integer",
            Some(serde_json::Value::Array(ts)) => ts.iter().any(|t| t == "integer"),
            _ => false,
        };
        if integer {
            if self.min > i64::MIN {
                o.insert("minimum".into(), self.min.into());
            }
            if self.max < i64::MAX {
                o.insert("maximum".into(), self.max.into());
            }
        }
        if o.get("$ref").and_then(|r| r.as_str()) == Some("#/$defs/StartValue") {
            o.remove("$ref");
            o.insert("anyOf".into(), self.number_or_param());
            return;
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(serde_json::Value::Array(list)) = o.get_mut(key) {
                for v in list.iter_mut().filter_map(|v| v.as_object_mut()) {
                    self.bound_value(v);
                }
            }
        }
        for key in ["items", "additionalProperties"] {
            if let Some(v) = o.get_mut(key).and_then(|v| v.as_object_mut()) {
                self.bound_value(v);
            }
        }
    }

    /// A number in range, a parameter's value (`{param: NAME}`) or an
    /// expression (`{expr: TEXT}`): the forms of `StartValue` a count takes.
    fn number_or_param(self) -> serde_json::Value {
        let mut number = serde_json::json!({"type": "integer", "format": "int64"});
        if let Some(o) = number.as_object_mut() {
            self.bound_value(o);
        }
        serde_json::json!([
            number,
            {
                "description": "A parameter's value: `{param: NAME}`.",
                "type": "object",
                "properties": {"param": {"type": "string"}},
                "required": ["param"],
                "additionalProperties": false
            },
            {
                "description": "Arithmetic over parameters: `{expr: \"2 * num_rows + 1\"}` (whole numbers, `+ - * / %`, parentheses, `min`, `max`, `abs`), in range when worked out.",
                "type": "object",
                "properties": {"expr": {"type": "string", "minLength": 1, "maxLength": 500}},
                "required": ["expr"],
                "additionalProperties": false
            }
        ])
    }
}

/// The field a number is written for, in a designer's words, and its
/// range, from the keys it is written under (outermost first): for a
/// number the YAML reader cannot take (too large for any field, or not
/// whole), which the analyzer never sees.
pub fn of_field(keys: &[String]) -> (String, Bound) {
    let under = |k: &str| keys.iter().any(|x| x == k);
    let Some(last) = keys.last().map(String::as_str) else {
        return ("this number".into(), INTEGER);
    };
    let bound = match last {
        "wins" if under("match") => WINS,
        "max_games" => MAX_GAMES,
        "max_turns" => MAX_TURNS,
        "player_count" => PLAYER_COUNT,
        "count" if under("dice") => DICE,
        "copies" | "count" => COPIES,
        "times" => TIMES,
        "faces" => SIDES,
        "size" if under("board") => SQUARES,
        "rows" => ROWS,
        "columns" => COLUMNS,
        _ if keys.len() >= 2 && keys[keys.len() - 2] == "terrain" => SQUARE,
        _ => INTEGER,
    };
    // Named as the analyzer names the field.
    let n = keys.len();
    let owner = (n >= 3).then(|| (keys[n - 3].as_str(), &keys[n - 2]));
    let field = match owner {
        _ if under("match") => format!("`match: {last}`"),
        _ if bound == SQUARE => format!("a square of terrain `{last}`"),
        Some(("cards", id)) => format!("card `{id}`: `{last}`"),
        Some(("dice", id)) => format!("die `{id}`: `{last}`"),
        Some(("stats", id)) => format!("stat `{id}`: `{last}`"),
        Some(("vars", id)) => format!("var `{id}`: `{last}`"),
        Some(("params", id)) => format!("parameter `{id}`: `{last}`"),
        _ if n >= 2 && keys[n - 2] == "board" => format!("`board: {last}`"),
        _ => format!("`{last}`"),
    };
    (field, bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_read_as_a_designer_says_them() {
        assert_eq!(WINS.allowed(), "1 to 1000");
        assert_eq!(SQUARE.allowed(), "0 or more");
        assert_eq!(PLAYER_COUNT.allowed(), "at least 1");
        assert!(
            INTEGER
                .allowed()
                .starts_with("a whole number from -9223372036854775808")
        );
        assert!(COPIES.contains(0) && !COPIES.contains(-1) && COPIES.contains(100_000));
    }

    #[test]
    fn a_field_is_known_by_the_keys_above_it() {
        let keys = |k: &[&str]| k.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(of_field(&keys(&["match", "wins"])).1, WINS);
        assert_eq!(of_field(&keys(&["dice", "d6", "count"])).1, DICE);
        assert_eq!(of_field(&keys(&["setup", "put", "count"])).1, COPIES);
        assert_eq!(of_field(&keys(&["board", "terrain", "agua"])).1, SQUARE);
        assert_eq!(of_field(&keys(&["stats", "hp", "start"])).1, INTEGER);
        assert_eq!(
            of_field(&keys(&["stats", "hp", "start"])).0,
            "stat `hp`: `start`"
        );
        assert_eq!(of_field(&keys(&["match", "wins"])).0, "`match: wins`");
        assert_eq!(of_field(&keys(&["flow", "max_turns"])).0, "`max_turns`");
    }
}
