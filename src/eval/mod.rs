//! Static evaluation: the score of a position for the side to move, in
//! centipawns.
//!
//! The evaluation is the network of [`crate::nnue`], whose accumulators
//! travel inside each [`Board`] and are updated move by move, so
//! evaluating is only the output layer. The network replaced the hand-set
//! piece-square tables of generation 0 (commit a8dd93b and before), which
//! played the games it was first trained on.

use crate::board::Board;

/// Evaluates the position for the side to move.
pub(crate) fn evaluate(board: &Board) -> i32 {
    board.evaluate()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::rng::SplitMix64;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

    fn board(fen: &str) -> Board {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        Board::new(pos)
    }

    /// The position with colours swapped and the board turned top to
    /// bottom, built from scratch.
    fn colour_flipped(board: &Board) -> Board {
        let pos: Chess = board
            .pos()
            .to_setup(EnPassantMode::Legal)
            .into_mirrored()
            .position(CastlingMode::Standard)
            .unwrap();
        Board::new(pos)
    }

    #[test]
    fn the_search_boards_evaluation_equals_that_of_the_colour_flipped_position() {
        // Random games played as the search plays them (copy-make, with a
        // null move now and then): the evaluation kept move by move must
        // equal the same position's from scratch and its colour-flipped
        // position's from scratch. The shipped network has no symmetry of
        // its own, so a perspective mixed up anywhere shows.
        const GAMES: usize = 40;
        const PLIES: usize = 150;
        const NULL_MOVE_ONE_IN: usize = 8;
        let mut rng = SplitMix64::new(17);
        let mut checked = 0;
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            // Castling both ways, en passant, promotions for both sides.
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 4",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ] {
            for _ in 0..GAMES {
                let mut board = board(fen);
                for _ in 0..PLIES {
                    let moves = board.pos().legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    board = match board.play_null() {
                        Some(null) if rng.below(NULL_MOVE_ONE_IN) == 0 => null,
                        _ => board.play(rng.choose(&moves)),
                    };
                    let fen = Fen::from_position(board.pos(), EnPassantMode::Legal);
                    let kept = evaluate(&board);
                    let fresh = Board::new(board.pos().clone());
                    assert_eq!(kept, evaluate(&fresh), "move by move, {fen}");
                    assert_eq!(kept, evaluate(&colour_flipped(&board)), "flipped, {fen}");
                    checked += 1;
                }
            }
        }
        assert!(checked > GAMES * PLIES, "{checked}");
    }

    #[test]
    fn the_shipped_network_sees_material() {
        // A bare queen is a won game; networks 3, 4 and 5 give it 820, 760
        // and 792 cp, gen 14 615 and 591 (white and black to move). Well
        // above any opening's edge is all this asks.
        const QUEEN_UP_AT_LEAST: i32 = 500;
        let fen = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
        assert!(evaluate(&board(fen)) > QUEEN_UP_AT_LEAST);
        let fen = "4k3/8/8/8/8/8/8/3QK3 b - - 0 1";
        assert!(evaluate(&board(fen)) < -QUEEN_UP_AT_LEAST);
        let start = evaluate(&Board::startpos());
        assert!(start.abs() < 60, "start position {start}");
    }
}
