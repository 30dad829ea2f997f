//! Move ordering: which move the search tries first.
//!
//! Alpha-beta cuts most when the best move comes first. A main-search node
//! hands out its moves in stages:
//! 1. the transposition-table move, checked legal and played **before any
//!    move is generated** (it cuts often, and then generation is saved);
//! 2. good captures and queen promotions (those that do not lose material
//!    by static exchange evaluation), by victim value plus capture history;
//! 3. the two killers of this ply, then the countermove;
//! 4. the other quiet moves by butterfly plus continuation history;
//! 5. captures that lose material, last.
//!
//! After stage 1 every legal move gets a score whose range encodes its
//! stage, and the picker hands them out best first by selection (most
//! nodes cut after a move or two, so sorting the whole list would waste
//! work). Quiescence orders its moves more simply: the table move, then
//! captures and promotions by MVV-LVA, then (in check) quiet evasions.

use shakmaty::{Color, Move, MoveList, Position, Role};

use super::history::{Context, Histories};
use super::see::exchange_at_least;
use crate::board::Board;
use crate::eval::midgame_value;
use crate::tt::PackedMove;

/// Capacity of shakmaty's `MoveList`.
const MAX_MOVES: usize = 270;

const TT_MOVE_SCORE: i32 = 1 << 30;
const GOOD_CAPTURE_BASE: i32 = 1 << 28;
const FIRST_KILLER_SCORE: i32 = (1 << 27) + 2;
const SECOND_KILLER_SCORE: i32 = (1 << 27) + 1;
const COUNTERMOVE_SCORE: i32 = 1 << 27;
const BAD_CAPTURE_BASE: i32 = -(1 << 28);
/// Victim value weight against the attacker's value in MVV-LVA (the
/// attacker counts 1/this).
const MVV_VICTIM_WEIGHT: i32 = 8;
/// Victim value weight against capture history in capture scores.
const VICTIM_WEIGHT: i32 = 16;

/// Whether `m` changes material: searched by quiescence, ordered as a
/// capture.
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.is_promotion()
}

/// Most valuable victim first, least valuable attacker among equals: the
/// gained value, weighted so that no attacker's value can outweigh a
/// difference in victims.
fn mvv_lva(m: Move) -> i32 {
    let victim = m.capture().map_or(0, midgame_value);
    let promotion = m.promotion().map_or(0, midgame_value);
    let attacker = midgame_value(m.role());
    GOOD_CAPTURE_BASE + (victim + promotion) * MVV_VICTIM_WEIGHT - attacker / MVV_VICTIM_WEIGHT
}

/// Material a tactical move gains, for delta pruning in quiescence.
pub fn captured_value(m: Move) -> i32 {
    m.capture().map_or(0, midgame_value)
        + m.promotion()
            .map_or(0, |r| midgame_value(r) - midgame_value(Role::Pawn))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    TableMove,
    Generate,
    Scored,
}

/// What a main-search node knows that orders its quiet moves.
pub struct Ordering {
    pub turn: Color,
    pub killers: [Option<Move>; 2],
    pub countermove: Option<Move>,
    pub context: Context,
}

/// Hands out the moves of a node best first.
pub struct MovePicker {
    stage: Stage,
    table_move: Option<Move>,
    /// Root moves given by the job, instead of generating.
    given: Option<MoveList>,
    ordering: Option<Ordering>,
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
}

impl MovePicker {
    /// A main-search picker. `table_move` must be legal in the node (or
    /// `None`); `given` replaces move generation (the root).
    pub fn new(table_move: Option<Move>, given: Option<MoveList>, ordering: Ordering) -> Self {
        let table_move = match &given {
            Some(moves) => table_move.filter(|m| moves.contains(m)),
            None => table_move,
        };
        MovePicker {
            stage: Stage::TableMove,
            table_move,
            given,
            ordering: Some(ordering),
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            next: 0,
        }
    }

    /// Orders captures and promotions (and evasions) for quiescence.
    pub fn tactical(moves: MoveList, tt_move: PackedMove) -> MovePicker {
        let mut picker = MovePicker {
            stage: Stage::Scored,
            table_move: None,
            given: None,
            ordering: None,
            moves,
            scores: [0; MAX_MOVES],
            next: 0,
        };
        for (slot, &m) in picker.scores.iter_mut().zip(picker.moves.iter()) {
            *slot = if tt_move.matches(m) {
                TT_MOVE_SCORE
            } else if is_tactical(m) {
                mvv_lva(m)
            } else {
                0
            };
        }
        picker
    }

    /// The next move, best first, or `None` when every move was handed out.
    pub fn next(&mut self, board: &Board, histories: &Histories) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::Generate;
                    if let Some(m) = self.table_move {
                        return Some(m);
                    }
                }
                Stage::Generate => {
                    self.stage = Stage::Scored;
                    self.generate(board, histories);
                }
                Stage::Scored => return self.select(),
            }
        }
    }

    fn generate(&mut self, board: &Board, histories: &Histories) {
        let mut moves = self
            .given
            .take()
            .unwrap_or_else(|| board.pos().legal_moves());
        if let Some(table_move) = self.table_move {
            moves.retain(|m| *m != table_move);
        }
        let ordering = self.ordering.as_ref().expect("a main-search picker");
        for (slot, &m) in self.scores.iter_mut().zip(moves.iter()) {
            *slot = score(board, histories, ordering, m);
        }
        self.moves = moves;
    }

    fn select(&mut self) -> Option<Move> {
        let remaining = self.next..self.moves.len();
        let best = remaining.max_by_key(|&i| self.scores[i])?;
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

fn score(board: &Board, histories: &Histories, ordering: &Ordering, m: Move) -> i32 {
    if is_tactical(m) {
        let victim = m.capture().map_or(0, midgame_value) + m.promotion().map_or(0, midgame_value);
        let value = VICTIM_WEIGHT * victim + histories.capture_score(ordering.turn, m);
        let good =
            m.promotion().is_none_or(|role| role == Role::Queen) && exchange_at_least(board, m, 0);
        return if good {
            GOOD_CAPTURE_BASE + value
        } else {
            BAD_CAPTURE_BASE + value
        };
    }
    if ordering.killers[0] == Some(m) {
        FIRST_KILLER_SCORE
    } else if ordering.killers[1] == Some(m) {
        SECOND_KILLER_SCORE
    } else if ordering.countermove == Some(m) {
        COUNTERMOVE_SCORE
    } else {
        histories.quiet_score(ordering.turn, m, &ordering.context)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::parse_fen;
    use shakmaty::CastlingMode;

    fn board_at(fen: &str) -> Board {
        Board::new(parse_fen(fen, CastlingMode::Standard).unwrap())
    }

    fn ordering(board: &Board) -> Ordering {
        Ordering {
            turn: board.turn(),
            killers: [None; 2],
            countermove: None,
            context: Context::default(),
        }
    }

    fn all(picker: &mut MovePicker, board: &Board) -> Vec<Move> {
        let histories = Histories::default();
        std::iter::from_fn(|| picker.next(board, &histories)).collect()
    }

    #[test]
    fn table_move_first_then_good_captures_by_victim_and_losing_captures_last() {
        // exd5 and Rxd5 win a queen; Rxa5 and Qxa5 a rook (Qxa5 Qxa5 Rxa5).
        let board = board_at("4k3/8/3p4/r2qp3/4P3/8/8/R2RQK2 w - - 0 1");
        let moves = board.pos().legal_moves();
        let quiet = *moves.iter().find(|m| !m.is_capture()).unwrap();
        let mut picker = MovePicker::new(Some(quiet), None, ordering(&board));
        let order = all(&mut picker, &board);
        assert_eq!(order.len(), moves.len());
        assert_eq!(order[0], quiet);
        assert_eq!(order.iter().filter(|&&m| m == quiet).count(), 1);
        let victims: Vec<Option<Role>> = order[1..5].iter().map(|m| m.capture()).collect();
        let (queen, rook) = (Some(Role::Queen), Some(Role::Rook));
        assert_eq!(victims, [queen, queen, rook, rook]);

        // Qxe6 dxe6 loses the queen: it comes after every quiet move.
        let board = board_at("4k3/3p4/4p3/8/8/8/8/4QK2 w - - 0 1");
        let mut picker = MovePicker::new(None, None, ordering(&board));
        let last = *all(&mut picker, &board).last().unwrap();
        assert_eq!(
            (last.role(), last.capture()),
            (Role::Queen, Some(Role::Pawn))
        );
    }

    #[test]
    fn killers_and_countermove_come_before_other_quiets() {
        let board = Board::startpos();
        let moves = board.pos().legal_moves();
        let mut order = ordering(&board);
        order.killers = [Some(moves[5]), Some(moves[9])];
        order.countermove = Some(moves[12]);
        let mut picker = MovePicker::new(None, None, order);
        let sequence = all(&mut picker, &board);
        assert_eq!(&sequence[..3], &[moves[5], moves[9], moves[12]]);
    }

    #[test]
    fn given_root_moves_replace_generation_and_drop_a_foreign_table_move() {
        let board = Board::startpos();
        let moves = board.pos().legal_moves();
        let given: MoveList = moves[..3].iter().copied().collect();
        let mut picker = MovePicker::new(Some(moves[10]), Some(given), ordering(&board));
        let sequence = all(&mut picker, &board);
        assert_eq!(sequence.len(), 3);
        assert!(!sequence.contains(&moves[10]));
    }
}
