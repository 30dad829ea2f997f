//! Faults and limits from the outside: a closed stdout, a table too large
//! for the machine (from `setoption` and from the config file alike), the
//! most threads, the longest move list, depths beyond
//! the maximum. Panics inside a search are covered by the unit tests of
//! `search::pool` (they inject one into a thread).

mod common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Engine, PROMPT, SEARCH, assert_legal_bestmove, deepest_depth, errors, position};
use rookery::score::MAX_DEPTH;
use shakmaty::{CastlingMode, Chess, Position};

const STD: CastlingMode = CastlingMode::Standard;

/// The most legal moves known in a legal chess position: 218.
const MOST_MOVES: &str = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1";

#[test]
fn closed_stdout_makes_the_engine_exit() {
    let mut child = Command::new(common::BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .env_remove("RUST_LOG")
        .spawn()
        .expect("spawn rookery");
    // The GUI goes away: nobody reads the engine's output any more.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "uci").unwrap();
    writeln!(stdin, "go infinite").unwrap();
    stdin.flush().unwrap();
    let deadline = Instant::now() + SEARCH;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "engine kept running with no reader"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(!status.success(), "a broken stdout is an error exit");
    drop(stdin);
}

#[test]
fn a_hash_too_large_for_the_machine_keeps_the_old_table() {
    // Limited to 4 GB of address space, so that 1 TB cannot be had even
    // where the kernel would promise it (overcommit) and then kill the
    // engine for touching it.
    let mut engine = Engine::start_with_address_space_limit(4096);
    engine.send("setoption name Hash value 8");
    engine.send("setoption name Hash value 1048576");
    let lines = engine.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(lines[0].contains("keeping 8 MB"), "{lines:?}");
    engine.send("position startpos");
    let lines = engine.go("depth 5");
    assert_legal_bestmove(&lines, &Chess::default(), STD);
}

#[test]
fn a_hash_too_large_for_the_machine_is_refused_alike_from_the_config_and_from_setoption() {
    // engine.toml's values take the path of a setoption: the same message,
    // and the same value kept (the built-in default), from both.
    const TOO_LARGE: &str = "1048576";
    let config = format!("{}/faults-hash-too-large.toml", env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(&config, format!("Hash = {TOO_LARGE}\n")).unwrap();
    let mut from_config = Engine::start_with_address_space_limit_and_config(4096, &config);
    let identity = from_config.handshake();
    assert!(
        identity
            .iter()
            .any(|l| l.starts_with("option name Hash type spin default 16 ")),
        "the built-in default stays the default: {identity:#?}"
    );
    let told = from_config.sync();
    let from_config_error = errors(&told)
        .first()
        .and_then(|l| l.strip_prefix(&format!("info string error: {config}: ")))
        .unwrap_or_else(|| panic!("one error, labelled with the file: {told:#?}"))
        .to_string();

    let mut from_setoption = Engine::start_with_address_space_limit(4096);
    from_setoption.send(&format!("setoption name Hash value {TOO_LARGE}"));
    let told = from_setoption.sync();
    assert_eq!(errors(&told).len(), 1, "{told:#?}");
    let from_setoption_error = told[0].strip_prefix("info string error: ").unwrap();

    assert_eq!(from_config_error, from_setoption_error);
    assert!(
        from_config_error.starts_with("Hash: ") && from_config_error.contains("keeping 16 MB"),
        "{from_config_error}"
    );
    for mut engine in [from_config, from_setoption] {
        engine.send("position startpos");
        let lines = engine.go("depth 5");
        assert_legal_bestmove(&lines, &Chess::default(), STD);
    }
}

#[test]
fn the_most_threads_work() {
    let mut engine = Engine::start();
    engine.send("setoption name Threads value 1024");
    engine.sync();
    let pos = position(Some(MOST_MOVES), &[], STD);
    engine.send(&format!("position fen {MOST_MOVES}"));
    let lines = engine.go("depth 3");
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert_legal_bestmove(&lines, &pos, STD);
    engine.send("setoption name Threads value 1");
    engine.sync();
}

#[test]
fn the_longest_move_list_is_searched() {
    let pos = position(Some(MOST_MOVES), &[], STD);
    assert_eq!(pos.legal_moves().len(), 218);
    let mut engine = Engine::start();
    engine.send(&format!("position fen {MOST_MOVES}"));
    let lines = engine.go("depth 4");
    assert_legal_bestmove(&lines, &pos, STD);
    engine.send("setoption name MultiPV value 256");
    let lines = engine.go("depth 2");
    let last_lines = lines
        .iter()
        .filter(|l| l.starts_with("info depth 2 ") && l.contains(" multipv "))
        .count();
    assert_eq!(last_lines, 218, "MultiPV is capped at the legal moves");
    assert_legal_bestmove(&lines, &pos, STD);
}

#[test]
fn a_depth_beyond_the_maximum_is_clamped_and_finishes() {
    // A forced mate: every iteration is quick, so clamping is what ends it.
    let fen = "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1";
    let pos = position(Some(fen), &[], STD);
    let mut engine = Engine::start();
    engine.send(&format!("position fen {fen}"));
    let lines = engine.go("depth 100000");
    assert_legal_bestmove(&lines, &pos, STD);
    let deepest = deepest_depth(&lines);
    assert_eq!(deepest, MAX_DEPTH, "the deepest iteration is the clamp");
    engine.send("isready");
    engine.wait_for("readyok", PROMPT);
}
