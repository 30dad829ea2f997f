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
//! work). Quiet moves other than killers and the countermove are scored
//! by history only when the picker reaches them. Quiescence orders its
//! moves more simply: the table move, then captures and promotions by
//! MVV-LVA, then (in check) quiet evasions.

use arrayvec::ArrayVec;
use shakmaty::{Color, Move, MoveList, Position, Role};

use super::history::{Context, Histories};
use super::movekey::MoveKey;
use super::see::exchange_at_least;
use crate::board::Board;
use crate::score::material::midgame_value;
use crate::tt::PackedMove;
use crate::util::simd::{Path, Simd};

/// Capacity of shakmaty's `MoveList`.
const MAX_MOVES: usize = 270;

/// One score per generated move, in the same order. Only as many slots as
/// there are moves are written: zeroing all 270 in every node was a
/// measurable part of the search's time.
type Scores = ArrayVec<i32, MAX_MOVES>;

const TT_MOVE_SCORE: i32 = 1 << 30;
const GOOD_CAPTURE_BASE: i32 = 1 << 28;
const FIRST_KILLER_SCORE: i32 = (1 << 27) + 2;
const SECOND_KILLER_SCORE: i32 = (1 << 27) + 1;
const COUNTERMOVE_SCORE: i32 = 1 << 27;
/// Stands in for a quiet move's history score until the picker reaches the
/// quiet moves: below every capture, killer and countermove score and above
/// every history and bad-capture score, so no real score equals it.
const QUIET_PENDING_SCORE: i32 = COUNTERMOVE_SCORE - 1;
const BAD_CAPTURE_BASE: i32 = -(1 << 28);
/// Victim value weight against the attacker's value in MVV-LVA (the
/// attacker counts 1/this).
const MVV_VICTIM_WEIGHT: i32 = 8;
/// Victim value weight against capture history in capture scores.
const VICTIM_WEIGHT: i32 = 16;

/// Whether `m` changes material: searched by quiescence, ordered as a
/// capture.
pub(crate) fn is_tactical(m: Move) -> bool {
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
pub(crate) fn captured_value(m: Move) -> i32 {
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
pub(crate) struct Ordering {
    pub(crate) turn: Color,
    /// Compared by key with every generated move ([`MoveKey::NONE`] for
    /// none), so they are decoded once per node.
    pub(crate) killers: [MoveKey; 2],
    pub(crate) countermove: MoveKey,
    pub(crate) context: Context,
}

/// Which moves a main-search node chooses from.
#[derive(Clone, Copy)]
pub(crate) enum Candidates<'a> {
    /// Every legal move less the one given, if any (a singular test leaves
    /// out the table move).
    AllBut(Option<Move>),
    /// The root's moves, given by the job instead of generated.
    Given(&'a MoveList),
}

/// Hands out the moves of a node best first.
pub(crate) struct MovePicker<'a> {
    stage: Stage,
    table_move: Option<Move>,
    candidates: Candidates<'a>,
    ordering: Option<Ordering>,
    moves: MoveList,
    scores: Scores,
    next: usize,
}

impl<'a> MovePicker<'a> {
    /// A main-search picker. `table_move` must be legal in the node (or
    /// `None`).
    pub(crate) fn new(
        table_move: Option<Move>,
        candidates: Candidates<'a>,
        ordering: Ordering,
    ) -> MovePicker<'a> {
        let table_move = match candidates {
            Candidates::Given(moves) => table_move.filter(|m| moves.contains(m)),
            Candidates::AllBut(left_out) => table_move.filter(|&m| Some(m) != left_out),
        };
        MovePicker {
            stage: Stage::TableMove,
            table_move,
            candidates,
            ordering: Some(ordering),
            moves: MoveList::new(),
            scores: Scores::new(),
            next: 0,
        }
    }

    /// An empty quiescence picker, to be filled by
    /// [`MovePicker::keep_tactical`] before the first `next`.
    pub(crate) fn quiescence() -> Self {
        MovePicker {
            stage: Stage::Scored,
            table_move: None,
            candidates: Candidates::AllBut(None),
            ordering: None,
            moves: MoveList::new(),
            scores: Scores::new(),
            next: 0,
        }
    }

    /// Takes the moves of `legal` that `keep` accepts (captures and
    /// promotions, or every evasion in check) and orders them: the table
    /// move, then tactical moves by MVV-LVA. Only the kept moves are
    /// copied: a whole `MoveList` moved by value was a measurable part of
    /// the search's time.
    pub(crate) fn keep_tactical(
        &mut self,
        legal: &MoveList,
        tt_move: PackedMove,
        keep: impl Fn(Move) -> bool,
    ) {
        for &m in legal.iter().filter(|&&m| keep(m)) {
            self.moves.push(m);
            self.scores.push(if tt_move.matches(m) {
                TT_MOVE_SCORE
            } else if is_tactical(m) {
                mvv_lva(m)
            } else {
                0
            });
        }
    }

    /// The next move, best first, or `None` when every move was handed out.
    pub(crate) fn next(&mut self, board: &Board, histories: &Histories) -> Option<Move> {
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
                Stage::Scored => return self.select(histories),
            }
        }
    }

    fn generate(&mut self, board: &Board, histories: &Histories) {
        let generated;
        let (candidates, left_out) = match self.candidates {
            Candidates::Given(moves) => (moves, None),
            Candidates::AllBut(left_out) => {
                generated = board.pos().legal_moves();
                (&generated, left_out)
            }
        };
        let ordering = self.ordering.as_ref().expect("a main-search picker");
        let (table_move, left_out) = (MoveKey::of(self.table_move), MoveKey::of(left_out));
        for &m in candidates {
            let key = MoveKey::new(m);
            if key != table_move && key != left_out {
                self.moves.push(m);
                self.scores.push(score(board, histories, ordering, m, key));
            }
        }
    }

    /// Gives the quiet moves not yet handed out their history scores, once
    /// the captures, killers and countermove are gone: a node that cuts
    /// before then never reads its quiet histories.
    fn score_pending_quiets(&mut self, histories: &Histories) {
        let ordering = self.ordering.as_ref().expect("a main-search picker");
        for i in self.next..self.moves.len() {
            if self.scores[i] == QUIET_PENDING_SCORE {
                self.scores[i] =
                    histories.quiet_score(ordering.turn, self.moves[i], &ordering.context);
            }
        }
    }

    /// The index of the best-scored move not yet handed out, the last of
    /// equals.
    fn best_remaining(&self) -> Option<usize> {
        let remaining = &self.scores[self.next..];
        if remaining.is_empty() {
            return None;
        }
        Some(self.next + last_max_index(Simd::detected(), remaining))
    }

    /// Hands out the best-scored move not yet handed out, and moves the
    /// first remaining one into its slot (the handed-out slot is never
    /// read again, so it is not written).
    fn select(&mut self, histories: &Histories) -> Option<Move> {
        let mut best = self.best_remaining()?;
        if self.scores[best] == QUIET_PENDING_SCORE {
            self.score_pending_quiets(histories);
            best = self.best_remaining()?;
        }
        let chosen = self.moves[best];
        self.moves[best] = self.moves[self.next];
        self.scores[best] = self.scores[self.next];
        self.next += 1;
        Some(chosen)
    }
}

/// The index of the last of the largest of `scores` (not empty), on
/// `simd`'s path: the picker's selection, run once per move handed out, is
/// about a sixth of the search's time. SSE2, the portable build's baseline, has no 32-bit
/// maximum or blend, so the loop is also compiled for AVX2 (8 scores a
/// step), which made `bench` about 4% faster on the portable build (the
/// speed of a `target-cpu=native` build, `results/results.tsv`).
fn last_max_index(simd: Simd, scores: &[i32]) -> usize {
    match simd.path() {
        Path::Plain => last_max_index_plain(scores),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Simd` holds these paths only where the processor has
        // AVX2 (`Simd::supported`; AVX-512's path includes it).
        Path::Avx2 | Path::Avx512 => unsafe { last_max_index_avx2(scores) },
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn last_max_index_avx2(scores: &[i32]) -> usize {
    last_max_index_plain(scores)
}

/// A plain loop over the scores (`max_by_key` over indices checked every
/// bound and was most of the picker's time), inlined into each path's
/// function to be vectorised with its instructions.
#[inline(always)]
fn last_max_index_plain(scores: &[i32]) -> usize {
    let mut best = scores[0];
    let mut best_index = 0;
    for (index, &score) in scores.iter().enumerate().skip(1) {
        if score >= best {
            best = score;
            best_index = index;
        }
    }
    best_index
}

/// The ordering score of `m` (whose key is `key`), a quiet move's history
/// left for later ([`QUIET_PENDING_SCORE`]).
fn score(board: &Board, histories: &Histories, ordering: &Ordering, m: Move, key: MoveKey) -> i32 {
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
    if ordering.killers[0] == key {
        FIRST_KILLER_SCORE
    } else if ordering.killers[1] == key {
        SECOND_KILLER_SCORE
    } else if ordering.countermove == key {
        COUNTERMOVE_SCORE
    } else {
        QUIET_PENDING_SCORE
    }
}

#[cfg(test)]
mod perft_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_fen;
    use crate::search::history::Tried;
    use shakmaty::{CastlingMode, Square};

    fn board_at(fen: &str) -> Board {
        Board::new(parse_fen(fen, CastlingMode::Standard).unwrap())
    }

    fn ordering(board: &Board) -> Ordering {
        Ordering {
            turn: board.turn(),
            killers: [MoveKey::NONE; 2],
            countermove: MoveKey::NONE,
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
        let mut picker = MovePicker::new(Some(quiet), Candidates::AllBut(None), ordering(&board));
        let order = all(&mut picker, &board);
        assert_eq!(order.len(), moves.len());
        assert_eq!(order[0], quiet);
        assert_eq!(order.iter().filter(|&&m| m == quiet).count(), 1);
        let victims: Vec<Option<Role>> = order[1..5].iter().map(|m| m.capture()).collect();
        let (queen, rook) = (Some(Role::Queen), Some(Role::Rook));
        assert_eq!(victims, [queen, queen, rook, rook]);

        // Qxe6 dxe6 loses the queen: it comes after every quiet move.
        let board = board_at("4k3/3p4/4p3/8/8/8/8/4QK2 w - - 0 1");
        let mut picker = MovePicker::new(None, Candidates::AllBut(None), ordering(&board));
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
        order.killers = [MoveKey::new(moves[5]), MoveKey::new(moves[9])];
        order.countermove = MoveKey::new(moves[12]);
        let mut picker = MovePicker::new(None, Candidates::AllBut(None), order);
        let sequence = all(&mut picker, &board);
        assert_eq!(&sequence[..3], &[moves[5], moves[9], moves[12]]);
    }

    #[test]
    fn quiet_moves_are_ordered_by_the_history_of_when_they_are_reached() {
        // exd5 wins a queen; the quiet moves come after it.
        let board = board_at("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1");
        let king_to = |square| {
            board
                .pos()
                .legal_moves()
                .into_iter()
                .find(|m| m.role() == Role::King && m.to() == square)
                .unwrap()
        };
        let (to_f1, to_f2) = (king_to(Square::F1), king_to(Square::F2));
        let (turn, context) = (board.turn(), Context::default());
        let mut histories = Histories::default();
        histories.record_quiet_cutoff(turn, 1, 8, to_f1, &Tried::default(), &context);

        let mut picker = MovePicker::new(None, Candidates::AllBut(None), ordering(&board));
        let first = picker.next(&board, &histories).unwrap();
        assert_eq!(first.capture(), Some(Role::Queen));
        // The search of the capture finds Kf2 good and Kf1 bad.
        let tried = Tried {
            quiets: [to_f1].into_iter().collect(),
            captures: MoveList::new(),
        };
        histories.record_quiet_cutoff(turn, 1, 8, to_f2, &tried, &context);
        assert_eq!(picker.next(&board, &histories), Some(to_f2));
    }

    #[test]
    fn a_left_out_move_is_never_handed_out_even_as_the_table_move() {
        let board = Board::startpos();
        let moves = board.pos().legal_moves();
        let left_out = moves[7];
        for table_move in [None, Some(left_out), Some(moves[3])] {
            let candidates = Candidates::AllBut(Some(left_out));
            let mut picker = MovePicker::new(table_move, candidates, ordering(&board));
            let sequence = all(&mut picker, &board);
            assert_eq!(sequence.len(), moves.len() - 1);
            assert!(!sequence.contains(&left_out));
        }
    }

    #[test]
    fn given_root_moves_replace_generation_and_drop_a_foreign_table_move() {
        let board = Board::startpos();
        let moves = board.pos().legal_moves();
        let given: MoveList = moves[..3].iter().copied().collect();
        let mut picker =
            MovePicker::new(Some(moves[10]), Candidates::Given(&given), ordering(&board));
        let sequence = all(&mut picker, &board);
        assert_eq!(sequence.len(), 3);
        assert!(!sequence.contains(&moves[10]));
    }

    /// Lists of every length a position can have, with few distinct
    /// values (many ties) or any: each path picks the plain loop's index,
    /// the last of the largest.
    #[test]
    fn every_path_picks_the_last_of_the_largest_scores() {
        crate::util::simd::report_paths_compared("move picker arg-max");
        let mut rng = crate::util::rng::SplitMix64::new(31);
        for length in 1..=MAX_MOVES {
            for distinct in [2, 5, usize::MAX] {
                let scores: Vec<i32> = (0..length)
                    .map(|_| match distinct {
                        usize::MAX => rng.next_u64() as i32,
                        _ => rng.below(distinct) as i32 - 1,
                    })
                    .collect();
                let largest = *scores.iter().max().unwrap();
                let expected = scores.iter().rposition(|&s| s == largest).unwrap();
                for simd in Simd::supported() {
                    assert_eq!(
                        last_max_index(simd, &scores),
                        expected,
                        "{} on {scores:?}",
                        simd.name()
                    );
                }
            }
        }
    }
}
