//! Perft: counts the leaf nodes of the legal move tree to a fixed depth, the
//! standard check of a move generator (here shakmaty's and our make-move
//! path) against known counts, and a measure of raw move-generation speed.
//!
//! It walks the tree with [`Board::play`], the same copy-make the search
//! uses, so it also exercises the incremental Zobrist key and the network's
//! accumulator updates (and its speed includes them). At depth 1 it
//! counts the moves instead of playing them (bulk counting).
//!
//! Inside the UCI loop it runs on a thread of its own, which a stop flag
//! ends early; the flag is read once per interior node, next to which
//! generating the node's moves costs far more. The depth is bounded
//! ([`MAX_DEPTH`]): the walk recurses once per ply.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Chess, Position};

use crate::board::Board;
use crate::util::rate::nodes_per_second;

/// The deepest perft asked for: far past any count that could finish, and
/// shallow enough for the recursion on any thread's stack (each ply holds
/// a board and a move list).
pub const MAX_DEPTH: u32 = 64;

/// Leaf nodes of `board` at `depth`.
pub fn perft(board: &Board, depth: u32) -> u64 {
    count_until(board, depth, &AtomicBool::new(false))
}

/// [`perft`], giving up (with a count that means nothing) once `stop` is
/// set.
fn count_until(board: &Board, depth: u32, stop: &AtomicBool) -> u64 {
    let moves = board.pos().legal_moves();
    match depth {
        0 => 1,
        1 => moves.len() as u64,
        _ if stop.load(Ordering::Relaxed) => 0,
        _ => moves
            .iter()
            .map(|&m| count_until(&board.play(m), depth - 1, stop))
            .sum(),
    }
}

/// What a finished perft counted, and in how long.
pub struct Summary {
    pub total: u64,
    elapsed: Duration,
}

impl Summary {
    /// The closing lines: the speed, then `Nodes searched: N`.
    pub fn lines(&self) -> [String; 2] {
        let nps = nodes_per_second(self.total, self.elapsed);
        [
            format!("time {} ms, {nps} nodes/second", self.elapsed.as_millis()),
            format!("Nodes searched: {}", self.total),
        ]
    }
}

/// Perft of `pos` to `depth` (at most [`MAX_DEPTH`]), reporting a line per
/// root move when `per_move` (divide); `None` when `stop` was set first.
pub fn run(
    pos: &Chess,
    depth: u32,
    mode: CastlingMode,
    per_move: bool,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&str),
) -> Option<Summary> {
    assert!(depth <= MAX_DEPTH, "perft depth {depth} beyond {MAX_DEPTH}");
    let board = Board::new(pos.clone());
    let start = Instant::now();
    let mut total = 0;
    if depth == 0 {
        total = 1;
    } else {
        for m in board.pos().legal_moves() {
            let count = count_until(&board.play(m), depth - 1, stop);
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            if per_move {
                report(&format!("{}: {count}", m.to_uci(mode)));
            }
            total += count;
        }
    }
    Some(Summary {
        total,
        elapsed: start.elapsed(),
    })
}
