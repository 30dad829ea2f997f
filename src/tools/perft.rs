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
//! ends early (`stop`, `quit`, a new `go`); the flag is read once per
//! interior node, next to which generating the node's moves costs far more.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use shakmaty::{CastlingMode, Chess, Position};

use crate::board::Board;
use crate::rate::nodes_per_second;

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

/// Perft of `pos`, reporting a line per root move when `per_move` (divide),
/// then the speed and `Nodes searched: N`. Returns the total, or `None`
/// when `stop` was set first (then it reports only that it stopped).
pub fn run(
    pos: &Chess,
    depth: u32,
    mode: CastlingMode,
    per_move: bool,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&str),
) -> Option<u64> {
    let board = Board::new(pos.clone());
    let start = Instant::now();
    let mut total = 0;
    if depth == 0 {
        total = 1;
    } else {
        for m in board.pos().legal_moves() {
            let count = count_until(&board.play(m), depth - 1, stop);
            if stop.load(Ordering::Relaxed) {
                report("perft stopped");
                return None;
            }
            if per_move {
                report(&format!("{}: {count}", m.to_uci(mode)));
            }
            total += count;
        }
    }
    let elapsed = start.elapsed();
    let nps = nodes_per_second(total, elapsed);
    report(&format!(
        "time {} ms, {nps} nodes/second",
        elapsed.as_millis()
    ));
    report(&format!("Nodes searched: {total}"));
    Some(total)
}
