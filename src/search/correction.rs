//! Correction history: how far searches have found the static evaluation
//! off in positions with the same pawn structure, added back to the static
//! evaluation that pruning and reductions trust.
//!
//! An evaluation tends to misjudge a pawn structure the same way in every
//! position that has it (a weak pawn it overrates, a passer it underrates),
//! and the search keeps finding that out. Each entry, keyed by side to move
//! and a hash of both sides' pawns, holds a running average of
//! `search score − raw evaluation`, learnt only from nodes whose result
//! says which way the evaluation erred (a fail high above it, a fail low
//! below it, or an exact score), whose best move, if any, is quiet (a capture's
//! gain is the search's, not the structure's) and whose score is no mate
//! or tablebase result. Deeper results weigh more.
//! Each Lazy-SMP thread owns its table, as it owns its move histories.

use shakmaty::{Color, Position};

use crate::board::Board;
use crate::rng::mix64;
use crate::score::{MAX_EVAL, is_decided};

/// Entries per side to move; a power of two, so the index is a mask.
const ENTRIES: usize = 1 << 14;
/// Entries hold centipawns times this, for resolution in the average.
const GRAIN: i32 = 256;
/// An entry corrects by at most this many centipawns.
const MAX_CORRECTION_CP: i32 = 64;
const MAX_ENTRY: i32 = MAX_CORRECTION_CP * GRAIN;
const _: () = assert!(MAX_ENTRY <= i16::MAX as i32);
/// An update moves an entry `weight / WEIGHT_SCALE` of the way to the new
/// error, with `weight = min(depth + 1, MAX_WEIGHT)`.
const WEIGHT_SCALE: i32 = 256;
const MAX_WEIGHT: i32 = 16;

pub(crate) struct CorrectionHistory {
    table: Box<[[i16; ENTRIES]; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            table: Box::new([[0; ENTRIES]; 2]),
        }
    }
}

impl CorrectionHistory {
    /// `raw_eval` of `board` corrected by what searches have learnt of its
    /// pawn structure, kept clear of tablebase and mate scores.
    pub(crate) fn correct(&self, board: &Board, raw_eval: i32) -> i32 {
        let correction = i32::from(*self.entry(board)) / GRAIN;
        (raw_eval + correction).clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// Learns from a node searched to `depth` whose raw static evaluation
    /// was `raw_eval` and whose search found `score`. A decided score (a
    /// mate, a tablebase result, or a win the fifty-move rule may spoil)
    /// is no measure of the evaluation and teaches nothing; for any other,
    /// the caller decides whether the node's result tells anything about
    /// the evaluation.
    pub(crate) fn update(&mut self, board: &Board, depth: i32, raw_eval: i32, score: i32) {
        if is_decided(score) {
            return;
        }
        let target = ((score - raw_eval) * GRAIN).clamp(-MAX_ENTRY, MAX_ENTRY);
        let weight = (depth + 1).min(MAX_WEIGHT);
        let entry = self.entry_mut(board);
        let blended =
            (i32::from(*entry) * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
        *entry = blended.clamp(-MAX_ENTRY, MAX_ENTRY) as i16;
    }

    fn entry(&self, board: &Board) -> &i16 {
        &self.table[board.turn() as usize][index(board)]
    }

    fn entry_mut(&mut self, board: &Board) -> &mut i16 {
        &mut self.table[board.turn() as usize][index(board)]
    }
}

/// The table slot of `board`'s pawn structure: both sides' pawn sets
/// hashed, so that structures differing only in colour differ too.
fn index(board: &Board) -> usize {
    let pieces = board.pos().board();
    let pawns = pieces.pawns();
    let white = (pawns & pieces.by_color(Color::White)).0;
    let black = (pawns & pieces.by_color(Color::Black)).0;
    (mix64(white ^ mix64(black)) as usize) & (ENTRIES - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{mate_in, mated_in, tb_loss_in, tb_win_in};
    use shakmaty::fen::Fen;

    fn board(fen: &str) -> Board {
        let fen: Fen = fen.parse().unwrap();
        Board::new(fen.into_position(shakmaty::CastlingMode::Standard).unwrap())
    }

    #[test]
    fn a_fresh_table_corrects_nothing() {
        let b = board("4k3/pp6/8/8/8/8/6PP/4K3 w - - 0 1");
        assert_eq!(CorrectionHistory::default().correct(&b, 37), 37);
    }

    #[test]
    fn corrections_move_toward_the_search_and_stay_bounded() {
        let b = board("4k3/pp6/8/8/8/8/6PP/4K3 w - - 0 1");
        let mut history = CorrectionHistory::default();
        history.update(&b, 15, 0, 40);
        let once = history.correct(&b, 0);
        assert!(once > 0 && once < 40, "one update moves part way: {once}");
        for _ in 0..1000 {
            history.update(&b, 20, 0, 10_000);
        }
        // The running average approaches its bound from below (integer
        // division rounds down) and never passes it.
        let saturated = history.correct(&b, 0);
        assert!(
            (MAX_CORRECTION_CP - 1..=MAX_CORRECTION_CP).contains(&saturated),
            "{saturated}"
        );
        // An evaluation at the top of its range is not lifted into the
        // tablebase wins.
        assert_eq!(history.correct(&b, MAX_EVAL), MAX_EVAL);
    }

    #[test]
    fn decisive_scores_teach_nothing() {
        // A mate or a tablebase result is not the evaluation's error.
        let b = board("4k3/pp6/8/8/8/8/6PP/4K3 w - - 0 1");
        let mut history = CorrectionHistory::default();
        // Nor is a win from the table that the fifty-move rule may spoil,
        // which comes back as the largest evaluation (the training data
        // drops it by the same predicate).
        for score in [
            tb_win_in(5),
            tb_loss_in(7),
            mate_in(3),
            mated_in(4),
            MAX_EVAL,
            -MAX_EVAL,
        ] {
            history.update(&b, 15, 0, score);
            assert_eq!(history.correct(&b, 0), 0, "{score}");
        }
    }

    #[test]
    fn the_same_pawns_share_an_entry_and_the_side_to_move_does_not() {
        let mut history = CorrectionHistory::default();
        let white = board("4k3/pp6/8/8/8/8/6PP/4K3 w - - 0 1");
        history.update(&white, 15, 0, 60);
        let same_pawns_other_pieces = board("3qk3/pp6/8/8/8/8/6PP/3QK3 w - - 0 1");
        assert_eq!(
            history.correct(&same_pawns_other_pieces, 0),
            history.correct(&white, 0)
        );
        let black_to_move = board("4k3/pp6/8/8/8/8/6PP/4K3 b - - 0 1");
        assert_eq!(history.correct(&black_to_move, 0), 0);
    }
}
