//! The Syzygy probe inside the search: one call from `negamax`, kept apart
//! so the search proper stays about searching.
//!
//! A node is probed when it is not the root, has at least
//! `SyzygyProbeDepth` plies left, few enough pieces, no castling rights, and
//! a fifty-move counter of zero: just after a capture or pawn move the
//! table's win-draw-loss answer is exact, and the counter is zero for every
//! position a capture brings into the tables. A win scores in the
//! tablebase band below the mates (`score::tb_win_in`), so the search
//! prefers the nearest proven win but any mate over it. A win is a lower
//! bound (a mate may be found beyond it) and a loss an upper bound, as in
//! Stockfish; a draw is exact. With `Syzygy50MoveRule`, wins and losses the
//! fifty-move rule spoils are draws, a cursed win scored a hair above 0 so
//! the search still tries it.
//!
//! A result that settles the node for the window is stored in the
//! transposition table (deeper than searched, as it is exact knowledge) and
//! returned. In a PV node (open window) every result is stored and
//! returned: the line then ends in the tables, scored as a tablebase win or
//! loss rather than by an evaluation (a mate beyond it goes unseen, which
//! costs nothing: the win is proven). In a null-window node a result that
//! does not settle it is dropped and the node searched as usual.

use shakmaty_syzygy::Wdl;

use super::job::SearchJob;
use super::searcher::Searcher;
use crate::board::Board;
use crate::eval::evaluate;
use crate::score::{DRAW, MAX_DEPTH, tb_loss_in, tb_win_in};
use crate::tt::{Bound, TtStore};

/// A win the fifty-move rule turns into a draw: a draw, but one the
/// opponent might still lose.
const CURSED_WIN_SCORE: i32 = 1;
/// Plies added to the depth a tablebase result is stored with: it is worth
/// more than a search to the depth it was found at.
const TB_STORE_DEPTH_BONUS: i32 = 6;

impl Searcher {
    /// The tables' score of `board` at `ply` when they settle the node for
    /// `(alpha, beta)` at `depth`, or `None` (no tables, not covered, or not
    /// settled): see the module header.
    pub(super) fn probe_tablebase(
        &mut self,
        job: &SearchJob,
        board: &Board,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        let tables = job.spec.tablebase.as_ref()?;
        if depth < tables.probe_depth || board.halfmoves() != 0 || !tables.covers(board.pos()) {
            return None;
        }
        let wdl = tables.probe_wdl(board.pos())?;
        job.control.add_tb_hits(self.id, 1);
        let (score, bound) = tablebase_score(wdl, tables.rule50, ply);
        let is_pv = beta - alpha > 1;
        let settled = match bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        };
        if !settled && !is_pv {
            return None;
        }
        job.spec.tt.store(
            board.key(),
            TtStore {
                best_move: None,
                score,
                static_eval: evaluate(board),
                depth: (depth + TB_STORE_DEPTH_BONUS).min(MAX_DEPTH),
                bound,
                ply,
            },
        );
        Some(score)
    }
}

/// The score at `ply` of a position the tables call `wdl`, and which side
/// of the true score it is.
fn tablebase_score(wdl: Wdl, rule50: bool, ply: usize) -> (i32, Bound) {
    match wdl {
        Wdl::Win => (tb_win_in(ply), Bound::Lower),
        Wdl::CursedWin if !rule50 => (tb_win_in(ply), Bound::Lower),
        Wdl::CursedWin => (CURSED_WIN_SCORE, Bound::Exact),
        Wdl::Draw => (DRAW, Bound::Exact),
        Wdl::BlessedLoss if !rule50 => (tb_loss_in(ply), Bound::Upper),
        Wdl::BlessedLoss => (-CURSED_WIN_SCORE, Bound::Exact),
        Wdl::Loss => (tb_loss_in(ply), Bound::Upper),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wins_and_losses_are_bounds_and_draws_exact() {
        assert_eq!(
            tablebase_score(Wdl::Win, true, 3),
            (tb_win_in(3), Bound::Lower)
        );
        assert_eq!(
            tablebase_score(Wdl::Loss, true, 4),
            (tb_loss_in(4), Bound::Upper)
        );
        assert_eq!(tablebase_score(Wdl::Draw, false, 4), (DRAW, Bound::Exact));
    }

    #[test]
    fn the_fifty_move_rule_decides_cursed_wins_and_blessed_losses() {
        assert_eq!(
            tablebase_score(Wdl::CursedWin, true, 5),
            (CURSED_WIN_SCORE, Bound::Exact)
        );
        assert_eq!(
            tablebase_score(Wdl::BlessedLoss, true, 5),
            (-CURSED_WIN_SCORE, Bound::Exact)
        );
        assert_eq!(
            tablebase_score(Wdl::CursedWin, false, 5),
            (tb_win_in(5), Bound::Lower)
        );
        assert_eq!(
            tablebase_score(Wdl::BlessedLoss, false, 5),
            (tb_loss_in(5), Bound::Upper)
        );
    }
}
