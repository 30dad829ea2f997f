//! The search: iterative deepening over a negamax alpha-beta (PVS) with
//! quiescence, run by one [`searcher::Searcher`] per thread (Lazy SMP).
//!
//! The pieces, each in its own module so it can grow and be tested alone:
//! * [`alphabeta`]: the recursive search, with pruning;
//! * [`reductions`]: how far late moves are reduced (quiet and tactical
//!   tables);
//! * [`quiescence`]: captures below the horizon;
//! * [`stop`]: when a thread must unwind (stop, clock, node limit);
//! * [`driver`]: iterative deepening, aspiration windows, reporting;
//! * [`movepick`]: the order in which a node tries its moves;
//! * [`movekey`]: a move packed in 32 bits, compared cheaply with the
//!   table move, killers and countermove;
//! * [`history`]: what a thread learns about moves (killers, histories);
//! * [`correction`]: what a thread learns about its static evaluation's
//!   errors by pawn structure, by each side's pieces and by the last two
//!   moves;
//! * [`pv`]: the principal-variation table;
//! * [`tunables`]: the search constants SPSA may tune, declared once;
//! * [`see`]: static exchange evaluation of captures;
//! * [`limits`]: what `go` asks for (depth, nodes, mate, infinite);
//! * [`time`]: soft and hard time limits from the clock;
//! * [`stability`]: stretches or shortens the soft limit as the best move
//!   and score settle, and by the best move's share of the nodes;
//! * [`control`]: the stop flag, clock, node and tablebase-hit counters
//!   threads share;
//! * [`tbprobe`]: the Syzygy probe inside the search;
//! * [`strength`]: `UCI_LimitStrength`: a node budget and a weighted
//!   choice among candidate lines;
//! * [`report`]: the [`Reporter`] through which a search speaks;
//! * [`pool`]: the thread pool that runs a search on every thread and picks
//!   the result.
//!
//! * [`job`]: a search's job ([`SearchJob`], from the caller's
//!   [`JobSpec`]); [`result`]: each thread's [`ThreadResult`];
//! * [`searcher`]: one thread's state ([`searcher::Searcher`]).
//!
//! A [`SearchJob`] is everything one `go` needs, shared read-only by the
//! threads; a `Searcher` is one thread's mutable state, kept across
//! searches so its history tables keep learning during a game.
//!
//! This file is the search's front door only: it declares the files and
//! says what the search offers the rest of the crate. The files import
//! each other directly (the shared types from `job.rs` and
//! `searcher.rs`), never through it, so the arrows inside the folder run
//! one way.

mod alphabeta;
mod control;
mod correction;
mod driver;
mod history;
mod job;
mod limits;
mod movekey;
mod movepick;
mod pool;
mod pv;
mod quiescence;
mod reductions;
mod report;
mod result;
mod searcher;
mod see;
mod stability;
mod stop;
mod strength;
mod tbprobe;
mod time;
pub mod tunables;

pub use control::SearchControl;
pub use job::{JobSpec, SearchJob};
pub use limits::Limits;
pub use pool::ThreadPool;
pub use report::{Iteration, Reporter, Silent};
pub use result::ThreadResult;
pub use strength::Strength;
pub(crate) use strength::{MAX_ELO, MIN_ELO};
pub use time::TimeBudget;

#[cfg(test)]
mod search_tests;
