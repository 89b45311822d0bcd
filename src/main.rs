//! The `tabula` command line: a thin binary over the library.

mod cli;

/// The counting allocator behind a hook run's memory budget
/// (src/memory.rs): the program's, not the library's.
#[cfg(feature = "memory-budget")]
#[global_allocator]
static ALLOCATOR: tabula::memory::Counting = tabula::memory::Counting;

fn main() {
    // Die quietly on a closed pipe (`tabula rules x | head`) like other Unix
    // tools, instead of panicking inside println!.
    #[cfg(unix)]
    // SAFETY: restoring the default signal disposition before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(cli::main());
}
