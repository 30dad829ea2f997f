//! Whether a move gives check, told from attack tables without playing it.
//!
//! The search decides whether to prune a quiet move before making it, and
//! a checking move is spared futility and late-move pruning. shakmaty answers
//! "is the side to move in check?" only for a position, so asking it means
//! copying the board and playing the move, which is wasted on every move
//! that is then pruned.
//!
//! As in Stockfish, a node computes once what every move's answer depends
//! on ([`CheckSquares`]): the squares from which each kind of piece would
//! attack the enemy king, and our pieces that alone stand between one of
//! our sliders and that king. A normal move then checks when it lands on a
//! checking square of its piece (direct check) or leaves such a line
//! (discovered check). A promotion is judged by the new piece's attacks
//! from its square with the pawn gone; castling and en passant, rare and
//! with two pieces moving, are played out on a copy.

use shakmaty::{Bitboard, Chess, Move, Piece, Position, Role, Square, attacks};

/// What decides, for the position's side to move, which moves give check.
pub(crate) struct CheckSquares {
    /// The enemy king (none in a setup without one).
    king: Option<Square>,
    /// By role: the squares from which such a piece of ours attacks the
    /// enemy king. Empty for the king, which never checks directly.
    direct: [Bitboard; Role::ALL.len()],
    /// Our pieces that are the only piece between one of our sliders and
    /// the enemy king.
    discoverers: Bitboard,
}

impl CheckSquares {
    /// The check squares of the side to move in `pos`.
    pub(crate) fn new(pos: &Chess) -> CheckSquares {
        let board = pos.board();
        let us = pos.turn();
        let Some(king) = board.king_of(!us) else {
            return CheckSquares {
                king: None,
                direct: [Bitboard::EMPTY; Role::ALL.len()],
                discoverers: Bitboard::EMPTY,
            };
        };
        let occupied = board.occupied();
        let diagonals = attacks::bishop_attacks(king, occupied);
        let lines = attacks::rook_attacks(king, occupied);
        let ours = board.by_color(us);
        let snipers = ours
            & ((attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
                | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens()));
        let mut discoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & occupied;
            if blockers.count() == 1 {
                discoverers |= blockers & ours;
            }
        }
        CheckSquares {
            king: Some(king),
            direct: [
                attacks::pawn_attacks(!us, king),
                attacks::knight_attacks(king),
                diagonals,
                lines,
                diagonals | lines,
                Bitboard::EMPTY,
            ],
            discoverers,
        }
    }

    /// Whether the legal move `m` of `pos` (the position these squares
    /// were computed for) leaves the opponent in check.
    pub(crate) fn gives_check(&self, pos: &Chess, m: Move) -> bool {
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
        let Some(king) = self.king else {
            return false;
        };
        let direct = match promotion {
            Some(promoted) => {
                let occupied =
                    (pos.board().occupied() & !Bitboard::from(from)) | Bitboard::from(to);
                let piece = Piece {
                    color: pos.turn(),
                    role: promoted,
                };
                attacks::attacks(to, piece, occupied).contains(king)
            }
            None => self.direct[role as usize - 1].contains(to),
        };
        direct || (self.discoverers.contains(from) && !attacks::aligned(from, to, king))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::rng::SplitMix64;
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
                let check_squares = CheckSquares::new(&pos);
                for &m in &moves {
                    let expected = played_check(&pos, m);
                    assert_eq!(
                        check_squares.gives_check(&pos, m),
                        expected,
                        "{m:?} in {pos:?}"
                    );
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
