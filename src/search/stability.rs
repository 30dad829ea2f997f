//! Search stability: how much of its soft time limit the main thread should
//! spend, judged from how its completed iterations have been going.
//!
//! A best move that survives iteration after iteration is unlikely to change
//! with one more, so the search may stop early; a best move that just
//! changed, or a score that just dropped, means the search is still finding
//! things out, so it may go on longer. So does a best move that got only a
//! small share of the search's nodes: the others took effort to refute, so
//! one of them may yet overtake it (Ethereal's node factor). This is the
//! scheme of Ethereal and Stockfish reduced to those three signals. The
//! result is a factor on the soft limit only: the hard limit, which keeps
//! the clock safe, never moves.

use std::time::Duration;

use shakmaty::Move;

use super::tunables;
use crate::score::is_mate;

/// Factors are integers per mille, so that 1000 leaves the soft limit as is.
const PER_MILLE: u64 = 1000;

// The factors' constants are tunables (`tunables.rs`, the `time_` names):
// the factor right after the best move changed, what each further
// iteration with the same best move takes off, and after how many it stops
// falling (1250 − 10·50 = 750 by default); what one centipawn of score
// drop adds, within a rise and a drop cap (a factor between 850 and 1500
// by default); and the node factor, base + slope × (share of the nodes
// spent on other moves than the best), at least a floor: from 500 when the
// best move took nearly all nodes to 2400 when it took none (Ethereal 12's
// 0.4 + 2 × non-best share).

/// The node factor's slope is in per cent.
const PERCENT: u64 = 100;

/// The stable-move factor never falls below this, whatever the tunables:
/// their ranges allow 1000 − 16·100 < 0, which would cut every later move
/// to the iteration in progress (750 by default, so the floor never acts
/// at the defaults).
const MIN_MOVE_FACTOR_PER_MILLE: u64 = 250;

/// A per-mille or count tunable as the factors' arithmetic takes it.
fn unsigned(value: i32) -> u64 {
    u64::try_from(value).unwrap_or(0)
}

/// The main thread's record of its completed iterations in one search.
#[derive(Debug)]
pub(crate) struct Stability {
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
    /// Records a completed iteration with its best move, its score and the
    /// share of the search's nodes (per mille, at most 1000) spent below the
    /// best move.
    pub(crate) fn update(&mut self, best_move: Move, score: i32, best_move_node_share: u64) {
        if self.best_move == Some(best_move) {
            self.stable_iterations += 1;
        } else {
            self.stable_iterations = 0;
            self.best_move = Some(best_move);
        }
        let stable_iterations = self
            .stable_iterations
            .min(unsigned(tunables::time_max_stable_iterations()));
        let move_factor = unsigned(tunables::time_move_changed_per_mille())
            .saturating_sub(
                unsigned(tunables::time_stable_iteration_step_per_mille()) * stable_iterations,
            )
            .max(MIN_MOVE_FACTOR_PER_MILLE);

        // A mate score is a different kind of number: its swings say
        // nothing about how settled the search is.
        let drop = match self.last_score {
            Some(last) if !is_mate(last) && !is_mate(score) => i64::from(last - score),
            _ => 0,
        };
        let step = i64::from(tunables::time_score_drop_step_per_mille());
        let clamped = drop.clamp(
            -i64::from(tunables::time_score_rise_cap()),
            i64::from(tunables::time_score_drop_cap()),
        );
        let score_factor = (PER_MILLE as i64 + step * clamped).max(0) as u64;
        self.last_score = Some(score);

        let other_moves_share = PER_MILLE.saturating_sub(best_move_node_share);
        let node_factor = (unsigned(tunables::time_node_factor_base_per_mille())
            + unsigned(tunables::time_node_factor_slope_percent()) * other_moves_share / PERCENT)
            .max(unsigned(tunables::time_min_node_factor_per_mille()));

        self.factor = move_factor * score_factor / PER_MILLE * node_factor / PER_MILLE;
    }

    /// `soft` scaled by how the search has gone so far; `soft` itself before
    /// the first completed iteration. Saturates: a clock of billions of
    /// years (`go wtime 99999999999999999999`) must not overflow.
    pub(crate) fn scale(&self, soft: Duration) -> Duration {
        soft.saturating_mul(self.factor as u32) / PER_MILLE as u32
    }
}

/// The nodes one search spent below each root move, all iterations
/// together: the node share of [`Stability::update`].
#[derive(Debug, Default)]
pub(crate) struct RootMoveNodes {
    per_move: Vec<(Move, u64)>,
}

impl RootMoveNodes {
    /// Forgets the last search.
    pub(crate) fn clear(&mut self) {
        self.per_move.clear();
    }

    /// Adds `nodes` to those spent below the root move `m`.
    pub(crate) fn add(&mut self, m: Move, nodes: u64) {
        match self
            .per_move
            .iter_mut()
            .find(|(root_move, _)| *root_move == m)
        {
            Some((_, spent)) => *spent += nodes,
            None => self.per_move.push((m, nodes)),
        }
    }

    /// The share, per mille, of `total` nodes spent below the root move `m`.
    pub(crate) fn share(&self, m: Move, total: u64) -> u64 {
        let spent = self
            .per_move
            .iter()
            .find(|(root_move, _)| *root_move == m)
            .map_or(0, |&(_, spent)| spent);
        (spent * PER_MILLE / total.max(1)).min(PER_MILLE)
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Chess, Position};

    use super::*;
    use crate::score::mate_in;

    const SOFT: Duration = Duration::from_millis(1000);
    /// A best move's node share that leaves the limit alone (node factor
    /// 1000).
    const NEUTRAL_SHARE: u64 = 700;

    fn moves() -> (Move, Move) {
        let legal = Chess::default().legal_moves();
        (legal[0], legal[1])
    }

    /// A record of `count` iterations that all chose `best` at `score`.
    fn settled(best: Move, score: i32, count: usize) -> Stability {
        let mut stability = Stability::default();
        for _ in 0..count {
            stability.update(best, score, NEUTRAL_SHARE);
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
        stability.update(second, 30, NEUTRAL_SHARE);
        assert_eq!(stability.scale(SOFT), Duration::from_millis(1250));
    }

    #[test]
    fn a_score_drop_extends_and_a_rise_shortens() {
        let (first, _) = moves();
        let mut dropped = Stability::default();
        dropped.update(first, 100, NEUTRAL_SHARE);
        dropped.update(first, 0, NEUTRAL_SHARE);
        let mut risen = Stability::default();
        risen.update(first, 0, NEUTRAL_SHARE);
        risen.update(first, 100, NEUTRAL_SHARE);
        // One stable iteration: 1200 per mille, times 1500 or 850.
        assert_eq!(dropped.scale(SOFT), Duration::from_millis(1800));
        assert_eq!(risen.scale(SOFT), Duration::from_millis(1020));
    }

    #[test]
    fn an_absurd_soft_limit_saturates_instead_of_overflowing() {
        let (first, second) = moves();
        let mut stability = settled(first, 30, 20);
        stability.update(second, -100, 0);
        let soft = Duration::from_millis(i64::MAX as u64);
        assert!(stability.scale(soft) >= soft);
    }

    #[test]
    fn mate_scores_do_not_count_as_drops() {
        let (first, _) = moves();
        let mut stability = Stability::default();
        stability.update(first, mate_in(3), NEUTRAL_SHARE);
        stability.update(first, 0, NEUTRAL_SHARE);
        assert_eq!(stability.scale(SOFT), Duration::from_millis(1200));
    }

    #[test]
    fn root_move_nodes_add_up_over_iterations() {
        let (first, second) = moves();
        let mut nodes = RootMoveNodes::default();
        nodes.add(first, 300);
        nodes.add(second, 500);
        nodes.add(first, 300);
        assert_eq!(nodes.share(first, 1200), 500);
        assert_eq!(nodes.share(second, 1200), 416);
        nodes.clear();
        assert_eq!(nodes.share(first, 1200), 0);
    }

    #[test]
    fn a_best_move_with_few_of_the_nodes_extends() {
        let (first, _) = moves();
        let mut contested = Stability::default();
        contested.update(first, 30, 200);
        let mut clear = Stability::default();
        clear.update(first, 30, 990);
        // First iteration: 1250 per mille, times 2000 or the floor of 500.
        assert_eq!(contested.scale(SOFT), Duration::from_millis(2500));
        assert_eq!(clear.scale(SOFT), Duration::from_millis(625));
    }
}
