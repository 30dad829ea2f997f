//! `rookery datagen`: self-play games that become training data for the
//! evaluation network.
//!
//! Every worker thread plays games on its own ([`game`]), with its own
//! single-thread search pool and table, both reset before each game as
//! after `ucinewgame`. Each finished game is written in one write, in the
//! game record of [`crate::records`], so stopping the generator (Ctrl-C)
//! keeps every finished game; the file gets its trailer when the run ends
//! (an interrupted run's file is closed by `rookery dataclose`). The games
//! go either to one file that grows, a part per run, or into chunks
//! ([`crate::records::chunks`]): files of a fixed number of games,
//! compressed and never written again once full, which is how the data is
//! committed to the repository while generation goes on
//! ([`crate::records::manifest`] lists them there).
//!
//! The search is the engine's own with its current evaluation: generation
//! 0 used the piece-square tables, every later one the latest network.
//! Every file's header notes the engine's commit, its network, the seed
//! and the node limit, so a file says where it came from.

mod game;

use std::fs::File;
use std::io;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::records::chunks::ChunkSet;
use crate::records::{GameRecord, GameResult, GameWriter, open_for_append};
use crate::util::rng::SplitMix64;
use game::Player;

/// Unfit openings in a row after which a worker gives up: a node limit too
/// small to finish even one iteration makes every opening unfit.
const MAX_UNFIT_OPENINGS: usize = 1000;
/// How often the progress line is written.
const PROGRESS_INTERVAL: Duration = Duration::from_secs(10);
/// How often the main thread looks whether every worker has finished.
const FINISHED_POLL_INTERVAL: Duration = Duration::from_millis(100);

/// Where the games go.
#[derive(Clone, Debug)]
pub enum Output {
    /// One game file, appended to.
    File(PathBuf),
    /// Chunks of this many games in this folder.
    Chunks { dir: PathBuf, games_per_chunk: u64 },
}

/// What `rookery datagen` was asked for.
#[derive(Clone, Debug)]
pub struct Settings {
    pub output: Output,
    pub threads: usize,
    /// Soft node limit of each move's search (no iteration starts past
    /// it).
    pub nodes: u64,
    /// Stop after this many games (all threads together; the games in
    /// progress then still finish and are kept, in the file or in the
    /// open chunks' parts) ...
    pub games: Option<u64>,
    /// ... or after this many recorded plies.
    pub positions: Option<u64>,
    pub seed: u64,
}

impl Settings {
    /// The notes every file's header carries: where its games came from.
    fn notes(&self) -> String {
        format!(
            "engine={} network={} seed={} nodes={}",
            env!("ROOKERY_COMMIT"),
            crate::nnue::active().identity(),
            self.seed,
            self.nodes
        )
    }
}

/// Where the workers write.
enum Sink {
    File(Mutex<GameWriter<File>>),
    Chunks(ChunkSet),
}

/// Counters shared by the workers.
#[derive(Default)]
struct Progress {
    games: AtomicU64,
    plies: AtomicU64,
    /// Nodes searched for the recorded plies (all of a game's searches).
    nodes: AtomicU64,
    /// Plies recorded without a score (cut by the hard node cap).
    unscored: AtomicU64,
    white_wins: AtomicU64,
    draws: AtomicU64,
    black_wins: AtomicU64,
    chunks: AtomicU64,
    done: AtomicBool,
}

impl Progress {
    fn line(&self, elapsed: Duration) -> String {
        let plies = self.plies.load(Ordering::Relaxed);
        format!(
            "datagen: {} games, {} positions ({} unscored), {:.0} positions/s, \
             {:.0} nodes/move, W/D/L {}/{}/{}, {} chunks finished",
            self.games.load(Ordering::Relaxed),
            plies,
            self.unscored.load(Ordering::Relaxed),
            plies as f64 / elapsed.as_secs_f64().max(1e-3),
            self.nodes.load(Ordering::Relaxed) as f64 / plies.max(1) as f64,
            self.white_wins.load(Ordering::Relaxed),
            self.draws.load(Ordering::Relaxed),
            self.black_wins.load(Ordering::Relaxed),
            self.chunks.load(Ordering::Relaxed),
        )
    }

    /// Counts a finished game; says when the run's limits are reached.
    fn count(&self, game: &GameRecord, nodes: u64, settings: &Settings) {
        let ply_count = game.plies.len() as u64;
        let games = self.games.fetch_add(1, Ordering::Relaxed) + 1;
        let plies = self.plies.fetch_add(ply_count, Ordering::Relaxed) + ply_count;
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
        let unscored = game.plies.iter().filter(|p| p.white_score.is_none());
        self.unscored
            .fetch_add(unscored.count() as u64, Ordering::Relaxed);
        let counter = match game.result {
            GameResult::WhiteWins => &self.white_wins,
            GameResult::Draw => &self.draws,
            GameResult::BlackWins => &self.black_wins,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        if settings.games.is_some_and(|n| games >= n)
            || settings.positions.is_some_and(|n| plies >= n)
        {
            self.done.store(true, Ordering::Relaxed);
        }
    }
}

/// Runs the generator until its game or position count is reached.
pub fn run(settings: &Settings) -> io::Result<()> {
    if let Some(missing) = crate::nnue::missing_network() {
        return Err(io::Error::other(missing));
    }
    if let Some(fallback) = crate::nnue::check_simd_path(crate::nnue::active()) {
        eprintln!("datagen: {fallback}");
    }
    let sink = Arc::new(match &settings.output {
        Output::File(path) => Sink::File(Mutex::new(open_for_append(path, &settings.notes())?)),
        Output::Chunks {
            dir,
            games_per_chunk,
        } => Sink::Chunks(ChunkSet::new(dir, settings.seed, *games_per_chunk)?),
    });
    let progress = Arc::new(Progress::default());
    let start = Instant::now();
    let workers: Vec<_> = (0..settings.threads.max(1))
        .map(|id| {
            let settings = settings.clone();
            let sink = Arc::clone(&sink);
            let progress = Arc::clone(&progress);
            std::thread::Builder::new()
                .name(format!("datagen-{id}"))
                .spawn(move || worker(id as u64, &settings, &sink, &progress))
        })
        .collect::<io::Result<_>>()?;
    let mut last_report = Instant::now();
    while !workers.iter().all(|w| w.is_finished()) {
        std::thread::sleep(FINISHED_POLL_INTERVAL);
        if last_report.elapsed() >= PROGRESS_INTERVAL {
            last_report = Instant::now();
            eprintln!("{}", progress.line(start.elapsed()));
        }
    }
    let played = workers.into_iter().try_for_each(|handle| {
        handle
            .join()
            .map_err(|_| io::Error::other("a datagen worker panicked"))?
    });
    // The file's games are closed by its trailer however the run ended.
    if let Ok(Sink::File(writer)) = Arc::try_unwrap(sink) {
        let writer = writer
            .into_inner()
            .map_err(|_| io::Error::other("poisoned"))?;
        writer.finish()?.sync_all()?;
    }
    eprintln!("{}", progress.line(start.elapsed()));
    played
}

/// One worker: into the file with its own random stream, or chunk after
/// chunk, each with the chunk's stream.
fn worker(id: u64, settings: &Settings, sink: &Sink, progress: &Progress) -> io::Result<()> {
    let mut player = Player::new(settings.nodes).map_err(io::Error::other)?;
    let result = match sink {
        Sink::File(file) => {
            let mut rng = SplitMix64::stream(settings.seed, id);
            play_games(
                &mut player,
                &mut rng,
                settings,
                progress,
                u64::MAX,
                |game| {
                    let mut file = file.lock().map_err(|_| io::Error::other("poisoned"))?;
                    file.write(game)
                },
            )
        }
        Sink::Chunks(chunks) => play_chunks(&mut player, chunks, settings, progress),
    };
    if result.is_err() {
        progress.done.store(true, Ordering::Relaxed);
    }
    result
}

fn play_chunks(
    player: &mut Player,
    chunks: &ChunkSet,
    settings: &Settings,
    progress: &Progress,
) -> io::Result<()> {
    while !progress.done.load(Ordering::Relaxed) {
        let number = chunks.claim();
        let notes = format!("{} chunk={number}", settings.notes());
        let mut chunk = chunks.open(number, &notes)?;
        let mut rng = SplitMix64::stream(settings.seed, number);
        let games_per_chunk = chunks.games_per_chunk;
        let played = play_games(
            player,
            &mut rng,
            settings,
            progress,
            games_per_chunk,
            |game| chunk.write(game),
        );
        if let Some(path) = chunk.finish(games_per_chunk)? {
            progress.chunks.fetch_add(1, Ordering::Relaxed);
            log::info!("datagen: finished {}", path.display());
        }
        played?;
    }
    Ok(())
}

/// Plays games into `write` until `max_games` are written or the run is
/// done.
fn play_games(
    player: &mut Player,
    rng: &mut SplitMix64,
    settings: &Settings,
    progress: &Progress,
    max_games: u64,
    mut write: impl FnMut(&GameRecord) -> io::Result<()>,
) -> io::Result<()> {
    let mut unfit_in_a_row = 0;
    let mut written = 0;
    while written < max_games && !progress.done.load(Ordering::Relaxed) {
        let Some((game, nodes)) = player.play_game(rng) else {
            unfit_in_a_row += 1;
            if unfit_in_a_row >= MAX_UNFIT_OPENINGS {
                return Err(io::Error::other(format!(
                    "{MAX_UNFIT_OPENINGS} openings in a row were unfit: is the node limit \
                     ({}) too small to finish a search?",
                    settings.nodes
                )));
            }
            continue;
        };
        unfit_in_a_row = 0;
        write(&game)?;
        written += 1;
        progress.count(&game, nodes, settings);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::{self, chunks};

    fn scratch(name: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("rookery-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        let _ = std::fs::remove_file(&path);
        path
    }

    fn settings(output: Output, threads: usize, nodes: u64, games: u64) -> Settings {
        Settings {
            output,
            threads,
            nodes,
            games: Some(games),
            positions: None,
            seed: 7,
        }
    }

    fn games_of(path: &std::path::Path) -> (String, Vec<GameRecord>) {
        let open = if path.extension().is_some_and(|e| e == "part") {
            records::open_part_file
        } else {
            records::open_game_file
        };
        let mut reader = open(path).unwrap();
        assert_eq!(reader.version(), records::FORMAT_VERSION);
        let mut games = Vec::new();
        while let Some(game) = reader.next_game().unwrap() {
            games.push(game);
        }
        (reader.notes().to_string(), games)
    }

    #[test]
    fn a_node_limit_too_small_to_search_is_an_error_not_a_hang() {
        let output = scratch("datagen-0");
        let error = run(&settings(Output::File(output.clone()), 1, 1, 1)).unwrap_err();
        let _ = std::fs::remove_file(&output);
        assert!(error.to_string().contains("node limit"), "{error}");
    }

    #[test]
    fn a_short_generation_writes_readable_games() {
        let output = scratch("datagen");
        run(&settings(Output::File(output.clone()), 2, 300, 3)).unwrap();
        let (notes, games) = games_of(&output);
        std::fs::remove_file(&output).unwrap();
        assert!(notes.contains("seed=7 nodes=300"), "{notes}");
        assert!(games.len() >= 3, "{} games", games.len());
        assert!(games.iter().all(|game| !game.plies.is_empty()));
    }

    #[test]
    fn chunks_are_finished_whole_and_a_second_run_plays_only_new_ones() {
        let dir = scratch("datagen-chunks");
        let chunked = |games| {
            let output = Output::Chunks {
                dir: dir.clone(),
                games_per_chunk: 2,
            };
            settings(output, 1, 300, games)
        };
        // Three games: a full chunk, then one cut short by the limit,
        // which stays a part.
        run(&chunked(3)).unwrap();
        let first = dir.join("s7-c00000.bin.xz");
        let (notes, games) = games_of(&first);
        assert!(notes.ends_with("seed=7 nodes=300 chunk=0"), "{notes}");
        assert_eq!(games.len(), 2);
        let cut = games_of(&dir.join("s7-c00001.bin.part")).1;
        assert_eq!(cut.len(), 1);
        assert!(!dir.join("s7-c00001.bin.xz").exists());
        let first_bytes = std::fs::read(&first).unwrap();

        // Started again, the run skips the finished chunks and plays the
        // others from their own streams: the same games again.
        std::fs::remove_file(&first).unwrap();
        run(&chunked(4)).unwrap();
        assert_eq!(std::fs::read(&first).unwrap(), first_bytes);
        let second = games_of(&dir.join("s7-c00001.bin.xz")).1;
        assert_eq!((second.len(), &second[0]), (2, &cut[0]));
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["s7-c00000.bin.xz", "s7-c00001.bin.xz"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn closing_parts_keeps_their_whole_games_and_drops_a_cut_one() {
        let dir = scratch("datagen-close");
        let output = Output::Chunks {
            dir: dir.clone(),
            games_per_chunk: 3,
        };
        run(&settings(output, 1, 300, 2)).unwrap();
        let part = dir.join("s7-c00000.bin.part");
        let (notes, games) = games_of(&part);
        assert_eq!(games.len(), 2);
        // The interruption cut a third game's record short.
        let cut = games[0].encode().unwrap();
        let mut bytes = std::fs::read(&part).unwrap();
        bytes.extend_from_slice(&cut[..cut.len() / 2]);
        std::fs::write(&part, bytes).unwrap();
        // A part without a whole game stays as it is.
        let empty = dir.join("s7-c00001.bin.part");
        std::fs::write(&empty, records::file_header(&notes).unwrap()).unwrap();

        let closed = chunks::close_parts(&dir).unwrap();
        let finished = dir.join("s7-c00000.bin.xz");
        assert_eq!(
            closed,
            [chunks::Closed {
                path: finished.clone(),
                games: 2
            }]
        );
        assert_eq!(games_of(&finished), (notes.clone(), games));
        assert!(!part.exists() && empty.exists());
        assert!(chunks::close_parts(&dir).unwrap().is_empty());
        // A finish killed between its rename and the part's removal leaves
        // the part beside its whole finished file: it goes, and the
        // finished file stays as it is.
        let finished_bytes = std::fs::read(&finished).unwrap();
        std::fs::write(&part, records::file_header(&notes).unwrap()).unwrap();
        assert!(chunks::close_parts(&dir).unwrap().is_empty());
        assert!(!part.exists());
        assert_eq!(std::fs::read(&finished).unwrap(), finished_bytes);
        // A part that is no game file is an error naming it, and leaves
        // nothing behind.
        let broken = dir.join("s7-c00002.bin.part");
        std::fs::write(&broken, b"\xFFnot a game file").unwrap();
        let error = chunks::close_parts(&dir).unwrap_err();
        assert!(error.to_string().contains("s7-c00002.bin.part"), "{error}");
        assert!(broken.exists() && !dir.join("s7-c00002.bin.xz").exists());
        assert!(!dir.join("s7-c00002.bin.whole").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
