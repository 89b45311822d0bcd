//! Rhai's syntax tree lowered to the tier's (tree.rs): locals resolved to
//! slots, calls to a compiled function, an API function or Rhai. What the
//! tier does not handle is refused with the reason, and that function (and
//! every hook that reaches it) runs in Rhai.

use std::collections::HashMap;

use rhai::{
    ASTFlags, Expr as RExpr, ImmutableString, Stmt as RStmt, StmtBlock, SwitchCasesCollection,
    Token,
};

use super::natives::Natives;
use super::tree::*;

/// What Rhai's syntax tree holds for a variable: its index, name,
/// module path and hash.
type VarRef = (
    Option<std::num::NonZeroUsize>,
    ImmutableString,
    rhai::Namespace,
    u64,
);

/// Why a function is not compiled.
pub(super) type Refusal = String;

/// What lowering one function needs: the script's functions (name and
/// arity to index), the API, and the helper script it writes calls into.
pub(super) struct Lowering<'a> {
    pub functions: &'a HashMap<(String, usize), usize>,
    pub natives: &'a Natives,
    engine: &'a rhai::Engine,
    /// The helper script so far, and how many functions it has.
    helpers: &'a mut (rhai::AST, usize),
    /// Script functions this one calls (by index).
    pub calls: Vec<usize>,
    scope: Vec<(ImmutableString, usize, bool)>,
    slots: usize,
}

impl<'a> Lowering<'a> {
    pub fn new(
        functions: &'a HashMap<(String, usize), usize>,
        natives: &'a Natives,
        engine: &'a rhai::Engine,
        helpers: &'a mut (rhai::AST, usize),
    ) -> Self {
        Lowering {
            functions,
            natives,
            engine,
            helpers,
            calls: Vec::new(),
            scope: Vec::new(),
            slots: 0,
        }
    }

    /// A function of `params` and `body`.
    pub fn function(
        mut self,
        name: &str,
        params: &[ImmutableString],
        body: &[RStmt],
    ) -> Result<(Func, Vec<usize>), Refusal> {
        for p in params {
            self.declare(p.clone(), false);
        }
        let mut body = self.stmts(body)?;
        super::fold::fold(&mut body);
        Ok((
            Func {
                name: name.into(),
                slots: self.slots,
                body,
            },
            self.calls,
        ))
    }

    fn declare(&mut self, name: ImmutableString, constant: bool) -> usize {
        let slot = self.slots;
        self.slots += 1;
        self.scope.push((name, slot, constant));
        slot
    }

    fn lookup(&self, name: &str) -> Option<(usize, bool)> {
        self.scope
            .iter()
            .rev()
            .find(|(n, ..)| n.as_str() == name)
            .map(|&(_, s, c)| (s, c))
    }

    /// A block: its own scope.
    fn stmts(&mut self, stmts: &[RStmt]) -> Result<Block, Refusal> {
        let depth = self.scope.len();
        let out: Result<Vec<Stmt>, Refusal> = stmts.iter().map(|s| self.stmt(s)).collect();
        self.scope.truncate(depth);
        Ok(Block(out?))
    }

    fn block(&mut self, b: &StmtBlock) -> Result<Block, Refusal> {
        self.stmts(b.statements())
    }

    fn stmt(&mut self, s: &RStmt) -> Result<Stmt, Refusal> {
        let pos = s.position();
        let kind = match s {
            RStmt::Noop(..) => StmtKind::Noop,
            RStmt::Expr(e) => StmtKind::Expr(self.expr(e)?),
            RStmt::FnCall(x, p) => StmtKind::Bare(self.call_expr(x, *p)?),
            RStmt::Block(b) => StmtKind::Block(self.block(b)?),
            RStmt::Var(x, flags, _) => {
                if flags.contains(ASTFlags::EXPORTED) {
                    return Err("exports a variable".into());
                }
                let (ident, value, _) = &**x;
                let value = self.expr(value)?;
                let slot = self.declare(ident.name.clone(), flags.contains(ASTFlags::CONSTANT));
                StmtKind::Let(slot, value)
            }
            RStmt::Assignment(x) => self.assignment(&x.0, &x.1.lhs, &x.1.rhs)?,
            RStmt::If(x, _) => {
                let cond = self.expr(&x.expr)?;
                let then = self.block(&x.body)?;
                let els = self.block(&x.branch)?;
                StmtKind::If(Box::new((cond, then, els)))
            }
            RStmt::While(x, _) => {
                let guard = match &x.expr {
                    RExpr::Unit(..) | RExpr::BoolConstant(true, ..) => None,
                    e => Some(self.expr(e)?),
                };
                StmtKind::While(guard, self.block(&x.body)?)
            }
            RStmt::Do(x, flags, _) => {
                let body = self.block(&x.body)?;
                let cond = self.expr(&x.expr)?;
                StmtKind::Do(body, cond, flags.contains(ASTFlags::NEGATED))
            }
            RStmt::For(x, _) => {
                let (var, counter, flow) = &**x;
                let iter = self.expr(&flow.expr)?;
                let depth = self.scope.len();
                let counter = counter
                    .as_ref()
                    .map(|c| self.declare(c.name.clone(), false));
                let slot = self.declare(var.name.clone(), false);
                let body = self.block(&flow.body);
                self.scope.truncate(depth);
                StmtKind::For(Box::new(For {
                    var: slot,
                    counter,
                    var_pos: var.pos,
                    iter,
                    body: body?,
                }))
            }
            RStmt::BreakLoop(value, flags, _) => {
                if value.is_some() {
                    return Err("breaks with a value".into());
                }
                if flags.contains(ASTFlags::BREAK) {
                    StmtKind::Break
                } else {
                    StmtKind::Continue
                }
            }
            RStmt::Return(value, flags, _) => {
                let value = match value {
                    Some(e) => Some(self.expr(e)?),
                    None => None,
                };
                // `throw` is Rhai's return with the break flag.
                if flags.contains(ASTFlags::BREAK) {
                    StmtKind::Throw(value)
                } else {
                    StmtKind::Return(value)
                }
            }
            RStmt::Switch(x, _) => self.switch(&x.0, &x.1)?,
            RStmt::TryCatch(..) => return Err("uses `try`".into()),
            RStmt::Import(..) | RStmt::Export(..) => return Err("imports a module".into()),
            RStmt::Share(x) => {
                // Rhai shares each captured variable with the closure; the
                // tier copies it, where nothing writes it (mod.rs checks).
                for (v, _) in x.iter() {
                    if self.lookup(&v.name).is_none() {
                        return Err(format!(
                            "makes a closure that captures `{}`, which it does not declare",
                            v.name
                        ));
                    }
                }
                StmtKind::Noop
            }
            _ => return Err("uses a statement the tier does not compile".into()),
        };
        Ok(Stmt { kind, pos })
    }

    fn assignment(
        &mut self,
        op: &rhai::OpAssignment,
        lhs: &RExpr,
        rhs: &RExpr,
    ) -> Result<StmtKind, Refusal> {
        if matches!(lhs, RExpr::Index(..) | RExpr::Dot(..)) {
            return self.set_part(op, lhs, rhs);
        }
        let RExpr::Variable(v, _, var_pos) = lhs else {
            return Err("assigns to an expression the tier does not compile".into());
        };
        let slot = self.assignable(v)?;
        let value = self.expr(rhs)?;
        match op.get_op_assignment_info() {
            None => Ok(StmtKind::Assign(slot, value, *var_pos)),
            Some((_, _, op_x, op_x_syntax, base, _)) => {
                let _ = op_x;
                let bin = binary(base);
                let helper = self.helper(true, 1, |a| format!("this {op_x_syntax} {}", a[0]))?;
                Ok(StmtKind::OpAssign(Box::new(OpAssign {
                    slot,
                    op: bin,
                    value,
                    op_pos: op.position(),
                    var_pos: *var_pos,
                    helper,
                })))
            }
        }
    }

    /// The slot of a variable a statement assigns to.
    fn assignable(&self, v: &VarRef) -> Result<usize, Refusal> {
        if !v.2.is_empty() {
            return Err("assigns to a module's variable".into());
        }
        let Some((slot, constant)) = self.lookup(&v.1) else {
            return Err(format!("assigns to `{}`, which it does not declare", v.1));
        };
        if constant {
            return Err(format!("assigns to the constant `{}`", v.1));
        }
        Ok(slot)
    }

    /// `x[i] = v`, `x.f = v` and their `op=` forms, on a variable.
    fn set_part(
        &mut self,
        op: &rhai::OpAssignment,
        lhs: &RExpr,
        rhs: &RExpr,
    ) -> Result<StmtKind, Refusal> {
        let refuse = || "assigns into a part of a part of a value (`x[i][j] = ...`)".to_string();
        let (root, rest, dot, flags) = parts(lhs);
        if flags.contains(ASTFlags::NEGATED) {
            return Err("uses `?.` or `?[`".into());
        }
        let RExpr::Variable(v, _, var_pos) = root else {
            return Err("assigns into a part of an expression".into());
        };
        let slot = self.assignable(v)?;
        let chained =
            matches!(rest, RExpr::Dot(..) | RExpr::Index(..)) && !flags.contains(ASTFlags::BREAK);
        if chained {
            return Err(refuse());
        }
        let key = match (dot, rest) {
            (true, RExpr::Property(p, _)) => Key::Prop(p.2.clone()),
            (false, e) => Key::Index(self.expr(e)?),
            _ => return Err(refuse()),
        };
        let value = self.expr(rhs)?;
        let syntax = match op.get_op_assignment_info() {
            None => "=",
            Some((_, _, _, s, _, _)) => s,
        };
        let bin = op
            .get_op_assignment_info()
            .map(|(_, _, _, _, base, _)| binary(base));
        let helper = match &key {
            Key::Prop(name) => {
                self.helper(true, 1, |a| format!("this.{name} {syntax} {}", a[0]))?
            }
            Key::Index(_) => {
                self.helper(true, 2, |a| format!("this[{}] {syntax} {}", a[0], a[1]))?
            }
        };
        Ok(StmtKind::SetPart(Box::new(SetPart {
            slot,
            key,
            op: bin,
            value,
            op_pos: op.position(),
            var_pos: *var_pos,
            helper,
        })))
    }

    /// A one-line function of the helper script, of `n` arguments.
    fn helper(
        &mut self,
        this: bool,
        n: usize,
        body: impl Fn(&[String]) -> String,
    ) -> Result<Helper, Refusal> {
        let name = format!("__tabula_tier_{}", self.helpers.1);
        let args: Vec<String> = (0..n).map(|i| format!("a{i}")).collect();
        let text = format!("fn {name}({}) {{ {} }}", args.join(", "), body(&args));
        let one = self
            .engine
            .compile(&text)
            .map_err(|e| format!("its call `{text}` through Rhai does not compile: {e}"))?;
        self.helpers.0 += one;
        self.helpers.1 += 1;
        Ok(Helper { name, this })
    }

    pub(super) fn exprs(&mut self, es: &[RExpr]) -> Result<Vec<Expr>, Refusal> {
        es.iter().map(|e| self.expr(e)).collect()
    }

    pub(super) fn expr(&mut self, e: &RExpr) -> Result<Expr, Refusal> {
        let pos = e.position();
        if let Some(v) = e.get_literal_value(None) {
            return Ok(Expr {
                kind: ExprKind::Const(v),
                pos,
            });
        }
        let kind = match e {
            RExpr::Variable(v, _, _) => {
                if !v.2.is_empty() {
                    return Err(format!("reads `{}` from a module", v.1));
                }
                match self.lookup(&v.1) {
                    Some((slot, _)) => ExprKind::Local(slot),
                    None => return Err(format!("reads `{}`, which it does not declare", v.1)),
                }
            }
            RExpr::InterpolatedString(parts, _) => ExprKind::Interp(self.exprs(parts)?),
            RExpr::Array(items, _) => ExprKind::Array(self.exprs(items)?),
            RExpr::Map(x, _) => {
                let mut fields = Vec::new();
                for (k, v) in &x.0 {
                    fields.push((k.name.as_str().into(), self.expr(v)?));
                }
                ExprKind::Map(Box::new((x.1.clone(), fields)))
            }
            RExpr::And(x, _) => ExprKind::And(self.exprs(x)?),
            RExpr::Or(x, _) => ExprKind::Or(self.exprs(x)?),
            RExpr::FnCall(x, p) => return self.call_expr(x, *p),
            RExpr::Stmt(b) => ExprKind::Block(self.block(b)?),
            RExpr::Dot(..) | RExpr::Index(..) => ExprKind::Chain(Box::new(self.chain(e)?)),
            RExpr::Custom(c, _) => self.custom(c)?,
            RExpr::ThisPtr(..) => return Err("uses `this`".into()),
            RExpr::Coalesce(..) => return Err("uses `??`".into()),
            _ => return Err("uses an expression the tier does not compile".into()),
        };
        Ok(Expr { kind, pos })
    }

    /// The API's own syntax, `log(text)` and `log_to(player, text)`.
    fn custom(&mut self, c: &rhai::CustomExpr) -> Result<ExprKind, Refusal> {
        match (c.tokens.first().map(|t| t.as_str()), c.inputs.as_slice()) {
            (Some("log"), [text]) => Ok(ExprKind::Log(None, Box::new(self.expr(text)?))),
            (Some("log_to"), [to, text]) => Ok(ExprKind::Log(
                Some(Box::new(self.expr(to)?)),
                Box::new(self.expr(text)?),
            )),
            _ => Err("uses a custom syntax".into()),
        }
    }

    fn call_expr(&mut self, x: &rhai::FnCallExpr, pos: rhai::Position) -> Result<Expr, Refusal> {
        if let Some(c) = self.closure(x, pos)? {
            return Ok(c);
        }
        if let Some(op) = &x.op_token
            && x.namespace.is_empty()
        {
            let syntax = op.literal_syntax();
            match (op, x.args.as_slice()) {
                (Token::UnaryMinus | Token::Minus | Token::Bang, [a]) => {
                    let un = if matches!(op, Token::Bang) {
                        Un::Not
                    } else {
                        Un::Neg
                    };
                    let a = self.expr(a)?;
                    let helper = self.helper(false, 1, |v| format!("{syntax}{}", v[0]))?;
                    return Ok(Expr {
                        kind: ExprKind::Unary(Box::new((un, a, helper))),
                        pos,
                    });
                }
                (_, [a, b]) => {
                    let bin = binary(op);
                    let (a, b) = (self.expr(a)?, self.expr(b)?);
                    let helper =
                        self.helper(false, 2, |v| format!("{} {syntax} {}", v[0], v[1]))?;
                    return Ok(Expr {
                        kind: ExprKind::Binary(Box::new((bin, a, b, helper))),
                        pos,
                    });
                }
                _ => {}
            }
        }
        Ok(Expr {
            kind: ExprKind::Call(Box::new(self.call(x, pos)?)),
            pos,
        })
    }

    fn call(&mut self, x: &rhai::FnCallExpr, pos: rhai::Position) -> Result<Call, Refusal> {
        let name = x.name.as_str();
        if !x.namespace.is_empty() {
            return Err(format!("calls `{name}` in a module"));
        }
        if x.capture_parent_scope {
            return Err(format!("calls `{name}!` (sharing its scope)"));
        }
        if matches!(
            name,
            "Fn" | "call"
                | "curry"
                | "eval"
                | "is_def_var"
                | "is_def_fn"
                | "is_shared"
                | "type_of"
                | "print"
                | "debug"
        ) && !self
            .functions
            .contains_key(&(name.to_string(), x.args.len()))
        {
            return Err(format!("calls `{name}`, which the tier leaves to Rhai"));
        }
        let n = x.args.len();
        let first_local = match x.args.first() {
            Some(RExpr::Variable(v, _, _)) if v.2.is_empty() => self.lookup(&v.1).map(|(s, _)| s),
            _ => None,
        };
        let args = self.exprs(&x.args)?;
        // Rhai reads a first argument that is a variable after the others
        // (it hands it by reference): where one of them may change it, the
        // tiers, which read arguments in order, would see it before.
        if let (Some(s), Some(RExpr::Variable(v, _, _))) = (first_local, x.args.first())
            && super::fold::changes(&args[1..], s)
        {
            return Err(format!(
                "`{}`, the first argument of `{name}`, may change in a later one (Rhai reads it after them)",
                v.1
            ));
        }
        let target = if let Some(&ix) = self.functions.get(&(name.to_string(), n)) {
            self.calls.push(ix);
            Target::Script(ix)
        } else {
            let this = first_local.is_some();
            let helper = self.helper(this, n - usize::from(this), |a| {
                let mut all: Vec<String> = a.to_vec();
                if this {
                    all.insert(0, "this".into());
                }
                format!("{name}({})", all.join(", "))
            })?;
            if let Some(ix) = self.natives.find(name, n) {
                Target::Native(ix, helper)
            } else {
                Target::Rhai(helper)
            }
        };
        let writes_first = match &target {
            Target::Native(ix, _) => self.natives.list(*ix).iter().any(|n| n.method),
            // Rhai hands a script function a copy of its first argument;
            // where the copy is a shared (captured) value the function may
            // write, `passed` says so (capture.rs follows it).
            Target::Script(_) => false,
            Target::Rhai(_) => true,
        };
        Ok(Call {
            target,
            args,
            first_local,
            writes_first,
            name: x.name.clone(),
            pos,
        })
    }

    /// `a.b[c].d(e)`: Rhai nests it to the right; the tier keeps the root
    /// and the steps in order.
    fn chain(&mut self, e: &RExpr) -> Result<Chain, Refusal> {
        let (lhs, rhs, dot, flags) = parts(e);
        if flags.contains(ASTFlags::NEGATED) {
            return Err("uses `?.` or `?[`".into());
        }
        let root = match lhs {
            RExpr::Variable(v, _, p) if v.2.is_empty() => match self.lookup(&v.1) {
                Some((slot, _)) => Root::Local(slot, *p),
                None => return Err(format!("reads `{}`, which it does not declare", v.1)),
            },
            RExpr::Variable(..) => return Err("reads a module's variable".into()),
            other => Root::Value(self.expr(other)?),
        };
        let mut steps = Vec::new();
        self.steps(rhs, dot, flags.contains(ASTFlags::BREAK), &mut steps)?;
        // `xs.filter(|x| xs.len() > x)`: Rhai shares a captured variable,
        // and a method on it while its closure holds it is a data race.
        if let (Root::Local(slot, _), Some(Step::Method { args, .. })) = (&root, steps.first())
            && args.iter().any(|a| captures(a, *slot))
        {
            return Err("calls a method on a variable its closure captures".into());
        }
        for s in steps.iter().skip(1) {
            if let Step::Method { name, .. } = s
                && !PURE_METHODS.contains(&name.as_str())
            {
                return Err(format!(
                    "calls `{name}` on a part of a value (it may change it in place)"
                ));
            }
        }
        Ok(Chain { root, steps })
    }

    /// The steps of `e`, reached by a dot or an index; `last`: the chain
    /// ends at `e` (an index that is itself a chain, `a[b.c]`).
    fn steps(
        &mut self,
        e: &RExpr,
        dot: bool,
        last: bool,
        out: &mut Vec<Step>,
    ) -> Result<(), Refusal> {
        let (this, rest) = match e {
            RExpr::Dot(..) | RExpr::Index(..) if !last => {
                let (lhs, rhs, next_dot, flags) = parts(e);
                if flags.contains(ASTFlags::NEGATED) {
                    return Err("uses `?.` or `?[`".into());
                }
                (lhs, Some((rhs, next_dot, flags.contains(ASTFlags::BREAK))))
            }
            other => (other, None),
        };
        let step = if dot {
            match this {
                RExpr::Property(p, pos) => {
                    let name = p.2.clone();
                    let helper = self.helper(true, 0, |_| format!("this.{name}"))?;
                    Step::Prop(name, *pos, helper)
                }
                RExpr::MethodCall(m, pos) => {
                    if !m.namespace.is_empty() {
                        return Err("calls a module's method".into());
                    }
                    let name = m.name.clone();
                    if self
                        .functions
                        .keys()
                        .any(|(f, _)| f.as_str() == name.as_str())
                    {
                        return Err(format!("calls its function `{name}` as a method"));
                    }
                    let args = self.exprs(&m.args)?;
                    let helper = self.helper(true, args.len(), |a| {
                        format!("this.{name}({})", a.join(", "))
                    })?;
                    let native = (self.natives.find(&name, args.len() + 1))
                        .filter(|&ix| self.natives.list(ix).iter().any(|n| n.method));
                    Step::Method {
                        name,
                        args,
                        pos: *pos,
                        helper,
                        native,
                    }
                }
                _ => return Err("uses a chain the tier does not compile".into()),
            }
        } else {
            Step::Index(self.expr(this)?, this.position())
        };
        out.push(step);
        if let Some((next, dot, last)) = rest {
            self.steps(next, dot, last, out)?;
        }
        Ok(())
    }

    /// `switch`: its value, each arm's condition and body, and Rhai's
    /// tables that pick an arm (tree.rs).
    fn switch(&mut self, value: &RExpr, c: &SwitchCasesCollection) -> Result<StmtKind, Refusal> {
        let value = self.expr(value)?;
        let mut arms = Vec::with_capacity(c.expressions.len());
        for e in &c.expressions {
            let cond = match &e.lhs {
                RExpr::BoolConstant(b, _) => Ok(*b),
                other => Err(self.expr(other)?),
            };
            arms.push(Arm {
                cond,
                body: self.expr(&e.rhs)?,
            });
        }
        let cases = (c.cases.iter())
            .map(|(h, list)| (*h, list.blocks.iter().copied().collect()))
            .collect();
        Ok(StmtKind::Switch(Box::new(Switch {
            value,
            cases,
            ranges: c.ranges.iter().cloned().collect(),
            arms,
            default: c.def_case,
        })))
    }
}

/// Whether `e` is a closure that captures local `slot` (Rhai writes one
/// as a block: the variables shared, then the closure).
fn captures(e: &Expr, slot: usize) -> bool {
    match &e.kind {
        ExprKind::Curry(x) => {
            (x.2.iter()).any(|a| matches!(a.kind, ExprKind::Local(s) if s == slot))
        }
        ExprKind::Block(b) => b.0.iter().any(|s| match &s.kind {
            StmtKind::Expr(e) | StmtKind::Bare(e) => captures(e, slot),
            _ => false,
        }),
        _ => false,
    }
}

/// A dot or an index: its sides, whether it is a dot, its flags.
fn parts(e: &RExpr) -> (&RExpr, &RExpr, bool, ASTFlags) {
    match e {
        RExpr::Dot(x, f, _) => (&x.lhs, &x.rhs, true, *f),
        RExpr::Index(x, f, _) => (&x.lhs, &x.rhs, false, *f),
        _ => unreachable!("a chain is a dot or an index"),
    }
}

fn binary(op: &Token) -> Bin {
    match op {
        Token::Plus => Bin::Add,
        Token::Minus => Bin::Sub,
        Token::Multiply => Bin::Mul,
        Token::Divide => Bin::Div,
        Token::Modulo => Bin::Rem,
        Token::EqualsTo => Bin::Eq,
        Token::NotEqualsTo => Bin::Ne,
        Token::LessThan => Bin::Lt,
        Token::LessThanEqualsTo => Bin::Le,
        Token::GreaterThan => Bin::Gt,
        Token::GreaterThanEqualsTo => Bin::Ge,
        Token::ExclusiveRange => Bin::Range,
        Token::InclusiveRange => Bin::RangeInclusive,
        _ => Bin::Other,
    }
}
