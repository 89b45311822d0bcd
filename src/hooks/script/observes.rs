//! What of a state a script can observe, read off its syntax when it is
//! compiled: whether it may read the turn number (`turn()`), so that a
//! state's key may leave the turn out where no rule reads it.

use rhai::{AST, ASTNode, Expr, Stmt};

/// Whether `ast` may read the turn: a call `turn()` (the API's, or a
/// script function of that name: either way kept), the text `"turn"`
/// (a function pointer or `call` may reach the API by name), or an
/// `import` (a module is not looked into). `eval` of text could too: a
/// script that calls `eval` counts as reading it.
pub fn reads_turn(ast: &AST) -> bool {
    let mut reads = false;
    ast.walk(&mut |path: &[ASTNode]| {
        let hit = match path.last() {
            Some(ASTNode::Expr(Expr::FnCall(f, _)) | ASTNode::Stmt(Stmt::FnCall(f, _))) => {
                (f.name.as_str() == "turn" && f.args.is_empty()) || f.name.as_str() == "eval"
            }
            Some(ASTNode::Expr(Expr::StringConstant(s, _))) => s.as_str() == "turn",
            // `Fn("turn")` is made a function pointer when compiled.
            Some(ASTNode::Expr(Expr::DynamicConstant(d, _))) => (**d)
                .clone()
                .try_cast::<rhai::FnPtr>()
                .is_some_and(|f| f.fn_name() == "turn"),
            Some(ASTNode::Stmt(Stmt::Import(..))) => true,
            _ => false,
        };
        reads |= hit;
        !reads
    });
    reads
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::reads_turn;

    fn reads(src: &str) -> bool {
        let engine = rhai::Engine::new();
        reads_turn(&engine.compile(src).unwrap())
    }

    #[test]
    fn a_call_of_turn_or_its_name_reads_it() {
        assert!(reads("fn cap() { if turn() > 3 { 1 } else { 2 } }"));
        assert!(reads("fn step() { let t = turn(); t }"));
        assert!(reads("fn step() { turn(); }"));
        assert!(reads("fn step() { let f = Fn(\"turn\"); f.call() }"));
        assert!(!reads("fn turn() { 1 } fn other(x) { x.turn }"));
        assert!(!reads("fn step() { let turns = 3; turns }"));
    }
}
