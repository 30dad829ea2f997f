//! Static evaluation: the score of a position for the side to move, in
//! centipawns, and the material values that move ordering and pruning use.
//!
//! The evaluation is the network of [`crate::nnue`], whose accumulators
//! travel inside each [`SearchBoard`] and are updated move by move, so
//! evaluating is only the output layer. The network replaced the hand-set
//! piece-square tables of generation 0 (commit a8dd93b and before), which
//! played the games it was first trained on.

use shakmaty::Role;

use crate::board::Board as SearchBoard;

/// Midgame material values in centipawns, indexed by `Role as usize - 1`.
const MIDGAME_MATERIAL: [i32; 6] = [85, 325, 345, 480, 1000, 0];

/// Evaluates the position for the side to move.
pub fn evaluate(board: &SearchBoard) -> i32 {
    board.evaluate()
}

/// Midgame material of a role, used by move ordering and pruning margins.
pub const fn midgame_value(role: Role) -> i32 {
    MIDGAME_MATERIAL[role as usize - 1]
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
    fn evaluation_is_symmetric_under_colour_flip() {
        let white = board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let black = board("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
        assert_eq!(evaluate(&white), evaluate(&black));
    }

    #[test]
    fn the_shipped_network_sees_material() {
        // A bare queen is a won game; networks 3, 4 and 5 give it 820, 760
        // and 792 cp. Well above any opening's edge is all this asks.
        const QUEEN_UP_AT_LEAST: i32 = 600;
        let fen = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
        assert!(evaluate(&board(fen)) > QUEEN_UP_AT_LEAST);
        let fen = "4k3/8/8/8/8/8/8/3QK3 b - - 0 1";
        assert!(evaluate(&board(fen)) < -QUEEN_UP_AT_LEAST);
        let start = evaluate(&SearchBoard::startpos());
        assert!(start.abs() < 60, "start position {start}");
    }
}
