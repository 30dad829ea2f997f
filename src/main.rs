//! The `rookery` command line: the UCI engine by default, and the tools
//! as subcommands: `bench` and `perft`; `datagen` (self-play games),
//! `dataclose`, `datatext`, `dataconvert` and `datamanifest` (the game
//! files);
//! `tunables` (the search's SPSA input).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use clap::{Parser, Subcommand};
use shakmaty::{CastlingMode, Chess};

use rookery::board::parse_fen;
use rookery::config::Config;
use rookery::engine::Engine;
use rookery::tools::datagen::record::open_game_file;
use rookery::tools::{bench, datagen, perft};
use rookery::uci;

/// Rookery, a UCI chess engine. Without a subcommand it speaks UCI on
/// stdin/stdout: load it in a chess GUI (Cute Chess, Arena) or a tournament
/// runner (cutechess-cli, fastchess). Logs go to stderr when RUST_LOG is set
/// (RUST_LOG=debug shows every UCI line in and out).
#[derive(Parser, Debug)]
#[command(
    version = concat!(env!("CARGO_PKG_VERSION"), " (", env!("ROOKERY_COMMIT"), ")"),
    about,
    long_about
)]
struct Cli {
    /// Read option defaults from this TOML file instead of the
    /// engine.toml beside the executable.
    #[arg(long, value_name = "PATH", global = true)]
    config: Option<PathBuf>,

    #[command(subcommand)]
    command: Option<Tool>,
}

#[derive(Subcommand, Debug)]
enum Tool {
    /// Search the fixed bench positions at a fixed depth (1 thread, 16 MB)
    /// and print `N nodes N nps`: the node count identifies the search.
    Bench {
        /// Search depth.
        #[arg(default_value_t = bench::DEFAULT_DEPTH)]
        depth: i32,
        /// Transposition table size in MB (measuring only: changes the count).
        #[arg(long, default_value_t = bench::DEFAULT_HASH_MB)]
        hash: usize,
        /// Search threads (measuring only: several make the count vary).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Count the leaf nodes of the legal move tree (checks move generation).
    Perft {
        /// Depth in plies (at most 64).
        #[arg(value_parser = clap::value_parser!(u32).range(..=i64::from(perft::MAX_DEPTH)))]
        depth: u32,
        /// Start position (default: the standard starting position).
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Read the FEN as Chess960 (Shredder-FEN or X-FEN castling) and
        /// write castling king-takes-rook.
        #[arg(long)]
        chess960: bool,
    },
    /// Play self-play games for training data, appending them to a game
    /// file or writing them in chunks (stop with Ctrl-C: every finished
    /// game of a file, every finished chunk is kept).
    Datagen {
        /// Game file to append to.
        #[arg(
            long,
            required_unless_present = "chunk_dir",
            conflicts_with = "chunk_dir"
        )]
        output: Option<PathBuf>,
        /// Folder to write chunks into instead: files of --chunk-games
        /// games, xz-compressed when full and never written again, named
        /// s<seed>-c<number>.bin.xz. Run again with the same seed, it
        /// plays only the chunks that are missing.
        #[arg(long, value_name = "DIR")]
        chunk_dir: Option<PathBuf>,
        /// Games in a chunk.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
        chunk_games: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Soft node limit of each move's search: no iteration starts
        /// past it (2000 gives about 5000 nodes a move).
        #[arg(long, default_value_t = 2000)]
        nodes: u64,
        /// Stop after this many games.
        #[arg(long)]
        games: Option<u64>,
        /// Stop after this many positions (plies) are recorded.
        #[arg(long)]
        positions: Option<u64>,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Close the open chunks (.bin.part) of a stopped datagen run as they
    /// stand: each part's whole games become its finished .bin.xz file
    /// (fewer games than a full chunk, with the trailer that says so), so
    /// none of them is lost; a later run with the seed skips those chunks.
    /// Given a file instead (an interrupted `datagen --output` run's), its
    /// whole games get their trailer in place. Only while no datagen writes
    /// there.
    Dataclose {
        /// The folder of the chunks (datagen's --chunk-dir), or a file.
        dir: PathBuf,
    },
    /// Print the search's tunables as OpenBench SPSA input lines
    /// (`name, int, default, min, max, c_end, r_end`); a build with
    /// `--features tuning` takes them as UCI options.
    Tunables,
    /// Write the training positions of game files as text lines
    /// `<FEN> | <score cp, White's view> | <1.0|0.5|0.0>` to stdout. A
    /// file cut short is an error, and so is one of a format version
    /// without a trailer unless a manifest row above it vouches for it.
    Datatext {
        /// Game files written by `datagen` (`.xz` files are decompressed).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Rewrite game files of any format version as one file of the
    /// current (compact) version; xz-compressed when OUTPUT ends in .xz.
    Dataconvert {
        /// Notes for the new file's header, `key=value` words: engine=<commit>
        /// network=<id> seed=<n> nodes=<n> (what the manifest shows).
        #[arg(long, default_value = "")]
        notes: String,
        /// The new file (must not exist).
        #[arg(long)]
        output: PathBuf,
        /// Game files to read, in order.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Add a row to DIR/manifest.tsv for every finished game file under
    /// DIR it does not list yet (each must read to its trailer), or with
    /// --check hold the manifest and DIR to each other both ways.
    Datamanifest {
        /// Only check: every listed file is there with its row's size,
        /// SHA-256 and contents (read to the end), and every game file has
        /// a row.
        #[arg(long)]
        check: bool,
        /// The data folder (data/selfplay in the repository).
        dir: PathBuf,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        None => {
            let config = Config::load(cli.config.as_deref());
            match Engine::new(config, std::sync::Arc::new(uci::Uci)) {
                Ok(engine) => {
                    uci::run(engine);
                    ExitCode::SUCCESS
                }
                Err(error) => {
                    eprintln!("rookery: {error}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Tool::Bench {
            depth,
            hash,
            threads,
        }) => {
            let settings = bench::Settings {
                depth: depth.max(1),
                hash_mb: hash.max(1),
                threads: threads.max(1),
            };
            let never = AtomicBool::new(false);
            match bench::run(settings, &never, &mut |line| println!("{line}")) {
                Ok(summary) => {
                    if let Some(summary) = summary {
                        println!("{}", summary.line());
                    }
                    ExitCode::SUCCESS
                }
                Err(error) => {
                    eprintln!("rookery: bench: {error}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Tool::Perft {
            depth,
            fen,
            divide,
            chess960,
        }) => {
            let mode = if chess960 {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            };
            let pos = match fen {
                None => Chess::default(),
                Some(text) => match parse_fen(&text, mode) {
                    Ok(pos) => pos,
                    Err(error) => {
                        eprintln!("rookery: invalid FEN '{text}': {error}");
                        return ExitCode::FAILURE;
                    }
                },
            };
            let never = AtomicBool::new(false);
            let summary = perft::run(&pos, depth, mode, divide, &never, &mut |line| {
                println!("{line}")
            });
            for line in summary.iter().flat_map(perft::Summary::lines) {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Some(Tool::Datagen {
            output,
            chunk_dir,
            chunk_games,
            threads,
            nodes,
            games,
            positions,
            seed,
        }) => {
            let output = match (output, chunk_dir) {
                (_, Some(dir)) => datagen::Output::Chunks {
                    dir,
                    games_per_chunk: chunk_games,
                },
                (Some(path), None) => datagen::Output::File(path),
                (None, None) => unreachable!("clap requires --output or --chunk-dir"),
            };
            let settings = datagen::Settings {
                output,
                threads,
                nodes,
                games,
                positions,
                seed,
            };
            match datagen::run(&settings) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("rookery: datagen: {error}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Tool::Dataclose { dir }) => match close(&dir) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("rookery: dataclose: {error}");
                ExitCode::FAILURE
            }
        },
        Some(Tool::Tunables) => {
            for tunable in rookery::search::tunables::TUNABLES {
                println!("{}", tunable.spsa_line());
            }
            ExitCode::SUCCESS
        }
        Some(Tool::Datatext { files }) => match write_text(&files) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("rookery: datatext: {error}");
                ExitCode::FAILURE
            }
        },
        Some(Tool::Dataconvert {
            notes,
            output,
            files,
        }) => match datagen::convert::convert(&files, &output, &notes) {
            Ok(converted) => {
                for input in &converted.without_trailer {
                    match datagen::manifest::vouching_row(input) {
                        Ok(Some(_)) => {}
                        Ok(None) => eprintln!(
                            "rookery: dataconvert: note: {} has no trailer and no manifest row \
                             vouches for it: if it was cut at a game's end, so is {}",
                            input.display(),
                            output.display()
                        ),
                        Err(error) => {
                            eprintln!("rookery: dataconvert: {error}");
                            return ExitCode::FAILURE;
                        }
                    }
                }
                println!(
                    "{}: {} games, {} bytes",
                    output.display(),
                    converted.games,
                    converted.bytes
                );
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("rookery: dataconvert: {error}");
                ExitCode::FAILURE
            }
        },
        Some(Tool::Datamanifest { check, dir }) => match update_manifest(&dir, check) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("rookery: datamanifest: {error}");
                ExitCode::FAILURE
            }
        },
    }
}

/// Closes the open chunks of the folder `path`, or the open file `path`,
/// and says what it closed.
fn close(path: &std::path::Path) -> std::io::Result<()> {
    if path.is_file() {
        match datagen::chunks::close_file(path)? {
            Some(games) => println!("{}: {games} games", path.display()),
            None => println!("{}: closed already", path.display()),
        }
        return Ok(());
    }
    for chunk in datagen::chunks::close_parts(path)? {
        println!("{}: {} games", chunk.path.display(), chunk.games);
    }
    Ok(())
}

/// Adds the new files of `dir` to its manifest and prints their rows, or
/// with `check` holds the manifest and the folder to each other (an error
/// listing every fault).
fn update_manifest(dir: &std::path::Path, check: bool) -> std::io::Result<()> {
    use datagen::manifest;
    if check {
        let threads = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        let checked = manifest::check(dir, threads)?;
        if !checked.faults.is_empty() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "{} does not agree with {}:\n  {}",
                    dir.join(manifest::MANIFEST_NAME).display(),
                    dir.display(),
                    checked.faults.join("\n  ")
                ),
            ));
        }
        println!(
            "{} files match the manifest: size, SHA-256 and contents; no game file without a row",
            checked.files
        );
        return Ok(());
    }
    for entry in manifest::add_new_files(dir)? {
        println!(
            "{}: {} games, {} training positions, {} bytes ({:.2} bytes a position)",
            entry.path,
            entry.games,
            entry.training_positions,
            entry.bytes,
            entry.bytes as f64 / entry.training_positions.max(1) as f64
        );
    }
    Ok(())
}

/// Prints the training positions of every game in `files` as text. A file
/// without a trailer is read only when a manifest row vouches for it (said
/// on stderr); one that nothing vouches for is an error before any of its
/// lines.
fn write_text(files: &[PathBuf]) -> std::io::Result<()> {
    use datagen::manifest::{Vouch, vouch_for_end};
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for path in files {
        let mut games = open_game_file(path)?;
        match vouch_for_end(path, &games)? {
            Vouch::Trailer => {}
            Vouch::Row(manifest) => eprintln!(
                "rookery: datatext: {} has no trailer (format version {}); its end is vouched \
                 for by its row in {} (size and SHA-256)",
                path.display(),
                games.version(),
                manifest.display()
            ),
            Vouch::Nothing => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!(
                        "{}: format version {} has no trailer and no manifest row vouches for \
                         it, so nothing shows it was not cut at a game's end",
                        path.display(),
                        games.version()
                    ),
                ));
            }
        }
        while let Some(game) = games.next_game()? {
            for position in game.training_positions() {
                writeln!(out, "{}", position.to_text())?;
            }
        }
    }
    out.flush()
}
