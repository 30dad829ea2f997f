//! `Debug Log File`: every UCI line in and out, appended to a file, the
//! first thing a bug report asks for (Stockfish's option of the same name
//! and marks: `>> ` for a line the engine read, `<< ` for one it wrote).
//!
//! One file for the process, behind a lock: lines come from the UCI loop
//! (input) and from whichever thread writes to stdout (output), and each is
//! appended whole, in the order the lines were handled. A line that cannot
//! be written is dropped with a warning on stderr; the engine plays on.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::Mutex;

/// The open log, if `Debug Log File` names one.
static LOG: Mutex<Option<File>> = Mutex::new(None);

/// Which way a line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// Read from the GUI.
    In,
    /// Written to the GUI.
    Out,
}

impl Direction {
    fn mark(self) -> &'static str {
        match self {
            Direction::In => ">> ",
            Direction::Out => "<< ",
        }
    }
}

/// Logs to the file at `path` from now on (appending), or to none when
/// `path` is empty; when the file cannot be opened, the error says why and
/// the log stays as it was.
pub(crate) fn log_to(path: &str) -> Result<(), String> {
    let file = if path.is_empty() {
        None
    } else {
        let opened = OpenOptions::new().create(true).append(true).open(path);
        Some(opened.map_err(|error| format!("cannot open '{path}': {error}"))?)
    };
    *LOG.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = file;
    Ok(())
}

/// Appends `line` with its direction's mark, if a log is open.
pub(crate) fn record(direction: Direction, line: &str) {
    let mut log = LOG.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(file) = log.as_mut()
        && let Err(error) = writeln!(file, "{}{line}", direction.mark())
    {
        log::warn!("Debug Log File: cannot write ({error})");
    }
}
