//! Perft against the suites in `tests/data/perft/`, through the library:
//! the move generator (shakmaty's) and our copy-make path (`Board::play`,
//! which also keeps the Zobrist key) must reproduce every known leaf count.
//!
//! To keep the suite fast, each position is checked at every depth whose
//! expected count is at most [`NODE_CAP`] (the edge cases at their one given
//! depth, all of which are cheap).

use rookery::board::Board;
use rookery::tools::perft::perft;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, PositionError};

/// Largest expected leaf count checked.
const NODE_CAP: u64 = 5_000_000;

const STANDARD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft/standard.epd");
const CHESS960: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft/chess960.epd");
const EDGE_CASES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/perft/edge_cases.epd"
);
const CPW: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft/cpw.epd");

/// One suite line: the FEN and its (depth, count) pairs.
struct Case {
    line: usize,
    fen: String,
    counts: Vec<(u32, u64)>,
}

/// Parses lines of the form `FEN ;D1 n ;D2 n … [;id "…"] [;c0 "…"]`.
fn parse_suite(path: &str) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let mut cases = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';');
        let fen = fields.next().unwrap().trim().to_string();
        let mut counts = Vec::new();
        for field in fields {
            let field = field.trim();
            let Some(rest) = field.strip_prefix('D') else {
                continue;
            };
            let mut parts = rest.split_whitespace();
            let (Some(depth), Some(count)) = (parts.next(), parts.next()) else {
                panic!("{path}:{}: bad field '{field}'", index + 1);
            };
            let (Ok(depth), Ok(count)) = (depth.parse(), count.parse()) else {
                panic!("{path}:{}: bad field '{field}'", index + 1);
            };
            counts.push((depth, count));
        }
        assert!(!counts.is_empty(), "{path}:{}: no counts", index + 1);
        cases.push(Case {
            line: index + 1,
            fen,
            counts,
        });
    }
    cases
}

fn setup(fen: &str, mode: CastlingMode) -> Chess {
    fen.parse::<Fen>()
        .unwrap_or_else(|e| panic!("bad FEN '{fen}': {e}"))
        .into_position(mode)
        // The suites hold a few positions that cannot arise in a game (two
        // checkers no single move could give); perft is still defined there.
        .or_else(PositionError::ignore_impossible_check)
        .unwrap_or_else(|e| panic!("illegal position '{fen}': {e}"))
}

/// Checks every count up to `cap` of every case; returns (checks, nodes).
fn check_suite(path: &str, mode: CastlingMode, cap: u64) -> (usize, u64) {
    let cases = parse_suite(path);
    assert!(!cases.is_empty(), "{path} is empty");
    let mut checks = 0;
    let mut nodes = 0;
    let mut failures = Vec::new();
    for case in &cases {
        let board = Board::new(setup(&case.fen, mode));
        for &(depth, expected) in case.counts.iter().filter(|(_, n)| *n <= cap) {
            let got = perft(&board, depth);
            checks += 1;
            nodes += expected;
            if got != expected {
                failures.push(format!(
                    "{path}:{}: perft({depth}) of '{}' ({mode:?}) = {got}, expected {expected}",
                    case.line, case.fen
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    (checks, nodes)
}

#[test]
fn standard_suite() {
    let (checks, nodes) = check_suite(STANDARD, CastlingMode::Standard, NODE_CAP);
    // 128 positions, each with several small depths.
    assert!(checks >= 128 * 3, "only {checks} checks");
    assert!(nodes > 10_000_000, "only {nodes} nodes");
}

#[test]
fn chess960_suite() {
    let (checks, nodes) = check_suite(CHESS960, CastlingMode::Chess960, NODE_CAP);
    assert!(checks >= 960 * 3, "only {checks} checks");
    assert!(nodes > 100_000_000, "only {nodes} nodes");
}

#[test]
fn edge_cases_in_full() {
    let (checks, _) = check_suite(EDGE_CASES, CastlingMode::Standard, u64::MAX);
    assert_eq!(checks, 32, "every edge case has one count");
}

#[test]
fn chessprogramming_positions() {
    let (checks, _) = check_suite(CPW, CastlingMode::Standard, NODE_CAP);
    assert!(checks >= 7 * 3, "only {checks} checks");
}

#[test]
fn start_position_depth_5() {
    let board = Board::startpos();
    assert_eq!(perft(&board, 0), 1);
    assert_eq!(perft(&board, 1), 20);
    assert_eq!(perft(&board, 5), 4_865_609);
}
