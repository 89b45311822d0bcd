//! What each thread has allocated, counted by the global allocator, so
//! that a script's run can be held to a memory budget: Rhai caps the size
//! of a string, a list and a map, but not the keys of a map, nor the sum
//! over many values. The allocator is offered with the default feature
//! `memory-budget`, and a program installs it (the `tabula` binary does):
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOCATOR: tabula::memory::Counting = tabula::memory::Counting;
//! ```
//!
//! Where it is not installed every count reads 0 and the budget never
//! stops a run.
//!
//! Underneath is mimalloc rather than the system's malloc: playouts make
//! and free many small values (options, script values, states), and on
//! glibc that was 7-24% of a game's instructions.

#[cfg(feature = "memory-budget")]
use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;

/// mimalloc, counting each thread's bytes in use.
#[cfg(feature = "memory-budget")]
pub struct Counting;

thread_local! {
    /// Bytes allocated on this thread less those freed on it (memory freed
    /// on another thread than it was allocated counts there).
    static NET: Cell<i64> = const { Cell::new(0) };
}

#[cfg(feature = "memory-budget")]
fn count(delta: i64) {
    // `try_with`: an allocation while the thread's locals are torn down
    // is not counted.
    let _ = NET.try_with(|n| n.set(n.get().wrapping_add(delta)));
}

#[cfg(feature = "memory-budget")]
// SAFETY: every call is passed to mimalloc unchanged; the
// count is a thread-local integer, which allocates nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as i64);
        // SAFETY: the caller's contract is mimalloc's.
        unsafe { mimalloc::MiMalloc.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as i64);
        // SAFETY: as `alloc`.
        unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as i64));
        // SAFETY: as `alloc`.
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as i64 - layout.size() as i64);
        // SAFETY: as `alloc`.
        unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
    }
}

// The program installs the allocator, not the library (src/main.rs: an
// embedder may have its own); the library's unit tests install it here.
#[cfg(all(test, feature = "memory-budget"))]
#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// This thread's bytes in use by the count: a difference of two readings
/// is what ran between them kept.
pub fn thread_bytes() -> i64 {
    NET.try_with(Cell::get).unwrap_or(0)
}

#[cfg(all(test, feature = "memory-budget"))]
mod tests {
    #[test]
    fn what_a_thread_keeps_is_counted_and_what_it_frees_is_not() {
        let before = super::thread_bytes();
        let kept = vec![0u8; 1 << 20];
        let during = super::thread_bytes() - before;
        drop(kept);
        let after = super::thread_bytes() - before;
        assert!(during >= 1 << 20, "{during}");
        assert!(after < 1 << 10, "{after}");
    }
}
