//! `rookery perft`: the leaf nodes of the legal move tree below a
//! position, optionally divided by root move (the check of move
//! generation).

use std::sync::atomic::AtomicBool;

use rookery::board::parse_fen;
use rookery::tools::perft;
use shakmaty::{CastlingMode, Chess};

use super::{Failure, Outcome};

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
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
}

pub(crate) fn run(args: Args) -> Outcome {
    let mode = if args.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let pos = match args.fen {
        None => Chess::default(),
        Some(text) => parse_fen(&text, mode)
            .map_err(|error| Failure::new(format!("invalid FEN '{text}': {error}")))?,
    };
    let never = AtomicBool::new(false);
    let summary = perft::run(&pos, args.depth, mode, args.divide, &never, &mut |line| {
        println!("{line}")
    });
    for line in summary.iter().flat_map(perft::Summary::lines) {
        println!("{line}");
    }
    Ok(())
}
