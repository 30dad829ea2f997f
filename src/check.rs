//! Whether a move gives check, told from attack tables without playing it.
//!
//! The search decides whether to prune a quiet move before making it, and
//! a checking move is spared futility and late-move pruning. shakmaty answers "is the side to move
//! in check?" only for a position, so asking it means copying the board
//! and playing the move (the largest single cost in the profile), which is
//! wasted on every move that is then pruned. A normal move checks when the
//! piece on its target square attacks the enemy king (direct check) or when
//! leaving its square opens a line from one of our sliders to that king
//! (discovered check); both follow from the occupancy after the move.
//! Castling and en passant, rare and with two pieces moving, are played
//! out on a copy instead.

use shakmaty::{Bitboard, Chess, Move, Piece, Position, attacks};

/// Whether the legal move `m` leaves the opponent of the side to move in
/// `pos` in check.
pub fn gives_check(pos: &Chess, m: Move) -> bool {
    let Move::Normal {
        role,
        from,
        to,
        promotion,
        ..
    } = m
    else {
        let mut after = pos.clone();
        after.play_unchecked(m);
        return after.is_check();
    };
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(!us) else {
        return false;
    };
    let occupied = (board.occupied() & !Bitboard::from(from)) | Bitboard::from(to);
    let moved = Piece {
        color: us,
        role: promotion.unwrap_or(role),
    };
    if attacks::attacks(to, moved, occupied).contains(king) {
        return true;
    }
    // Our sliders that did not move and see the king through the new
    // occupancy (the moved piece was judged from `to` above).
    let sliders = board.by_color(us) & !Bitboard::from(from);
    let lines = attacks::rook_attacks(king, occupied) & board.rooks_and_queens();
    let diagonals = attacks::bishop_attacks(king, occupied) & board.bishops_and_queens();
    ((lines | diagonals) & sliders).any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn played_check(pos: &Chess, m: Move) -> bool {
        pos.clone().play(m).unwrap().is_check()
    }

    /// Every legal move along random games agrees with playing it out.
    fn agrees_in_random_games(start: Chess, games: usize, seed: u64) {
        let mut rng = SplitMix64::new(seed);
        let mut checks = 0;
        for _ in 0..games {
            let mut pos = start.clone();
            for _ in 0..200 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    let expected = played_check(&pos, m);
                    assert_eq!(gives_check(&pos, m), expected, "{m:?} in {pos:?}");
                    checks += usize::from(expected);
                }
                pos.play_unchecked(rng.choose(&moves));
            }
        }
        assert!(checks > games, "too few checking moves seen: {checks}");
    }

    fn position(fen: &str, mode: CastlingMode) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(mode).unwrap()
    }

    #[test]
    fn agrees_with_playing_the_move_in_random_games() {
        agrees_in_random_games(Chess::default(), 200, 3);
    }

    #[test]
    fn agrees_on_discovered_checks_promotions_castling_and_en_passant() {
        for fen in [
            // Discovered checks by rook and bishop: a knight masking its own
            // rook, a knight in front of its bishop, a king stepping off the
            // rook's file, and a rook pinned along its file.
            "4k3/8/8/4N3/8/8/8/4R1KB w - - 0 1",
            "7k/8/5N2/8/3B4/8/8/6K1 w - - 0 1",
            "4k3/8/8/8/8/8/4K3/4R3 w - - 0 1",
            "4k3/8/8/8/4q3/8/4R3/4K3 w - - 0 1",
            // Promotions that check, also by capture, and under-promotions.
            "3r1k2/2P5/8/8/8/8/8/4K3 w - - 0 1",
            // Castling that checks with the rook.
            "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
            // En passant that discovers a check along the rank.
            "8/8/8/k2pP2R/8/8/8/4K3 w - d6 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ] {
            agrees_in_random_games(position(fen, CastlingMode::Standard), 20, 5);
        }
        let chess960 = position(
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            CastlingMode::Chess960,
        );
        agrees_in_random_games(chess960, 20, 9);
    }
}
