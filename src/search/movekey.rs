//! A move as one integer, for the move picker's many equality tests.
//!
//! Every generated move is compared with the table move, the move a
//! singular test leaves out, two killers and the countermove. shakmaty's
//! derived `Move` equality branches on the enum's variant through a jump
//! table at each of those comparisons, and in `bench`'s profile that was
//! about a tenth of the picker's time. [`MoveKey`] decodes the move once and
//! makes every later comparison one integer test.
//!
//! The encoding is injective (it keeps every field of every variant), so
//! two keys are equal exactly when the moves are: a killer from another
//! position matches a move here only if it is the same move, as before.

use shakmaty::{Move, Role, Square};

/// A move packed into the low 25 bits of a `u32`; equal keys mean equal
/// moves. [`MoveKey::NONE`] stands for no move and equals no real key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MoveKey(u32);

const SQUARE_BITS: u32 = 6;
const ROLE_BITS: u32 = 3;
const VARIANT_SHIFT: u32 = 23;
const NORMAL: u32 = 0;
const EN_PASSANT: u32 = 1;
const CASTLE: u32 = 2;
const PUT: u32 = 3;

fn square_bits(square: Square) -> u32 {
    u32::from(square)
}

/// A role as 1..=6, or 0 for none.
fn role_bits(role: Option<Role>) -> u32 {
    role.map_or(0, |role| role as u32)
}

impl MoveKey {
    pub(crate) const NONE: MoveKey = MoveKey(u32::MAX);

    pub(crate) fn new(m: Move) -> MoveKey {
        let (variant, fields) = match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let mut fields = role_bits(Some(role));
                fields = fields << SQUARE_BITS | square_bits(from);
                fields = fields << ROLE_BITS | role_bits(capture);
                fields = fields << SQUARE_BITS | square_bits(to);
                fields = fields << ROLE_BITS | role_bits(promotion);
                (NORMAL, fields)
            }
            Move::EnPassant { from, to } => (
                EN_PASSANT,
                square_bits(from) << SQUARE_BITS | square_bits(to),
            ),
            Move::Castle { king, rook } => {
                (CASTLE, square_bits(king) << SQUARE_BITS | square_bits(rook))
            }
            Move::Put { role, to } => (PUT, role_bits(Some(role)) << SQUARE_BITS | square_bits(to)),
        };
        MoveKey(variant << VARIANT_SHIFT | fields)
    }

    /// The key of `m`, or [`MoveKey::NONE`].
    pub(crate) fn of(m: Option<Move>) -> MoveKey {
        m.map_or(MoveKey::NONE, MoveKey::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_fen;
    use shakmaty::{CastlingMode, Chess, Position};

    /// Every move of several positions, Chess960 castling and en passant
    /// among them, and a few moves of no position at all.
    fn sample_moves() -> Vec<Move> {
        let normal = |role, capture| Move::Normal {
            role,
            from: Square::F3,
            capture,
            to: Square::G5,
            promotion: None,
        };
        let mut moves = vec![
            normal(Role::Knight, None),
            normal(Role::Bishop, None),
            normal(Role::Bishop, Some(Role::Pawn)),
            normal(Role::Bishop, Some(Role::Knight)),
            Move::Put {
                role: Role::Knight,
                to: Square::E4,
            },
            Move::Put {
                role: Role::Queen,
                to: Square::E4,
            },
        ];
        for (fen, mode) in [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                CastlingMode::Standard,
            ),
            (
                "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                CastlingMode::Standard,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                CastlingMode::Standard,
            ),
            (
                "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                CastlingMode::Standard,
            ),
            (
                "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
                CastlingMode::Chess960,
            ),
        ] {
            let pos: Chess = parse_fen(fen, mode).unwrap();
            moves.extend(pos.legal_moves());
        }
        moves
    }

    #[test]
    fn keys_are_equal_exactly_when_moves_are() {
        let moves = sample_moves();
        for &a in &moves {
            assert_ne!(MoveKey::new(a), MoveKey::NONE, "{a:?}");
            for &b in &moves {
                assert_eq!(MoveKey::new(a) == MoveKey::new(b), a == b, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn no_move_has_its_own_key() {
        let m = Chess::default().legal_moves()[0];
        assert_eq!(MoveKey::of(None), MoveKey::NONE);
        assert_eq!(MoveKey::of(Some(m)), MoveKey::new(m));
    }
}
