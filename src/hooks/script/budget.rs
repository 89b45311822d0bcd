//! What a hook run spends beyond the operations Rhai counts, held to the
//! same limits: each value an API helper builds (a cell name in `cells()`,
//! a card in `cards(...)`) is charged as one operation, the memory the hook
//! holds is looked at as a helper returns, and a helper's result is held to
//! Rhai's size limits. Each error names the helper and the limit, and
//! comes from the call, so it is at the script's line. `print` and `debug`
//! are held to a budget per hook run too.
//!
//! Rhai and the compiled tier both run the API's Rust functions, so both
//! charge alike; both look at the charges where they look at the memory
//! (every 256 operations) and stop the run the same way.

use std::cell::Cell;

use rhai::Array;

use super::{Fallible, MAX_ARRAY, MAX_HOOK_BYTES, MAX_MAP, MAX_OPERATIONS, MAX_STRING};

/// What `print` and `debug` may write in one hook run (what is shown is
/// cut sooner, at `MAX_PRINT_BYTES` a process): a loop printing long texts
/// is stopped at its `print` with an error that says so; one printing
/// short ones meets the operation limit first, whose error says how much
/// the run printed.
pub const MAX_PRINT_RUN_BYTES: usize = 8 << 20;

thread_local! {
    /// Operations the running hook's helpers have been charged.
    static CHARGED: Cell<u64> = const { Cell::new(0) };
    /// The operations counted before the Rhai run now going began (a
    /// compiled run's count when it asks Rhai's help; 0 otherwise):
    /// Rhai's count starts at 0 there.
    static BASE: Cell<u64> = const { Cell::new(0) };
    /// Bytes `print` and `debug` wrote in the running hook.
    static PRINTED: Cell<usize> = const { Cell::new(0) };
}

/// The token a run is ended with when its charges pass the operation
/// limit, and the one when it printed past its budget.
pub(crate) const OPERATIONS: &str = "tabula:operations";
pub(crate) const PRINTING: &str = "tabula:print";

/// A hook run begins: nothing charged, nothing printed.
pub(crate) fn begin() {
    CHARGED.with(|c| c.set(0));
    BASE.with(|b| b.set(0));
    PRINTED.with(|p| p.set(0));
}

/// The operations the running hook has been charged.
pub(crate) fn charged() -> u64 {
    CHARGED.with(Cell::get)
}

/// Rhai's count starts afresh at `ops` (see `BASE`).
pub(crate) fn set_base(ops: u64) {
    BASE.with(|b| b.set(ops));
}

/// What the progress check says at `ops` counted by the Rhai run now
/// going, every 256 operations (where it looks at the memory): the token
/// to end the run with, if any.
pub(crate) fn check(ops: u64) -> Option<&'static str> {
    past(BASE.with(Cell::get) + ops)
}

/// `check` at the count of a compiled run (or of Rhai's, plus `BASE`):
/// charges past the operation limit, or a print past its budget (which
/// `print` of a text has said at its line if it printed again).
pub(crate) fn past(ops: u64) -> Option<&'static str> {
    if ops.saturating_add(charged()) > MAX_OPERATIONS {
        return Some(OPERATIONS);
    }
    if PRINTED.with(Cell::get) > MAX_PRINT_RUN_BYTES {
        return Some(PRINTING);
    }
    None
}

/// Operations run in a function called back from another (a closure
/// given to `map`, `filter`, `sort_by`...): Rhai counts them on a copy of
/// the hook's count and drops the copy, so a closure called for each of
/// 2,574 cells could run 2,000,000 operations each. They are charged.
pub(crate) fn dropped(n: u64) {
    CHARGED.with(|c| c.set(c.get().saturating_add(n)));
}

/// Whether the running hook may print more: an error once it has
/// printed past its budget.
pub(crate) fn may_print() -> Fallible<()> {
    if PRINTED.with(Cell::get) > MAX_PRINT_RUN_BYTES {
        return Err(print_spent().into());
    }
    Ok(())
}

/// A hook run's print budget spent, in words.
pub(crate) fn print_spent() -> String {
    format!(
        "print: this hook has printed more than {} MiB in one run (an endless loop?)",
        MAX_PRINT_RUN_BYTES >> 20
    )
}

/// Bytes `print` and `debug` wrote in the running (or last) hook run.
pub(crate) fn printed_bytes() -> usize {
    PRINTED.with(Cell::get)
}

/// Bytes written by `print` or `debug` in the running hook.
pub(crate) fn printed(n: usize) {
    PRINTED.with(|p| p.set(p.get().saturating_add(n)));
}

/// Charge `n` operations to the running hook for work `helper` did (the
/// cells it looked at): an error naming the helper once the hook is past
/// its operations.
pub(crate) fn charge(helper: &str, n: usize, what: &str) -> Fallible<()> {
    let total = charged().saturating_add(n as u64);
    CHARGED.with(|c| c.set(total));
    let ops = BASE.with(Cell::get) + super::LAST_OPS.with(Cell::get);
    if ops.saturating_add(total) > MAX_OPERATIONS {
        return Err(format!(
            "{helper}: the hook has used up its {} operations: this call charged {n} for the {what} (each value a helper builds or looks at counts as one operation; call it once, outside the loop, and keep what it gives)",
            thousands(MAX_OPERATIONS)
        )
        .into());
    }
    Ok(())
}

/// What `helper` built, charged to the running hook: one operation per
/// value in it, Rhai's limits on a value's size, and the hook's memory.
pub(crate) fn built(helper: &str, out: Array) -> Fallible<Array> {
    let (mut items, mut maps, mut text) = (0, 0, 0);
    for x in &out {
        let (i, m, t) = super::tier::builtins::sizes_of(x);
        items += 1 + i;
        maps += m;
        text += t;
    }
    limits(helper, items, maps, text)?;
    charge(helper, items + maps, "values it built")?;
    memory(helper)?;
    Ok(out)
}

/// Rhai's limits on one value, said for a helper's result.
pub(crate) fn limits(helper: &str, items: usize, maps: usize, text: usize) -> Fallible<()> {
    let over = if items > MAX_ARRAY {
        Some(format!(
            "{} items in lists (counting those in lists inside it), more than the {} a script value may hold",
            thousands(items as u64),
            thousands(MAX_ARRAY as u64)
        ))
    } else if maps > MAX_MAP {
        Some(format!(
            "{} map entries, more than the {} a script value may hold",
            thousands(maps as u64),
            thousands(MAX_MAP as u64)
        ))
    } else if text > MAX_STRING {
        Some(format!(
            "{} bytes of text, more than the {} KiB a script value may hold",
            thousands(text as u64),
            MAX_STRING >> 10
        ))
    } else {
        None
    };
    match over {
        Some(o) => Err(format!("{helper}: its result would hold {o}").into()),
        None => Ok(()),
    }
}

/// The hook's memory, looked at as a helper returns.
pub(crate) fn memory(helper: &str) -> Fallible<()> {
    memory_of(|| helper.to_string())
}

/// `memory`, for a helper whose name is made only if it is said (an
/// ask's, with the ask's own name: not made on every ask).
pub(crate) fn memory_of(helper: impl FnOnce() -> String) -> Fallible<()> {
    let Some(floor) = super::hook_floor() else {
        return Ok(());
    };
    let used = crate::memory::thread_bytes() - floor;
    if used > MAX_HOOK_BYTES {
        return Err(format!(
            "{}: the hook holds more than its {} MiB of memory ({} MiB)",
            helper(),
            MAX_HOOK_BYTES >> 20,
            used >> 20
        )
        .into());
    }
    Ok(())
}

/// 2000000 as 2,000,000.
pub(crate) fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}
