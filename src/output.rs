//! The one way to write to stdout: whole UCI lines, flushed one by one, and
//! logged at `debug` level. stdout carries protocol only; everything else
//! goes through `log` to stderr.
//!
//! A write that fails means the GUI is gone (closed pipe): the engine exits
//! instead of searching on for nobody.

use std::io::Write;

/// Exit status when stdout is closed under the engine.
const CLOSED_STDOUT_EXIT_CODE: i32 = 1;

/// Writes `line` and a newline to stdout and flushes.
pub fn send(line: &str) {
    log::debug!("<< {line}");
    let mut stdout = std::io::stdout().lock();
    let written = writeln!(stdout, "{line}").and_then(|()| stdout.flush());
    if let Err(error) = written {
        log::error!("cannot write to stdout ({error}); exiting");
        std::process::exit(CLOSED_STDOUT_EXIT_CODE);
    }
}

/// Sends `info string error: <message>`.
pub fn error(message: &str) {
    log::warn!("{message}");
    send(&format!("info string error: {message}"));
}
