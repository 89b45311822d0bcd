//! How a game's hooks are run: the switch a game is built with, and
//! what each way leaves to the one below it.

use super::{Def, Fallback, Keys, Script, tier};

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
    /// `Check` for `Jit`, and each hook run also against the VM alone:
    /// the same result and the same operations counted.
    CheckJit,
}

impl Script {
    /// The functions the typed VM leaves to the tree tier (or Rhai), and
    /// why: the tree tier's fallbacks first.
    pub fn vm_fallbacks(&self, def: &Def) -> Vec<Fallback> {
        let t = self.tier_for(def, false);
        let mut all = t.fallbacks.clone();
        all.extend(t.vm.map(|vm| vm.fallbacks).unwrap_or_default());
        all
    }

    /// The functions the VM runs that have no native code, and why (None
    /// where native code is not built in: the `jit` feature).
    pub fn native_fallbacks(&self, def: &Def) -> Option<Vec<Fallback>> {
        self.tier_for(def, true)
            .vm
            .and_then(|vm| vm.native_fallbacks())
    }

    fn tier_for(&self, def: &Def, native: bool) -> tier::Tier {
        let (ast, natives) = (&self.ast, self.natives.clone());
        tier::Tier::compile_vm(ast, &self.engine, natives, def, &Keys::of(def), native)
    }
}
