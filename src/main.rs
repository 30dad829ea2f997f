//! The `rookery` command line: the UCI engine by default, and the `bench`
//! and `perft` tools as subcommands.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use clap::{Parser, Subcommand};
use shakmaty::{CastlingMode, Chess};

use rookery::board::parse_fen;
use rookery::config::Config;
use rookery::engine::Engine;
use rookery::tools::selfplay::record::GameReader;
use rookery::tools::{bench, perft, selfplay};
use rookery::uci;

/// Rookery, a UCI chess engine. Without a subcommand it speaks UCI on
/// stdin/stdout: load it in a chess GUI (Cute Chess, Arena) or a tournament
/// runner (cutechess-cli, fastchess). Logs go to stderr when RUST_LOG is set
/// (RUST_LOG=debug shows every UCI line in and out).
#[derive(Parser, Debug)]
#[command(version, about, long_about)]
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
    /// file (stop with Ctrl-C: every finished game is kept).
    Datagen {
        /// Game file to append to.
        #[arg(long)]
        output: PathBuf,
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
    /// Print the search's tunables as OpenBench SPSA input lines
    /// (`name, int, default, min, max, c_end, r_end`); a build with
    /// `--features tuning` takes them as UCI options.
    Tunables,
    /// Write the training positions of game files as text lines
    /// `<FEN> | <score cp, White's view> | <1.0|0.5|0.0>` to stdout.
    Datatext {
        /// Game files written by `datagen`.
        #[arg(required = true)]
        files: Vec<PathBuf>,
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
            threads,
            nodes,
            games,
            positions,
            seed,
        }) => {
            let settings = selfplay::Settings {
                output,
                threads,
                nodes,
                games,
                positions,
                seed,
            };
            match selfplay::run(&settings) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("rookery: datagen: {error}");
                    ExitCode::FAILURE
                }
            }
        }
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
    }
}

/// Prints the training positions of every game in `files` as text.
fn write_text(files: &[PathBuf]) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for path in files {
        let mut games = GameReader::new(std::io::BufReader::new(std::fs::File::open(path)?))?;
        while let Some(game) = games.next_game()? {
            for position in game.training_positions() {
                writeln!(out, "{}", position.to_text())?;
            }
        }
    }
    out.flush()
}
