//! Commands that wait for a finite search to end, and the end of input.
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
//! Unlike a blocked loop, this one reads on:
//! * `isready` is answered at once, so while commands wait, `readyok` no
//!   longer says that they are done;
//! * `stop` ends the running search, `bench` or `go perft`, and each queued
//!   one the moment it starts, as if a `stop` followed each: every `go`
//!   still answers with one `bestmove`;
//! * `quit` does the same to the searches, lets a `bench` or `go perft`
//!   finish (its output is what was asked for), carries out the rest of
//!   the queue, and quits; the end of input carries it out with each
//!   finite search run to its end.
//!
//! A queued command runs with the clock of the moment it starts, not of
//! the moment it was read: a piped `go movetime 1000` searches its second.
//! A `go mate` search that commands wait for gives up where its mate would
//! have shown, as at the end of input, since no `stop` may come. A search
//! without an end (`go infinite`, pondering) is still ended by a new `go`
//! or `ucinewgame` at once, since waiting for it would never end.

use std::time::Instant;

use super::{Command, Engine, Flow, RunningSearch};

impl Engine {
    /// Whether commands wait for the running search: the loop then calls
    /// [`Engine::run_queued`] until the queue is empty.
    pub fn has_queued(&self) -> bool {
        !self.queued.is_empty()
    }

    /// Carries out the waiting commands that can run now: all of them once
    /// the search they wait for has ended, up to the next one that must
    /// wait for a search that one of them started.
    pub fn run_queued(&mut self) {
        while let Some(command) = self.queued.front() {
            if waits_for_idle_engine(command) && self.runs_finite_work() {
                break;
            }
            let command = self.queued.pop_front().expect("the front was just read");
            self.execute_queued(command);
        }
        if self.has_queued() {
            self.let_the_running_search_end();
        }
    }

    /// End of input: a finite search finishes and prints its bestmove; an
    /// unbounded or pondering one is stopped, and a `go mate` search that
    /// finds no mate gives up at a depth its mate would have shown by; a
    /// `bench` or `go perft` finishes. Then the queued commands are carried
    /// out alike, in order.
    pub fn end_of_input(&mut self) {
        loop {
            if self.queued.front().is_none_or(waits_for_idle_engine) {
                self.finish_running_work();
            }
            let Some(command) = self.queued.pop_front() else {
                return;
            };
            self.execute_queued(command);
        }
    }

    /// `quit`: the running search and every queued one stop (each queued
    /// `go` as it starts), a `bench` or `go perft` finishes, and the rest of
    /// the queue is carried out.
    pub(super) fn quit(&mut self) {
        if let Some(search) = &self.search {
            search.job.control.stop();
        }
        self.stop_each_queued(|command| matches!(command, Command::Go(_)));
        self.end_of_input();
    }

    /// Queues `command` if it has to wait; gives it back if it is to be
    /// carried out now.
    pub(super) fn queue_if_busy(&mut self, command: Command) -> Option<Command> {
        match command {
            Command::IsReady | Command::Quit => return Some(command),
            Command::Stop if self.has_queued() => {
                self.stop_each_queued(|command| {
                    matches!(
                        command,
                        Command::Go(_) | Command::Bench { .. } | Command::Perft { .. }
                    )
                });
                return Some(command);
            }
            _ => {}
        }
        let waits =
            self.has_queued() || (waits_for_idle_engine(&command) && self.runs_finite_work());
        if !waits {
            return Some(command);
        }
        self.let_the_running_search_end();
        self.queued.push_back(command);
        None
    }

    /// Commands wait for the running search: a `go mate` that finds no
    /// mate must give up by itself, since no `stop` may come.
    fn let_the_running_search_end(&self) {
        if let Some(search) = &self.search {
            search.job.control.end_without_stop();
        }
    }

    /// Carries out a command from the queue, with the clock of now.
    fn execute_queued(&mut self, command: Command) {
        let flow = self.execute(command, Instant::now());
        debug_assert_eq!(flow, Flow::Continue, "quit is never queued");
    }

    /// Lets the running search end as at the end of input (an unbounded or
    /// pondering one is stopped), and waits for it and for a `bench` or `go
    /// perft`.
    fn finish_running_work(&mut self) {
        if let Some(search) = &self.search {
            if search.ends_by_itself() {
                search.job.control.end_without_stop();
            } else {
                search.job.control.stop();
            }
        }
        self.wait_for_search();
    }

    /// Puts a `stop` behind each queued command that `stoppable` picks.
    fn stop_each_queued(&mut self, stoppable: impl Fn(&Command) -> bool) {
        let queued = std::mem::take(&mut self.queued);
        for command in queued {
            let stop_after = stoppable(&command);
            self.queued.push_back(command);
            if stop_after {
                self.queued.push_back(Command::Stop);
            }
        }
    }

    /// Whether a search that will end by itself runs, or a `bench` or `go
    /// perft`.
    fn runs_finite_work(&mut self) -> bool {
        if !self.is_searching() {
            return false;
        }
        self.task.is_some()
            || self
                .search
                .as_ref()
                .is_some_and(RunningSearch::ends_by_itself)
    }
}

/// Whether `command` waits for a running finite search: a `go` or
/// `ucinewgame` would end it, and a `bench`, `go perft` or `setoption` of
/// the table, threads or network would be refused while it runs (every
/// `setoption` waits, so that options change in the order they were sent).
fn waits_for_idle_engine(command: &Command) -> bool {
    matches!(
        command,
        Command::Go(_)
            | Command::UciNewGame
            | Command::SetOption { .. }
            | Command::Bench { .. }
            | Command::Perft { .. }
    )
}
