//! One search thread's state, kept from one search to the next so its
//! history tables keep learning during a game: the ply stack, the
//! principal-variation table, the repetition keys, counters, and the main
//! thread's time-management record. The search's files (`alphabeta.rs`,
//! `quiescence.rs`, `driver.rs`, ...) each add their part of its methods.

use shakmaty::Move;

use super::correction::CorrectionHistory;
use super::history::{Histories, PieceTo};
use super::pv::PvTable;
use super::result::ThreadResult;
use super::stability::{RootMoveNodes, Stability};
use crate::board::KeyHistory;
use crate::score::{INFINITY, MAX_PLY};

/// A ply's static evaluation when it was in check (none was taken).
pub(super) const NO_EVAL: i32 = -INFINITY;

/// What the search remembers about each ply of the current path.
#[derive(Clone, Copy, Debug)]
pub(super) struct PlyState {
    /// The static evaluation, or `NO_EVAL` in check.
    pub(super) static_eval: i32,
    /// The move being searched from this ply (`None` for a null move).
    pub(super) moved: Option<PieceTo>,
    /// The table move left out while testing whether it is singular.
    pub(super) excluded: Option<Move>,
    /// Double extensions on the path up to this ply.
    pub(super) double_extensions: u8,
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
    pub(super) id: usize,
    pub(super) histories: Box<Histories>,
    pub(super) correction: CorrectionHistory,
    pub(super) stack: Vec<PlyState>,
    pub(super) pv: PvTable,
    pub(super) keys: KeyHistory,
    pub(super) nodes: u64,
    /// Nodes of the other threads, refreshed now and then (node limits).
    pub(super) other_nodes: u64,
    pub(super) seldepth: usize,
    pub(super) root_depth: i32,
    /// The running iteration's best root move so far, with its line: what
    /// a cut iteration keeps.
    pub(super) iteration_best: Option<ThreadResult>,
    /// Set when the search must unwind: every score after it is void.
    pub(super) aborted: bool,
    /// Root moves already given a line in this iteration (MultiPV).
    pub(super) excluded_root_moves: Vec<Move>,
    /// The best line of the last iteration (completed, or cut after it
    /// proved a root move): what is left to play if the search panics.
    pub(super) last_result: Option<ThreadResult>,
    /// Main thread only: how settled this search is (time management).
    pub(super) stability: Stability,
    /// Main thread only: where this search's nodes went (time management).
    pub(super) root_move_nodes: RootMoveNodes,
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
    pub(super) fn is_main(&self) -> bool {
        self.id == 0
    }
}
