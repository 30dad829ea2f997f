//! What a `go` command asks of the search: how deep and how long.
//!
//! This is plain data parsed from the UCI line; the time manager turns the
//! clock fields into deadlines and the search reads the rest. The root
//! moves (`searchmoves`) travel in the search job, already checked legal.

use std::time::Duration;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub ponder: bool,
    pub white_time: Option<Duration>,
    pub black_time: Option<Duration>,
    pub(crate) white_increment: Option<Duration>,
    pub(crate) black_increment: Option<Duration>,
    pub(crate) moves_to_go: Option<u32>,
    pub depth: Option<i32>,
    /// Hard node limit: the search unwinds as soon as it is reached, even
    /// inside an iteration.
    pub nodes: Option<u64>,
    /// Soft node limit: no new iteration starts once this many nodes are
    /// searched (not a UCI limit: self-play uses it so that every move is
    /// scored by a completed iteration, with `nodes` as a far cap).
    pub(crate) soft_nodes: Option<u64>,
    /// Stop once a mate in this many moves (or fewer) is found; once no
    /// `stop` can be waited for (the input has ended, or commands wait for
    /// the search), also at [`Limits::mate_search_depth`] without one.
    pub(crate) mate: Option<u32>,
    pub move_time: Option<Duration>,
    /// `go infinite`: read only through the methods below, which say what
    /// it means for each part of the search.
    pub infinite: bool,
}

/// Plies beyond a mate's own length that a `go mate` search goes on
/// looking once no `stop` can come (end of input, queued commands):
/// pruning and reductions can hide a mate from the iteration as deep as
/// the mate is.
const MATE_SEARCH_SLACK_PLIES: i32 = 8;

impl Limits {
    /// The depth at which a `go mate N` search gives up once no `stop` can
    /// be waited for (the input has ended, or commands wait for the
    /// search): past it a mate in N moves (2N − 1 plies) is not there to be
    /// found. Otherwise `stop` ends such a search.
    pub(crate) fn mate_search_depth(mate_moves: u32) -> i32 {
        let mate_plies = (2 * i64::from(mate_moves) - 1).max(1);
        (mate_plies + i64::from(MATE_SEARCH_SLACK_PLIES)).min(i64::from(i32::MAX)) as i32
    }

    /// Whether the `bestmove` waits for `stop` (or `ponderhit`) even once
    /// the search has ended by a limit: `go infinite`, as UCI asks.
    pub(crate) fn bestmove_waits_for_stop(&self) -> bool {
        self.infinite
    }

    /// Whether the clock fields are a time budget: not under `go infinite`,
    /// which has none, whatever clocks come with it.
    pub(crate) fn uses_clock(&self) -> bool {
        !self.infinite
    }

    /// The node count that ends the search: none under `go infinite`.
    pub(crate) fn node_cap(&self) -> Option<u64> {
        self.nodes.filter(|_| !self.infinite)
    }

    /// Whether nothing but `stop` ends the search in reasonable time: `go
    /// infinite`, or a `go` with no limit at all.
    pub(crate) fn is_unbounded(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.soft_nodes.is_none()
                && self.mate.is_none()
                && self.move_time.is_none()
                && self.white_time.is_none()
                && self.black_time.is_none())
    }

    /// A search limited only by depth (bench, tests).
    pub fn depth(depth: i32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }
}
