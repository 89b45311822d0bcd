//! `Compile::CheckJit`'s second comparison: a hook run with native code
//! against the same run in the VM alone, result and operations counted
//! (Rhai counts its own, so the check against Rhai leaves them out).

use super::{Call, Error, ErrorKind, Event, Result, RhaiHooks, State, tier};

impl RhaiHooks {
    /// The hook run again from `state` with native code set aside: an
    /// error where its result or its count differs from the run with
    /// native code just made (`native`).
    pub(super) fn native_against_vm(
        &self,
        mut state: State,
        mut events: Vec<Event>,
        call: &Call,
        native: &Result<()>,
    ) -> Option<Error> {
        let native_ops = tier::vm::last_ops();
        let (vm, _) =
            tier::vm::without_native(|| self.call_as(&mut state, call, &mut events, true, true));
        let vm_ops = tier::vm::last_ops();
        let (a, b) = (format!("{:?}", vm.0), format!("{native:?}"));
        (a != b || vm_ops != native_ops).then(|| {
            let msg = format!(
                "the hook `{}` differs with native code from the VM:\n  VM:     {a} ({vm_ops} operations)\n  native: {b} ({native_ops} operations)",
                call.hook
            );
            Error::new(ErrorKind::Runtime, msg)
        })
    }
}
