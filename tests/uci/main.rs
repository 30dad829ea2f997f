//! Black-box tests of the UCI protocol: the `rookery` binary is started as
//! a child process and driven over stdin/stdout, as a GUI would.
//!
//! Moves and positions are checked with shakmaty, independently of the
//! engine. Timing appears only as generous upper bounds ("answers
//! promptly") and as short pauses during which nothing may happen.

#[path = "../common/mod.rs"]
mod common;

mod bad_input;
mod flow;
mod limits;
mod options;
mod regressions;
mod rules;
mod tablebases;
mod tools;

use std::time::Duration;

use common::{
    Engine, PROMPT, SEARCH, assert_legal_bestmove, assert_pvs_legal, command, deepest_depth,
    empty_config, errors, fen_of, info_number, last_score, parse_fen, parse_move, position,
    read_data, run_tool, run_tool_with_env, the_bestmove,
};
use shakmaty::{CastlingMode, Chess, Position};

const STD: CastlingMode = CastlingMode::Standard;
const C960: CastlingMode = CastlingMode::Chess960;

const CANDIDATES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/bench/candidate_positions.fen"
);
const MATE_IN_2: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/epd/mate_in_2.epd");
const MALFORMED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/edge/malformed_fens.epd"
);
const REPETITIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/edge/repetition_sequences.txt"
);
const RULES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/edge/rules.epd");
const SYZYGY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");

/// A short pause during which the engine must stay silent or keep searching.
const QUIET: Duration = Duration::from_millis(300);

/// A fresh engine after the `uci` handshake.
fn engine() -> Engine {
    let mut engine = Engine::start();
    engine.handshake();
    engine
}

/// The FEN the engine reports with `d`.
fn engine_fen(engine: &mut Engine) -> String {
    let lines = command(engine, "d");
    lines
        .iter()
        .find_map(|l| l.strip_prefix("info string Fen: "))
        .unwrap_or_else(|| panic!("no Fen line in {lines:#?}"))
        .to_string()
}

/// Whether the side to move can force mate within `moves` of its moves.
fn forces_mate_within(pos: &Chess, moves: u32) -> bool {
    moves > 0
        && pos.legal_moves().iter().any(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            after.is_checkmate()
                || (!after.is_stalemate() && every_reply_is_mated(&after, moves - 1))
        })
}

/// Whether every legal reply in `pos` (side to move) walks into a mate
/// within `moves` of the opponent's moves.
fn every_reply_is_mated(pos: &Chess, moves: u32) -> bool {
    let replies = pos.legal_moves();
    !replies.is_empty()
        && replies.iter().all(|&r| {
            let mut after = pos.clone();
            after.play_unchecked(r);
            forces_mate_within(&after, moves)
        })
}

/// Checks that a searching engine stays silent for a while, answers
/// `isready`, and stays silent again, with no `bestmove` throughout; returns
/// every line it printed meanwhile.
fn assert_searching_and_responsive(engine: &mut Engine, when: &str) -> Vec<String> {
    let mut lines = engine.collect_for(QUIET);
    engine.send("isready");
    lines.extend(engine.wait_for("readyok", PROMPT));
    lines.extend(engine.collect_for(QUIET));
    assert_no_bestmove(&lines, when);
    lines
}

fn assert_no_bestmove(lines: &[String], when: &str) {
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "bestmove {when}: {lines:#?}"
    );
}

/// A config file under the test scratch folder.
fn config_file(name: &str, text: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}
