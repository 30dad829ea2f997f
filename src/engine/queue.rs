//! Commands that wait for a finite search to end.
//!
//! A GUI sends nothing but `stop`, `ponderhit` and `isready` while the
//! engine searches. A script that pipes `position …` / `go depth N` pairs
//! does not wait for each `bestmove`, and a new `go` used to stop the
//! running search at once: every query but the last was answered with an
//! unsearched move. So while a finite search runs (a depth, node, time or
//! mate limit, not pondering), or a `bench` or `go perft`, a command that
//! needs the engine idle (`go`, `ucinewgame`, `setoption`, `bench`, `go
//! perft`) waits in a queue, and every later command waits behind it: the
//! input is carried out in order, as by Stockfish, whose loop blocks until
//! the search is done.
//!
//! Unlike a blocked loop, this one reads on. `isready` is answered at once
//! and `quit` quits at once. `stop` ends the running search (or `bench`,
//! `go perft`) and each queued one the moment it starts, as if a `stop`
//! followed every queued `go`: each still answers with one `bestmove`. At the end of input the
//! queue is carried out in order, each finite search to its end
//! ([`Engine::end_of_input`]). An unbounded or pondering search is still ended by a new
//! `go` or `ucinewgame` at once, since waiting for it would never end.

use std::time::Instant;

use super::{Command, Engine, Flow};

impl Engine {
    /// Whether commands wait for the running search: the loop then calls
    /// [`Engine::run_queued`] until the queue is empty.
    pub fn has_queued(&self) -> bool {
        !self.queued.is_empty()
    }

    /// Carries out the waiting commands that can run now: all of them once
    /// the search they wait for has ended, up to the next one that must
    /// wait for a search that one of them started.
    pub fn run_queued(&mut self) -> Flow {
        while let Some((command, _)) = self.queued.front() {
            if needs_idle(command) && self.runs_finite_work() {
                break;
            }
            let (command, received) = self.queued.pop_front().expect("the front was just read");
            if self.execute(command, received) == Flow::Quit {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// Queues `command`, read at `received`, if it has to wait; gives it
    /// back if it is to be carried out now.
    pub(super) fn queue_if_waiting(
        &mut self,
        command: Command,
        received: Instant,
    ) -> Option<Command> {
        let waits = match command {
            Command::IsReady | Command::Quit => false,
            Command::Stop if self.has_queued() => {
                self.stop_queued_searches();
                false
            }
            _ => self.has_queued() || (needs_idle(&command) && self.runs_finite_work()),
        };
        if waits {
            self.queued.push_back((command, received));
            None
        } else {
            Some(command)
        }
    }

    /// `stop` read while commands wait: as if a `stop` followed every
    /// queued `go`, `bench` and `go perft` (the running one is stopped by
    /// the `stop` itself).
    fn stop_queued_searches(&mut self) {
        let queued = std::mem::take(&mut self.queued);
        for (command, received) in queued {
            let stoppable = matches!(
                command,
                Command::Go(_) | Command::Bench { .. } | Command::Perft { .. }
            );
            self.queued.push_back((command, received));
            if stoppable {
                self.queued.push_back((Command::Stop, received));
            }
        }
    }

    /// Whether a search that will end by itself runs, or a `bench` or `go
    /// perft`.
    fn runs_finite_work(&mut self) -> bool {
        self.is_searching();
        self.task.is_some()
            || self.search.as_ref().is_some_and(|search| {
                !search.job.spec.limits.is_unbounded() && !search.job.control.is_pondering()
            })
    }
}

/// Whether `command` needs the engine idle: it would otherwise end the
/// running search, or be refused while it runs.
pub(super) fn needs_idle(command: &Command) -> bool {
    matches!(
        command,
        Command::Go(_)
            | Command::UciNewGame
            | Command::SetOption { .. }
            | Command::Bench { .. }
            | Command::Perft { .. }
    )
}
