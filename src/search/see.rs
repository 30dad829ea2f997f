//! Static exchange evaluation (SEE): does a capture win material once every
//! piece attacking the target square has had its turn, cheapest first?
//!
//! [`exchange_at_least`] answers "is the exchange worth at least
//! `threshold`?". It answers at once when even the best or the worst
//! outcome of the first recapture settles it; otherwise it lists what
//! each capture in turn would have won if the exchange ended there, and
//! lets each side, from the last capture back, choose between capturing
//! and stopping. It recomputes the attackers from the shrinking occupancy
//! after every capture, which reveals x-ray attackers (a rook behind a
//! rook) for free. A pawn reaching the last rank, by the move itself or by
//! a recapture, is the piece it promotes to (a queen for a recapture): it
//! gains that piece less the pawn, and that piece is what the next capture
//! wins. Quiescence uses it to skip captures that lose material, which
//! otherwise explode in positions with many pieces.

use shakmaty::{Bitboard, Color, Move, Position, Rank, Role, Square};

use crate::board::Board;
use crate::score::material::classical_value;

/// What the exchange counts a king as: more than everything else on the
/// board, so capturing it is the last word.
const KING_EXCHANGE_VALUE: i32 = 20_000;

/// Exchange values: the classical ones, coarse on purpose (only the order
/// matters much).
const fn see_value(role: Role) -> i32 {
    match role {
        Role::King => KING_EXCHANGE_VALUE,
        _ => classical_value(role),
    }
}

/// Cheapest first, for picking the next capturer.
const ROLES_BY_VALUE: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// The most captures one exchange can hold: one per piece on the board.
const MAX_CAPTURES: usize = 32;

/// What a pawn gains by becoming `promoted`.
const fn promotion_gain(promoted: Role) -> i32 {
    see_value(promoted) - see_value(Role::Pawn)
}

/// Whether a pawn moving to `square` promotes: a pawn can only move
/// forward, so any pawn reaching its first or last rank does.
fn is_promotion_square(square: Square) -> bool {
    matches!(square.rank(), Rank::First | Rank::Eighth)
}

/// Whether playing `m` wins at least `threshold` centipawns of material
/// when both sides keep recapturing on its target square with their
/// cheapest piece (either side may stop when it is ahead).
pub(crate) fn exchange_at_least(board: &Board, m: Move, threshold: i32) -> bool {
    let Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    } = m
    else {
        // Castling and en passant never lose material here.
        return 0 >= threshold;
    };
    let first_gain = capture.map_or(0, see_value) + promotion.map_or(0, promotion_gain);
    let mut at_risk = see_value(promotion.unwrap_or(role));
    // The mover wins at most the first capture, if nothing recaptures, and
    // at least that less its piece (and a recapturing pawn's promotion).
    if first_gain < threshold {
        return false;
    }
    let worst_recapture = at_risk
        + if is_promotion_square(to) {
            promotion_gain(Role::Queen)
        } else {
            0
        };
    if first_gain - worst_recapture >= threshold {
        return true;
    }

    let pieces = board.pos().board();
    let mut occupied = pieces.occupied().without(from);
    // `gains[i]`: what the side making capture `i` has won, counted from
    // before the move, if the exchange ends with that capture.
    let mut gains = [0; MAX_CAPTURES];
    gains[0] = first_gain;
    let mut captures = 1;
    let mut side = board.turn();
    while captures < MAX_CAPTURES {
        side = !side;
        let attackers = (pieces.attacks_to(to, Color::White, occupied)
            | pieces.attacks_to(to, Color::Black, occupied))
            & occupied;
        let Some((capturer, square)) = cheapest(pieces, attackers & pieces.by_color(side)) else {
            break;
        };
        // The king may only capture when nothing can take it back.
        if capturer == Role::King && (attackers & pieces.by_color(!side)).any() {
            break;
        }
        let promoted = (capturer == Role::Pawn && is_promotion_square(to)).then_some(Role::Queen);
        gains[captures] = at_risk + promoted.map_or(0, promotion_gain) - gains[captures - 1];
        at_risk = see_value(promoted.unwrap_or(capturer));
        occupied = occupied.without(square);
        captures += 1;
    }
    // From the last capture back, each side captures only when that leaves
    // it better off than stopping (which leaves the other side's gain).
    for i in (1..captures).rev() {
        gains[i - 1] = gains[i - 1].min(-gains[i]);
    }
    gains[0] >= threshold
}

fn cheapest(pieces: &shakmaty::Board, attackers: Bitboard) -> Option<(Role, Square)> {
    ROLES_BY_VALUE.iter().find_map(|&role| {
        (attackers & pieces.by_role(role))
            .first()
            .map(|square| (role, square))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_fen;
    use shakmaty::CastlingMode;
    use shakmaty::uci::UciMove;

    fn see(fen: &str, uci: &str, threshold: i32) -> bool {
        let board = Board::new(parse_fen(fen, CastlingMode::Standard).unwrap());
        let m = UciMove::from_ascii(uci.as_bytes())
            .unwrap()
            .to_move(board.pos())
            .unwrap();
        exchange_at_least(&board, m, threshold)
    }

    #[test]
    fn free_pawn_is_a_gain() {
        let fen = "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1";
        assert!(see(fen, "e1e5", 0));
        assert!(see(fen, "e1e5", 100));
        assert!(!see(fen, "e1e5", 101));
    }

    #[test]
    fn defended_pawn_taken_by_a_knight_loses() {
        // Nxe5 dxe5: knight for pawn.
        let fen = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        assert!(!see(fen, "d3e5", 0));
        assert!(see(fen, "d3e5", -300));
    }

    #[test]
    fn xray_recapture_counts() {
        // Rxd5 with a second rook behind: rook takes pawn defended by rook
        // but backed up: R takes P, r takes R, R takes r: +100 -500 +500.
        let fen = "3r3k/8/8/3p4/8/8/3R4/3R3K w - - 0 1";
        assert!(see(fen, "d2d5", 0));
        let alone = "3r3k/8/8/3p4/8/8/3R4/7K w - - 0 1";
        assert!(!see(alone, "d2d5", 0));
    }

    #[test]
    fn king_cannot_recapture_a_defended_square() {
        let defended = "3k4/3p4/8/1B6/8/8/8/3RK3 w - - 0 1";
        assert!(see(defended, "d1d7", 100));
        let undefended = "3k4/3p4/8/8/8/8/8/3RK3 w - - 0 1";
        assert!(!see(undefended, "d1d7", 0));
    }

    #[test]
    fn rook_takes_queen_defended_by_king_wins() {
        let fen = "8/8/8/8/8/6k1/3r4/3QK2R b - - 0 1";
        assert!(see(fen, "d2d1", 400));
        assert!(!see(fen, "d2d1", 401));
    }

    #[test]
    fn a_quiet_promotion_onto_a_defended_square_loses_the_pawn() {
        // b8=Q Rxb8: the new queen is lost, and with it the pawn.
        let fen = "r5k1/1P6/8/8/8/8/8/6K1 w - - 0 1";
        assert!(!see(fen, "b7b8q", 0));
        assert!(see(fen, "b7b8q", -100));
        assert!(!see(fen, "b7b8q", -99));
        // Undefended, the pawn becomes a queen.
        let free = "6k1/1P6/8/8/8/8/8/6K1 w - - 0 1";
        assert!(see(free, "b7b8q", 800));
        assert!(!see(free, "b7b8q", 801));
    }

    #[test]
    fn a_capture_promotion_onto_a_defended_square_wins_only_the_capture() {
        // bxa8=Q Rxa8: a knight for the pawn, whatever the pawn became.
        let fen = "n6r/1P4k1/8/8/8/8/8/6K1 w - - 0 1";
        assert!(see(fen, "b7a8q", 200));
        assert!(!see(fen, "b7a8q", 201));
        assert!(see(fen, "b7a8n", 200));
        assert!(!see(fen, "b7a8n", 201));
        // Undefended, the capture and the new queen are both won.
        let free = "n7/1P4k1/8/8/8/8/8/6K1 w - - 0 1";
        assert!(see(free, "b7a8q", 1100));
        assert!(!see(free, "b7a8q", 1101));
    }

    #[test]
    fn a_pawn_that_recaptures_onto_the_last_rank_promotes() {
        // Rxc8 bxc8=Q: Black's rook takes a knight and is taken by a pawn
        // that becomes a queen: a rook and a queen's worth for a knight.
        let fen = "2N2r2/1P6/6k1/8/8/8/8/7K b - - 0 1";
        assert!(see(fen, "f8c8", -1000));
        assert!(!see(fen, "f8c8", -999));
    }
}
