//! The `rookery` command line, as a table of subcommands: the UCI engine
//! by default, and the tools: `bench` and `perft`; `datagen` (self-play
//! games), `dataclose`, `datatext`, `dataconvert` and `datamanifest` (the
//! game files); `tunables` (the search's SPSA input). Each subcommand's
//! arguments and work are a module of [`cli`]; whatever fails leaves by
//! one exit path ([`cli::exit`]).

mod cli;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
struct CommandLine {
    /// Read option defaults from this TOML file instead of the
    /// engine.toml beside the executable (bench takes its EvalFile).
    #[arg(long, value_name = "PATH", global = true)]
    config: Option<PathBuf>,

    #[command(subcommand)]
    command: Option<Tool>,
}

/// The subcommands: what each does, and the module that does it.
#[derive(Subcommand, Debug)]
enum Tool {
    /// Search the fixed bench positions at a fixed depth (1 thread, 16 MB)
    /// and print `N nodes N nps`: the node count identifies the search.
    /// The network is --eval-file's, else the config's EvalFile, else the
    /// embedded one; the first line names it.
    Bench(cli::bench::Args),
    /// Count the leaf nodes of the legal move tree (checks move generation).
    Perft(cli::perft::Args),
    /// Play self-play games for training data, appending them to a game
    /// file or writing them in chunks (stop with Ctrl-C: every finished
    /// game of a file, every finished chunk is kept).
    Datagen(cli::datagen::Args),
    /// Close the open chunks (.bin.part) of a stopped datagen run as they
    /// stand: each part's whole games become its finished .bin.xz file
    /// (fewer games than a full chunk, with the trailer that says so), so
    /// none of them is lost; a later run with the seed skips those chunks.
    /// Given a file instead (an interrupted `datagen --output` run's), its
    /// whole games get their trailer in place. Only while no datagen writes
    /// there.
    Dataclose(cli::dataclose::Args),
    /// Print the search's tunables as OpenBench SPSA input lines
    /// (`name, int, default, min, max, c_end, r_end`); a build with
    /// `--features tuning` takes them as UCI options.
    Tunables,
    /// Write the training positions of game files as text lines
    /// `<FEN> | <score cp, White's view> | <1.0|0.5|0.0>` to stdout. A
    /// file cut short is an error, and so is one of a format version
    /// without a trailer unless a manifest row above it vouches for it.
    Datatext(cli::datatext::Args),
    /// Rewrite game files of any format version as one file of the
    /// current (compact) version; xz-compressed when OUTPUT ends in .xz.
    Dataconvert(cli::dataconvert::Args),
    /// Add a row to DIR/manifest.tsv for every finished game file under
    /// DIR it does not list yet (each must read to its trailer), or with
    /// --check hold the manifest and DIR to each other both ways.
    Datamanifest(cli::datamanifest::Args),
}

impl Tool {
    /// Runs the subcommand; `config` is the `--config` file, if given.
    fn run(self, config: Option<&Path>) -> cli::Outcome {
        match self {
            Tool::Bench(args) => cli::bench::run(args, config),
            Tool::Perft(args) => cli::perft::run(args),
            Tool::Datagen(args) => cli::datagen::run(args),
            Tool::Dataclose(args) => cli::dataclose::run(args),
            Tool::Tunables => cli::tunables::run(),
            Tool::Datatext(args) => cli::datatext::run(args),
            Tool::Dataconvert(args) => cli::dataconvert::run(args),
            Tool::Datamanifest(args) => cli::datamanifest::run(args),
        }
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off"))
        .target(env_logger::Target::Stderr)
        .init();
    let command_line = CommandLine::parse();
    cli::exit(match command_line.command {
        None => cli::engine::run(command_line.config.as_deref()),
        Some(tool) => tool.run(command_line.config.as_deref()),
    })
}
