//! The engine's state between commands: options, the transposition table,
//! the Syzygy tables, the thread pool, the game position, and the search in
//! flight.
//!
//! Every UCI command lands in [`Engine::handle`]. `isready` is answered at
//! once and `stop` acts at once on the running search. A command that
//! needs the engine idle waits for a finite search in a queue while the
//! loop reads on, and so does every command after it, a `ponderhit`
//! included ([`queue`], which says why, and how `stop`, `quit` and the end
//! of input treat what waits).
//! The non-standard `bench` and `go perft` run on a thread of their own
//! ([`background`], which says what ends them), so the loop stays
//! responsive while they run; `d` and `eval` are answered at once.
//! Bad input is answered with an error ([`Reply::Error`], `info string
//! error: …` in UCI) and changes nothing;
//! the last valid position and options stay. The one exception follows
//! Stockfish: `position … moves` with an illegal move sets the position
//! after the legal moves before it, and the error says so.
//!
//! The engine names no protocol module and writes no protocol text: its
//! requests are its own [`Command`]s, which the protocol parses, and what
//! it says goes through the [`Protocol`] it was built with, as a
//! [`Reply`] (the answer to `uci` and `isready`, errors, notes) or a
//! search's reports, which the protocol words.

mod background;
pub(crate) mod command;
pub mod config;
pub(crate) mod debug_log;
pub mod options;
mod queue;
mod settings;

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

use crossbeam::channel::Receiver;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

use crate::board::{Board, parse_fen, parse_move};
use crate::eval::evaluate;
use crate::nnue;
use crate::score::wdl;
use crate::search::{self, JobSpec, Reporter, SearchJob, Strength, ThreadPool, ThreadResult};
use crate::tablebase::{Tablebases, TbConfig};
use crate::tools::{bench, perft};
use crate::tt::TranspositionTable;
use crate::util::rng::SplitMix64;
use background::{BackgroundTask, TaskSignals};
pub use command::{Command, Go};
use config::Config;
use options::{Id, MIN_HASH_MB, Options};

pub(crate) const NAME: &str = concat!("Rookery ", env!("CARGO_PKG_VERSION"));
pub(crate) const AUTHOR: &str = "the Rookery developers";

// The `UCI_Elo` range offered is the one the search's handicaps are
// calibrated for.
const _: () = assert!(
    options::MIN_ELO == search::MIN_ELO as i64 && options::MAX_ELO == search::MAX_ELO as i64
);

/// What the engine needs of the protocol that drives it: the words for
/// what it has to say, and a reporter for its searches. The engine writes
/// no protocol text of its own.
pub trait Protocol: Send + Sync {
    /// Says `reply` to the GUI.
    fn send(&self, reply: Reply<'_>);
    /// Where a search's iterations, best move and faults go.
    fn reporter(&self, style: ReportStyle) -> Arc<dyn Reporter>;
}

/// What the engine says to the GUI besides a search's reports.
#[derive(Clone, Copy, Debug)]
pub enum Reply<'a> {
    /// The answer to `uci`, to its last line: who the engine is, its
    /// options with `options` as their defaults, the network and the SIMD
    /// path it evaluates with.
    Identity {
        name: &'a str,
        author: &'a str,
        options: &'a Options,
        network: &'a str,
        simd: &'a str,
    },
    /// The answer to `isready`.
    Ready,
    /// What went wrong with a command or the configuration, and what the
    /// engine did instead.
    Error(&'a str),
    /// Anything else worth telling the user: the output of `bench`, `go
    /// perft`, `d` and `eval`, what loading tables or a network found.
    Note(&'a str),
}

/// What applying an option value has to tell the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Finding {
    /// The value could not be had, and what the engine kept instead.
    Error(String),
    /// What the value found (the tables on a path, the network of a file).
    Note(String),
}

impl Finding {
    fn reply(&self) -> Reply<'_> {
        match self {
            Finding::Error(text) => Reply::Error(text),
            Finding::Note(text) => Reply::Note(text),
        }
    }
}

/// How a search's reports are to be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportStyle {
    /// How moves are written (`UCI_Chess960`).
    pub(crate) castling_mode: CastlingMode,
    /// Whether scores carry win-draw-loss chances (`UCI_ShowWDL`).
    pub(crate) show_wdl: bool,
    /// The root's material, for the win-draw-loss model.
    pub(crate) material: u32,
}

/// Whether the UCI loop goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// The game as set by the last valid `position` command.
struct Game {
    board: Board,
    /// Keys of every position from the setup to the current one.
    keys: Vec<u64>,
}

impl Game {
    fn new(pos: Chess) -> Game {
        let board = Board::new(pos);
        Game {
            keys: vec![board.key()],
            board,
        }
    }
}

struct RunningSearch {
    job: Arc<SearchJob>,
    finished: Receiver<Option<ThreadResult>>,
}

impl RunningSearch {
    /// Whether it ends without a `stop`: not `go infinite` (or a `go`
    /// without limits) and not pondering.
    fn ends_by_itself(&self) -> bool {
        !self.job.spec.limits.is_unbounded() && !self.job.control.is_pondering()
    }
}

pub struct Engine {
    options: Options,
    config: Config,
    tt: Arc<TranspositionTable>,
    /// The tables on `SyzygyPath` (none when it is empty).
    tablebases: Arc<Tablebases>,
    /// What applying the option defaults at start-up found, by option,
    /// told after `uci` (a later `setoption` of the option tells its own
    /// at once, and this is forgotten).
    startup_findings: Vec<(Id, Finding)>,
    /// What the start-up check of the SIMD path found wrong, if anything,
    /// told after `uci` (`nnue::check_simd_path`).
    simd_fallback: Option<String>,
    pool: ThreadPool,
    game: Game,
    search: Option<RunningSearch>,
    /// Commands read while a finite search runs that wait for its end.
    queued: VecDeque<Command>,
    /// A `bench` or `go perft` in progress.
    task: Option<BackgroundTask>,
    protocol: Arc<dyn Protocol>,
    /// Seeds each limited-strength search's draw of its move, so that the
    /// same position is not always answered alike.
    strength_seeds: SplitMix64,
}

impl Engine {
    /// An engine with the options from `config`, speaking through
    /// `protocol`. It is built with the least it runs with (the smallest
    /// table, one search thread, the embedded network, no tables, no log),
    /// and fails only when even that cannot be had; then the built-in
    /// defaults and `config`'s values are applied as `setoption` applies
    /// a value ([`Engine::apply_defaults`]). A value that cannot be had
    /// keeps the one before it, which becomes the advertised default; what
    /// went wrong is told after `uci`, with the configuration's errors.
    pub fn new(config: Config, protocol: Arc<dyn Protocol>) -> Result<Engine, String> {
        let least = Options {
            hash_mb: MIN_HASH_MB as usize,
            ..Options::default()
        };
        nnue::set_active(None);
        let tt = TranspositionTable::new(least.hash_mb).map_err(|e| e.to_string())?;
        let pool = ThreadPool::new(least.threads)
            .map_err(|e| format!("cannot start a search thread: {e}"))?;
        let mut engine = Engine {
            options: least,
            config,
            tt: Arc::new(tt),
            tablebases: Arc::new(Tablebases::default()),
            startup_findings: Vec::new(),
            simd_fallback: None,
            pool,
            game: Game::new(Chess::default()),
            search: None,
            queued: VecDeque::new(),
            task: None,
            protocol,
            strength_seeds: SplitMix64::new(clock_seed()),
        };
        engine.apply_defaults();
        engine.simd_fallback = nnue::check_simd_path(nnue::active());
        Ok(engine)
    }

    /// Tells the GUI what went wrong (and what the engine did instead).
    fn error(&self, message: &str) {
        self.protocol.send(Reply::Error(message));
    }

    /// Tells the GUI `text`.
    fn note(&self, text: &str) {
        self.protocol.send(Reply::Note(text));
    }

    fn castling_mode(&self) -> CastlingMode {
        if self.options.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// Whether a search (or a `bench` or `go perft`) is still running. One
    /// that has been told to stop is only printing its bestmove: it is
    /// waited for and counts as done, so a GUI may change options the
    /// moment it reads the bestmove.
    fn is_searching(&mut self) -> bool {
        if self.task.as_ref().is_some_and(|task| !task.is_busy()) {
            self.wait_for_task();
        }
        if let Some(search) = &self.search {
            if search.job.control.is_stopped() {
                self.wait_for_search();
            } else if search.finished.try_recv().is_ok() {
                self.search = None;
            }
        }
        self.search.is_some() || self.task.is_some()
    }

    /// Blocks until the running search, if any, has printed its bestmove,
    /// and a running `bench` or `go perft` is done.
    fn wait_for_search(&mut self) {
        if let Some(search) = self.search.take() {
            let _ = search.finished.recv();
        }
        self.wait_for_task();
    }

    /// Blocks until a running `bench` or `go perft` is done.
    fn wait_for_task(&mut self) {
        if let Some(task) = self.task.take() {
            task.wait();
        }
    }

    /// Stops the running search (and `bench` or `go perft`) and waits for
    /// its bestmove.
    fn stop_search(&mut self) {
        if let Some(search) = &self.search {
            search.job.control.stop();
        }
        if let Some(task) = &self.task {
            task.stop();
        }
        self.wait_for_search();
    }

    /// Takes `command`, read at `received` (a `go`'s clock runs from then):
    /// carries it out, or queues it behind the running search.
    pub fn handle(&mut self, command: Command, received: Instant) -> Flow {
        match self.queue_if_busy(command) {
            Some(command) => self.execute(command, received),
            None => Flow::Continue,
        }
    }

    /// Carries out `command`, read at `received`.
    fn execute(&mut self, command: Command, received: Instant) -> Flow {
        match command {
            Command::Uci => self.identify(),
            Command::Debug(on) => log::debug!("debug {}", if on { "on" } else { "off" }),
            Command::IsReady => self.protocol.send(Reply::Ready),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Register => {}
            Command::UciNewGame => {
                self.stop_search();
                self.tt.clear();
                self.pool.new_game();
            }
            Command::Position { fen, moves } => self.set_position(fen.as_deref(), &moves),
            Command::Go(go) => self.go(go, received),
            Command::Stop => self.stop_search(),
            Command::PonderHit => {
                if let Some(search) = &self.search {
                    search.job.control.ponder_hit(received);
                }
            }
            Command::Quit => {
                self.quit();
                return Flow::Quit;
            }
            Command::Bench { depth } => {
                let settings = bench::Settings {
                    depth: depth.unwrap_or(bench::DEFAULT_DEPTH).max(1),
                    ..bench::Settings::default()
                };
                let protocol = Arc::clone(&self.protocol);
                self.start_task("bench", move |signals| {
                    let mut note = |line: &str| protocol.send(Reply::Note(line));
                    let outcome = bench::run(settings, signals.stop_flag(), &mut note);
                    signals.finishing();
                    match outcome {
                        Ok(Some(summary)) => note(&summary.line()),
                        Ok(None) => note("bench stopped"),
                        Err(error) => protocol.send(Reply::Error(&format!("bench: {error}"))),
                    }
                });
            }
            Command::Perft { depth } => {
                let pos = self.game.board.pos().clone();
                let mode = self.castling_mode();
                let protocol = Arc::clone(&self.protocol);
                self.start_task("perft", move |signals| {
                    let mut note = |line: &str| protocol.send(Reply::Note(line));
                    let outcome =
                        perft::run(&pos, depth, mode, true, signals.stop_flag(), &mut note);
                    signals.finishing();
                    match outcome {
                        Some(summary) => summary.lines().iter().for_each(|line| note(line)),
                        None => note("perft stopped"),
                    }
                });
            }
            Command::Display => self.display(),
            Command::Eval => self.note(&format!(
                "static evaluation {} cp (side to move)",
                evaluate(&self.game.board)
            )),
        }
        Flow::Continue
    }

    /// Runs `bench` or `go perft` in the background, unless a search or
    /// another of them is running.
    fn start_task(&mut self, what: &str, work: impl FnOnce(&TaskSignals) + Send + 'static) {
        if self.is_searching() {
            return self.error(&format!("{what} is not available while searching"));
        }
        match BackgroundTask::spawn(what, work) {
            Ok(task) => self.task = Some(task),
            Err(error) => self.error(&error),
        }
    }

    /// The answer to `uci`: identity, options, `uciok`, then what start-up
    /// found to report.
    fn identify(&self) {
        self.protocol.send(Reply::Identity {
            name: NAME,
            author: AUTHOR,
            options: &self.config.defaults,
            network: nnue::active().identity(),
            simd: crate::util::simd::Simd::detected().name(),
        });
        let label = self.config.label();
        for error in &self.config.errors {
            self.error(&format!("{label}: {error}"));
        }
        for (_, finding) in &self.startup_findings {
            match finding {
                Finding::Error(error) => self.error(&format!("{label}: {error}")),
                Finding::Note(note) => self.note(note),
            }
        }
        if let Some(fallback) = &self.simd_fallback {
            self.error(fallback);
        }
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) {
        let mode = self.castling_mode();
        let start = match fen {
            None => Chess::default(),
            Some(text) => match parse_fen(text, mode) {
                Ok(pos) => pos,
                Err(error) => {
                    return self.error(&format!(
                        "invalid FEN '{text}': {error}; position unchanged"
                    ));
                }
            },
        };
        let mut game = Game::new(start);
        for (index, text) in moves.iter().enumerate() {
            match parse_move(game.board.pos(), text) {
                Ok(m) => {
                    game.board = game.board.play(m);
                    game.keys.push(game.board.key());
                }
                Err(error) => {
                    self.error(&format!(
                        "move {} '{text}': {error}; position set to the {index} legal moves before it",
                        index + 1
                    ));
                    break;
                }
            }
        }
        self.game = game;
    }

    /// `go`: the root moves it asks for, ranked by the tablebases where
    /// they decide the game, searched on the pool with the options' line
    /// count, strength, threads, overhead and report style.
    fn go(&mut self, go: Go, started: Instant) {
        self.stop_search();
        for error in &go.errors {
            self.error(error);
        }
        if let Some(missing) = nnue::missing_network() {
            self.error(&missing);
        }
        let root_moves = self.root_moves(&go.search_moves);
        let tablebase = TbConfig::new(&self.tablebases, self.options.probe_settings());
        let (root_moves, root_tb_hits) = self.rank_by_tablebases(tablebase.as_ref(), root_moves);
        let options = &self.options;
        let strength = options
            .playing_elo()
            .map(|elo| Strength::new(elo, self.strength_seeds.next_u64()));
        let game = &self.game;
        let spec = JobSpec {
            root_moves,
            multipv: options.multipv,
            strength,
            move_overhead: options.move_overhead,
            threads: self.pool.thread_count(),
            reporter: self.protocol.reporter(ReportStyle {
                castling_mode: self.castling_mode(),
                show_wdl: options.show_wdl,
                material: wdl::material(game.board.pos()),
            }),
            tablebase,
            started,
            ..JobSpec::new(
                game.board.clone(),
                game.keys.clone(),
                go.limits,
                Arc::clone(&self.tt),
            )
        };
        self.tt.new_search();
        let (job, finished) = SearchJob::new(spec);
        job.control.add_tb_hits(0, root_tb_hits);
        let job = Arc::new(job);
        self.pool.start(Arc::clone(&job));
        self.search = Some(RunningSearch { job, finished });
    }

    /// The legal moves `searchmoves` names (each once), or every legal
    /// move when it names none; a move that is not legal is reported.
    fn root_moves(&self, search_moves: &[String]) -> Vec<Move> {
        let pos = self.game.board.pos();
        let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
        if search_moves.is_empty() {
            return legal;
        }
        let mut chosen = Vec::new();
        for text in search_moves {
            match parse_move(pos, text) {
                Ok(m) if !chosen.contains(&m) => chosen.push(m),
                Ok(_) => {}
                Err(error) => self.error(&format!("searchmoves '{text}': {error}")),
            }
        }
        if chosen.is_empty() {
            self.error("no legal move in searchmoves; searching all moves");
            return legal;
        }
        chosen
    }

    /// `root_moves` cut to those that keep the tablebases' result where
    /// the tables cover the root, and the probes that took; as they were
    /// otherwise.
    fn rank_by_tablebases(
        &self,
        tablebase: Option<&TbConfig>,
        root_moves: Vec<Move>,
    ) -> (Vec<Move>, u64) {
        let pos = self.game.board.pos();
        let Some(ranking) =
            tablebase.and_then(|tables| tables.rank_root_moves(pos, &root_moves, &self.game.keys))
        else {
            return (root_moves, 0);
        };
        log::debug!(
            "Syzygy root: {:?}, {} of {} moves kept",
            ranking.outcome,
            ranking.moves.len(),
            root_moves.len()
        );
        (ranking.moves, ranking.probes)
    }

    fn display(&self) {
        let board = &self.game.board;
        let pos = board.pos();
        for line in format!("{:?}", pos.board()).lines() {
            self.note(line);
        }
        let fen = Fen::from_position(pos, EnPassantMode::Legal);
        self.note(&format!("Fen: {fen}"));
        self.note(&format!("Key: {:016x}", board.key()));
        let checkers: Vec<String> = pos
            .checkers()
            .into_iter()
            .map(|sq| sq.to_string())
            .collect();
        self.note(&format!("Checkers: {}", checkers.join(" ")));
    }
}

/// A seed that differs from one start of the engine to the next: the
/// nanoseconds of the system clock (0 on a clock before 1970).
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos() as u64)
}
