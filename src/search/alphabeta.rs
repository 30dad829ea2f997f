//! Negamax alpha-beta with principal variation search.
//!
//! Each node, in order:
//! 1. draw and mate-distance checks (before the horizon too, so a
//!    repetition one ply deep is a draw and not a static evaluation), then
//!    at the horizon [`quiescence`](super::quiescence);
//! 2. a transposition-table probe: a cutoff in non-PV nodes, else its move
//!    is tried first; a node at depth `iir_min_depth` (a tunable) or more
//!    with no table move searches one ply shallower (internal iterative
//!    reduction; not in a singular test, which skips the probe);
//! 3. in quiet non-PV positions, static pruning: reverse futility (the
//!    static evaluation is far above beta; less eager when the evaluation
//!    is falling; never against a beta that is a proven loss, which any
//!    evaluation beats) and null move (passing still fails high, which proves
//!    the node fails high but never a mate or a tablebase win);
//! 4. the moves in [`MovePicker`] order. The first gets the full window,
//!    later ones a null window, reduced when late (LMR, captures and
//!    promotions by a table of their own; less in PV nodes, and for quiet
//!    moves less with good history and for killers, more when the position
//!    is not improving; never a move that gives check or answers one), and
//!    are searched again only when they beat alpha.
//!    In shallow nodes late quiet moves are skipped (late-move pruning),
//!    as are quiet moves when the evaluation is far below alpha (futility)
//!    and moves that lose too much by static exchange (SEE pruning).
//!
//! **Singular extensions**: when the table says its move is good (a lower
//! or exact bound, searched nearly as deep), a shallow search of every
//! other move against a bound just below the table score tells whether it
//! is the only good move. Then it is extended one ply (two in non-PV nodes
//! when the others fall far short, at most a few times on a path); when
//! the others beat beta too the node is cut at once (multi-cut); when they
//! merely beat the lowered bound and the table score beats beta, the table
//! move is searched a ply shallower. The test is this node searched again
//! at the same ply without the table move (`excluded` in the ply stack),
//! which neither cuts on nor stores to the table.
//!
//! The static evaluation is corrected by what earlier searches found it
//! got wrong in the same pawn structure, with the same pieces of either
//! side, or after the same two moves ([`correction`](super::correction)),
//! and each node with a quiet best move teaches those tables in turn.
//!
//! A position is "improving" when its static evaluation beats the one of
//! two plies earlier (the same side to move): pruning trusts a falling
//! evaluation less. Checks are extended by one ply. A move is made only
//! once pruning has passed it: whether it gives check (which spares it
//! futility and late-move pruning and reductions) is told from attack
//! tables ([`CheckSquares`], computed once per node).
//!
//! At the root the moves come from the job (`searchmoves`, less the lines
//! MultiPV has already given); a search with excluded root moves does not
//! store the root in the table, where it would overwrite line 1's result.

use shakmaty::{MoveList, Position, Role};

use super::history::{Context, PieceTo, Tried};
use super::job::SearchJob;
use super::movekey::MoveKey;
use super::movepick::{Candidates, MovePicker, Ordering, is_tactical};
use super::reductions::{ReducedKind, late_move_reduction};
use super::result::ThreadResult;
use super::searcher::{NO_EVAL, Searcher};
use super::see::exchange_at_least;
use super::tunables;
use crate::board::check::CheckSquares;
use crate::board::{Board, FIFTY_MOVE_HALFMOVES};
use crate::eval::evaluate;
use crate::score::{DRAW, INFINITY, MAX_PLY, is_decisive, is_loss, mate_in, mated_in};
use crate::tt::{Bound, TtHit, TtStore};

/// The extension of a table move whose alternatives fall that far short.
pub(super) const DOUBLE_EXTENSION: i32 = 2;
/// At most this many double extensions on one path.
const MAX_DOUBLE_EXTENSIONS: u8 = 6;
/// Singular extensions stop where a path is this many times the root depth
/// long (check extensions are bounded by [`MAX_PLY`] alone).
const MAX_EXTENDED_PATH_FACTOR: i32 = 2;

/// A node whose evaluation is not improving tries this many times fewer
/// quiet moves before late-move pruning.
const LATE_MOVE_PRUNING_NOT_IMPROVING_DIVISOR: i32 = 2;

/// Whether reverse futility ends a node at `depth` on its `static_eval`:
/// the evaluation is so far above `beta` that no move is searched. Not
/// when `beta` is a proven loss (a mate or a tablebase loss): every
/// evaluation beats it, and the node would claim at least its evaluation
/// where only "not lost" is known.
pub(super) fn reverse_futility_cuts(
    depth: i32,
    improving: bool,
    static_eval: i32,
    beta: i32,
) -> bool {
    depth <= tunables::reverse_futility_max_depth()
        && !is_loss(beta)
        && static_eval - tunables::reverse_futility_margin() * (depth - i32::from(improving))
            >= beta
}

/// Whether passing is worth searching for a cutoff: deep enough, with an
/// evaluation at or above `beta`, and never against a `beta` that is a
/// proven loss: passing cannot prove that a mate or a tablebase loss is
/// escaped, so its "fail high" would claim what nothing has shown.
pub(super) fn null_move_may_cut(depth: i32, static_eval: i32, beta: i32) -> bool {
    depth >= tunables::null_move_min_depth() && static_eval >= beta && !is_loss(beta)
}

/// Whether the side to move has a piece other than pawns and king: null
/// move is unsound in pawn endings (zugzwang).
fn has_non_pawn_material(board: &Board) -> bool {
    let b = board.pos().board();
    let pawns_and_kings = b.by_role(Role::Pawn) | b.by_role(Role::King);
    (board.pos().us() & !pawns_and_kings).any()
}

impl Searcher {
    /// The moves one and two plies before `ply`, for continuation history
    /// and continuation correction.
    fn context(&self, ply: usize) -> Context {
        let before = |back: usize| ply.checked_sub(back).and_then(|p| self.stack[p].moved);
        Context {
            previous: before(1),
            before_previous: before(2),
        }
    }

    /// Sets the double extensions on the path of the child searched next
    /// from `ply` with `extension`: the node's own count, one more when
    /// that child is extended twice. Set before every child, so a sibling
    /// searched after a doubly extended move is back at the node's count.
    pub(super) fn enter_child(&mut self, ply: usize, extension: i32) {
        self.stack[ply + 1].double_extensions =
            self.stack[ply].double_extensions + u8::from(extension >= DOUBLE_EXTENSION);
    }

    /// Whether the static evaluation at `ply` beats the one two plies
    /// earlier (true when there is nothing to compare with).
    fn improving(&self, ply: usize, static_eval: i32) -> bool {
        match ply.checked_sub(2).map(|p| self.stack[p].static_eval) {
            Some(earlier) if earlier != NO_EVAL => static_eval > earlier,
            _ => true,
        }
    }

    /// The raw static evaluation of `board` (the table entry's when there
    /// is one) and the same corrected by correction history (the pawns,
    /// each side's other pieces, the two moves before): the table keeps
    /// the first, the search decides with the second. Both are `NO_EVAL`
    /// in check.
    pub(super) fn static_evals(
        &self,
        board: &Board,
        ply: usize,
        in_check: bool,
        hit: Option<TtHit>,
    ) -> (i32, i32) {
        if in_check {
            return (NO_EVAL, NO_EVAL);
        }
        let raw_eval = hit.map_or_else(|| evaluate(board), |h| h.static_eval);
        (
            raw_eval,
            self.correction.correct(board, self.context(ply), raw_eval),
        )
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
        let excluded = self.stack[ply].excluded;
        self.pv.clear(ply);
        let in_check = board.is_check();

        if !is_root {
            if self.keys.is_repetition(board.halfmoves()) || board.pos().is_insufficient_material()
            {
                return DRAW;
            }
            // Checkmate takes precedence over the fifty-move rule.
            if board.halfmoves() >= FIFTY_MOVE_HALFMOVES {
                let mated = in_check && board.pos().legal_moves().is_empty();
                return if mated { mated_in(ply) } else { DRAW };
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

        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence(job, board, alpha, beta, ply, 0, None);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        // A singular test searches this node without its table move: the
        // table's result is not its result.
        let hit = if excluded.is_some() {
            None
        } else {
            job.spec.tt.probe(board.key(), ply, board.halfmoves())
        };
        if let Some(hit) = hit
            && !is_pv
            && hit.depth >= depth
            && hit.cuts(alpha, beta)
        {
            return hit.score;
        }
        let table_move = hit.and_then(|h| h.best_move.to_move(board.pos()));
        if table_move.is_none() && excluded.is_none() && depth >= tunables::iir_min_depth() {
            depth -= 1;
        }
        // Not in check, where a mate should score as a mate.
        if !is_root
            && !in_check
            && excluded.is_none()
            && let Some(score) = self.probe_tablebase(job, board, depth, alpha, beta, ply)
        {
            return score;
        }

        // A singular test keeps the node's evaluation (it neither stores
        // nor learns, so it needs no raw one).
        let (raw_eval, static_eval) = if excluded.is_some() && !in_check {
            (NO_EVAL, self.stack[ply].static_eval)
        } else {
            self.static_evals(board, ply, in_check, hit)
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && self.improving(ply, static_eval);

        if !is_pv && !in_check && excluded.is_none() {
            if reverse_futility_cuts(depth, improving, static_eval, beta) {
                return static_eval;
            }
            if allow_null
                && null_move_may_cut(depth, static_eval, beta)
                && has_non_pawn_material(board)
                && let Some(null_board) = board.play_null()
            {
                let reduction = tunables::null_move_base_reduction()
                    + depth / tunables::null_move_depth_divisor()
                    + ((static_eval - beta) / tunables::null_move_eval_divisor())
                        .min(tunables::null_move_max_eval_reduction());
                self.stack[ply].moved = None;
                self.enter_child(ply, 0);
                self.keys.push_null(null_board.key());
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
                    return if is_decisive(score) { beta } else { score };
                }
            }
        }

        let mut table_move_extension = 0;
        if let (Some(hit), Some(m)) = (hit, table_move)
            && !is_root
            && depth >= tunables::singular_min_depth()
            && (ply as i32) < MAX_EXTENDED_PATH_FACTOR * self.root_depth
            && hit.depth >= depth - tunables::singular_table_depth_margin()
            && hit.bound != Bound::Upper
            && !is_decisive(hit.score)
        {
            let singular_beta = hit.score - tunables::singular_margin_per_depth() * depth;
            self.stack[ply].excluded = Some(m);
            let score = self.negamax(
                job,
                board,
                (depth - 1) / 2,
                singular_beta - 1,
                singular_beta,
                ply,
                false,
            );
            self.stack[ply].excluded = None;
            // The test may have left its own line at this ply.
            self.pv.clear(ply);
            if self.aborted {
                return DRAW;
            }
            if score < singular_beta {
                table_move_extension = 1;
                let doubles = self.stack[ply].double_extensions;
                if !is_pv
                    && score < singular_beta - tunables::double_extension_margin()
                    && doubles < MAX_DOUBLE_EXTENSIONS
                {
                    table_move_extension = DOUBLE_EXTENSION;
                }
            } else if singular_beta >= beta {
                return singular_beta;
            } else if hit.score >= beta {
                table_move_extension = -1;
            }
        }

        let futile = !is_pv
            && !in_check
            && depth <= tunables::futility_max_depth()
            && static_eval
                + tunables::futility_base_margin()
                + tunables::futility_margin_per_depth() * depth
                <= alpha;
        let late_move_limit = ((tunables::late_move_pruning_base() + depth * depth)
            / if improving {
                1
            } else {
                LATE_MOVE_PRUNING_NOT_IMPROVING_DIVISOR
            }) as usize;

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut tried = Tried::default();
        let mut check_squares = None;
        let mut move_number = 0;
        let mut legal_moves = 0;
        let context = self.context(ply);
        let turn = board.turn();
        let table_move_key = MoveKey::of(table_move);
        let killer_keys = self.histories.killers(ply).map(MoveKey::of);
        let root_moves: Option<MoveList> = is_root.then(|| {
            job.spec
                .root_moves
                .iter()
                .copied()
                .filter(|m| !self.excluded_root_moves.contains(m))
                .collect()
        });
        let candidates = match &root_moves {
            Some(moves) => Candidates::Given(moves),
            None => Candidates::AllBut(excluded),
        };
        let mut picker = MovePicker::new(
            table_move,
            candidates,
            Ordering {
                turn,
                killers: killer_keys,
                countermove: MoveKey::of(self.histories.countermove(&context)),
                context,
            },
        );

        while let Some(m) = picker.next(board, &self.histories) {
            legal_moves += 1;
            let quiet = !is_tactical(m);
            // A move that gives check is never reduced, and a quiet one
            // escapes futility and late-move pruning (not SEE pruning); in
            // check no move is reduced.
            let checks = !in_check
                && check_squares
                    .get_or_insert_with(|| CheckSquares::new(board.pos()))
                    .gives_check(board.pos(), m);
            if !is_root && !is_loss(best_score) {
                if quiet && !in_check && !checks && !is_pv {
                    let late = depth <= tunables::late_move_pruning_max_depth()
                        && tried.quiets.len() >= late_move_limit;
                    if futile || late {
                        continue;
                    }
                }
                if depth <= tunables::see_pruning_max_depth() {
                    let margin = if quiet {
                        tunables::see_quiet_margin_per_depth() * depth
                    } else {
                        tunables::see_capture_margin_per_depth_squared() * depth * depth
                    };
                    if !exchange_at_least(board, m, margin) {
                        continue;
                    }
                }
            }
            move_number += 1;
            let nodes_before = self.nodes;
            let child = board.play_announcing_key(m, |key| job.spec.tt.prefetch(key));
            self.stack[ply].moved = Some(PieceTo::new(turn, m));
            self.keys.push(child.key());
            let key = MoveKey::new(m);
            let extension = if key == table_move_key {
                table_move_extension
            } else {
                0
            };
            self.enter_child(ply, extension);
            let new_depth = depth - 1 + extension;
            let score = if move_number == 1 {
                -self.negamax(job, &child, new_depth, -beta, -alpha, ply + 1, true)
            } else {
                let reduction = if depth >= tunables::lmr_min_depth() && !in_check && !checks {
                    let kind = if quiet {
                        ReducedKind::Quiet
                    } else {
                        ReducedKind::Tactical
                    };
                    let mut r = late_move_reduction(kind, depth, move_number);
                    r -= i32::from(is_pv);
                    if quiet {
                        r += i32::from(!improving);
                        r -= i32::from(killer_keys.contains(&key));
                        r -= self.histories.quiet_score(turn, m, &context)
                            / tunables::lmr_history_divisor();
                    }
                    // A reduced search keeps at least one ply: it never drops
                    // into quiescence where the full-depth one would not.
                    r.clamp(0, (new_depth - 1).max(0))
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
            if is_root && self.is_main() {
                self.root_move_nodes.add(m, self.nodes - nodes_before);
            }
            if self.aborted {
                return DRAW;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    self.pv.update(ply, m);
                    if is_root {
                        self.iteration_best = Some(ThreadResult {
                            depth: self.root_depth,
                            seldepth: self.seldepth,
                            score,
                            pv: self.pv.line(0).to_vec(),
                            complete: false,
                        });
                    }
                    if score >= beta {
                        if quiet {
                            self.histories
                                .record_quiet_cutoff(turn, ply, depth, m, &tried, &context);
                        } else {
                            self.histories.record_capture_cutoff(turn, depth, m, &tried);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet {
                tried.quiets.push(m);
            } else {
                tried.captures.push(m);
            }
        }

        if legal_moves == 0 {
            // In a singular test, the table move was the only legal one.
            return if excluded.is_some() {
                alpha
            } else if in_check {
                mated_in(ply)
            } else {
                DRAW
            };
        }
        if excluded.is_some() {
            return best_score;
        }
        if !is_root || self.excluded_root_moves.is_empty() {
            let bound = Bound::for_window(best_score, original_alpha, beta);
            job.spec.tt.store(
                board.key(),
                TtStore {
                    best_move,
                    score: best_score,
                    static_eval: raw_eval,
                    depth,
                    bound,
                    ply,
                },
            );
            // The evaluation was off only if the search says which way: a
            // fail high above it, a fail low below it, or an exact score.
            let evaluation_erred = match bound {
                Bound::Lower => best_score > static_eval,
                Bound::Upper => best_score < static_eval,
                Bound::Exact => true,
            };
            if !in_check && evaluation_erred && best_move.is_none_or(|m| !is_tactical(m)) {
                self.correction
                    .update(board, self.context(ply), depth, raw_eval, best_score);
            }
        }
        best_score
    }
}
