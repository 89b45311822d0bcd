//! The `tabula` command line: a thin binary over the library.

mod cli;

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
