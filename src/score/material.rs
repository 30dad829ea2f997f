//! Material values: what a piece is worth when the engine counts wood
//! rather than asks its network. One home for both scales in use:
//!
//! * [`classical_value`], the textbook 1/3/3/5/9 pawns in centipawns: the
//!   static exchange evaluation (where only the order of values matters
//!   much) and the win-draw-loss model's material count (which is fitted
//!   on it) read it;
//! * [`midgame_value`], midgame values of the old piece-square
//!   evaluation: move ordering (MVV-LVA, capture scores) and pruning
//!   margins (delta pruning) were tuned with them.
//!
//! The king has no material value on either scale; the exchange
//! evaluation gives it its own ([`crate::search`]'s `see`), as a king can be
//! "captured" only last.

use shakmaty::Role;

/// Centipawns in a pawn.
pub(crate) const PAWN: i32 = 100;

/// Classical values in centipawns, indexed by `Role as usize - 1`.
const CLASSICAL: [i32; 6] = [PAWN, 3 * PAWN, 3 * PAWN, 5 * PAWN, 9 * PAWN, 0];
/// Midgame values in centipawns, indexed by `Role as usize - 1`.
const MIDGAME: [i32; 6] = [85, 325, 345, 480, 1000, 0];

/// A role's classical value: 100, 300, 300, 500, 900 and 0 for the king.
pub(crate) const fn classical_value(role: Role) -> i32 {
    CLASSICAL[role as usize - 1]
}

/// A role's midgame value, used by move ordering and pruning margins.
pub(crate) const fn midgame_value(role: Role) -> i32 {
    MIDGAME[role as usize - 1]
}
