//! `bench`: a fixed-depth search of fixed positions, one thread, a fresh
//! 16 MB table, giving a node count that identifies the search's behaviour
//! (OpenBench's `Bench: N`) and a speed figure.
//!
//! Everything is built fresh for each run (table, thread state), so the node
//! count is the same on every run and whether the engine is fresh or has
//! played a game. The positions (`positions.fen`, from Stockfish's bench
//! list) run from the opening to the endgame. One artificial position of
//! that list (sixteen minor pieces a side, every one en prise) is left out:
//! its quiescence tree alone outweighed all the others together, so it
//! would have made the bench measure one pathological position.

use std::sync::Arc;
use std::time::Instant;

use shakmaty::{CastlingMode, Position};

use crate::board::Board;
use crate::engine::parse_fen;
use crate::search::{Limits, SearchJob, Searcher};
use crate::tt::TranspositionTable;

pub const DEFAULT_DEPTH: i32 = 11;
const HASH_MB: usize = 16;
const POSITIONS: &str = include_str!("positions.fen");

/// The result of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    pub nodes: u64,
    pub nodes_per_second: u64,
}

/// Runs the bench at `depth`, passing a line per position and the final
/// `N nodes N nps` line to `report`.
pub fn run(depth: i32, report: &mut dyn FnMut(&str)) -> Summary {
    let tt = Arc::new(TranspositionTable::new(HASH_MB).expect("16 MB for bench"));
    // The search needs a large stack; run it on a thread that has one.
    let (nodes, elapsed, lines) = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn_scoped(scope, || search_all(depth, &tt))
            .expect("bench thread")
            .join()
            .expect("bench search")
    });
    for line in &lines {
        report(line);
    }
    let millis = elapsed.as_millis().max(1) as u64;
    let summary = Summary {
        nodes,
        nodes_per_second: nodes * 1000 / millis,
    };
    report(&format!(
        "{} nodes {} nps",
        summary.nodes, summary.nodes_per_second
    ));
    summary
}

fn search_all(depth: i32, tt: &Arc<TranspositionTable>) -> (u64, std::time::Duration, Vec<String>) {
    let mut searcher = Searcher::new(0);
    let mut total = 0;
    let mut lines = Vec::new();
    let start = Instant::now();
    for (index, fen) in POSITIONS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
    {
        let pos = parse_fen(fen, CastlingMode::Standard).expect("bench FENs are valid");
        let board = Board::new(pos.clone());
        tt.new_search();
        let (job, _finished) = SearchJob::new(
            board.clone(),
            vec![board.key()],
            pos.legal_moves().into_iter().collect(),
            Limits::depth(depth),
            None,
            Arc::clone(tt),
            1,
            CastlingMode::Standard,
            false,
        );
        let result = searcher.search(&job);
        total += searcher.nodes();
        let best = result.map_or("0000".to_string(), |r| {
            r.pv[0].to_uci(CastlingMode::Standard).to_string()
        });
        lines.push(format!(
            "position {:>2} bestmove {best:<6} nodes {:>10} {fen}",
            index + 1,
            searcher.nodes()
        ));
    }
    (total, start.elapsed(), lines)
}
