//! Static exchange evaluation (SEE): does a capture win material once every
//! piece attacking the target square has had its turn, cheapest first?
//!
//! [`exchange_at_least`] answers "is the exchange worth at least
//! `threshold`?" without computing the full value, stopping as soon as the
//! answer is known. It recomputes the attackers from the shrinking
//! occupancy after every capture, which reveals x-ray attackers (a rook
//! behind a rook) for free. Quiescence uses it to skip captures that lose
//! material, which otherwise explode in positions with many pieces.

use shakmaty::{Bitboard, Color, Move, Position, Role};

use crate::board::Board;

/// Exchange values: coarse on purpose, only the order matters much.
const fn see_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight | Role::Bishop => 300,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => 20_000,
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

/// Whether playing `m` wins at least `threshold` centipawns of material
/// when both sides keep recapturing on its target square with their
/// cheapest piece (either side may stop when it is ahead).
pub fn exchange_at_least(board: &Board, m: Move, threshold: i32) -> bool {
    let Move::Normal {
        role,
        from,
        capture,
        to,
        promotion: None,
    } = m
    else {
        // Castling, en passant and promotions never lose material here.
        return 0 >= threshold;
    };
    let pieces = board.pos().board();

    // `swap` is what the side that would capture next must at least win
    // back for the exchange to stay under (or over) the threshold.
    let mut swap = capture.map_or(0, see_value) - threshold;
    if swap < 0 {
        return false;
    }
    swap = see_value(role) - swap;
    if swap <= 0 {
        return true;
    }

    let mut occupied = pieces.occupied().without(from);
    let mut side = board.turn();
    // Whether the exchange so far meets the threshold for the mover.
    let mut enough = true;
    loop {
        side = !side;
        let attackers = (pieces.attacks_to(to, Color::White, occupied)
            | pieces.attacks_to(to, Color::Black, occupied))
            & occupied;
        let Some((capturer, square)) = cheapest(pieces, attackers & pieces.by_color(side)) else {
            break;
        };
        enough = !enough;
        if capturer == Role::King {
            // The king may only capture when nothing can take it back.
            let defended = (attackers & pieces.by_color(!side)).any();
            return if defended { !enough } else { enough };
        }
        swap = see_value(capturer) - swap;
        if swap < i32::from(enough) {
            break;
        }
        occupied = occupied.without(square);
    }
    enough
}

fn cheapest(pieces: &shakmaty::Board, attackers: Bitboard) -> Option<(Role, shakmaty::Square)> {
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
}
