//! Progress of a long run where stderr is not a terminal (piped, kept in
//! a log): a plain line every few seconds, where a terminal gets a bar
//! redrawn in place. The interval is `TABULA_PROGRESS_EVERY` seconds
//! (default 5); a run expected to outlast two of them is announced with
//! its estimate before it starts.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Seconds between two lines, unless `TABULA_PROGRESS_EVERY` says.
const EVERY: f64 = 5.0;

/// The interval between two progress lines.
pub fn every() -> Duration {
    let secs = std::env::var("TABULA_PROGRESS_EVERY")
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0 && *s < 1e6)
        .unwrap_or(EVERY);
    Duration::from_secs_f64(secs)
}

/// Whether a run expected to take `seconds` is long enough to be
/// announced (by default: over 10 s).
pub fn long(seconds: f64) -> bool {
    seconds > 2.0 * every().as_secs_f64()
}

/// A duration as a person reads it: `40 s`, `12 min`, `3.5 h`.
pub fn duration_text(seconds: f64) -> String {
    if seconds < 10.0 {
        format!("{seconds:.1} s")
    } else if seconds < 120.0 {
        format!("{seconds:.0} s")
    } else if seconds < 2.0 * 3600.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

/// Plain progress lines on stderr when it is not a terminal.
pub struct Ticker {
    on: bool,
    every: Duration,
    started: Instant,
    /// When the next line is due (time since `started`).
    next: Mutex<Duration>,
}

impl Ticker {
    pub fn new() -> Ticker {
        let every = every();
        Ticker {
            on: !std::io::stderr().is_terminal(),
            every,
            started: Instant::now(),
            next: Mutex::new(every),
        }
    }

    /// Print `line()` with the time so far, if a line is due (from any
    /// thread; a thread that finds another printing skips).
    pub fn tick(&self, line: impl FnOnce() -> String) {
        if !self.on {
            return;
        }
        let elapsed = self.started.elapsed();
        let Ok(mut next) = self.next.try_lock() else {
            return;
        };
        if elapsed < *next {
            return;
        }
        *next = elapsed + self.every;
        eprintln!(
            "{} ({} so far)",
            line(),
            duration_text(elapsed.as_secs_f64())
        );
    }
}
