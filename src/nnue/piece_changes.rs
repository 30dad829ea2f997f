//! The pieces a move takes off the board and puts on it: what both the
//! board's Zobrist key and the network's accumulator must learn of a move.
//!
//! A module of the network's, below the board: the board updates its key
//! and its accumulator from the same changes, and the accumulator needs
//! nothing else of the board. At most two pieces leave (the mover and a victim, or
//! king and rook when castling) and at most two arrive, so the changes are
//! kept in fixed arrays, never on the heap.

use shakmaty::{CastlingSide, Color, Move, Piece, Role, Square};

/// The pieces a move takes off the board and puts on it: what both the
/// Zobrist key and the network's accumulator must learn of a move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PieceChanges {
    removed: [(Square, Piece); 2],
    removed_count: usize,
    added: [(Square, Piece); 2],
    added_count: usize,
}

impl PieceChanges {
    /// The changes of the legal move `m` played by `mover`.
    pub(crate) fn of(m: Move, mover: Color) -> PieceChanges {
        const UNUSED: (Square, Piece) = (Square::A1, Role::Pawn.of(Color::White));
        let mut changes = PieceChanges {
            removed: [UNUSED; 2],
            removed_count: 0,
            added: [UNUSED; 2],
            added_count: 0,
        };
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                changes.remove(from, role.of(mover));
                if let Some(victim) = capture {
                    changes.remove(to, victim.of(!mover));
                }
                changes.add(to, promotion.unwrap_or(role).of(mover));
            }
            Move::EnPassant { from, to } => {
                changes.remove(from, Role::Pawn.of(mover));
                changes.remove(
                    Square::from_coords(to.file(), from.rank()),
                    Role::Pawn.of(!mover),
                );
                changes.add(to, Role::Pawn.of(mover));
            }
            Move::Castle { king, rook } => {
                // Chess960: the king may land where the rook stood, so both
                // leave before both arrive.
                let side = CastlingSide::from_king_side(king < rook);
                changes.remove(king, Role::King.of(mover));
                changes.remove(rook, Role::Rook.of(mover));
                changes.add(side.king_to(mover), Role::King.of(mover));
                changes.add(side.rook_to(mover), Role::Rook.of(mover));
            }
            Move::Put { role, to } => changes.add(to, role.of(mover)),
        }
        changes
    }

    pub(crate) fn removed(&self) -> &[(Square, Piece)] {
        &self.removed[..self.removed_count]
    }

    pub(crate) fn added(&self) -> &[(Square, Piece)] {
        &self.added[..self.added_count]
    }

    fn remove(&mut self, square: Square, piece: Piece) {
        self.removed[self.removed_count] = (square, piece);
        self.removed_count += 1;
    }

    fn add(&mut self, square: Square, piece: Piece) {
        self.added[self.added_count] = (square, piece);
        self.added_count += 1;
    }
}
