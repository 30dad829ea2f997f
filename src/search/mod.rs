//! The search: iterative deepening over a negamax alpha-beta (PVS) with
//! quiescence, run by one [`Searcher`] per thread (Lazy SMP).
//!
//! The pieces, each in its own module so it can grow and be tested alone:
//! * [`alphabeta`]: the recursive search, with pruning;
//! * [`quiescence`]: captures below the horizon;
//! * [`stop`]: when a thread must unwind (stop, clock, node limit);
//! * [`driver`]: iterative deepening, aspiration windows, reporting;
//! * [`movepick`]: the order in which a node tries its moves;
//! * [`movekey`]: a move packed in 32 bits, compared cheaply with the
//!   table move, killers and countermove;
//! * [`history`]: what a thread learns about moves (killers, histories);
//! * [`correction`]: what a thread learns about its static evaluation's
//!   errors by pawn structure;
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
//! A [`SearchJob`] is everything one `go` needs, shared read-only by the
//! threads; a [`Searcher`] is one thread's mutable state, kept across
//! searches so its history tables keep learning during a game.

mod alphabeta;
mod control;
mod correction;
mod driver;
mod history;
mod limits;
mod movekey;
mod movepick;
mod pool;
mod pv;
mod quiescence;
mod report;
mod see;
mod stability;
mod stop;
mod strength;
mod tbprobe;
mod time;
pub mod tunables;

use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam::channel::{Receiver, Sender};
use shakmaty::{Move, Position};

pub use control::SearchControl;
pub use limits::Limits;
pub use pool::ThreadPool;
pub use report::{Iteration, Reporter, Silent};
pub(crate) use strength::CANDIDATE_LINES;
pub use strength::{Strength, chosen_elo};
pub use time::TimeBudget;

use crate::board::{Board, KeyHistory};
use crate::score::MAX_PLY;
use crate::tablebase::TbConfig;
use crate::tt::TranspositionTable;
use alphabeta::NO_EVAL;
use correction::CorrectionHistory;
use history::{Histories, PieceTo};
use pv::PvTable;
use stability::{RootMoveNodes, Stability};

/// The outcome of one thread's last iteration: a completed one, or one cut
/// short after it had proved a best root move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadResult {
    pub(crate) depth: i32,
    pub(crate) seldepth: usize,
    pub score: i32,
    /// Never empty: the first move is the best move.
    pub pv: Vec<Move>,
    /// False for an iteration cut short: then `depth` is the depth it was
    /// searching, the best move is the best of the root moves searched so
    /// far at that depth, and `score` a lower bound of the root's score.
    pub(crate) complete: bool,
}

impl ThreadResult {
    /// Orders results for playing: by the depth completed (a cut iteration
    /// completed the one before it), a completed iteration before a cut
    /// one of the same completed depth (its unsearched root moves might
    /// have been better), then the better score.
    pub(crate) fn rank(&self) -> (i32, bool, i32) {
        (
            self.depth - i32::from(!self.complete),
            self.complete,
            self.score,
        )
    }
}

/// Everything a search needs, shared by all its threads: what the caller
/// decided ([`JobSpec`]) and what the search shares between its threads.
pub struct SearchJob {
    pub(crate) spec: JobSpec,
    /// The clock's soft and hard limits for this search (`None`: no clock).
    pub(crate) time: Option<TimeBudget>,
    pub control: SearchControl,
    helper_results: (Sender<Option<ThreadResult>>, Receiver<Option<ThreadResult>>),
    finished: Sender<Option<ThreadResult>>,
    /// Tests only: (thread, depth) that panics on reaching that depth.
    #[cfg(test)]
    inject_panic: Option<(usize, i32)>,
    /// Tests only: (depth, line index) at whose start the search is stopped.
    #[cfg(test)]
    inject_stop: Option<(i32, usize)>,
    /// Tests only: the leader panics while concluding, before `bestmove`.
    #[cfg(test)]
    inject_finish_panic: bool,
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
    fn iteration<'a>(&self, line: &'a ThreadResult, multipv: usize) -> Iteration<'a> {
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
    fn mate_search_cap(&self) -> Option<i32> {
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

/// What the search remembers about each ply of the current path.
#[derive(Clone, Copy, Debug)]
struct PlyState {
    /// The static evaluation, or `NO_EVAL` in check.
    static_eval: i32,
    /// The move being searched from this ply (`None` for a null move).
    moved: Option<PieceTo>,
    /// The table move left out while testing whether it is singular.
    excluded: Option<Move>,
    /// Double extensions on the path up to this ply.
    double_extensions: u8,
}

impl Default for PlyState {
    fn default() -> Self {
        PlyState {
            static_eval: NO_EVAL,
            moved: None,
            excluded: None,
            double_extensions: 0,
        }
    }
}

/// One search thread's state.
pub(crate) struct Searcher {
    id: usize,
    histories: Box<Histories>,
    correction: CorrectionHistory,
    stack: Vec<PlyState>,
    pv: PvTable,
    keys: KeyHistory,
    nodes: u64,
    /// Nodes of the other threads, refreshed now and then (node limits).
    other_nodes: u64,
    seldepth: usize,
    root_depth: i32,
    /// The running iteration's best root move so far, with its line: what
    /// a cut iteration keeps.
    iteration_best: Option<ThreadResult>,
    /// Set when the search must unwind: every score after it is void.
    aborted: bool,
    /// Root moves already given a line in this iteration (MultiPV).
    excluded_root_moves: Vec<Move>,
    /// The best line of the last iteration (completed, or cut after it
    /// proved a root move): what is left to play if the search panics.
    last_result: Option<ThreadResult>,
    /// Main thread only: how settled this search is (time management).
    stability: Stability,
    /// Main thread only: where this search's nodes went (time management).
    root_move_nodes: RootMoveNodes,
}

impl Searcher {
    pub(crate) fn new(id: usize) -> Searcher {
        Searcher {
            id,
            histories: Box::default(),
            correction: CorrectionHistory::default(),
            stack: vec![PlyState::default(); MAX_PLY + 1],
            pv: PvTable::default(),
            keys: KeyHistory::default(),
            nodes: 0,
            other_nodes: 0,
            seldepth: 0,
            root_depth: 0,
            iteration_best: None,
            aborted: false,
            excluded_root_moves: Vec::new(),
            last_result: None,
            stability: Stability::default(),
            root_move_nodes: RootMoveNodes::default(),
        }
    }

    /// Thread 0 owns time management and output.
    fn is_main(&self) -> bool {
        self.id == 0
    }
}

#[cfg(test)]
mod search_tests;
