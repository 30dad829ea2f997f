//! One search's job: what the caller decided ([`JobSpec`]), and what the
//! search works out from it and shares between its threads
//! ([`SearchJob`]).
//!
//! The types every file of the search uses live here, below them all, so
//! that the folder's imports run one way: the files import this one, and
//! `mod.rs` only declares the files and says what the search offers.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam::channel::{Receiver, Sender};
use shakmaty::{Move, Position};

use super::control::SearchControl;
use super::limits::Limits;
use super::report::{Iteration, Reporter, Silent};
use super::result::ThreadResult;
use super::strength::Strength;
use super::time::{self, TimeBudget};
use crate::board::Board;
use crate::tablebase::TbConfig;
use crate::tt::TranspositionTable;

/// Everything a search needs, shared by all its threads: what the caller
/// decided ([`JobSpec`]) and what the search shares between its threads.
pub struct SearchJob {
    pub(crate) spec: JobSpec,
    /// The clock's soft and hard limits for this search (`None`: no clock).
    pub(crate) time: Option<TimeBudget>,
    pub control: SearchControl,
    pub(super) helper_results: (Sender<Option<ThreadResult>>, Receiver<Option<ThreadResult>>),
    pub(super) finished: Sender<Option<ThreadResult>>,
    /// Tests only: (thread, depth) that panics on reaching that depth.
    #[cfg(test)]
    pub(super) inject_panic: Option<(usize, i32)>,
    /// Tests only: (depth, line index) at whose start the search is stopped.
    #[cfg(test)]
    pub(super) inject_stop: Option<(i32, usize)>,
    /// Tests only: the leader panics while concluding, before `bestmove`.
    #[cfg(test)]
    pub(super) inject_finish_panic: bool,
}

/// What the caller decides about a search; [`SearchJob::new`] works out
/// the rest (a chosen strength's node budget, the clock's time budget) and
/// adds the shared control block and the channels. [`JobSpec::new`] gives
/// the defaults a tool wants: callers change only the fields they decide.
pub struct JobSpec {
    pub root: Board,
    /// Keys of the game's positions, ending with the root's.
    pub game_keys: Vec<u64>,
    /// The legal root moves to search (filtered by `searchmoves`).
    pub root_moves: Vec<Move>,
    pub limits: Limits,
    /// How many best lines the main thread reports (MultiPV).
    pub multipv: usize,
    /// A chosen playing strength (`UCI_LimitStrength`, `Skill Level`);
    /// `None` plays best. The job adds its node budget to the limits and
    /// searches it on one thread.
    pub strength: Option<Strength>,
    /// Taken off every clock budget (`Move Overhead`).
    pub move_overhead: Duration,
    pub tt: Arc<TranspositionTable>,
    /// Threads that search it, the pool's first ones (at least one, at most
    /// the pool's size).
    pub threads: usize,
    /// Where iterations, the best move and faults are reported.
    pub reporter: Arc<dyn Reporter>,
    /// Syzygy tables to probe in the search, if any.
    pub tablebase: Option<TbConfig>,
    /// When the `go` arrived: the clock and the reported times run from here.
    pub started: Instant,
}

impl JobSpec {
    /// A search of `root`, reached through the positions of `game_keys`
    /// (ending with the root's), within `limits`, sharing `tt`: every legal
    /// move, one line, full strength, no move overhead, one thread, no
    /// reports, no tablebases, started now.
    pub fn new(
        root: Board,
        game_keys: Vec<u64>,
        limits: Limits,
        tt: Arc<TranspositionTable>,
    ) -> JobSpec {
        JobSpec {
            root_moves: root.pos().legal_moves().into_iter().collect(),
            root,
            game_keys,
            limits,
            multipv: 1,
            strength: None,
            move_overhead: Duration::ZERO,
            tt,
            threads: 1,
            reporter: Arc::new(Silent),
            tablebase: None,
            started: Instant::now(),
        }
    }
}

impl SearchJob {
    /// The report of line `multipv` of an iteration, with the counters as
    /// they are now.
    pub(super) fn iteration<'a>(&self, line: &'a ThreadResult, multipv: usize) -> Iteration<'a> {
        Iteration {
            line,
            multipv,
            nodes: self.control.total_nodes(),
            tb_hits: self.control.total_tb_hits(),
            hashfull: self.spec.tt.hashfull(),
            elapsed: self.control.since_go(),
        }
    }

    /// The depth past which a `go mate` search gives up once no `stop` is
    /// to be waited for (the input has ended, or commands wait for the
    /// search); `None` otherwise.
    pub(super) fn mate_search_cap(&self) -> Option<i32> {
        let mate = self.spec.limits.mate?;
        self.control
            .must_end_without_stop()
            .then(|| Limits::mate_search_depth(mate))
    }

    /// A job and the receiver that gets the chosen result (`None` when no
    /// move was searched) once the `bestmove` has been printed and every
    /// thread is idle.
    pub fn new(mut spec: JobSpec) -> (SearchJob, Receiver<Option<ThreadResult>>) {
        if let Some(strength) = spec.strength {
            spec.limits = strength.limit(std::mem::take(&mut spec.limits));
            // Its node budget and calibration are one thread's: more would
            // play stronger than its rating.
            spec.threads = 1;
        }
        let time = time::budget(&spec.limits, spec.root.turn(), spec.move_overhead);
        let (finished, done) = crossbeam::channel::bounded(1);
        let control = SearchControl::new(spec.threads, spec.limits.ponder, spec.started);
        let job = SearchJob {
            spec,
            time,
            control,
            helper_results: crossbeam::channel::unbounded(),
            finished,
            #[cfg(test)]
            inject_panic: None,
            #[cfg(test)]
            inject_stop: None,
            #[cfg(test)]
            inject_finish_panic: false,
        };
        (job, done)
    }
}
