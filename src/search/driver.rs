//! Iterative deepening: search depth 1, 2, 3, … until a limit says stop,
//! each iteration seeding the next through the transposition table, the
//! history tables and an aspiration window around the last score.
//!
//! Only fully searched moves count. When `stop`, the clock or the node
//! limit cuts an iteration:
//! * the MultiPV lines it completed before the cut are kept (line 1 at
//!   depth d beats line 1 at depth d − 1);
//! * if it was cut in line 1 after some root move had beaten alpha, that
//!   move is kept: it was searched to the new depth and scored at least as
//!   well as every move searched before it, the last iteration's best move
//!   among them (which is searched first), so it is the better-informed
//!   choice. This is how a new best move found late in the last iteration
//!   is played rather than lost. It is reported at the depth it was
//!   searching with a `lowerbound` score, since later root moves are
//!   unsearched;
//! * otherwise the last completed iteration stands, and a first iteration
//!   cut before any root move was searched leaves nothing (the pool then
//!   plays the table's move for the root, or the first legal move).
//!
//! A limited strength draws its move among a full set of lines, so for it
//! a cut iteration that left fewer lines than it searches changes nothing:
//! the last iteration that completed them all stands.
//!
//! The main thread reports each iteration and decides, between iterations,
//! whether another one fits the time (the soft limit).

use super::job::SearchJob;
use super::result::ThreadResult;
use super::searcher::Searcher;
use super::stability::Stability;
use super::strength::CANDIDATE_LINES;
use super::tunables;
use crate::board::KeyHistory;
use crate::score::{INFINITY, MAX_DEPTH, is_mate, mate_moves};

/// Iterations from which the window is narrowed around the last score.
const ASPIRATION_MIN_DEPTH: i32 = 5;
/// Past this the window opens fully.
const ASPIRATION_MAX_DELTA: i32 = 1000;
/// The unit of the window's growth tunable.
const PERCENT: i32 = 100;

impl Searcher {
    /// Runs iterative deepening on `job` and returns the best line of the
    /// last iteration (see the module notes on cut iterations), or `None`
    /// when no root move was searched. Under a limited strength the main
    /// thread returns the line [`super::strength::Strength::choose`] draws instead.
    pub(crate) fn search(&mut self, job: &SearchJob) -> Option<ThreadResult> {
        self.keys = KeyHistory::new(job.spec.game_keys.clone());
        self.nodes = 0;
        self.other_nodes = 0;
        self.aborted = false;
        self.histories.new_search();
        // Nothing of the last search may pass for a result of this one.
        self.root_depth = 0;
        self.pv.clear(0);
        self.last_result = None;
        self.stability = Stability::default();
        self.root_move_nodes.clear();

        let max_depth = job
            .spec
            .limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH);
        // Only the main thread reports, so only it searches several lines:
        // the lines asked for (MultiPV), or under a limited strength at
        // least the candidates it draws among, of which it shows only
        // those asked for.
        let root_move_count = job.spec.root_moves.len().max(1);
        let shown_lines = job.spec.multipv.clamp(1, root_move_count);
        let line_count = match job.spec.strength {
            _ if !self.is_main() => 1,
            Some(_) => shown_lines.max(CANDIDATE_LINES.min(root_move_count)),
            None => shown_lines,
        };
        let mut lines: Vec<ThreadResult> = Vec::new();
        for iteration in 1..=max_depth {
            // Lazy SMP: odd helpers run one ply ahead of the main thread so
            // the threads do not search the same tree in lockstep.
            let depth = if self.id % 2 == 1 {
                (iteration + 1).min(max_depth)
            } else {
                iteration
            };
            let kept = self
                .search_lines(job, depth, line_count, &lines)
                .filter(|kept| replaces(job, kept, line_count, &lines));
            if let Some(kept) = kept {
                lines = kept;
                self.last_result = Some(lines[0].clone());
                if self.is_main() {
                    job.control.set_nodes(self.id, self.nodes);
                    let best = lines[0].pv[0];
                    let share = self.root_move_nodes.share(best, self.nodes);
                    self.stability.update(best, lines[0].score, share);
                    for (index, line) in lines.iter().take(shown_lines).enumerate() {
                        job.spec.reporter.iteration(&job.iteration(line, index + 1));
                    }
                }
            }
            if self.aborted || lines.is_empty() {
                break;
            }
            let done = if self.is_main() {
                self.iteration_ends_search(job, &lines[0])
            } else {
                job.control.is_stopped()
            };
            if done {
                break;
            }
        }
        job.control.set_nodes(self.id, self.nodes);
        match job.spec.strength {
            // A limited strength plays the line it draws, not the best.
            Some(strength) if self.is_main() && lines.len() > 1 => {
                self.last_result = None;
                let scores: Vec<i32> = lines.iter().map(|line| line.score).collect();
                let drawn = strength.choose(&scores);
                if drawn != 0 {
                    // The last line shown is the one played.
                    job.spec
                        .reporter
                        .iteration(&job.iteration(&lines[drawn], 1));
                }
                Some(lines.swap_remove(drawn))
            }
            _ => self.last_result.take(),
        }
    }

    /// One iteration: the best `count` root moves at `depth`, each with its
    /// line, best first. When the search is cut off it returns the lines
    /// completed before the cut, or, when cut in line 1, the root move that
    /// had beaten alpha so far (see the module header), or `None` when there
    /// is nothing worth keeping.
    fn search_lines(
        &mut self,
        job: &SearchJob,
        depth: i32,
        count: usize,
        last: &[ThreadResult],
    ) -> Option<Vec<ThreadResult>> {
        self.root_depth = depth;
        self.excluded_root_moves.clear();
        let mut lines = Vec::with_capacity(count);
        for index in 0..count {
            self.seldepth = 0;
            self.iteration_best = None;
            self.pv.clear(0);
            #[cfg(test)]
            if job.inject_stop == Some((depth, index)) {
                job.control.stop();
            }
            let last_score = last.get(index).map(|line| line.score);
            let score = self.aspiration(job, depth, last_score);
            let pv = self.pv.line(0).to_vec();
            if self.aborted || pv.is_empty() {
                if index == 0
                    && let Some(best) = self.iteration_best.take()
                {
                    lines.push(best);
                }
                break;
            }
            self.excluded_root_moves.push(pv[0]);
            lines.push(ThreadResult {
                depth,
                seldepth: self.seldepth,
                score,
                pv,
                complete: true,
            });
        }
        // A later line can come out better than an earlier one.
        lines.sort_by_key(|line| std::cmp::Reverse(line.score));
        (!lines.is_empty()).then_some(lines)
    }

    /// Searches the root at `depth`, first in a window around the last
    /// score, widening it until the score falls inside.
    fn aspiration(&mut self, job: &SearchJob, depth: i32, last_score: Option<i32>) -> i32 {
        let mut delta = tunables::aspiration_initial_delta();
        let (mut alpha, mut beta) = match last_score {
            Some(score) if depth >= ASPIRATION_MIN_DEPTH && !is_mate(score) => {
                (score - delta, score + delta)
            }
            _ => (-INFINITY, INFINITY),
        };
        loop {
            let score = self.negamax(job, &job.spec.root, depth, alpha, beta, 0, true);
            if self.aborted {
                return score;
            }
            if score <= alpha {
                // Whatever an earlier pass found is refuted.
                self.iteration_best = None;
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta = delta * tunables::aspiration_growth_percent() / PERCENT;
            if delta > ASPIRATION_MAX_DELTA {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Whether the main thread should stop after this iteration: a mate
    /// limit met (or, after the end of input, given up on), the soft node
    /// limit reached, a forced single reply on the clock, or the soft time
    /// limit, scaled by the search's stability, passed. `go movetime`
    /// searches a single root move for its whole time, as asked (analysis
    /// of one move with `searchmoves`). A ponder search that is so done
    /// searches on, and stops at `ponderhit`.
    fn iteration_ends_search(&self, job: &SearchJob, result: &ThreadResult) -> bool {
        if let Some(mate) = job.spec.limits.mate
            && is_mate(result.score)
            && result.score > 0
            && i64::from(mate_moves(result.score)) <= i64::from(mate)
        {
            return true;
        }
        if job.mate_search_cap().is_some_and(|cap| result.depth >= cap) {
            return true;
        }
        if job
            .spec
            .limits
            .soft_nodes
            .is_some_and(|limit| self.nodes + self.other_nodes >= limit)
        {
            return true;
        }
        let Some(time) = job.time else {
            return false;
        };
        let done = if time.adjustable {
            job.spec.root_moves.len() == 1
                || job.control.elapsed() >= self.stability.scale(time.soft)
        } else {
            job.control.elapsed() >= time.soft
        };
        if job.control.is_pondering() {
            // The clock runs from the `go` while pondering: a search that
            // has done its move's work answers at `ponderhit`.
            return done && job.control.stop_at_ponderhit();
        }
        done
    }
}

/// Whether the lines `kept` of an iteration replace the `last` ones:
/// always, except that a limited strength draws its move among a full set
/// of candidates, so a set that a cut left short replaces only an empty one.
fn replaces(
    job: &SearchJob,
    kept: &[ThreadResult],
    line_count: usize,
    last: &[ThreadResult],
) -> bool {
    job.spec.strength.is_none() || kept.len() == line_count || last.is_empty()
}
