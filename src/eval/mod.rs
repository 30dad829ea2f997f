//! Static evaluation: a tapered (midgame/endgame) sum of material and
//! piece-square values plus a bishop-pair bonus, returned in centipawns from
//! the side to move's point of view.
//!
//! The game phase is read from the non-pawn material left on the board
//! (knight and bishop 1, rook 2, queen 4; 24 at the start) and blends the two
//! phase scores linearly. This is the baseline that a tuned evaluation will
//! replace; the search only relies on `evaluate` returning a side-to-move
//! score that is symmetric under colour flip.

mod pst;

pub use pst::midgame_value;

use shakmaty::{Board, Color, Position, Role};

use crate::board::Board as SearchBoard;

/// Phase weight of each role, indexed by `Role as usize - 1`.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// Phase of the starting position (full midgame).
const MAX_PHASE: i32 = 24;
const BISHOP_PAIR: (i32, i32) = (25, 45);

/// Evaluates the position for the side to move.
pub fn evaluate(board: &SearchBoard) -> i32 {
    let pos = board.pos();
    let white = evaluate_white(pos.board());
    match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// Score from White's point of view.
fn evaluate_white(board: &Board) -> i32 {
    let mut midgame = 0;
    let mut endgame = 0;
    let mut phase = 0;
    for (square, piece) in board.iter() {
        let role_index = piece.role as usize - 1;
        let (index, sign) = match piece.color {
            Color::White => (usize::from(square), 1),
            Color::Black => (usize::from(square.flip_vertical()), -1),
        };
        midgame += sign * pst::TABLES.midgame[role_index][index];
        endgame += sign * pst::TABLES.endgame[role_index][index];
        phase += PHASE_WEIGHT[role_index];
    }
    for (color, sign) in [(Color::White, 1), (Color::Black, -1)] {
        if (board.by_color(color) & board.by_role(Role::Bishop)).count() >= 2 {
            midgame += sign * BISHOP_PAIR.0;
            endgame += sign * BISHOP_PAIR.1;
        }
    }
    let phase = phase.min(MAX_PHASE);
    (midgame * phase + endgame * (MAX_PHASE - phase)) / MAX_PHASE
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess};

    fn board(fen: &str) -> SearchBoard {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        SearchBoard::new(pos)
    }

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate(&SearchBoard::startpos()), 0);
    }

    #[test]
    fn evaluation_is_symmetric_under_colour_flip() {
        let white = board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let black = board("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
        assert_eq!(evaluate(&white), evaluate(&black));
    }

    #[test]
    fn extra_queen_is_winning_for_its_side() {
        let fen = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
        assert!(evaluate(&board(fen)) > 800);
        let fen = "4k3/8/8/8/8/8/8/3QK3 b - - 0 1";
        assert!(evaluate(&board(fen)) < -800);
    }
}
