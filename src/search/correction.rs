//! Correction history: how far the search's results have been from the
//! static evaluation in positions with the same pawn structure, used to
//! correct the static evaluation before pruning decisions read it.
//!
//! A hand-written evaluation misjudges whole families of positions in the
//! same direction (a passed pawn it underrates, a weak structure it
//! ignores), and pawn structure is the most lasting feature of such a
//! family. After a node's search, when its result is trustworthy (not a
//! bound on the wrong side of the static evaluation, not in check, not
//! decided by a capture), the difference between search score and static
//! evaluation is blended into the entry of the side to move's pawn key,
//! weighted by depth. Entries are kept in [`GRAIN`]ths of a centipawn so
//! small weights still move them.

use shakmaty::{Color, Position, Role};

use crate::board::Board;

/// Entries per side (a power of two).
const ENTRIES: usize = 1 << 14;
/// Fixed-point scale of an entry.
const GRAIN: i32 = 256;
/// Weights of one update are out of this.
const WEIGHT_SCALE: i32 = 256;
/// The largest weight, reached at depth [`MAX_WEIGHT`] − 1.
const MAX_WEIGHT: i32 = 16;
/// Corrections stay within ±this many centipawns.
const MAX_CORRECTION: i32 = 64;

pub struct CorrectionHistory {
    entries: Box<[[i32; ENTRIES]; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            entries: Box::new([[0; ENTRIES]; 2]),
        }
    }
}

/// The table index of the pawn structure of `board`.
fn pawn_index(board: &Board) -> usize {
    const WHITE_MIX: u64 = 0x9e37_79b9_7f4a_7c15;
    const BLACK_MIX: u64 = 0xc2b2_ae3d_27d4_eb4f;
    let pieces = board.pos().board();
    let pawns = pieces.by_role(Role::Pawn);
    let white = (pawns & pieces.by_color(Color::White)).0;
    let black = (pawns & pieces.by_color(Color::Black)).0;
    let key = white.wrapping_mul(WHITE_MIX) ^ black.wrapping_mul(BLACK_MIX).rotate_left(32);
    (key >> (64 - ENTRIES.trailing_zeros())) as usize
}

impl CorrectionHistory {
    /// `static_eval` of `board` corrected by what searches of positions
    /// with its pawn structure found.
    pub fn corrected(&self, board: &Board, static_eval: i32) -> i32 {
        static_eval + self.entries[board.turn() as usize][pawn_index(board)] / GRAIN
    }

    /// Blends a search result of `board` at `depth` into its entry.
    pub fn update(&mut self, board: &Board, depth: i32, search_score: i32, static_eval: i32) {
        let entry = &mut self.entries[board.turn() as usize][pawn_index(board)];
        let target = (search_score - static_eval).clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        let weight = (depth + 1).min(MAX_WEIGHT);
        *entry = (*entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_move_toward_search_results_and_stay_bounded() {
        let board = Board::startpos();
        let mut history = CorrectionHistory::default();
        assert_eq!(history.corrected(&board, 10), 10);
        for _ in 0..1000 {
            history.update(&board, 20, 10_000, 0);
        }
        let high = history.corrected(&board, 0);
        assert!(
            (MAX_CORRECTION - 1..=MAX_CORRECTION).contains(&high),
            "{high}"
        );
        for _ in 0..1000 {
            history.update(&board, 20, -30, 0);
        }
        assert!((-31..=-29).contains(&history.corrected(&board, 0)));
    }
}
