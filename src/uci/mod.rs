//! The UCI protocol: a reader thread turns stdin into lines, the loop here
//! parses each into an engine [`Command`](crate::engine::Command) and hands
//! it to the [`Engine`], which writes through [`Uci`], this layer's
//! [`Protocol`].
//!
//! stdin is read on its own thread so the loop is never stuck in a read
//! while a search runs: `isready` is answered at once, `stop` ends the
//! searches at once (`quit` too, but it lets a running `bench` or `go
//! perft` finish and carries out the queue before it quits), and commands
//! that wait for a finite search (a script that pipes several `go`s) wait
//! in the engine's queue while the loop reads on, with every later
//! command, a `ponderhit` included (`engine::queue`).
//! Bytes that are not UTF-8 are replaced, not fatal. End of input behaves
//! like `quit`, except that a finite search (`go depth`, `movetime`, a
//! clock) first finishes and prints its `bestmove` (a `go mate` that finds
//! no mate gives up a few plies past the mate's length), and so do the
//! queued ones.

pub(crate) mod format;
pub mod option_lines;
mod output;
pub mod parse;

use std::io::BufRead;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam::channel::RecvTimeoutError;

use crate::engine::debug_log::{self, Direction};
use crate::engine::options::Options;
use crate::engine::{Engine, Flow, Protocol, Reply, ReportStyle};
use crate::search::Reporter;

/// The UCI protocol as the engine needs it: the `option name …` lines and
/// the reporter that writes `info` and `bestmove` lines.
pub struct Uci;

impl Protocol for Uci {
    fn send(&self, reply: Reply<'_>) {
        match reply {
            Reply::Identity {
                name,
                author,
                options,
                network,
                simd,
            } => {
                output::send(&format!("id name {name}"));
                output::send(&format!("id author {author}"));
                for line in declared_options(options) {
                    output::send(&line);
                }
                output::send(&format!("info string network {network}, simd {simd}"));
                output::send("uciok");
            }
            Reply::Ready => output::send("readyok"),
            Reply::Error(message) => output::error(message),
            Reply::Note(text) => output::send(&format!("info string {text}")),
        }
    }

    fn reporter(&self, style: ReportStyle) -> Arc<dyn Reporter> {
        Arc::new(format::UciReporter(style))
    }
}

/// The `option name …` lines, with `options` as the defaults (and, in a
/// `tuning` build, the search's tunables).
fn declared_options(options: &Options) -> Vec<String> {
    let lines = option_lines::option_lines(options);
    #[cfg(feature = "tuning")]
    let lines = [lines, option_lines::tunable_lines()].concat();
    lines
}

/// How often the loop looks, while no input comes, whether the search that
/// queued commands wait for has ended ([`Engine::run_queued`]; it also
/// looks after each line). Only a script that sends a new `go` before the
/// last `bestmove` queues commands; this delays each of them by at most
/// this long.
const QUEUE_POLL: Duration = Duration::from_millis(1);

/// What the reader thread passes to the loop: a line with the moment it
/// was read (a `go`'s clock runs from then, not from when the loop, maybe
/// busy with the command before, gets to it), or the end of input.
enum Input {
    Line(String, Instant),
    End,
}

/// Runs the UCI loop on stdin until `quit` or end of input.
pub fn run(mut engine: Engine) {
    let (lines, inbox) = crossbeam::channel::unbounded();
    let reader = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let mut stdin = std::io::stdin().lock();
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match stdin.read_until(b'\n', &mut buffer) {
                    Ok(0) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buffer).into_owned();
                        if lines.send(Input::Line(line, Instant::now())).is_err() {
                            return;
                        }
                    }
                    Err(error) => {
                        log::error!("cannot read stdin: {error}");
                        break;
                    }
                }
            }
            let _ = lines.send(Input::End);
        });
    if let Err(error) = reader {
        log::error!("cannot start the stdin reader: {error}");
        return;
    }

    loop {
        let input = if engine.has_queued() {
            match inbox.recv_timeout(QUEUE_POLL) {
                Ok(input) => input,
                Err(RecvTimeoutError::Timeout) => {
                    engine.run_queued();
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => Input::End,
            }
        } else {
            inbox.recv().unwrap_or(Input::End)
        };
        match input {
            Input::Line(line, received) => {
                log::debug!(">> {}", line.trim_end());
                debug_log::record(Direction::In, line.trim_end());
                match parse::command(&line) {
                    Ok(Some(command)) => {
                        if engine.handle(command, received) == Flow::Quit {
                            return;
                        }
                    }
                    Ok(None) => {}
                    Err(error) => output::error(&error),
                }
                engine.run_queued();
            }
            Input::End => {
                engine.end_of_input();
                return;
            }
        }
    }
}
