//! How a game's hooks are run: the switch a game is built with.

/// How a game's hooks run: compiled (the typed VM where it runs a
/// function, the tree tier where it does not, Rhai for what neither
/// lowers), the tree tier without the VM, all in Rhai, or one of the
/// compiled ways with every run compared with Rhai.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compile {
    /// The VM over the tree tier (issue 54).
    #[default]
    On,
    /// The tree tier alone, no VM (`--no-vm`).
    Tree,
    /// Everything in Rhai's interpreter (`--no-compile`).
    Off,
    /// `On`, each hook run both ways on copies of the state; a difference
    /// in result, error, reads and writes, events or state is an error
    /// (the differential test). Operations are not compared: the VM
    /// counts its own.
    Check,
    /// `Check` for the tree tier alone, operations compared too.
    CheckTree,
    /// `On`, with native code for the functions it compiles to machine
    /// code (`--jit`, issue 55; without the `jit` feature, `On`).
    Jit,
    /// `Check` for `Jit`.
    CheckJit,
}
