//! `local.push(x)` without counting the whole list again: the VM keeps
//! the sizes Rhai's limits count in the list the last push was on, with
//! its stack slot (`VmRun::pushed_at`), while nothing else reaches that
//! slot (`VmRun::slot` and `forget_from` forget them).

use rhai::Position;

use super::run::{Error, VmRun};
use super::value::{V, list_sizes, pushed_sizes};

/// `VmRun::pushed_at` where no push's sizes are kept (above every slot).
pub(super) const NOT_KEPT: usize = usize::MAX;

impl VmRun<'_, '_> {
    /// The sizes kept by the last push forgotten where its slot is `at`
    /// or above (a slot about to change, or a frame left).
    #[inline(always)]
    pub(super) fn forget_from(&mut self, at: usize) {
        if self.pushed_at >= at {
            self.pushed_at = NOT_KEPT;
        }
    }

    /// `local.push(x)` on the list in stack slot `at`, checked against
    /// Rhai's limits as Rhai checks it (the whole list's sizes after):
    /// counted from the sizes the last push onto this slot kept, where
    /// nothing has reached the slot since (`VmRun::pushed_at`), else
    /// whole. A list or item with a value Rhai shares is counted whole
    /// each time and keeps nothing.
    pub(super) fn push_local(&mut self, at: usize, x: V, pos: Position) -> Result<(), Error> {
        let kept = (self.pushed_at == at).then_some(self.pushed_sizes);
        self.pushed_at = NOT_KEPT;
        let syms = &self.vm.syms;
        let V::List(l) = &mut self.stack[at] else {
            unreachable!("`push_local` is called on a list")
        };
        let before = match kept {
            Some(b) => Some(b),
            None => l.iter().all(V::unshared).then(|| list_sizes(l, syms)),
        };
        let after = before
            .filter(|_| x.unshared())
            .map(|b| pushed_sizes(b, &x, syms));
        l.push(x);
        let sizes = after.unwrap_or_else(|| list_sizes(l, syms));
        super::super::builtins::limit(sizes, pos)?;
        if after.is_some() {
            (self.pushed_at, self.pushed_sizes) = (at, sizes);
        }
        Ok(())
    }
}
