//! Negamax alpha-beta with principal variation search, and quiescence.
//!
//! Each node: draw and mate-distance checks, a transposition-table probe
//! (cutoffs only in non-PV nodes, where a bound is all that is needed), then
//! static pruning in quiet non-PV positions (reverse futility, null move),
//! then the moves in [`MovePicker`] order. The first move gets the full
//! window; later ones a null window, reduced when late and quiet (LMR), and
//! are searched again only when they beat alpha. Late quiet moves of shallow
//! nodes are skipped (late-move and futility pruning). Checks are extended
//! by one ply.
//!
//! Quiescence resolves captures and promotions (all evasions when in check)
//! below the horizon, so the static evaluation is never taken in the middle
//! of an exchange. It skips captures that lose material by static exchange
//! evaluation, and those that cannot bring the score near alpha (delta
//! pruning).

use std::sync::OnceLock;

use shakmaty::{Move, MoveList, Position, Role};

use super::ordering::{MovePicker, captured_value, is_tactical};
use super::see::exchange_at_least;
use super::{SearchJob, Searcher};
use crate::board::Board;
use crate::eval::evaluate;
use crate::score::{DRAW, INFINITY, MATE_BOUND, MAX_PLY, is_mate, mate_in, mated_in};
use crate::tt::{Bound, PackedMove, TtHit, TtStore};

/// Nodes between two looks at the stop flag and the clock (a power of two).
const STOP_CHECK_INTERVAL: u64 = 1024;

const REVERSE_FUTILITY_MAX_DEPTH: i32 = 6;
const REVERSE_FUTILITY_MARGIN: i32 = 80;

const NULL_MOVE_MIN_DEPTH: i32 = 3;
const NULL_MOVE_BASE_REDUCTION: i32 = 3;
const NULL_MOVE_DEPTH_DIVISOR: i32 = 4;

const LATE_MOVE_PRUNING_MAX_DEPTH: i32 = 4;
const LATE_MOVE_PRUNING_BASE: usize = 3;

const FUTILITY_MAX_DEPTH: i32 = 3;
const FUTILITY_BASE_MARGIN: i32 = 100;
const FUTILITY_MARGIN_PER_DEPTH: i32 = 100;

const LMR_MIN_DEPTH: i32 = 3;
/// Moves searched before reductions start.
const LMR_FULL_DEPTH_MOVES: usize = 3;
const LMR_BASE: f64 = 0.75;
const LMR_DIVISOR: f64 = 2.25;
const LMR_TABLE_SIZE: usize = 64;

/// Quiescence skips a capture that cannot lift the score near alpha.
const DELTA_MARGIN: i32 = 200;

/// Late-move reduction in plies for `depth` and the `move_number`-th move.
fn late_move_reduction(depth: i32, move_number: usize) -> i32 {
    static TABLE: OnceLock<[[u8; LMR_TABLE_SIZE]; LMR_TABLE_SIZE]> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table = [[0; LMR_TABLE_SIZE]; LMR_TABLE_SIZE];
        for (d, row) in table.iter_mut().enumerate().skip(1) {
            for (m, cell) in row.iter_mut().enumerate().skip(1) {
                let r = LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR;
                *cell = r as u8;
            }
        }
        table
    });
    let d = (depth as usize).min(LMR_TABLE_SIZE - 1);
    let m = move_number.min(LMR_TABLE_SIZE - 1);
    i32::from(table[d][m])
}

/// Whether a table entry's bound settles the score for this window.
fn cuts(hit: &TtHit, alpha: i32, beta: i32) -> bool {
    match hit.bound {
        Bound::Exact => true,
        Bound::Lower => hit.score >= beta,
        Bound::Upper => hit.score <= alpha,
    }
}

/// Whether the side to move has a piece other than pawns and king: null
/// move is unsound in pawn endings (zugzwang).
fn has_non_pawn_material(board: &Board) -> bool {
    let b = board.pos().board();
    let pawns_and_kings = b.by_role(Role::Pawn) | b.by_role(Role::King);
    (board.pos().us() & !pawns_and_kings).any()
}

impl Searcher {
    /// Looks at the stop flag, the clock and the node limit; once it says
    /// stop it keeps saying so until the next search.
    pub(super) fn should_stop(&mut self, job: &SearchJob) -> bool {
        if self.aborted {
            return true;
        }
        // Keep searching until the root has a best move to play.
        if self.root_depth <= 1 && self.pv.line(0).is_empty() {
            return false;
        }
        if self.nodes.is_multiple_of(STOP_CHECK_INTERVAL) {
            let control = &job.control;
            control.set_nodes(self.id, self.nodes);
            if control.is_stopped() {
                self.aborted = true;
            } else if self.is_main() {
                self.other_nodes = control.total_nodes().saturating_sub(self.nodes);
                let out_of_time = job
                    .time
                    .is_some_and(|t| !control.is_pondering() && control.elapsed() >= t.hard);
                if out_of_time {
                    self.aborted = true;
                }
            }
        }
        if self.is_main()
            && job
                .limits
                .nodes
                .is_some_and(|limit| self.nodes + self.other_nodes >= limit)
        {
            self.aborted = true;
        }
        if self.aborted {
            job.control.stop();
        }
        self.aborted
    }

    /// Searches `board` to `depth` within `(alpha, beta)` and returns its
    /// score for the side to move. `allow_null` is false right after a null
    /// move, so two never follow each other.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        job: &SearchJob,
        board: &Board,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        allow_null: bool,
    ) -> i32 {
        #[cfg(test)]
        if job
            .inject_panic
            .is_some_and(|(id, depth)| id == self.id && self.root_depth >= depth)
        {
            panic!("injected search fault");
        }
        if self.should_stop(job) {
            return DRAW;
        }
        let is_root = ply == 0;
        let is_pv = beta - alpha > 1;
        self.pv.clear(ply);
        let in_check = board.is_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence(job, board, alpha, beta, ply);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        if !is_root {
            if self.keys.is_repetition(board.halfmoves()) || board.pos().is_insufficient_material()
            {
                return DRAW;
            }
            if ply >= MAX_PLY - 1 {
                return evaluate(board);
            }
            // No line from here can beat a mate already found nearer the root.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        let hit = job.tt.probe(board.key(), ply);
        let tt_move = hit.map_or(PackedMove::NONE, |h| h.best_move);
        if let Some(hit) = hit
            && !is_pv
            && hit.depth >= depth
            && cuts(&hit, alpha, beta)
        {
            return hit.score;
        }

        let moves: MoveList = if is_root {
            let excluded = &self.excluded_root_moves;
            job.root_moves
                .iter()
                .copied()
                .filter(|m| !excluded.contains(m))
                .collect()
        } else {
            board.pos().legal_moves()
        };
        if moves.is_empty() {
            return if in_check { mated_in(ply) } else { DRAW };
        }
        // Checkmate takes precedence over the fifty-move rule.
        if !is_root && board.halfmoves() >= 100 {
            return DRAW;
        }
        if !is_root && let Some(score) = self.probe_tablebase(job, board, depth, alpha, beta, ply) {
            return score;
        }

        let static_eval = if in_check {
            -INFINITY
        } else {
            hit.map_or_else(|| evaluate(board), |h| h.static_eval)
        };

        if !is_pv && !in_check {
            if depth <= REVERSE_FUTILITY_MAX_DEPTH
                && !is_mate(beta)
                && static_eval - REVERSE_FUTILITY_MARGIN * depth >= beta
            {
                return static_eval;
            }
            if allow_null
                && depth >= NULL_MOVE_MIN_DEPTH
                && static_eval >= beta
                && has_non_pawn_material(board)
                && let Some(null_board) = board.play_null()
            {
                let reduction = NULL_MOVE_BASE_REDUCTION + depth / NULL_MOVE_DEPTH_DIVISOR;
                self.keys.push(null_board.key());
                let score = -self.negamax(
                    job,
                    &null_board,
                    depth - 1 - reduction,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    false,
                );
                self.keys.pop();
                if self.aborted {
                    return DRAW;
                }
                if score >= beta {
                    return if is_mate(score) { beta } else { score };
                }
            }
        }

        let futile = !is_pv
            && !in_check
            && depth <= FUTILITY_MAX_DEPTH
            && static_eval + FUTILITY_BASE_MARGIN + FUTILITY_MARGIN_PER_DEPTH * depth <= alpha;
        let late_move_limit = LATE_MOVE_PRUNING_BASE + (depth * depth) as usize;

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move: Option<Move> = None;
        let mut quiets_tried = MoveList::new();
        let mut move_number = 0;
        let picker = MovePicker::new(moves, tt_move, &self.tables, board.turn(), ply);

        for m in picker {
            let quiet = !is_tactical(m);
            let child = board.play(m);
            let gives_check = child.is_check();
            let prunable =
                !is_root && quiet && !in_check && !gives_check && best_score > -MATE_BOUND;
            if prunable
                && !is_pv
                && (futile
                    || (depth <= LATE_MOVE_PRUNING_MAX_DEPTH
                        && quiets_tried.len() >= late_move_limit))
            {
                continue;
            }
            move_number += 1;
            self.keys.push(child.key());
            let new_depth = depth - 1;
            let score = if move_number == 1 {
                -self.negamax(job, &child, new_depth, -beta, -alpha, ply + 1, true)
            } else {
                let reduction = if depth >= LMR_MIN_DEPTH
                    && move_number > LMR_FULL_DEPTH_MOVES
                    && quiet
                    && !in_check
                    && !gives_check
                {
                    (late_move_reduction(depth, move_number) - i32::from(is_pv))
                        .clamp(0, new_depth - 1)
                } else {
                    0
                };
                let mut score = -self.negamax(
                    job,
                    &child,
                    new_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    true,
                );
                if score > alpha && reduction > 0 {
                    score =
                        -self.negamax(job, &child, new_depth, -alpha - 1, -alpha, ply + 1, true);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(job, &child, new_depth, -beta, -alpha, ply + 1, true);
                }
                score
            };
            self.keys.pop();
            if self.aborted {
                return DRAW;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    self.pv.update(ply, m);
                    if score >= beta {
                        if quiet {
                            self.tables
                                .record_cutoff(board.turn(), ply, depth, m, &quiets_tried);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet {
                quiets_tried.push(m);
            }
        }

        job.tt.store(
            board.key(),
            TtStore {
                best_move,
                score: best_score,
                static_eval,
                depth,
                bound: Bound::for_window(best_score, original_alpha, beta),
                ply,
            },
        );
        best_score
    }

    /// Searches captures and promotions (every evasion when in check) until
    /// the position is quiet, standing pat on the static evaluation.
    fn quiescence(
        &mut self,
        job: &SearchJob,
        board: &Board,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.should_stop(job) {
            return DRAW;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return evaluate(board);
        }

        let hit = job.tt.probe(board.key(), ply);
        if let Some(hit) = hit
            && cuts(&hit, alpha, beta)
        {
            return hit.score;
        }
        let in_check = board.is_check();
        let mut moves = board.pos().legal_moves();
        if moves.is_empty() {
            return if in_check { mated_in(ply) } else { DRAW };
        }

        let static_eval = if in_check {
            -INFINITY
        } else {
            hit.map_or_else(|| evaluate(board), |h| h.static_eval)
        };
        let original_alpha = alpha;
        let mut best_score = static_eval;
        if !in_check {
            if static_eval >= beta {
                return static_eval;
            }
            alpha = alpha.max(static_eval);
            moves.retain(|m| is_tactical(*m));
        }

        let mut best_move = None;
        let tt_move = hit.map_or(PackedMove::NONE, |h| h.best_move);
        for m in MovePicker::tactical(moves, tt_move) {
            if !in_check
                && (static_eval + captured_value(m) + DELTA_MARGIN <= alpha
                    || !exchange_at_least(board, m, 0))
            {
                continue;
            }
            // Evasions: once one has saved the king, quiet ones add little.
            if in_check && best_score > -MATE_BOUND && !is_tactical(m) {
                continue;
            }
            // Evasions: once one has saved the king, quiet ones add little.
            if in_check && best_score > -MATE_BOUND && !is_tactical(m) {
                continue;
            }
            let child = board.play(m);
            let score = -self.quiescence(job, &child, -beta, -alpha, ply + 1);
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

        job.tt.store(
            board.key(),
            TtStore {
                best_move,
                score: best_score,
                static_eval,
                depth: 0,
                bound: Bound::for_window(best_score, original_alpha, beta),
                ply,
            },
        );
        best_score
    }
}
