//! What a search tells the outside world, and through what.
//!
//! The search knows nothing of the protocol: it hands each completed line,
//! the final choice and any fault to a [`Reporter`] that whoever starts the
//! search supplies. The UCI engine's reporter (`uci::format::UciReporter`)
//! writes `info` and `bestmove` lines; bench, tests and tools pass
//! [`Silent`]. This keeps the protocol text in `uci/` and lets every caller
//! run the same search.

use std::time::Duration;

use shakmaty::Move;

use super::result::ThreadResult;

/// A line of an iteration (completed, or cut short after proving a root
/// move) with the search's counters at that moment.
pub struct Iteration<'a> {
    pub(crate) line: &'a ThreadResult,
    /// 1 for the best line (MultiPV).
    pub(crate) multipv: usize,
    pub(crate) nodes: u64,
    pub(crate) tb_hits: u64,
    /// Per mille of the transposition table in use.
    pub(crate) hashfull: usize,
    /// Time since the `go` arrived, pondering included.
    pub(crate) elapsed: Duration,
}

/// Receives what a search reports. Called from search threads, so it must
/// be shareable.
pub trait Reporter: Send + Sync {
    /// A line of a completed iteration, or the best line of one cut short.
    fn iteration(&self, iteration: &Iteration);
    /// The move to play (`None`: there is no legal move) and the reply the
    /// search expects.
    fn best_move(&self, best: Option<Move>, ponder: Option<Move>);
    /// Something went wrong that the user should hear of; the search goes on.
    fn error(&self, message: &str);
}

/// A reporter that says nothing.
pub struct Silent;

impl Reporter for Silent {
    fn iteration(&self, _: &Iteration) {}
    fn best_move(&self, _: Option<Move>, _: Option<Move>) {}
    fn error(&self, message: &str) {
        log::warn!("{message}");
    }
}
