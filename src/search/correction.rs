//! Correction history: how far searches have found the static evaluation
//! off in positions that share a pawn structure, one side's pieces, or the
//! two moves that led to them, added back to the static evaluation that
//! pruning and reductions trust.
//!
//! An evaluation tends to misjudge a pawn structure the same way in every
//! position that has it (a weak pawn it overrates, a passer it underrates),
//! a placement of pieces likewise (a trapped bishop, an exposed king), and
//! a line of play too, and the search keeps finding that out. Four tables
//! learn it: by side to move, one keyed by both sides' pawns and one for
//! each colour keyed by that colour's other pieces (Stash and Clockwork
//! measured +26 and +43 Elo for the non-pawn keys); and one keyed by the
//! piece and square of each of the two moves before the node (continuation
//! correction). Every entry holds a running average of `search score − raw
//! evaluation`; the correction is their sum, each entry weighted by its
//! table's tunable (per mille: about 1 for the pawns', 1/2 for each
//! other). They learn only from nodes whose result says which way the
//! evaluation erred (a fail high above it, a fail low below it, or an
//! exact score), whose best move is quiet (a capture's gain is the
//! search's, not the structure's) and whose score is not decided (a mate,
//! a tablebase result, or a win the fifty-move rule may spoil). Deeper
//! results weigh more. The board keeps the pawn and non-pawn Zobrist keys
//! up to date beside its full key. Each Lazy-SMP thread owns its tables,
//! as it owns its move histories.

use shakmaty::Color;

use super::history::{Context, PIECE_TOS};
use super::tunables;
use crate::board::Board;
use crate::score::{MAX_EVAL, is_decided};

/// Entries per side to move and table; a power of two, so the index is a
/// mask.
const ENTRIES: usize = 1 << 14;
/// Entries hold centipawns times this, for resolution in the average.
const GRAIN: i32 = 256;
/// An entry corrects by at most this many centipawns, times its table's
/// weight (with weights of about 1, 1/2, 1/2 and 1/2, all four entries
/// together by about 160 at most).
const MAX_CORRECTION_CP: i32 = 64;
const MAX_ENTRY: i32 = MAX_CORRECTION_CP * GRAIN;
const _: () = assert!(MAX_ENTRY <= i16::MAX as i32);
/// An update moves an entry `weight / WEIGHT_SCALE` of the way to the new
/// error, with `weight = min(depth + 1, MAX_WEIGHT)`.
const WEIGHT_SCALE: i32 = 256;
const MAX_WEIGHT: i32 = 16;
/// The unit of the tables' weights in the correction (tunables, per mille).
const WEIGHT_UNIT: i32 = 1000;

type Table = [[i16; ENTRIES]; 2];
/// By the piece and square of the move two plies back, then one ply back.
type ContinuationTable = [[i16; PIECE_TOS]; PIECE_TOS];

/// Continuation correction's entry for the two moves that led to a node
/// (the continuation history's [`Context`]): none at the root, or across a
/// null move.
fn continuation_index(moves: Context) -> Option<(usize, usize)> {
    Some((moves.before_previous?.index(), moves.previous?.index()))
}

pub(crate) struct CorrectionHistory {
    pawns: Box<Table>,
    /// By the colour whose non-pawn pieces key the entry, in
    /// `Color::ALL`'s order (White first), as [`Slots`] finds them.
    non_pawns: [Box<Table>; 2],
    continuation: Box<ContinuationTable>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        let continuation: Box<[[i16; PIECE_TOS]]> =
            vec![[0; PIECE_TOS]; PIECE_TOS].into_boxed_slice();
        CorrectionHistory {
            pawns: Box::new([[0; ENTRIES]; 2]),
            non_pawns: [Box::new([[0; ENTRIES]; 2]), Box::new([[0; ENTRIES]; 2])],
            // Built on the heap: a stack temporary of 1.2 MB would overflow
            // a default thread stack.
            continuation: continuation.try_into().expect("PIECE_TOS rows"),
        }
    }
}

/// Where `board`'s entries are: its side to move and the slots keyed by
/// its pieces.
struct Slots {
    turn: usize,
    pawns: usize,
    non_pawns: [usize; 2],
}

impl Slots {
    fn of(board: &Board) -> Slots {
        Slots {
            turn: board.turn() as usize,
            pawns: slot(board.pawn_key()),
            non_pawns: Color::ALL.map(|color| slot(board.non_pawn_key(color))),
        }
    }
}

fn slot(hash: u64) -> usize {
    (hash as usize) & (ENTRIES - 1)
}

impl CorrectionHistory {
    /// `raw_eval` of `board`, reached by `moves`, corrected by what
    /// searches have learnt of its pawn structure, its pieces and the
    /// moves, kept clear of tablebase and mate scores.
    pub(crate) fn correct(&self, board: &Board, moves: Context, raw_eval: i32) -> i32 {
        let slots = Slots::of(board);
        let pawns = i32::from(self.pawns[slots.turn][slots.pawns]);
        let non_pawns: i32 = (0..2)
            .map(|side| i32::from(self.non_pawns[side][slots.turn][slots.non_pawns[side]]))
            .sum();
        let continuation = continuation_index(moves).map_or(0, |(before, last)| {
            i32::from(self.continuation[before][last])
        });
        let weighted = pawns * tunables::correction_pawn_per_mille()
            + non_pawns * tunables::correction_non_pawn_per_mille()
            + continuation * tunables::correction_continuation_per_mille();
        let correction = weighted / (WEIGHT_UNIT * GRAIN);
        (raw_eval + correction).clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// Learns from a node searched to `depth` whose raw static evaluation
    /// was `raw_eval` and whose search found `score`. A decided score (a
    /// mate, a tablebase result, or a win the fifty-move rule may spoil)
    /// is no measure of the evaluation and teaches nothing; for any other,
    /// the caller decides whether the node's result tells anything about
    /// the evaluation.
    pub(crate) fn update(
        &mut self,
        board: &Board,
        moves: Context,
        depth: i32,
        raw_eval: i32,
        score: i32,
    ) {
        if is_decided(score) {
            return;
        }
        let target = ((score - raw_eval) * GRAIN).clamp(-MAX_ENTRY, MAX_ENTRY);
        let weight = (depth + 1).min(MAX_WEIGHT);
        let slots = Slots::of(board);
        let [white, black] = &mut self.non_pawns;
        let continuation =
            continuation_index(moves).map(|(before, last)| &mut self.continuation[before][last]);
        for entry in [
            Some(&mut self.pawns[slots.turn][slots.pawns]),
            Some(&mut white[slots.turn][slots.non_pawns[0]]),
            Some(&mut black[slots.turn][slots.non_pawns[1]]),
            continuation,
        ]
        .into_iter()
        .flatten()
        {
            let blended =
                (i32::from(*entry) * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
            *entry = blended.clamp(-MAX_ENTRY, MAX_ENTRY) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{mate_in, mated_in, tb_loss_in, tb_win_in};
    use crate::search::history::PieceTo;
    use shakmaty::fen::Fen;
    use shakmaty::{Chess, Position};

    const NO_MOVES: Context = Context {
        previous: None,
        before_previous: None,
    };

    fn board(fen: &str) -> Board {
        let fen: Fen = fen.parse().unwrap();
        Board::new(fen.into_position(shakmaty::CastlingMode::Standard).unwrap())
    }

    #[test]
    fn a_fresh_table_corrects_nothing() {
        let b = board("4k3/pp6/8/8/8/8/6PP/4K3 w - - 0 1");
        assert_eq!(CorrectionHistory::default().correct(&b, NO_MOVES, 37), 37);
    }

    #[test]
    fn the_weighted_sum_cannot_overflow_at_any_tunable_weights() {
        let max_weight = |name: &str| {
            let tunable = tunables::TUNABLES
                .iter()
                .find(|t| t.name == name)
                .unwrap_or_else(|| panic!("no tunable {name}"));
            i64::from(tunable.max)
        };
        // One pawn entry, two non-pawn entries, one continuation entry.
        let largest = i64::from(MAX_ENTRY)
            * (max_weight("correction_pawn_per_mille")
                + 2 * max_weight("correction_non_pawn_per_mille")
                + max_weight("correction_continuation_per_mille"));
        assert!(largest <= i64::from(i32::MAX), "{largest}");
    }

    /// The correction, in centipawns, of a pawn entry holding `pawns` and
    /// non-pawn entries holding `non_pawns` together, at the tunables'
    /// weights (the continuation entry holding nothing).
    fn weighted(pawns: i32, non_pawns: i32) -> i32 {
        (pawns * tunables::correction_pawn_per_mille()
            + non_pawns * tunables::correction_non_pawn_per_mille())
            / WEIGHT_UNIT
    }

    #[test]
    fn corrections_move_toward_the_search_and_stay_bounded() {
        let b = board("4k3/pp6/8/8/8/8/6PP/4K3 w - - 0 1");
        let mut history = CorrectionHistory::default();
        history.update(&b, NO_MOVES, 15, 0, 40);
        let once = history.correct(&b, NO_MOVES, 0);
        assert!(once > 0 && once < 40, "one update moves part way: {once}");
        for _ in 0..1000 {
            history.update(&b, NO_MOVES, 20, 0, 10_000);
        }
        // Each running average approaches its bound from below (integer
        // division rounds down) and never passes it; the pawn entry and
        // both non-pawn entries add up at their weights.
        let saturated = history.correct(&b, NO_MOVES, 0);
        let bound = weighted(MAX_CORRECTION_CP, 2 * MAX_CORRECTION_CP);
        assert!(
            (bound - 2..=bound).contains(&saturated),
            "{saturated} {bound}"
        );
        // An evaluation at the top of its range is not lifted into the
        // tablebase wins.
        assert_eq!(history.correct(&b, NO_MOVES, MAX_EVAL), MAX_EVAL);
    }

    #[test]
    fn decisive_scores_teach_nothing() {
        // A mate or a tablebase result is not the evaluation's error.
        let b = board("4k3/pp6/8/8/8/8/6PP/4K3 w - - 0 1");
        let mut history = CorrectionHistory::default();
        // Nor is a win from the table that the fifty-move rule may spoil,
        // which comes back as the largest evaluation (the training data
        // drops it by the same predicate).
        for score in [
            tb_win_in(5),
            tb_loss_in(7),
            mate_in(3),
            mated_in(4),
            MAX_EVAL,
            -MAX_EVAL,
        ] {
            history.update(&b, NO_MOVES, 15, 0, score);
            assert_eq!(history.correct(&b, NO_MOVES, 0), 0, "{score}");
        }
    }

    #[test]
    fn pawns_and_each_sides_pieces_key_their_own_entries() {
        let mut history = CorrectionHistory::default();
        let learnt = board("4k3/pp6/8/8/8/8/6PP/4K3 w - - 0 1");
        // Enough updates to bring every entry to within rounding of 60 cp.
        for _ in 0..100 {
            history.update(&learnt, NO_MOVES, 15, 0, 60);
        }
        let near = |found: i32, expected: i32| (expected - 2..=expected).contains(&found);
        // All three entries: the pawns' 60 and each side's 60.
        let all = history.correct(&learnt, NO_MOVES, 0);
        assert!(near(all, weighted(60, 120)), "{all}");
        // The same pawns, other pieces on both sides: the pawn entry only.
        let same_pawns = board("3qk3/pp6/8/8/8/8/6PP/3QK3 w - - 0 1");
        let pawns_only = history.correct(&same_pawns, NO_MOVES, 0);
        assert!(near(pawns_only, weighted(60, 0)), "{pawns_only}");
        // White's pieces alone in common: White's entry only.
        let same_white_pieces = board("3qk3/p7/8/8/8/8/7P/4K3 w - - 0 1");
        let white_only = history.correct(&same_white_pieces, NO_MOVES, 0);
        assert!(near(white_only, weighted(0, 60)), "{white_only}");
        // Nothing learnt for the other side to move.
        let black_to_move = board("4k3/pp6/8/8/8/8/6PP/4K3 b - - 0 1");
        assert_eq!(history.correct(&black_to_move, NO_MOVES, 0), 0);
    }

    #[test]
    fn the_two_moves_before_key_their_own_entry() {
        let b = board("4k3/pp6/8/8/8/8/6PP/4K3 w - - 0 1");
        let moves = Chess::default().legal_moves();
        let piece_to = |i: usize, turn| PieceTo::new(turn, moves[i]);
        let line = Context {
            previous: Some(piece_to(0, Color::Black)),
            before_previous: Some(piece_to(1, Color::White)),
        };
        let mut history = CorrectionHistory::default();
        for _ in 0..100 {
            history.update(&b, line, 15, 0, 60);
        }
        // Pawns 60, and half of 60 for each side's pieces and the moves.
        assert!((148..=150).contains(&history.correct(&b, line, 0)));
        assert!((118..=120).contains(&history.correct(&b, NO_MOVES, 0)));
        let other_line = Context {
            previous: Some(piece_to(2, Color::Black)),
            ..line
        };
        assert!((118..=120).contains(&history.correct(&b, other_line, 0)));
    }
}
