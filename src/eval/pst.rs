//! Baseline piece-square tables, built at compile time from a few readable
//! rules (centralisation, pawn advance, king shelter) instead of 768 opaque
//! numbers. Each table is from White's point of view, indexed by square
//! (a1 = 0, h8 = 63), and includes the piece's material value, so a piece's
//! whole contribution is one lookup. Black uses the vertically mirrored square.
//!
//! These values are hand-set, not tuned: the tuned evaluation that replaces
//! them is a later issue, and its tuner will start from here.

use shakmaty::Role;

/// One table per game phase.
pub struct PhaseTables {
    pub midgame: [[i32; 64]; 6],
    pub endgame: [[i32; 64]; 6],
}

/// Material values in centipawns, indexed by `Role as usize - 1`.
const MIDGAME_MATERIAL: [i32; 6] = [85, 325, 345, 480, 1000, 0];
const ENDGAME_MATERIAL: [i32; 6] = [100, 300, 315, 530, 950, 0];

/// Pawn bonus by rank (White's ranks 1..8), growing as it nears promotion.
const PAWN_ADVANCE_MIDGAME: [i32; 8] = [0, 0, 2, 6, 14, 28, 50, 0];
const PAWN_ADVANCE_ENDGAME: [i32; 8] = [0, 0, 6, 16, 32, 58, 95, 0];
/// Extra for centre pawns (d and e files) on ranks 3 to 5.
const CENTRE_PAWN_BONUS: i32 = 12;

/// Bonus per step closer to the centre, by role, (midgame, endgame).
const CENTRALISATION: [(i32, i32); 6] = [(0, 0), (10, 8), (5, 5), (2, 2), (2, 6), (0, 14)];
/// The rook's bonus for standing on the seventh rank.
const ROOK_SEVENTH_RANK: (i32, i32) = (18, 12);
/// Midgame king: penalty per rank advanced and per file away from the wing.
const KING_RANK_PENALTY: i32 = 22;
const KING_CENTRE_FILE_PENALTY: i32 = 12;

/// Steps from the centre: 0 on d4/e4/d5/e5, 6 in the corners. Tables use
/// `3 - distance`, so a piece gains on central squares and loses at the rim.
const fn centre_distance(square: usize) -> i32 {
    let file = (square % 8) as i32;
    let rank = (square / 8) as i32;
    let file_distance = if file < 4 { 3 - file } else { file - 4 };
    let rank_distance = if rank < 4 { 3 - rank } else { rank - 4 };
    file_distance + rank_distance
}

const fn positional(role: usize, square: usize, endgame: bool) -> i32 {
    let file = square % 8;
    let rank = square / 8;
    let centre_steps = 3 - centre_distance(square);
    let (mid_centre, end_centre) = CENTRALISATION[role];
    match role {
        0 => {
            if endgame {
                PAWN_ADVANCE_ENDGAME[rank]
            } else {
                let centre = if (file == 3 || file == 4) && rank >= 2 && rank <= 4 {
                    CENTRE_PAWN_BONUS
                } else {
                    0
                };
                PAWN_ADVANCE_MIDGAME[rank] + centre
            }
        }
        3 => {
            let seventh = if rank == 6 {
                if endgame {
                    ROOK_SEVENTH_RANK.1
                } else {
                    ROOK_SEVENTH_RANK.0
                }
            } else {
                0
            };
            let centre = if endgame { end_centre } else { mid_centre };
            seventh + centre * centre_steps
        }
        5 => {
            if endgame {
                end_centre * centre_steps
            } else {
                let wing_distance = if file < 4 { file } else { 7 - file };
                // Corners (b/g files) are the safe homes; c and f are close.
                let file_penalty = if wing_distance <= 1 {
                    0
                } else {
                    wing_distance as i32 - 1
                };
                -(rank as i32) * KING_RANK_PENALTY - file_penalty * KING_CENTRE_FILE_PENALTY
            }
        }
        _ => {
            let centre = if endgame { end_centre } else { mid_centre };
            centre * centre_steps
        }
    }
}

const fn build(endgame: bool) -> [[i32; 64]; 6] {
    let mut tables = [[0; 64]; 6];
    let mut role = 0;
    while role < 6 {
        let material = if endgame {
            ENDGAME_MATERIAL[role]
        } else {
            MIDGAME_MATERIAL[role]
        };
        let mut square = 0;
        while square < 64 {
            tables[role][square] = material + positional(role, square, endgame);
            square += 1;
        }
        role += 1;
    }
    tables
}

pub static TABLES: PhaseTables = PhaseTables {
    midgame: build(false),
    endgame: build(true),
};

/// Midgame material of a role, used by move ordering and pruning margins.
pub const fn midgame_value(role: Role) -> i32 {
    MIDGAME_MATERIAL[role as usize - 1]
}
