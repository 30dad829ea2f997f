//! One self-play game: a random opening, then a node-limited search for
//! every move, until the rules or adjudication end it.
//!
//! Every game starts with a few random legal plies from the starting
//! position (so no two games are alike); openings the first search already
//! judges lost for one side are dropped. The node limit is soft: no
//! iteration starts past it, so the score of a move comes from a completed
//! iteration (a score cut inside one is only a bound). A hard cap of
//! [`HARD_NODES_FACTOR`] times the limit bounds the rare iteration that
//! runs long; a move it cuts is played but recorded without a score. Games
//! end by the rules (mate, stalemate, repetition, fifty moves, insufficient
//! material) or by adjudication: a win once the score has stayed decisive
//! for a few plies, a draw once it has stayed near zero for many plies late
//! in the game.

use std::sync::Arc;

use shakmaty::{Chess, Color, Position};

use crate::board::{Board, FIFTY_MOVE_HALFMOVES};
use crate::records::{GameRecord, GameResult, Ply};
use crate::search::{JobSpec, Limits, SearchJob, ThreadPool, ThreadResult};
use crate::tt::TranspositionTable;
use crate::util::rng::SplitMix64;

/// The hard node cap of a move's search, in soft node limits.
const HARD_NODES_FACTOR: u64 = 8;
/// Random plies before the search takes over: this or one more.
const RANDOM_PLIES: usize = 8;
/// Openings whose first search is beyond this (cp) are dropped.
const MAX_OPENING_SCORE: i32 = 1000;
/// A win is adjudicated once |score| stays at least this ...
const WIN_SCORE: i32 = 2000;
/// ... for this many plies in a row, for the same side.
const WIN_PLIES: usize = 4;
/// A draw is adjudicated once |score| stays at most this ...
const DRAW_SCORE: i32 = 10;
/// ... for this many plies in a row ...
const DRAW_PLIES: usize = 12;
/// ... from this searched ply on (counted after the random opening).
const DRAW_FROM_PLY: usize = 80;
/// Games still running after this many plies are drawn.
const MAX_GAME_PLIES: usize = 400;
/// Table size of each worker's search.
const WORKER_HASH_MB: usize = 8;
/// Occurrences of a position that end the game (threefold repetition).
const REPETITIONS_FOR_DRAW: usize = 3;

/// One worker's search: a one-thread pool and its own table.
pub(super) struct Player {
    pool: ThreadPool,
    tt: Arc<TranspositionTable>,
    nodes: u64,
}

impl Player {
    pub(super) fn new(nodes: u64) -> Result<Player, String> {
        Ok(Player {
            pool: ThreadPool::new(1).map_err(|e| e.to_string())?,
            tt: Arc::new(TranspositionTable::new(WORKER_HASH_MB).map_err(|e| e.to_string())?),
            nodes,
        })
    }

    /// The search's result for `board` with the game's keys so far, and
    /// the nodes it took.
    fn search(&self, board: &Board, keys: &[u64]) -> Option<(ThreadResult, u64)> {
        self.tt.new_search();
        let limits = Limits {
            soft_nodes: Some(self.nodes),
            nodes: Some(self.nodes.saturating_mul(HARD_NODES_FACTOR)),
            ..Limits::default()
        };
        let spec = JobSpec::new(board.clone(), keys.to_vec(), limits, Arc::clone(&self.tt));
        let (job, finished) = SearchJob::new(spec);
        let job = Arc::new(job);
        self.pool.start(Arc::clone(&job));
        let found = finished.recv().ok().flatten()?;
        Some((found, job.control.total_nodes()))
    }

    /// Plays one game and says how many nodes its searches took, or `None`
    /// when the random opening is unfit, or when a search finished no
    /// iteration (a node limit too small: the game is dropped and counted
    /// with the unfit openings, whose run of failures then says so).
    pub(super) fn play_game(&mut self, rng: &mut SplitMix64) -> Option<(GameRecord, u64)> {
        let start = random_opening(rng)?;
        // Each game starts as after `ucinewgame`: nothing learnt in one
        // game (table, histories, correction) colours another's scores.
        self.tt.clear();
        self.pool.new_game();
        let mut board = Board::new(start.clone());
        let mut keys = vec![board.key()];
        let mut plies = Vec::new();
        let mut adjudicator = Adjudicator::default();
        let mut nodes = 0;
        let result = loop {
            if let Some(result) = rules_result(&board, &keys) {
                break result;
            }
            if plies.len() >= MAX_GAME_PLIES {
                break GameResult::Draw;
            }
            let (found, searched) = self.search(&board, &keys)?;
            nodes += searched;
            let ply = recorded_ply(&found, board.turn());
            let white_score = ply.white_score.map(i32::from);
            if plies.is_empty() && white_score.is_none_or(|s| s.abs() > MAX_OPENING_SCORE) {
                return None;
            }
            plies.push(ply);
            if let Some(score) = white_score
                && let Some(result) = adjudicator.record(score, plies.len())
            {
                break result;
            }
            board = board.play(ply.best_move);
            keys.push(board.key());
        };
        let game = GameRecord {
            start,
            plies,
            result,
        };
        Some((game, nodes))
    }
}

/// The ply a search's result makes: its best move, and its score from
/// White's view only when the iteration it comes from was completed.
fn recorded_ply(found: &ThreadResult, turn: Color) -> Ply {
    let best_move = found.pv[0];
    if !found.complete {
        return Ply {
            best_move,
            white_score: None,
        };
    }
    let white_score = match turn {
        Color::White => found.score,
        Color::Black => -found.score,
    };
    Ply::scored(best_move, white_score)
}

/// A position after `RANDOM_PLIES` or one more random legal moves from the
/// start, or `None` when the game ended on the way.
fn random_opening(rng: &mut SplitMix64) -> Option<Chess> {
    let mut pos = Chess::default();
    let plies = RANDOM_PLIES + rng.below(2);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        pos.play_unchecked(rng.choose(&moves));
    }
    (!pos.legal_moves().is_empty()).then_some(pos)
}

/// The result the rules give the position, if the game is over: mate,
/// stalemate, insufficient material, fifty moves, or a threefold
/// repetition of `keys` (the game's keys, the position's last).
fn rules_result(board: &Board, keys: &[u64]) -> Option<GameResult> {
    let pos = board.pos();
    if pos.legal_moves().is_empty() {
        return Some(if pos.is_check() {
            match pos.turn() {
                Color::White => GameResult::BlackWins,
                Color::Black => GameResult::WhiteWins,
            }
        } else {
            GameResult::Draw
        });
    }
    let key = board.key();
    let repetitions = keys.iter().filter(|&&k| k == key).count();
    if pos.is_insufficient_material()
        || pos.halfmoves() >= FIFTY_MOVE_HALFMOVES
        || repetitions >= REPETITIONS_FOR_DRAW
    {
        return Some(GameResult::Draw);
    }
    None
}

/// Counts the plies a score has stayed decisive or quiet.
#[derive(Default)]
struct Adjudicator {
    white_winning: usize,
    black_winning: usize,
    quiet: usize,
}

impl Adjudicator {
    /// Takes the score (White's view) searched at game ply `ply` and says
    /// whether the game can be adjudicated.
    fn record(&mut self, white_score: i32, ply: usize) -> Option<GameResult> {
        let streak = |count: &mut usize, holds: bool| {
            *count = if holds { *count + 1 } else { 0 };
            *count
        };
        if streak(&mut self.white_winning, white_score >= WIN_SCORE) >= WIN_PLIES {
            return Some(GameResult::WhiteWins);
        }
        if streak(&mut self.black_winning, white_score <= -WIN_SCORE) >= WIN_PLIES {
            return Some(GameResult::BlackWins);
        }
        let quiet = streak(&mut self.quiet, white_score.abs() <= DRAW_SCORE);
        (ply >= DRAW_FROM_PLY && quiet >= DRAW_PLIES).then_some(GameResult::Draw)
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjudication_needs_a_streak() {
        let mut adjudicator = Adjudicator::default();
        assert_eq!(adjudicator.record(2500, 10), None);
        assert_eq!(adjudicator.record(2500, 11), None);
        assert_eq!(adjudicator.record(1500, 12), None);
        for ply in 13..16 {
            assert_eq!(adjudicator.record(2100, ply), None);
        }
        assert_eq!(adjudicator.record(2100, 16), Some(GameResult::WhiteWins));

        let mut adjudicator = Adjudicator::default();
        for ply in 0..DRAW_PLIES + 5 {
            assert_eq!(adjudicator.record(3, ply), None, "too early at {ply}");
        }
        let mut adjudicator = Adjudicator::default();
        let results: Vec<_> = (0..DRAW_PLIES)
            .map(|i| adjudicator.record(-4, DRAW_FROM_PLY + i))
            .collect();
        assert_eq!(results.last(), Some(&Some(GameResult::Draw)));
    }

    #[test]
    fn a_score_from_a_cut_iteration_is_not_recorded() {
        let e4 = Board::startpos()
            .pos()
            .legal_moves()
            .into_iter()
            .find(|m| m.to() == shakmaty::Square::E4)
            .unwrap();
        let found = |complete| ThreadResult {
            depth: 7,
            seldepth: 9,
            score: 35,
            pv: vec![e4],
            complete,
        };
        let cut = recorded_ply(&found(false), Color::White);
        assert_eq!((cut.best_move, cut.white_score), (e4, None));
        assert_eq!(
            recorded_ply(&found(true), Color::White).white_score,
            Some(35)
        );
        assert_eq!(
            recorded_ply(&found(true), Color::Black).white_score,
            Some(-35)
        );
    }
}
