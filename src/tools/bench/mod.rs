//! `bench`: a fixed-depth search of fixed positions, giving a node count
//! that identifies the search's behaviour (OpenBench's `Bench: N`) and a
//! speed figure.
//!
//! By default it runs one thread with a fresh 16 MB table, and a fresh
//! thread pool for every run, so the node count is the same on every run
//! and whether the engine is fresh or has played a game. `--hash` and
//! `--threads` turn it into a measuring tool (table size, Lazy-SMP speed and
//! time to depth); with several threads the count varies from run to run.
//!
//! The positions (`positions.fen`, from Stockfish's bench list) run from the
//! opening to the endgame. One artificial position of that list (sixteen
//! minor pieces a side, every one en prise) is left out: its quiescence tree
//! alone outweighed all the others together, so it would have made the
//! bench measure one pathological position.
//!
//! Inside the UCI loop it runs on a thread of its own; a stop flag ends it
//! within [`STOP_POLL_INTERVAL`], the position in hand included.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossbeam::channel::RecvTimeoutError;

use shakmaty::CastlingMode;

use crate::board::{Board, parse_fen};
use crate::search::{JobSpec, Limits, SearchJob, ThreadPool};
use crate::tt::TranspositionTable;
use crate::util::rate::nodes_per_second;

pub const DEFAULT_DEPTH: i32 = 11;
pub const DEFAULT_HASH_MB: usize = 16;
const POSITIONS: &str = include_str!("positions.fen");
/// How often a running position looks at the stop flag.
const STOP_POLL_INTERVAL: Duration = Duration::from_millis(10);

/// How to run the bench.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub depth: i32,
    pub hash_mb: usize,
    pub threads: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            depth: DEFAULT_DEPTH,
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
        }
    }
}

/// The bench's totals: nodes, and the time the searches took.
pub struct Summary {
    nodes: u64,
    elapsed: Duration,
}

impl Summary {
    /// The closing line, `N nodes N nps` (OpenBench reads it).
    pub fn line(&self) -> String {
        let nps = nodes_per_second(self.nodes, self.elapsed);
        format!("{} nodes {nps} nps", self.nodes)
    }
}

/// Runs the bench, passing a line per position to `report`; `None` when
/// `stop` was set first.
pub fn run(
    settings: Settings,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&str),
) -> Result<Option<Summary>, String> {
    if let Some(missing) = crate::nnue::missing_network() {
        return Err(missing);
    }
    let tt = Arc::new(TranspositionTable::new(settings.hash_mb).map_err(|e| e.to_string())?);
    let pool = ThreadPool::new(settings.threads).map_err(|e| e.to_string())?;
    if let Some(fallback) = crate::nnue::check_simd_path(crate::nnue::active()) {
        report(&fallback);
    }
    report(&format!(
        "network {}, simd {}",
        crate::nnue::active().identity(),
        crate::util::simd::Simd::detected().name()
    ));
    let mut nodes = 0;
    let mut elapsed = Duration::ZERO;
    let positions = POSITIONS.lines().filter(|l| !l.trim().is_empty());
    for (index, fen) in positions.enumerate() {
        let pos = parse_fen(fen, CastlingMode::Standard)
            .map_err(|e| format!("bench position {fen}: {e}"))?;
        let board = Board::new(pos.clone());
        tt.new_search();
        let keys = vec![board.key()];
        let limits = Limits::depth(settings.depth);
        let (job, finished) = SearchJob::new(JobSpec {
            threads: settings.threads,
            ..JobSpec::new(board, keys, limits, Arc::clone(&tt))
        });
        let job = Arc::new(job);
        let start = Instant::now();
        pool.start(Arc::clone(&job));
        let result = loop {
            match finished.recv_timeout(STOP_POLL_INTERVAL) {
                Ok(result) => break result,
                Err(RecvTimeoutError::Timeout) if stop.load(Ordering::Relaxed) => {
                    job.control.stop();
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err("the search thread died".into()),
            }
        };
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let time = start.elapsed();
        let position_nodes = job.control.total_nodes();
        nodes += position_nodes;
        elapsed += time;
        let best = result.map_or("0000".to_string(), |r| {
            r.pv[0].to_uci(CastlingMode::Standard).to_string()
        });
        report(&format!(
            "position {:>2} bestmove {best:<6} nodes {position_nodes:>10} time {:>6} ms  {fen}",
            index + 1,
            time.as_millis()
        ));
    }
    Ok(Some(Summary { nodes, elapsed }))
}
