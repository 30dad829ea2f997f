//! Quiescence: below the main search's horizon, resolve captures until the
//! position is quiet, so the static evaluation is never taken in the middle
//! of an exchange.
//!
//! It must stay small, since it runs at every leaf:
//! * the side to move may **stand pat** on its static evaluation (some quiet
//!   move is assumed at least as good), checked before any move is made;
//! * only captures and queen promotions are tried, and of those none that
//!   loses material by static exchange evaluation, nor one that cannot lift
//!   the score near alpha (delta pruning);
//! * past [`RECAPTURES_ONLY_PLY`] plies of quiescence only recaptures on the
//!   square of the last capture are tried, which bounds the tree even where
//!   dozens of equal trades are possible;
//! * in check there is no standing pat: every evasion is tried, quiet ones
//!   too, so a mate is seen and a safe king move is never skipped.
//!
//! Draws by the fifty-move rule and insufficient material are scored here
//! as in the main search (a repetition needs quiet moves, which quiescence
//! plays only as evasions, right after a capture). Results are stored in the
//! table as bounds only, at depth 0, so they never pass for an exact result
//! of a real search (they may take the slot of a shallow or stale entry, as
//! any store may; see the table's replacement rules).

use shakmaty::{Move, Position, Role, Square};

use super::history::PieceTo;
use super::job::SearchJob;
use super::movepick::{MovePicker, captured_value, is_tactical};
use super::searcher::Searcher;
use super::see::exchange_at_least;
use super::tunables;
use crate::board::{Board, FIFTY_MOVE_HALFMOVES};
use crate::eval::evaluate;
use crate::score::{DRAW, MAX_PLY, mated_in};
use crate::tt::{Bound, PackedMove, TtStore};

/// Plies into quiescence after which only recaptures are searched.
const RECAPTURES_ONLY_PLY: usize = 5;

/// Whether `m` is worth a look in quiescence outside check: a capture or a
/// promotion to a queen.
fn is_quiescence_move(m: Move, recapture_square: Option<Square>) -> bool {
    let kind_fits = m.is_capture() || m.promotion() == Some(Role::Queen);
    kind_fits && recapture_square.is_none_or(|square| m.to() == square)
}

impl Searcher {
    /// Searches captures (every evasion when in check) within `(alpha,
    /// beta)` until the position is quiet. `quiescence_ply` counts the
    /// plies since the main search's horizon and `last_capture` is where
    /// the last capture landed, for limiting deep quiescence to recaptures.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn quiescence(
        &mut self,
        job: &SearchJob,
        board: &Board,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        quiescence_ply: usize,
        last_capture: Option<Square>,
    ) -> i32 {
        if self.should_stop(job) {
            return DRAW;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let in_check = board.is_check();
        if (board.halfmoves() >= FIFTY_MOVE_HALFMOVES && !in_check)
            || board.pos().is_insufficient_material()
        {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(board);
        }

        let hit = job.spec.tt.probe(board.key(), ply, board.halfmoves());
        if let Some(hit) = hit
            && hit.cuts(alpha, beta)
        {
            return hit.score;
        }

        let (raw_eval, static_eval) = self.static_evals(board, ply, in_check, hit);
        let mut best_score = static_eval;
        if !in_check {
            if static_eval >= beta {
                return static_eval;
            }
            alpha = alpha.max(static_eval);
        }

        let legal = board.pos().legal_moves();
        if legal.is_empty() {
            return if in_check { mated_in(ply) } else { DRAW };
        }
        if in_check && board.halfmoves() >= FIFTY_MOVE_HALFMOVES {
            return DRAW;
        }
        let tt_move = hit.map_or(PackedMove::NONE, |h| h.best_move);
        let recapture_square = last_capture.filter(|_| quiescence_ply >= RECAPTURES_ONLY_PLY);
        let mut picker = MovePicker::quiescence();
        picker.keep_tactical(&legal, tt_move, |m| {
            in_check || is_quiescence_move(m, recapture_square)
        });

        let mut best_move = None;
        while let Some(m) = picker.next(board, &self.histories) {
            if !in_check
                && (static_eval + captured_value(m) + tunables::delta_margin() <= alpha
                    || !exchange_at_least(board, m, 0))
            {
                continue;
            }
            let child = board.play_announcing_key(m, |key| job.spec.tt.prefetch(key));
            // What the child's continuation correction is keyed by.
            self.stack[ply].moved = Some(PieceTo::new(board.turn(), m));
            let landing = if is_tactical(m) {
                Some(m.to())
            } else {
                last_capture
            };
            let score = -self.quiescence(
                job,
                &child,
                -beta,
                -alpha,
                ply + 1,
                quiescence_ply + 1,
                landing,
            );
            if self.aborted {
                return DRAW;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }

        // A score inside the window is exact only for the captures tried
        // here: it is stored as the upper bound it is unless it cut.
        let bound = if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        job.spec.tt.store(
            board.key(),
            TtStore {
                best_move,
                score: best_score,
                static_eval: raw_eval,
                depth: 0,
                bound,
                ply,
            },
        );
        best_score
    }
}
