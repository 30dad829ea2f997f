//! Search stability: how much of its soft time limit the main thread should
//! spend, judged from how its completed iterations have been going.
//!
//! A best move that survives iteration after iteration is unlikely to change
//! with one more, so the search may stop early; a best move that just
//! changed, or a score that just dropped, means the search is still finding
//! things out, so it may go on longer. This is the scheme of Ethereal and
//! Stockfish reduced to its two main signals. The result is a factor on the
//! soft limit only: the hard limit, which keeps the clock safe, never moves.

use std::time::Duration;

use shakmaty::Move;

use crate::score::is_mate;

/// Factors are integers per mille, so that 1000 leaves the soft limit as is.
const PER_MILLE: u64 = 1000;

/// The factor right after the best move changed.
const MOVE_CHANGED_FACTOR: u64 = 1250;
/// What each further iteration with the same best move takes off.
const STABLE_ITERATION_STEP: u64 = 50;
/// Iterations of the same best move after which the factor stops falling
/// (at `1250 − 10·50 = 750`).
const MAX_STABLE_ITERATIONS: u64 = 10;

/// What one centipawn of score drop since the last iteration adds.
const SCORE_DROP_STEP: i64 = 10;
/// Score changes are clamped to this window (centipawns, a drop positive),
/// so the score factor lies between 850 (a rise) and 1500 (a drop).
const SCORE_RISE_CAP: i64 = 15;
const SCORE_DROP_CAP: i64 = 50;

/// The main thread's record of its completed iterations in one search.
#[derive(Debug)]
pub struct Stability {
    best_move: Option<Move>,
    /// Completed iterations since the best move last changed.
    stable_iterations: u64,
    last_score: Option<i32>,
    /// The factor after the latest iteration; neutral before the first.
    factor: u64,
}

impl Default for Stability {
    fn default() -> Stability {
        Stability {
            best_move: None,
            stable_iterations: 0,
            last_score: None,
            factor: PER_MILLE,
        }
    }
}

impl Stability {
    /// Records a completed iteration with its best move and score.
    pub fn update(&mut self, best_move: Move, score: i32) {
        if self.best_move == Some(best_move) {
            self.stable_iterations += 1;
        } else {
            self.stable_iterations = 0;
            self.best_move = Some(best_move);
        }
        let move_factor = MOVE_CHANGED_FACTOR
            - STABLE_ITERATION_STEP * self.stable_iterations.min(MAX_STABLE_ITERATIONS);

        // A mate score is a different kind of number: its swings say
        // nothing about how settled the search is.
        let drop = match self.last_score {
            Some(last) if !is_mate(last) && !is_mate(score) => i64::from(last - score),
            _ => 0,
        };
        let score_factor = (PER_MILLE as i64
            + SCORE_DROP_STEP * drop.clamp(-SCORE_RISE_CAP, SCORE_DROP_CAP))
            as u64;
        self.last_score = Some(score);

        self.factor = move_factor * score_factor / PER_MILLE;
    }

    /// `soft` scaled by how the search has gone so far; `soft` itself before
    /// the first completed iteration.
    pub fn scale(&self, soft: Duration) -> Duration {
        soft * self.factor as u32 / PER_MILLE as u32
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Chess, Position};

    use super::*;
    use crate::score::mate_in;

    const SOFT: Duration = Duration::from_millis(1000);

    fn moves() -> (Move, Move) {
        let legal = Chess::default().legal_moves();
        (legal[0], legal[1])
    }

    /// A record of `count` iterations that all chose `best` at `score`.
    fn settled(best: Move, score: i32, count: usize) -> Stability {
        let mut stability = Stability::default();
        for _ in 0..count {
            stability.update(best, score);
        }
        stability
    }

    #[test]
    fn no_iteration_leaves_the_limit_alone() {
        assert_eq!(Stability::default().scale(SOFT), SOFT);
    }

    #[test]
    fn a_stable_best_move_stops_early() {
        let (first, _) = moves();
        let stability = settled(first, 30, 20);
        assert_eq!(stability.scale(SOFT), Duration::from_millis(750));
    }

    #[test]
    fn a_new_best_move_extends() {
        let (first, second) = moves();
        let mut stability = settled(first, 30, 20);
        stability.update(second, 30);
        assert_eq!(stability.scale(SOFT), Duration::from_millis(1250));
    }

    #[test]
    fn a_score_drop_extends_and_a_rise_shortens() {
        let (first, _) = moves();
        let mut dropped = Stability::default();
        dropped.update(first, 100);
        dropped.update(first, 0);
        let mut risen = Stability::default();
        risen.update(first, 0);
        risen.update(first, 100);
        // One stable iteration: 1200 per mille, times 1500 or 850.
        assert_eq!(dropped.scale(SOFT), Duration::from_millis(1800));
        assert_eq!(risen.scale(SOFT), Duration::from_millis(1020));
    }

    #[test]
    fn mate_scores_do_not_count_as_drops() {
        let (first, _) = moves();
        let mut stability = Stability::default();
        stability.update(first, mate_in(3));
        stability.update(first, 0);
        assert_eq!(stability.scale(SOFT), Duration::from_millis(1200));
    }
}
