//! The one way to write to stdout: whole UCI lines, flushed one by one,
//! logged at `debug` level and to the `Debug Log File` if one is set.
//! stdout carries protocol only, and only this layer writes it;
//! everything else goes through `log` to stderr.
//!
//! A write that fails means the GUI is gone (closed pipe): the engine exits
//! instead of searching on for nobody. A line break inside the text (a
//! panic's message, say) becomes a space, so each call is exactly one line.

use std::borrow::Cow;
use std::io::Write;

use crate::engine::debug_log::{self, Direction};

/// Exit status when stdout is closed under the engine.
const CLOSED_STDOUT_EXIT_CODE: i32 = 1;

/// `text` with every line break turned into a space.
fn one_line(text: &str) -> Cow<'_, str> {
    const LINE_BREAKS: [char; 2] = ['\n', '\r'];
    if text.contains(LINE_BREAKS) {
        Cow::Owned(text.replace(LINE_BREAKS, " "))
    } else {
        Cow::Borrowed(text)
    }
}

/// Writes `line` (made one line) and a newline to stdout and flushes.
pub(crate) fn send(line: &str) {
    let line = one_line(line);
    log::debug!("<< {line}");
    // stdout's lock first, so the log has the lines in stdout's order.
    let mut stdout = std::io::stdout().lock();
    debug_log::record(Direction::Out, &line);
    let written = writeln!(stdout, "{line}").and_then(|()| stdout.flush());
    if let Err(error) = written {
        log::error!("cannot write to stdout ({error}); exiting");
        std::process::exit(CLOSED_STDOUT_EXIT_CODE);
    }
}

/// Sends `info string error: <message>`.
pub(crate) fn error(message: &str) {
    log::warn!("{message}");
    send(&format!("info string error: {message}"));
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn line_breaks_become_spaces() {
        assert_eq!(one_line("info string a"), "info string a");
        assert_eq!(
            one_line("error: left: 1\nright: 2\r\n"),
            "error: left: 1 right: 2  "
        );
    }
}
