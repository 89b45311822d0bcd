//! The compiled form of a script function: Rhai's syntax tree with names
//! resolved (locals to slots, calls to their targets), run by run.rs.

use rhai::{Dynamic, Identifier, ImmutableString, Map, Position, RangeCase};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// A statement, with the position Rhai counts its operation at.
pub(super) struct Stmt {
    pub kind: StmtKind,
    pub pos: Position,
}

pub(super) enum StmtKind {
    Noop,
    Expr(Expr),
    /// A call as a statement: Rhai counts the statement, not the
    /// expression.
    Bare(Expr),
    Let(usize, Expr),
    /// A declaration folded away (fold.rs): only its literal's operation.
    Counted(Position),
    /// `slot = value`, `lhs` the variable's position.
    Assign(usize, Expr, Position),
    /// `slot op= value`: the operator, its position, the variable's.
    OpAssign(Box<OpAssign>),
    /// `slot[key] (op)= value` or `slot.name (op)= value`.
    SetPart(Box<SetPart>),
    If(Box<(Expr, Block, Block)>),
    /// `while` (a guard) or `loop` (None).
    While(Option<Expr>, Block),
    /// `do { } while|until`: until when true.
    Do(Block, Expr, bool),
    For(Box<For>),
    Switch(Box<Switch>),
    Break,
    Continue,
    Return(Option<Expr>),
    /// `throw` (a value, or `()`).
    Throw(Option<Expr>),
    Block(Block),
}

pub(super) struct OpAssign {
    pub slot: usize,
    pub op: Bin,
    pub value: Expr,
    pub op_pos: Position,
    pub var_pos: Position,
    /// The statement through Rhai, where the types have no fast path.
    pub helper: Helper,
}

pub(super) struct SetPart {
    pub slot: usize,
    pub key: Key,
    /// The operator of `op=`; None for `=`.
    pub op: Option<Bin>,
    pub value: Expr,
    pub op_pos: Position,
    pub var_pos: Position,
    /// The statement through Rhai, where the types have no fast path.
    pub helper: Helper,
}

pub(super) enum Key {
    Index(Expr),
    Prop(ImmutableString),
}

/// `switch`, as Rhai picks an arm (lower.rs, run.rs): the value's hash
/// picks the cases written for it (their conditions tried in order), then
/// integer ranges, then the default.
pub(super) struct Switch {
    pub value: Expr,
    /// A case value's hash to its arms, in the order written.
    pub cases: FxHashMap<u64, SmallVec<[usize; 2]>>,
    /// Integer ranges, each naming its arm.
    pub ranges: Vec<RangeCase>,
    pub arms: Vec<Arm>,
    pub default: Option<usize>,
}

pub(super) struct Arm {
    /// A literal `true` or `false` is not evaluated (nor counted).
    pub cond: Result<bool, Expr>,
    pub body: Expr,
}

pub(super) struct For {
    pub var: usize,
    pub counter: Option<usize>,
    pub var_pos: Position,
    pub iter: Expr,
    pub body: Block,
}

/// Statements in a scope of their own.
pub(super) struct Block(pub Vec<Stmt>);

pub(super) struct Expr {
    pub kind: ExprKind,
    pub pos: Position,
}

pub(super) enum ExprKind {
    Const(Dynamic),
    Local(usize),
    Interp(Vec<Expr>),
    Array(Vec<Expr>),
    Map(Box<(Map, Vec<(Identifier, Expr)>)>),
    And(Vec<Expr>),
    Or(Vec<Expr>),
    /// A binary operator with a fast path for numbers, truth values and
    /// text, and the call through Rhai for other types.
    Binary(Box<(Bin, Expr, Expr, Helper)>),
    /// `-x` or `!x`.
    Unary(Box<(Un, Expr, Helper)>),
    Call(Box<Call>),
    /// A closure: the function it names (and the literal pointer to it),
    /// with the values it captured
    /// curried on (copies: see `closure_copies` in mod.rs).
    Curry(Box<(ImmutableString, Expr, Vec<Expr>)>),
    /// `x[i]`, `x.name`, `x.f(...)` in a chain.
    Chain(Box<Chain>),
    Block(Block),
    /// `log(text)` / `log_to(player, text)`: evaluated only when watched.
    Log(Option<Box<Expr>>, Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bin {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Range,
    RangeInclusive,
    /// Any other operator: always through Rhai.
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Un {
    Neg,
    Not,
}

pub(super) struct Call {
    pub target: Target,
    pub args: Vec<Expr>,
    /// The first argument is this local (Rhai passes it by reference).
    pub first_local: Option<usize>,
    /// The call may change that local in place: an API function of this
    /// name takes its first argument by reference, or the call is not to
    /// the API.
    pub writes_first: bool,
    pub name: ImmutableString,
    pub pos: Position,
}

pub(super) enum Target {
    /// A compiled script function, by index.
    Script(usize),
    /// One of the API's functions (its overloads in `Natives`), or Rhai
    /// when none fits.
    Native(usize, Helper),
    /// Through Rhai: a function of its packages.
    Rhai(Helper),
}

/// A call made through Rhai: a one-line function of the helper script.
#[derive(Clone)]
pub(super) struct Helper {
    pub name: String,
    /// Whether it binds `this` to the first value.
    pub this: bool,
}

pub(super) struct Chain {
    pub root: Root,
    pub steps: Vec<Step>,
}

pub(super) enum Root {
    Local(usize, Position),
    Value(Expr),
}

pub(super) enum Step {
    Index(Expr, Position),
    /// `.name`: a map's field, or through Rhai.
    Prop(ImmutableString, Position, Helper),
    Method {
        name: ImmutableString,
        args: Vec<Expr>,
        pos: Position,
        helper: Helper,
        /// The API's functions of this name that take `this` by
        /// reference (their overloads in `Natives`), if any.
        native: Option<usize>,
    },
}

/// A compiled function.
pub(super) struct Func {
    pub name: ImmutableString,
    pub slots: usize,
    pub body: Block,
}

/// Methods that never change the value they are called on (lower.rs lets
/// one act on a part of a value; fold.rs does not count one as a write).
pub(super) const PURE_METHODS: &[&str] = &[
    "len",
    "keys",
    "values",
    "contains",
    "is_empty",
    "index_of",
    "to_string",
    "map",
    "filter",
    "reduce",
    "some",
    "all",
    "find",
    "find_map",
    "get",
    "split",
    "sub_string",
    "to_upper",
    "to_lower",
    "starts_with",
    "ends_with",
    // The API's (api/lists.rs): they take the list by value.
    "min_by",
    "max_by",
    "pick",
];
