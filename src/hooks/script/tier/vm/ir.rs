//! The VM's form of a function: the tier's tree (tree.rs) with its
//! constants as VM values (texts as symbols), calls to the API bound to
//! their typed entry points where they have one, and the closures handed
//! to list methods called as compiled functions.

use rhai::{Dynamic, ImmutableString, Position, RangeCase};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use super::super::tree::{Bin, Helper, Un};
use super::api::Typed;
use super::value::V;

pub(crate) struct Code {
    pub name: ImmutableString,
    pub slots: usize,
    pub body: Vec<S>,
}

pub(crate) struct S {
    pub kind: SKind,
    pub pos: Position,
}

pub(crate) enum SKind {
    Noop,
    Expr(X),
    Let(usize, X),
    /// An operation counted, nothing done (a declaration folded away).
    Counted,
    Assign(usize, X),
    /// `slot op= value`.
    OpAssign(Box<OpAssign>),
    /// `slot[key] = value` / `slot.name = value`, on a list or a map.
    SetPart(Box<SetPart>),
    If(Box<(X, Vec<S>, Vec<S>)>),
    While(Option<X>, Vec<S>),
    Do(Vec<S>, X, bool),
    For(Box<For>),
    Switch(Box<Switch>),
    Break,
    Continue,
    Return(Option<X>),
    Throw(Option<X>),
    Block(Vec<S>),
}

pub(crate) struct SetPart {
    pub slot: usize,
    pub key: Key,
    pub op: Option<Bin>,
    pub value: X,
    pub op_pos: Position,
    pub var_pos: Position,
    pub helper: Helper,
}

pub(crate) enum Key {
    Index(X),
    /// The property's name and its symbol.
    Prop(ImmutableString, u32),
}

pub(crate) struct For {
    pub var: usize,
    pub counter: Option<usize>,
    pub var_pos: Position,
    pub iter: X,
    pub body: Vec<S>,
}

/// `switch` as the tree tier holds it (tree.rs), run by switch.rs: Rhai's
/// hash of the value picks the cases written for it (their conditions
/// tried in order), then integer ranges, then the default.
pub(crate) struct Switch {
    pub value: X,
    /// A case value's hash to its arms, in the order written.
    pub cases: FxHashMap<u64, SmallVec<[usize; 2]>>,
    /// Integer ranges, each naming its arm.
    pub ranges: Vec<RangeCase>,
    pub arms: Vec<Arm>,
    pub default: Option<usize>,
}

pub(crate) struct Arm {
    /// A literal `true` or `false` is not evaluated.
    pub cond: Result<bool, X>,
    pub body: X,
}

pub(crate) struct X {
    pub kind: XKind,
    pub pos: Position,
}

pub(crate) enum XKind {
    Const(V),
    Local(usize),
    /// A local's last read (a function's value): taken, not copied.
    Move(usize),
    Interp(Vec<X>),
    /// A template with one computed part (templates.rs).
    Named(Box<Named>),
    Array(Vec<X>),
    /// A map literal whose keys are all symbols: every key in the order
    /// of their texts (the constant fields with their values), then the
    /// fields computed, in the order written, by their place.
    SymMap(Box<SymMap>),
    And(Vec<X>),
    Or(Vec<X>),
    Binary(Box<(Bin, X, X, Helper)>),
    /// `Binary` of two operands that are each a local or a constant:
    /// read where they are, plain values decided without a copy.
    Simple(Box<(Bin, X, X, Helper)>),
    Unary(Box<(Un, X, Helper)>),
    /// A compiled function, by the tier's index.
    Script(usize, Vec<X>),
    /// An API function: its typed entry point if it has one, else its
    /// overloads (`Natives`) as the tree tier calls them.
    Api(Box<Api>),
    /// Through Rhai (a function of its packages); whether it is
    /// `contains` of two arguments (`x in y`), which lists.rs answers
    /// on the VM's values.
    Rhai(Box<(Helper, Vec<X>, Option<usize>, bool)>),
    /// A closure: the pointer to its function, and the values it captured.
    Curry(Box<(Dynamic, Vec<X>)>),
    Chain(Box<Chain>),
    /// A call, with no arguments, of a function whose body is one
    /// constant (a table written as a function): run.rs `const_fn`.
    ConstFn(Box<ConstFn>),
    /// A call, with one argument, of a function whose body is one
    /// template of its parameter (`fn disc(p) { `${p}-disc` }`):
    /// templates.rs `template_fn`.
    TemplateFn(Box<TemplateFn>),
    /// A chain `xs[k]` whose list and key are each a local or a constant:
    /// a list's item read where it is (chain.rs `item`).
    Item(Box<Chain>),
    Block(Vec<S>),
    Log(Option<Box<X>>, Box<X>),
}

/// `slot op= value`: the local, the operator, the value, the operator's
/// position, Rhai's function for it.
pub(crate) type OpAssign = (usize, Bin, X, Position, Helper);

/// A template with one computed part, `var`, the others written: the
/// symbol it makes of each symbol is table `table` of `Vm::names`.
pub(crate) struct Named {
    pub parts: Vec<X>,
    pub var: usize,
    pub table: usize,
}

impl X {
    /// Whether this is read where it is (a local or a constant), never
    /// evaluated: what `Simple` and `Item` take.
    pub fn in_place(&self) -> bool {
        matches!(self.kind, XKind::Local(_) | XKind::Const(_))
    }
}

impl Root {
    /// Whether the chain's root is read where it is.
    pub fn in_place(&self) -> bool {
        match self {
            Root::Local(_) => true,
            Root::Value(x) => matches!(x.kind, XKind::Const(_)),
        }
    }
}

pub(crate) struct ConstFn {
    pub name: ImmutableString,
    pub value: V,
    /// Where the body's statement is.
    pub at: Position,
}

/// A template function's call: its argument, and its body's template as
/// the callee has it (its computed part, never evaluated, stands where
/// the parameter is, for the positions of its errors).
pub(crate) struct TemplateFn {
    pub name: ImmutableString,
    pub arg: X,
    pub named: Named,
    /// Where the body's statement is.
    pub at: Position,
}

pub(crate) struct SymMap {
    pub keys: Vec<(u32, V)>,
    pub fields: Vec<(usize, X)>,
}

pub(crate) struct Api {
    pub typed: Option<Typed>,
    /// The overloads' list in `Natives`, and the helper for Rhai.
    pub native: usize,
    pub helper: Helper,
    pub args: Vec<X>,
    pub first_local: Option<usize>,
    pub writes_first: bool,
    pub name: ImmutableString,
}

pub(crate) struct Chain {
    pub root: Root,
    pub steps: Vec<Step>,
}

pub(crate) enum Root {
    Local(usize),
    Value(X),
}

pub(crate) enum Step {
    Index(X, Position),
    /// The property's name, its symbol, where, and Rhai's getter.
    Prop(ImmutableString, u32, Position, Helper),
    Method {
        name: ImmutableString,
        args: Vec<X>,
        pos: Position,
        helper: Helper,
        native: Option<usize>,
        /// A closure written in the call (`filter(|c| ...)`): its captured
        /// values are the arguments evaluated, and on a VM list it runs as
        /// a loop (methods.rs), no function value made.
        closure: Option<Box<Inline>>,
    },
}

/// A closure literal handed to `filter`, `map`, `all` or `some`.
pub(crate) struct Inline {
    /// Its function, by the tier's index.
    pub ix: usize,
    /// Its pointer, made (with the captured values) for anything else
    /// than a VM list.
    pub ptr: Dynamic,
}
