//! Move ordering: which move the search tries first.
//!
//! Alpha-beta cuts most when the best move comes first, so each move gets a
//! score and the [`MovePicker`] hands them out best first by selection (most
//! nodes cut after one or two moves, so sorting the whole list would waste
//! work). The order is:
//! 1. the transposition-table move;
//! 2. captures and promotions by MVV-LVA (most valuable victim, then least
//!    valuable attacker);
//! 3. the two killer moves of this ply (quiet moves that cut here before);
//! 4. other quiet moves by their history score.
//!
//! [`OrderingTables`] holds the killers and the butterfly history of one
//! search thread; each Lazy-SMP thread owns its own, so they stay lock-free.

use shakmaty::{Color, Move, MoveList, Role};

use crate::eval::midgame_value;
use crate::score::MAX_PLY;
use crate::tt::PackedMove;

/// Capacity of shakmaty's `MoveList`.
const MAX_MOVES: usize = 270;

const TT_MOVE_SCORE: i32 = 1 << 30;
const CAPTURE_BASE: i32 = 1 << 28;
const FIRST_KILLER_SCORE: i32 = (1 << 27) + 1;
const SECOND_KILLER_SCORE: i32 = 1 << 27;
/// History scores stay within ±this (history gravity).
const MAX_HISTORY: i32 = 1 << 14;
const HISTORY_BONUS_CAP: i32 = 1200;

/// Per-thread tables learnt during the search.
pub struct OrderingTables {
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// Quiet move success by side, from square and to square.
    history: Box<[[[i32; 64]; 64]; 2]>,
}

impl Default for OrderingTables {
    fn default() -> Self {
        OrderingTables {
            killers: [[None; 2]; MAX_PLY + 1],
            history: Box::new([[[0; 64]; 64]; 2]),
        }
    }
}

impl OrderingTables {
    /// Forgets killers (they belong to one search) but keeps history.
    pub fn new_search(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
    }

    /// Records that quiet move `best` cut off at `ply` after the quiet moves
    /// in `tried` failed, at remaining `depth`.
    pub fn record_cutoff(
        &mut self,
        turn: Color,
        ply: usize,
        depth: i32,
        best: Move,
        tried: &[Move],
    ) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(best) {
            killers[1] = killers[0];
            killers[0] = Some(best);
        }
        let bonus = (depth * depth).min(HISTORY_BONUS_CAP);
        self.update_history(turn, best, bonus);
        for &m in tried {
            self.update_history(turn, m, -bonus);
        }
    }

    fn update_history(&mut self, turn: Color, m: Move, bonus: i32) {
        let Some(from) = m.from() else { return };
        let entry = &mut self.history[turn as usize][usize::from(from)][usize::from(m.to())];
        // Gravity: the entry moves toward ±MAX_HISTORY and never passes it.
        *entry += bonus - *entry * bonus.abs() / MAX_HISTORY;
    }

    fn history(&self, turn: Color, m: Move) -> i32 {
        m.from().map_or(0, |from| {
            self.history[turn as usize][usize::from(from)][usize::from(m.to())]
        })
    }
}

/// Whether `m` changes material: searched by quiescence, ordered by MVV-LVA.
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.is_promotion()
}

fn mvv_lva(m: Move) -> i32 {
    let victim = m.capture().map_or(0, midgame_value);
    let promotion = m.promotion().map_or(0, midgame_value);
    let attacker = midgame_value(m.role());
    CAPTURE_BASE + (victim + promotion) * 8 - attacker / 8
}

/// Hands out the moves of a node best first.
pub struct MovePicker {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
}

impl MovePicker {
    /// Orders every move for a main-search node.
    pub fn new(
        moves: MoveList,
        tt_move: PackedMove,
        tables: &OrderingTables,
        turn: Color,
        ply: usize,
    ) -> MovePicker {
        let killers = tables.killers[ply];
        Self::with_scores(moves, |m| {
            if tt_move.matches(m) {
                TT_MOVE_SCORE
            } else if is_tactical(m) {
                mvv_lva(m)
            } else if killers[0] == Some(m) {
                FIRST_KILLER_SCORE
            } else if killers[1] == Some(m) {
                SECOND_KILLER_SCORE
            } else {
                tables.history(turn, m)
            }
        })
    }

    /// Orders captures and promotions (and evasions) for quiescence.
    pub fn tactical(moves: MoveList, tt_move: PackedMove) -> MovePicker {
        Self::with_scores(moves, |m| {
            if tt_move.matches(m) {
                TT_MOVE_SCORE
            } else if is_tactical(m) {
                mvv_lva(m)
            } else {
                0
            }
        })
    }

    fn with_scores(moves: MoveList, score: impl Fn(Move) -> i32) -> MovePicker {
        let mut scores = [0; MAX_MOVES];
        for (slot, &m) in scores.iter_mut().zip(moves.iter()) {
            *slot = score(m);
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }
}

impl Iterator for MovePicker {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        let remaining = self.next..self.moves.len();
        let best = remaining.max_by_key(|&i| self.scores[i])?;
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

/// Material a tactical move gains, for delta pruning in quiescence.
pub fn captured_value(m: Move) -> i32 {
    m.capture().map_or(0, midgame_value)
        + m.promotion()
            .map_or(0, |r| midgame_value(r) - midgame_value(Role::Pawn))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    #[test]
    fn picker_yields_tt_move_then_captures_by_victim() {
        let pos: Chess = "4k3/8/8/r2q4/4P3/8/8/R3K3 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let moves = pos.legal_moves();
        let quiet = *moves.iter().find(|m| !m.is_capture()).unwrap();
        let tables = OrderingTables::default();
        let order: Vec<Move> = MovePicker::new(
            moves.clone(),
            PackedMove::new(quiet),
            &tables,
            pos.turn(),
            0,
        )
        .collect();
        assert_eq!(order.len(), moves.len());
        assert_eq!(order[0], quiet);
        assert_eq!(order[1].capture(), Some(Role::Queen));
        assert_eq!(order[2].capture(), Some(Role::Rook));
    }

    #[test]
    fn history_stays_bounded() {
        let mut tables = OrderingTables::default();
        let m = Chess::default().legal_moves()[0];
        for _ in 0..10_000 {
            tables.record_cutoff(Color::White, 3, 40, m, &[]);
        }
        assert!(tables.history(Color::White, m) <= MAX_HISTORY);
    }
}
