//! Black-box tests of the UCI protocol: the `rookery` binary is started as
//! a child process and driven over stdin/stdout, as a GUI would.
//!
//! Moves and positions are checked with shakmaty, independently of the
//! engine. Timing appears only as generous upper bounds ("answers
//! promptly") and as short pauses during which nothing may happen.

mod common;

use std::time::Duration;

use common::{
    Engine, PROMPT, SEARCH, assert_legal_bestmove, assert_pvs_legal, command, errors, fen_of,
    last_score, parse_fen, parse_move, position, read_data, run_tool, the_bestmove,
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

fn assert_no_bestmove(lines: &[String], when: &str) {
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "bestmove {when}: {lines:#?}"
    );
}

// ---------------------------------------------------------------------------
// Handshake and basic flow.

#[test]
fn uci_handshake_lists_the_options_then_uciok() {
    let mut engine = Engine::start();
    let lines = engine.handshake();
    assert!(lines[0].starts_with("id name "), "{lines:#?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for name in [
        "Hash",
        "Threads",
        "Move Overhead",
        "Clear Hash",
        "Ponder",
        "UCI_Chess960",
        "UCI_ShowWDL",
        "SyzygyPath",
        "SyzygyProbeDepth",
        "Syzygy50MoveRule",
        "SyzygyProbeLimit",
        "EvalFile",
    ] {
        let prefix = format!("option name {name} type ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "no option '{name}' in {lines:#?}"
        );
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Hash type spin default 16 min 1 max ")),
        "{lines:#?}"
    );
    assert!(lines.contains(&"option name Clear Hash type button".to_string()));
    assert!(lines.contains(&"option name Ponder type check default false".to_string()));
    assert!(lines.contains(&"option name UCI_Chess960 type check default false".to_string()));
    assert_eq!(lines.last().unwrap(), "uciok");
    assert!(errors(&lines).is_empty(), "{lines:#?}");

    let ready = engine.sync();
    assert_eq!(ready, vec!["readyok".to_string()]);
    engine.send("quit");
    assert!(engine.wait_exit(PROMPT * 5).success());
}

#[test]
fn end_of_input_finishes_a_finite_search_and_exits() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go depth 6");
    engine.close_stdin();
    let lines = engine.collect_for(SEARCH);
    let status = engine.wait_exit(PROMPT * 5);
    assert!(status.success(), "exit status {status:?}");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info ")).collect();
    assert!(
        infos.iter().any(|l| l.starts_with("info depth 6 ")),
        "{lines:#?}"
    );
    assert_legal_bestmove(&lines, &Chess::default(), STD);
    assert_pvs_legal(&lines, &Chess::default(), STD);
    assert!(lines.last().unwrap().starts_with("bestmove"), "{lines:#?}");
}

#[test]
fn quit_during_infinite_search_exits() {
    let mut engine = engine();
    engine.send("position startpos");
    engine.send("go infinite");
    engine.collect_for(Duration::from_millis(100));
    engine.send("quit");
    let status = engine.wait_exit(PROMPT * 5);
    assert!(status.success(), "exit status {status:?}");
}

#[test]
fn end_of_input_stops_an_infinite_search() {
    let mut engine = engine();
    engine.send("position startpos");
    engine.send("go infinite");
    engine.collect_for(Duration::from_millis(100));
    engine.close_stdin();
    let lines = engine.collect_for(PROMPT * 5);
    assert!(engine.wait_exit(PROMPT * 5).success());
    assert_legal_bestmove(&lines, &Chess::default(), STD);
}

#[test]
fn isready_while_infinite_search_then_stop() {
    let mut engine = engine();
    let pos = position(
        Some("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
        &[],
        STD,
    );
    engine.send(&format!("position fen {}", fen_of(&pos)));
    engine.send("go infinite");
    let quiet = engine.collect_for(QUIET);
    assert_no_bestmove(&quiet, "before stop in go infinite");

    engine.send("isready");
    let ready = engine.wait_for("readyok", PROMPT);
    assert_no_bestmove(&ready, "before stop in go infinite");
    let quiet = engine.collect_for(QUIET);
    assert_no_bestmove(&quiet, "before stop in go infinite");

    engine.send("stop");
    let lines = engine.wait_for("bestmove", PROMPT);
    let mut all = quiet;
    all.extend(ready);
    all.extend(lines.iter().cloned());
    assert_legal_bestmove(&all, &pos, STD);
    // Nothing more after the bestmove, in particular no second bestmove.
    let after = engine.sync();
    assert_eq!(after, vec!["readyok".to_string()]);
    // `stop` with no search running is harmless.
    assert_eq!(command(&mut engine, "stop"), vec!["readyok".to_string()]);
}

// ---------------------------------------------------------------------------
// Pondering.

#[test]
fn ponder_waits_for_ponderhit_then_plays_on_the_clock() {
    let mut engine = engine();
    let pos = position(None, &["e2e4", "c7c5", "g1f3"], STD);
    engine.send("position startpos moves e2e4 c7c5 g1f3");
    engine.send("go ponder wtime 3000 btime 3000 winc 0 binc 0");
    let quiet = engine.collect_for(QUIET);
    assert_no_bestmove(&quiet, "while pondering");
    engine.send("isready");
    let ready = engine.wait_for("readyok", PROMPT);
    assert_no_bestmove(&ready, "while pondering");
    let quiet = engine.collect_for(QUIET);
    assert_no_bestmove(&quiet, "while pondering");

    engine.send("ponderhit");
    // The clock starts at ponderhit: 3 s for the game means well under 3 s
    // for this move.
    let lines = engine.wait_for("bestmove", Duration::from_secs(10));
    assert_legal_bestmove(&lines, &pos, STD);
    assert_eq!(engine.sync(), vec!["readyok".to_string()]);
}

#[test]
fn ponder_search_that_is_done_still_waits_for_ponderhit() {
    let mut engine = engine();
    let pos = position(None, &["d2d4"], STD);
    engine.send("position startpos moves d2d4");
    // Depth 2 is searched at once; the bestmove must still wait.
    engine.send("go ponder depth 2");
    let quiet = engine.collect_for(QUIET);
    assert_no_bestmove(&quiet, "before ponderhit");
    engine.send("ponderhit");
    let lines = engine.wait_for("bestmove", PROMPT);
    assert_legal_bestmove(&lines, &pos, STD);
}

#[test]
fn ponder_then_stop_gives_one_bestmove() {
    let mut engine = engine();
    let pos = position(None, &["e2e4", "e7e5"], STD);
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go ponder wtime 60000 btime 60000");
    let quiet = engine.collect_for(QUIET);
    assert_no_bestmove(&quiet, "while pondering");
    engine.send("stop");
    let lines = engine.wait_for("bestmove", PROMPT);
    assert_legal_bestmove(&lines, &pos, STD);
    assert_eq!(engine.sync(), vec!["readyok".to_string()]);
}

// ---------------------------------------------------------------------------
// Legal moves under every kind of limit.

/// Ten varied positions from the candidate list in `tests/data/bench/`.
fn sample_positions() -> Vec<Chess> {
    let text = read_data(CANDIDATES);
    let all: Vec<Chess> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|fen| parse_fen(fen, STD).unwrap_or_else(|e| panic!("{fen}: {e}")))
        .filter(|pos| !pos.legal_moves().is_empty())
        .collect();
    assert!(all.len() >= 20, "too few candidate positions");
    let step = all.len() / 10;
    all.into_iter().step_by(step).take(10).collect()
}

#[test]
fn bestmove_is_legal_under_every_limit() {
    let positions = sample_positions();
    assert!(
        positions.iter().any(|p| p.turn().is_black()),
        "want black to move too"
    );
    let mut engine = engine();
    for pos in &positions {
        engine.send(&format!("position fen {}", fen_of(pos)));
        for limits in [
            "depth 5",
            "movetime 100",
            "nodes 5000",
            "wtime 1000 btime 1000 winc 10 binc 10",
            "wtime 500 btime 500 movestogo 5",
            "depth 3 searchmoves a1a1",
        ] {
            let lines = engine.go(limits);
            assert_legal_bestmove(&lines, pos, STD);
            assert_pvs_legal(&lines, pos, STD);
            if limits.starts_with("depth 5") {
                assert!(
                    lines.iter().any(|l| l.starts_with("info depth 5 ")),
                    "{}: no depth 5 iteration in {lines:#?}",
                    fen_of(pos)
                );
            }
        }
    }
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut engine = engine();
    engine.send("position startpos");
    let lines = engine.go("depth 4 searchmoves a2a3");
    assert_eq!(the_bestmove(&lines).0, "a2a3");
    let lines = engine.go("depth 4 searchmoves h2h3 a2a3");
    let best = the_bestmove(&lines).0;
    assert!(best == "h2h3" || best == "a2a3", "{lines:#?}");
}

/// Where [`multipv_lines`] ranks mate scores.
const MATE_RANK: i32 = 1_000_000;

/// The `(depth, multipv, score, first move)` of each iteration line, the
/// score in centipawns or, for a mate, ranked by [`MATE_RANK`].
fn multipv_lines(lines: &[String]) -> Vec<(u32, usize, i32, String)> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .map(|line| {
            let tokens: Vec<&str> = line.split_whitespace().collect();
            let after = |key: &str| tokens[tokens.iter().position(|&t| t == key).unwrap() + 1];
            // `score cp N` or `score mate N`.
            let score_at = tokens.iter().position(|&t| t == "score").unwrap();
            let value: i32 = tokens[score_at + 2].parse().unwrap();
            // Mates rank above every centipawn score, faster ones higher.
            let score = match after("score") {
                "mate" if value > 0 => MATE_RANK - value,
                "mate" => -MATE_RANK - value,
                _ => value,
            };
            (
                after("depth").parse().unwrap(),
                after("multipv").parse().unwrap(),
                score,
                after("pv").to_string(),
            )
        })
        .collect()
}

#[test]
fn multipv_reports_sorted_distinct_lines_and_plays_the_first() {
    let mut engine = engine();
    engine.send("setoption name MultiPV value 3");
    engine.send("position startpos");
    let lines = engine.go("depth 6");
    let start = Chess::default();
    assert_legal_bestmove(&lines, &start, STD);
    assert_pvs_legal(&lines, &start, STD);
    let reported = multipv_lines(&lines);
    for depth in 1..=6 {
        let iteration: Vec<_> = reported.iter().filter(|l| l.0 == depth).collect();
        let indices: Vec<usize> = iteration.iter().map(|l| l.1).collect();
        assert_eq!(indices, [1, 2, 3], "depth {depth}: {lines:#?}");
        assert!(
            iteration.windows(2).all(|pair| pair[0].2 >= pair[1].2),
            "depth {depth}: lines not sorted by score in {lines:#?}"
        );
        let mut first_moves: Vec<&String> = iteration.iter().map(|l| &l.3).collect();
        first_moves.sort();
        first_moves.dedup();
        assert_eq!(first_moves.len(), 3, "depth {depth}: {lines:#?}");
    }
    let best_line = reported.iter().rev().find(|l| l.1 == 1).unwrap();
    assert_eq!(the_bestmove(&lines).0, best_line.3);

    // Capped at the legal moves: two here.
    engine.send("position fen 7k/8/8/8/8/8/8/K6R b - - 0 1");
    let lines = engine.go("depth 4");
    let reported = multipv_lines(&lines);
    assert!(reported.iter().all(|l| l.1 <= 2), "{lines:#?}");
    assert!(reported.iter().any(|l| l.0 == 4 && l.1 == 2), "{lines:#?}");
    assert!(errors(&lines).is_empty(), "{lines:#?}");

    // Back to one line.
    engine.send("setoption name MultiPV value 1");
    engine.send("position startpos");
    let lines = engine.go("depth 4");
    assert!(multipv_lines(&lines).iter().all(|l| l.1 == 1), "{lines:#?}");
}

#[test]
fn a_single_legal_move_is_played_after_one_iteration() {
    let mut engine = engine();
    // Only Kxh2: with a 100-second clock the time manager would think for
    // seconds, but there is nothing to choose.
    let pos = position(Some("7k/8/8/8/8/8/6Pq/7K w - - 0 1"), &[], STD);
    engine.send("position fen 7k/8/8/8/8/8/6Pq/7K w - - 0 1");
    engine.send("go wtime 100000 btime 100000 winc 1000 binc 1000");
    let lines = engine.wait_for("bestmove", Duration::from_secs(10));
    let best = assert_legal_bestmove(&lines, &pos, STD);
    assert_eq!(best.to_uci(STD).to_string(), "h1h2");
    let depths: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .collect();
    assert_eq!(depths.len(), 1, "{lines:#?}");
    assert!(depths[0].starts_with("info depth 1 "), "{lines:#?}");
}

#[test]
fn the_clock_of_the_side_to_move_is_used() {
    let mut engine = engine();
    // Black to move with a short clock; White's clock is huge. Using the
    // wrong clock would think for minutes.
    let black = position(None, &["e2e4"], STD);
    engine.send("position startpos moves e2e4");
    engine.send("go wtime 100000000 btime 300 winc 0 binc 0");
    let lines = engine.wait_for("bestmove", Duration::from_secs(5));
    assert_legal_bestmove(&lines, &black, STD);
    // And the mirror for White.
    let white = position(None, &["e2e4", "e7e5"], STD);
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go wtime 300 btime 100000000 winc 0 binc 0");
    let lines = engine.wait_for("bestmove", Duration::from_secs(5));
    assert_legal_bestmove(&lines, &white, STD);
    // A flagged clock (0 or negative) still gives a real move.
    engine.send("go wtime -50 btime 0");
    let lines = engine.wait_for("bestmove", Duration::from_secs(5));
    assert_legal_bestmove(&lines, &white, STD);
}

// ---------------------------------------------------------------------------
// Mates, stalemates and draw rules.

#[test]
fn mate_in_two_is_found_and_reported() {
    let text = read_data(MATE_IN_2);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut engine = engine();
    // Spread over the file, black to move included (lines 6 and 9).
    for index in [0, 1, 3, 5, 8] {
        let line = lines[index];
        let fen = format!("{} 0 1", line.split(" dm ").next().unwrap().trim());
        let pos = parse_fen(&fen, STD).unwrap();
        assert!(
            forces_mate_within(&pos, 2) && !forces_mate_within(&pos, 1),
            "{fen}"
        );
        engine.send("ucinewgame");
        engine.send(&format!("position fen {fen}"));
        let out = engine.go("depth 6");
        assert_eq!(
            last_score(&out),
            Some(("mate".to_string(), 2)),
            "{fen}: {out:#?}"
        );
        let best = assert_legal_bestmove(&out, &pos, STD);
        assert_pvs_legal(&out, &pos, STD);
        let mut after = pos.clone();
        after.play_unchecked(best);
        assert!(
            every_reply_is_mated(&after, 1),
            "{fen}: bestmove {best:?} does not force mate in 2"
        );
        // `go mate 2` ends by itself once the mate is found.
        engine.send("ucinewgame");
        let out = engine.go("mate 2");
        assert_eq!(
            last_score(&out),
            Some(("mate".to_string(), 2)),
            "{fen}: {out:#?}"
        );
        assert_legal_bestmove(&out, &pos, STD);
    }
}

#[test]
fn being_mated_is_a_negative_mate_score() {
    // Black's every move (Kh7 or a pawn push) allows a mate in one.
    let fen = "7k/p4K2/8/8/8/8/8/R7 b - - 0 1";
    let pos = parse_fen(fen, STD).unwrap();
    assert!(every_reply_is_mated(&pos, 1));
    let mut engine = engine();
    engine.send(&format!("position fen {fen}"));
    let out = engine.go("depth 6");
    assert_eq!(last_score(&out), Some(("mate".to_string(), -1)), "{out:#?}");
    assert_legal_bestmove(&out, &pos, STD);

    // And the mating side sees mate in 1 after Kh7.
    engine.send(&format!("position fen {fen} moves h8h7"));
    let out = engine.go("depth 4");
    assert_eq!(last_score(&out), Some(("mate".to_string(), 1)), "{out:#?}");
    assert_eq!(the_bestmove(&out).0, "a1h1");
}

#[test]
fn checkmated_or_stalemated_root_answers_0000() {
    let mut engine = engine();
    for (setup, what) in [
        // Fool's mate: White is checkmated.
        ("startpos moves f2f3 e7e5 g2g4 d8h4", "checkmate"),
        ("fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "stalemate"),
        ("fen 7k/5Q2/6K1/8/8/8/8/8 w - - 0 1 moves f7g7", "checkmate"),
        (
            "fen k7/8/NKB5/8/8/8/8/8 b - - 105 176",
            "checkmate at halfmove 105",
        ),
        (
            "fen k7/3N4/1K6/1B6/8/8/8/8 b - - 99 1",
            "stalemate at halfmove 99",
        ),
    ] {
        engine.send(&format!("position {setup}"));
        for limits in ["depth 5", "movetime 50", "nodes 100"] {
            let out = engine.go(limits);
            assert_eq!(
                the_bestmove(&out),
                ("0000".to_string(), None),
                "{what}: {out:#?}"
            );
            assert!(errors(&out).is_empty(), "{what}: {out:#?}");
        }
        engine.send("go infinite");
        engine.collect_for(Duration::from_millis(50));
        engine.send("stop");
        let out = engine.wait_for("bestmove", PROMPT);
        assert_eq!(the_bestmove(&out).0, "0000", "{what}: {out:#?}");
    }
}

#[test]
fn fifty_move_rule() {
    let mut engine = engine();

    // Already a claimable draw (halfmove 100): the root still plays a move.
    for fen in [
        "8/8/8/4k3/8/8/8/KQ6 w - - 100 80",
        "8/7k/8/6R1/1r3B2/5K2/8/8 b - - 100 119",
        "8/7k/8/1r3KR1/5B2/8/8/8 w - - 105 122",
    ] {
        let pos = parse_fen(fen, STD).unwrap();
        engine.send(&format!("position fen {fen}"));
        let out = engine.go("depth 6");
        assert_legal_bestmove(&out, &pos, STD);
    }

    // Halfmove 99, no mate in one, no capture or pawn move: whatever White
    // plays the fifty-move rule ends the game, so the score is a draw.
    let fen = "8/8/8/4k3/8/8/8/KQ6 w - - 99 80";
    let pos = parse_fen(fen, STD).unwrap();
    assert!(!forces_mate_within(&pos, 1));
    assert!(pos.legal_moves().iter().all(|m| !m.is_zeroing()));
    engine.send(&format!("position fen {fen}"));
    let out = engine.go("depth 6");
    assert_eq!(last_score(&out), Some(("cp".to_string(), 0)), "{out:#?}");
    assert_legal_bestmove(&out, &pos, STD);

    // Halfmove 99 with a mate in one: checkmate beats the fifty-move rule.
    let fen = "7k/8/6K1/8/8/8/8/5Q2 w - - 99 80";
    let pos = parse_fen(fen, STD).unwrap();
    engine.send(&format!("position fen {fen}"));
    let out = engine.go("depth 6");
    assert_eq!(last_score(&out), Some(("mate".to_string(), 1)), "{out:#?}");
    let best = assert_legal_bestmove(&out, &pos, STD);
    let mut after = pos.clone();
    after.play_unchecked(best);
    assert!(after.is_checkmate());
}

#[test]
fn fifty_move_positions_from_the_rules_file() {
    // The fifty-move entries of rules.epd: every one must give a legal move
    // (or 0000 when the game is over on the board).
    let text = read_data(RULES);
    let mut engine = engine();
    let mut checked = 0;
    for line in text.lines().filter(|l| l.contains("id \"fifty.")) {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let (board, hmvc) = fields[0].split_once(" hmvc ").unwrap();
        let fmvn = fields[1].strip_prefix("fmvn ").unwrap();
        let fen = format!("{board} {hmvc} {fmvn}");
        let pos = parse_fen(&fen, STD).unwrap();
        engine.send(&format!("position fen {fen}"));
        assert_eq!(engine_fen(&mut engine), fen_of(&pos));
        let out = engine.go("depth 5");
        if pos.legal_moves().is_empty() {
            assert_eq!(the_bestmove(&out).0, "0000", "{fen}");
        } else {
            assert_legal_bestmove(&out, &pos, STD);
        }
        checked += 1;
    }
    assert_eq!(checked, 7);
}

/// One line of repetition_sequences.txt.
struct RepetitionCase {
    command: String,
    expectation: String,
}

fn repetition_cases() -> Vec<RepetitionCase> {
    read_data(REPETITIONS)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split('|').map(str::trim);
            RepetitionCase {
                command: parts.next().unwrap().to_string(),
                expectation: parts.next().unwrap_or("").to_string(),
            }
        })
        .collect()
}

/// The position a `position …` command sets, by shakmaty.
fn position_of_command(cmd: &str) -> Chess {
    let rest = cmd.strip_prefix("position ").unwrap();
    let (setup, moves) = match rest.split_once(" moves ") {
        Some((setup, moves)) => (setup, moves.split_whitespace().collect::<Vec<_>>()),
        None => (rest, Vec::new()),
    };
    let fen = setup.strip_prefix("fen ");
    position(fen, &moves, STD)
}

#[test]
fn repetition_sequences() {
    let cases = repetition_cases();
    assert_eq!(cases.len(), 7);
    let mut engine = engine();
    for case in &cases {
        let pos = position_of_command(&case.command);
        let setup = command(&mut engine, &case.command);
        assert!(errors(&setup).is_empty(), "{}: {setup:#?}", case.command);
        assert_eq!(engine_fen(&mut engine), fen_of(&pos), "{}", case.command);
        engine.send("ucinewgame");
        let out = engine.go("depth 5");
        assert_legal_bestmove(&out, &pos, STD);
        assert_pvs_legal(&out, &pos, STD);
    }

    // Stockfish's "find the draw": White is lost on material but the queen
    // check d8d7 repeats the position (perpetual check).
    let case = cases
        .iter()
        .find(|c| c.expectation.contains("bestmove d8d7 with score cp 0"))
        .expect("the find-the-draw case");
    let pos = position_of_command(&case.command);
    for limits in ["nodes 10000", "depth 8"] {
        engine.send("ucinewgame");
        engine.send(&case.command);
        let out = engine.go(limits);
        assert_eq!(
            last_score(&out),
            Some(("cp".to_string(), 0)),
            "{limits}: {out:#?}"
        );
        assert_legal_bestmove(&out, &pos, STD);
        assert_eq!(the_bestmove(&out).0, "d8d7", "{limits}: {out:#?}");
    }
}

#[test]
fn threefold_claim_position_gives_a_legal_move() {
    // After Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Black can repeat the start position
    // a third time. Black is not worse, so the score is about equal either
    // way; what must hold is a legal move.
    let mut engine = engine();
    let moves = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"];
    let pos = position(None, &moves, STD);
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    let out = engine.go("depth 6");
    assert_legal_bestmove(&out, &pos, STD);
}

// ---------------------------------------------------------------------------
// Bad input.

/// What `position fen <text>` must do by shakmaty's rules: the position
/// after the legal prefix of the moves, and whether an error is due.
fn expected_after_position_fen(text: &str, current: &Chess) -> (Chess, bool) {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let moves_at = tokens.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(at) => (&tokens[..at], &tokens[at + 1..]),
        None => (&tokens[..], &[][..]),
    };
    if setup.is_empty() {
        return (current.clone(), true);
    }
    let Ok(mut pos) = parse_fen(&setup.join(" "), STD) else {
        return (current.clone(), true);
    };
    for text in moves {
        match parse_move(&pos, text) {
            Some(m) => pos.play_unchecked(m),
            None => return (pos, true),
        }
    }
    (pos, false)
}

#[test]
fn malformed_fens_are_rejected_cleanly() {
    let text = read_data(MALFORMED);
    let mut engine = engine();
    let mut current = Chess::default();
    let mut accepted = Vec::new();
    let mut invalid = 0;
    for (index, line) in text.lines().enumerate() {
        let fen_part = line.split(';').next().unwrap().trim();
        if fen_part.is_empty() {
            continue;
        }
        let (expected, error_due) = expected_after_position_fen(fen_part, &current);
        let out = command(&mut engine, &format!("position fen {fen_part}"));
        let where_ = format!("{MALFORMED}:{}: '{line}'", index + 1);
        if error_due {
            invalid += 1;
            assert!(!errors(&out).is_empty(), "{where_}: no error in {out:#?}");
        } else {
            accepted.push(line);
            assert!(errors(&out).is_empty(), "{where_}: {out:#?}");
        }
        assert_eq!(engine_fen(&mut engine), fen_of(&expected), "{where_}");
        current = expected;
    }
    // The file is mostly broken positions, with some good ones among them.
    assert!(invalid >= 40, "only {invalid} rejected");
    assert!(
        accepted.len() >= 5,
        "only {} accepted: {accepted:#?}",
        accepted.len()
    );
    // Extra white space between the fields is no reason to reject a FEN.
    let harmless: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("should be not a problem"))
        .collect();
    assert_eq!(harmless.len(), 2);
    for line in harmless {
        assert!(accepted.contains(&line), "'{line}' was rejected");
    }

    // Still alive and searching the last valid position.
    let out = engine.go("depth 3");
    if current.legal_moves().is_empty() {
        assert_eq!(the_bestmove(&out).0, "0000");
    } else {
        assert_legal_bestmove(&out, &current, STD);
    }
}

#[test]
fn clearly_broken_fens_are_rejected_and_keep_the_position() {
    let mut engine = engine();
    let base = position(None, &["e2e4"], STD);
    engine.send("position startpos moves e2e4");
    for fen in [
        "",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR K KQkq - 0 1",
        "rnbqkbnr/ppppippp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnkqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "pnbqkbnr/ppprpppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/6/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "hello have a nice day w - - 0 1",
        // The side not to move is in check.
        "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1 moves e2e3",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "moves e2e4",
    ] {
        let out = command(&mut engine, &format!("position fen {fen}"));
        assert!(!errors(&out).is_empty(), "'{fen}': {out:#?}");
        assert_eq!(engine_fen(&mut engine), fen_of(&base), "'{fen}'");
    }
    let out = engine.go("depth 3");
    assert_legal_bestmove(&out, &base, STD);
}

#[test]
fn illegal_move_sets_the_legal_prefix() {
    let mut engine = engine();
    let out = command(&mut engine, "position startpos moves e2e4 e7e5 e1e3 g1f3");
    let errs = errors(&out);
    assert_eq!(errs.len(), 1, "{out:#?}");
    assert!(errs[0].contains("e1e3"), "{out:#?}");
    let prefix = position(None, &["e2e4", "e7e5"], STD);
    assert_eq!(engine_fen(&mut engine), fen_of(&prefix));
    let out = engine.go("depth 1");
    assert_legal_bestmove(&out, &prefix, STD);

    // Not even a move.
    let out = command(&mut engine, "position startpos moves e2e4 zz9 d7d5");
    assert_eq!(errors(&out).len(), 1, "{out:#?}");
    let prefix = position(None, &["e2e4"], STD);
    assert_eq!(engine_fen(&mut engine), fen_of(&prefix));
    // `moves` with nothing after it.
    let out = command(&mut engine, "position startpos moves");
    assert!(errors(&out).is_empty(), "{out:#?}");
    assert_eq!(engine_fen(&mut engine), fen_of(&Chess::default()));
    let out = command(&mut engine, "position   startpos \t moves   e2e4 ");
    assert!(errors(&out).is_empty(), "{out:#?}");
    assert_eq!(engine_fen(&mut engine), fen_of(&prefix));
    // A move of the wrong side.
    command(&mut engine, "position startpos moves e7e5");
    assert_eq!(engine_fen(&mut engine), fen_of(&Chess::default()));
    let out = engine.go("depth 2");
    assert_legal_bestmove(&out, &Chess::default(), STD);
}

#[test]
fn bad_commands_are_reported_and_harmless() {
    let mut engine = engine();
    engine.send("position startpos moves e2e4");
    let pos = position(None, &["e2e4"], STD);
    for (cmd, error_due) in [
        ("foo", true),
        ("foo bar baz", true),
        ("position", true),
        ("position fen", true),
        ("position startpos e2e4", true),
        ("position fish", true),
        ("setoption name Hash value abc", true),
        ("setoption name Hash", true),
        ("setoption name Threads value 0", true),
        ("setoption name Threads value -3", true),
        ("setoption name Move Overhead value 100000", true),
        ("setoption name NoSuchOption value 1", true),
        ("setoption name Ponder value maybe", true),
        ("setoption", true),
        ("setoption value 3", true),
        ("setoption name", true),
        ("", false),
        ("   ", false),
        ("\t \t", false),
        ("debug on", false),
        ("debug off", false),
        ("register later", false),
        ("go perft x", true),
        ("bench x", true),
    ] {
        let out = command(&mut engine, cmd);
        assert_eq!(!errors(&out).is_empty(), error_due, "'{cmd}': {out:#?}");
        assert_no_bestmove(&out, cmd);
        assert_eq!(out.last().unwrap(), "readyok");
    }
    // The position is untouched.
    assert_eq!(engine_fen(&mut engine), fen_of(&pos));
    let out = engine.go("depth 4");
    assert_legal_bestmove(&out, &pos, STD);
}

#[test]
fn go_with_bad_arguments_still_searches() {
    let mut engine = engine();
    engine.send("position startpos");
    let pos = Chess::default();
    for limits in [
        "fishing depth 2",
        "depth 2 fishing",
        "depth x nodes 2000",
        "movetime nodes 2000",
        "depth -5",
        "depth 0",
        "nodes 0",
        "nodes 1",
        "movetime 0",
        "wtime 0 btime 0",
        "depth 3 searchmoves e2e5 e7e5",
        "depth 3 searchmoves e2e4 e2e4",
    ] {
        let out = engine.go(limits);
        assert_legal_bestmove(&out, &pos, STD);
    }

    // An unknown argument with no limit at all searches until stop.
    engine.send("go fishing");
    let out = engine.collect_for(QUIET);
    assert!(!errors(&out).is_empty(), "{out:#?}");
    assert_no_bestmove(&out, "before stop");
    engine.send("stop");
    let out = engine.wait_for("bestmove", PROMPT);
    assert_legal_bestmove(&out, &pos, STD);

    // A depth beyond the maximum is clamped; stop ends it.
    engine.send("go depth 100000");
    let quiet = engine.collect_for(Duration::from_millis(200));
    assert_no_bestmove(&quiet, "200 ms into go depth 100000");
    engine.send("stop");
    let out = engine.wait_for("bestmove", PROMPT);
    assert_legal_bestmove(&out, &pos, STD);
    assert_eq!(engine.sync(), vec!["readyok".to_string()]);
}

#[test]
fn very_long_lines_and_invalid_utf8() {
    let mut engine = engine();
    // 100 KB of garbage.
    let garbage = "x".repeat(100_000);
    let out = command(&mut engine, &garbage);
    assert_eq!(errors(&out).len(), 1);
    // A 100 KB FEN.
    let out = command(
        &mut engine,
        &format!("position fen {}", "8/".repeat(34_000)),
    );
    assert_eq!(errors(&out).len(), 1);
    assert_eq!(engine_fen(&mut engine), fen_of(&Chess::default()));

    // A 100 KB move list: the knights dance 20000 plies.
    let dance = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = dance.iter().copied().cycle().take(20_000).collect();
    let cmd = format!("position startpos moves {}", moves.join(" "));
    assert!(cmd.len() >= 100_000);
    let out = command(&mut engine, &cmd);
    assert!(errors(&out).is_empty(), "{out:#?}");
    let pos = position(None, &moves, STD);
    assert_eq!(engine_fen(&mut engine), fen_of(&pos));
    let out = engine.go("depth 4");
    assert_legal_bestmove(&out, &pos, STD);

    // Bytes that are not UTF-8.
    engine.send_bytes(b"\xff\xfe\xfd garbage \xc3\x28\n");
    let out = engine.sync();
    assert_eq!(errors(&out).len(), 1, "{out:#?}");
    engine.send_bytes(b"position fen \xff\xff\xff w - - 0 1\n");
    let out = engine.sync();
    assert_eq!(errors(&out).len(), 1, "{out:#?}");
    engine.send_bytes(b"position startpos moves e2e4 \xe9\xe9\n");
    let out = engine.sync();
    assert_eq!(errors(&out).len(), 1, "{out:#?}");
    let e4 = position(None, &["e2e4"], STD);
    assert_eq!(engine_fen(&mut engine), fen_of(&e4));
    // A NUL byte and a carriage return.
    engine.send_bytes(b"\0\r\n");
    engine.sync();
    engine.send_bytes(b"isready\r\n");
    engine.wait_for("readyok", PROMPT);
    let out = engine.go("depth 3");
    assert_legal_bestmove(&out, &e4, STD);
}

// ---------------------------------------------------------------------------
// Options.

/// The `wdl W D L` triple of an `info` line, if it has one.
fn wdl_of(line: &str) -> Option<[u32; 3]> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let at = tokens.iter().position(|&t| t == "wdl")?;
    let mut values = [0; 3];
    for (value, token) in values.iter_mut().zip(&tokens[at + 1..at + 4]) {
        *value = token.parse().ok()?;
    }
    Some(values)
}

#[test]
fn show_wdl_adds_chances_after_every_score() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("position startpos");
    let plain = engine.go("depth 5");
    assert!(plain.iter().all(|l| !l.contains(" wdl ")), "{plain:#?}");

    engine.send("setoption name UCI_ShowWDL value true");
    // A lost position (a queen down) must show a likely loss.
    engine.send("position fen 3qk3/8/8/8/8/8/8/4K3 w - - 0 1");
    let lines = engine.go("depth 5");
    let scored: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!scored.is_empty(), "{lines:#?}");
    for line in scored {
        let [win, draw, loss] = wdl_of(line).unwrap_or_else(|| panic!("no wdl in '{line}'"));
        assert_eq!(win + draw + loss, 1000, "{line}");
        assert!(
            line.contains(" score cp ") || line.contains(" score mate "),
            "{line}"
        );
        assert!(loss > 900, "{line}");
    }
    assert!(errors(&lines).is_empty(), "{lines:#?}");
}

#[test]
fn options_change_between_searches() {
    let mut engine = engine();
    let pos = position(None, &["e2e4", "e7e5", "g1f3", "b8c6"], STD);
    engine.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    for cmd in [
        "setoption name Hash value 64",
        "setoption name Clear Hash",
        "ucinewgame",
        "setoption name Threads value 2",
        "setoption name Move Overhead value 30",
        "setoption name Ponder value true",
        "setoption name Hash value 1",
    ] {
        let out = command(&mut engine, cmd);
        assert!(errors(&out).is_empty(), "'{cmd}': {out:#?}");
        engine.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
        let out = engine.go("depth 5");
        assert_legal_bestmove(&out, &pos, STD);
    }
    // Two threads under every kind of limit.
    for limits in ["movetime 200", "nodes 20000", "wtime 2000 btime 2000"] {
        let out = engine.go(limits);
        assert_legal_bestmove(&out, &pos, STD);
        assert_pvs_legal(&out, &pos, STD);
    }
    engine.send("go infinite");
    engine.collect_for(Duration::from_millis(200));
    engine.send("isready");
    let ready = engine.wait_for("readyok", PROMPT);
    assert_no_bestmove(&ready, "before stop");
    engine.send("stop");
    let out = engine.wait_for("bestmove", PROMPT);
    assert_legal_bestmove(&out, &pos, STD);

    // Table and threads cannot change under a running search: reported,
    // and the search goes on.
    engine.send("go infinite");
    engine.collect_for(Duration::from_millis(50));
    let out = command(&mut engine, "setoption name Threads value 1");
    assert!(!errors(&out).is_empty(), "{out:#?}");
    assert_no_bestmove(&out, "after setoption during search");
    engine.send("stop");
    let out = engine.wait_for("bestmove", PROMPT);
    assert_legal_bestmove(&out, &pos, STD);

    let out = command(&mut engine, "setoption name Threads value 1");
    assert!(errors(&out).is_empty(), "{out:#?}");
    let out = engine.go("depth 5");
    assert_legal_bestmove(&out, &pos, STD);
}

#[test]
fn option_names_are_case_insensitive() {
    let mut engine = engine();
    for cmd in [
        "setoption name move overhead value 20",
        "setoption name MOVE OVERHEAD value 25",
        "setoption name hash value 8",
        "setoption name threads value 1",
        "setoption name clear hash",
        "setoption name ponder value FALSE",
        "setoption name uci_chess960 value false",
    ] {
        let out = command(&mut engine, cmd);
        assert!(errors(&out).is_empty(), "'{cmd}': {out:#?}");
    }
    engine.send("position startpos");
    let out = engine.go("depth 3");
    assert_legal_bestmove(&out, &Chess::default(), STD);
}

#[test]
fn castling_notation_follows_uci_chess960() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let mut engine = engine();
    engine.send(&format!("position fen {fen}"));
    let out = engine.go("depth 2 searchmoves e1g1");
    assert_eq!(the_bestmove(&out).0, "e1g1");

    command(&mut engine, "setoption name UCI_Chess960 value true");
    engine.send(&format!("position fen {fen}"));
    let out = engine.go("depth 2 searchmoves e1h1");
    assert_eq!(the_bestmove(&out).0, "e1h1");
    let pos = parse_fen(fen, C960).unwrap();
    assert_legal_bestmove(&out, &pos, C960);
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let mut engine = engine();
    let out = command(&mut engine, "setoption name UCI_Chess960 value true");
    assert!(errors(&out).is_empty(), "{out:#?}");

    // King f1, rook h1: f1h1 castles (king to g1, rook to f1), while f1g1
    // would be a plain king move.
    let fen = "4k3/8/8/8/8/8/8/5K1R w H - 0 1";
    let out = command(&mut engine, &format!("position fen {fen} moves f1h1"));
    assert!(errors(&out).is_empty(), "{out:#?}");
    let castled = position(Some(fen), &["f1h1"], C960);
    assert_eq!(fen_of(&castled), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    assert_eq!(engine_fen(&mut engine), fen_of(&castled));

    // A Chess960 start position from the perft suite; both sides
    // castle king-takes-rook.
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let moves = ["f1f2", "f8e8", "g1h1"];
    let pos = position(Some(fen), &moves, C960);
    let out = command(
        &mut engine,
        &format!("position fen {fen} moves {}", moves.join(" ")),
    );
    assert!(errors(&out).is_empty(), "{out:#?}");
    assert_eq!(engine_fen(&mut engine), fen_of(&pos));
    let out = engine.go("depth 5");
    assert_legal_bestmove(&out, &pos, C960);
    assert_pvs_legal(&out, &pos, C960);
    let out = engine.go("depth 1 searchmoves g8h8");
    assert_eq!(the_bestmove(&out).0, "g8h8");
    assert_legal_bestmove(&out, &pos, C960);
}

// ---------------------------------------------------------------------------
// Command-line tools and the config file.

/// The node count of `rookery bench <depth>`, checking the output format.
fn bench_nodes(depth: &str) -> u64 {
    let (status, lines) = run_tool(&["bench", depth], SEARCH);
    assert!(status.success(), "bench exit {status:?}: {lines:#?}");
    let last = lines.last().expect("bench prints lines");
    let tokens: Vec<&str> = last.split(' ').collect();
    let ok = tokens.len() == 4
        && tokens[1] == "nodes"
        && tokens[3] == "nps"
        && [tokens[0], tokens[2]]
            .iter()
            .all(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()));
    assert!(ok, "last bench line '{last}' is not 'N nodes N nps'");
    tokens[0].parse().unwrap()
}

#[test]
fn bench_from_the_command_line_is_deterministic() {
    let first = bench_nodes("5");
    let second = bench_nodes("5");
    assert!(first > 0);
    assert_eq!(first, second, "bench node counts differ between runs");
}

#[test]
fn perft_from_the_command_line() {
    let (status, lines) = run_tool(&["perft", "4"], SEARCH);
    assert!(status.success());
    assert_eq!(lines.last().unwrap(), "Nodes searched: 197281");

    let (status, lines) = run_tool(
        &[
            "perft",
            "3",
            "--chess960",
            "--fen",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ],
        SEARCH,
    );
    assert!(status.success());
    assert_eq!(lines.last().unwrap(), "Nodes searched: 12189");

    let (status, lines) = run_tool(
        &[
            "perft",
            "2",
            "--divide",
            "--fen",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ],
        SEARCH,
    );
    assert!(status.success());
    assert_eq!(lines.last().unwrap(), "Nodes searched: 2039");
    assert!(lines.iter().any(|l| l == "e1g1: 43"), "{lines:#?}");

    // A bad FEN fails cleanly.
    let (status, _) = run_tool(&["perft", "2", "--fen", "not a fen"], SEARCH);
    assert!(!status.success());
}

#[test]
fn perft_and_bench_inside_the_uci_loop() {
    let mut engine = engine();
    engine.send("position startpos moves e2e4");
    let out = command(&mut engine, "go perft 3");
    assert!(
        out.contains(&"info string Nodes searched: 13160".to_string()),
        "{out:#?}"
    );
    assert_no_bestmove(&out, "after go perft");
    let out = command(&mut engine, "bench 2");
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string ") && l.ends_with(" nps")),
        "{out:#?}"
    );
    // Neither changed the position.
    assert_eq!(
        engine_fen(&mut engine),
        fen_of(&position(None, &["e2e4"], STD))
    );
}

// ---------------------------------------------------------------------------
// Syzygy tablebases.

/// The `tbhits` count of an `info … tbhits N` line.
fn tbhits_of(line: &str) -> Option<u64> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let at = tokens.iter().position(|&t| t == "tbhits")?;
    tokens.get(at + 1)?.parse().ok()
}

#[test]
fn a_bad_syzygy_path_is_reported_and_the_engine_plays_on() {
    let mut engine = engine();
    let out = command(
        &mut engine,
        "setoption name SyzygyPath value /nonexistent/rookery-syzygy",
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string error: SyzygyPath: ")
                && l.contains("/nonexistent/rookery-syzygy")),
        "{out:#?}"
    );
    assert!(
        out.contains(
            &"info string Syzygy: no tables found; playing without tablebases".to_string()
        ),
        "{out:#?}"
    );
    let fen = "8/8/3k4/8/8/8/6Q1/7K w - - 0 1";
    engine.send(&format!("position fen {fen}"));
    let out = engine.go("depth 6");
    assert_legal_bestmove(&out, &parse_fen(fen, STD).unwrap(), STD);
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!(!infos.is_empty());
    assert!(infos.iter().all(|l| tbhits_of(l) == Some(0)), "{out:#?}");

    let out = command(&mut engine, "setoption name SyzygyPath value <empty>");
    assert_eq!(
        out,
        vec!["readyok".to_string()],
        "clearing the path is silent"
    );
}

#[test]
fn syzygy_tables_are_found_and_probed() {
    let mut engine = engine();
    let out = command(
        &mut engine,
        &format!("setoption name SyzygyPath value {SYZYGY}"),
    );
    assert!(
        out.contains(&format!(
            "info string Syzygy: found 35 tables (up to 4 pieces) in {SYZYGY}"
        )),
        "{out:#?}"
    );
    assert!(errors(&out).is_empty(), "{out:#?}");
    // KRvKR with the black rook attacked: only rook moves hold the draw.
    let fen = "8/8/4k3/8/8/2r5/3K4/7R b - - 0 1";
    let pos = parse_fen(fen, STD).unwrap();
    engine.send(&format!("position fen {fen}"));
    let out = engine.go("depth 6");
    let best = assert_legal_bestmove(&out, &pos, STD);
    assert_eq!(best.from(), Some(shakmaty::Square::C3), "{out:#?}");
    assert_pvs_legal(&out, &pos, STD);
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!(!infos.is_empty());
    assert!(
        infos.iter().all(|l| tbhits_of(l).is_some_and(|n| n > 0)),
        "{out:#?}"
    );
}

#[test]
fn syzygy_path_from_the_config_file() {
    let path = config_file(
        "uci_test_syzygy.toml",
        &format!("SyzygyPath = \"{SYZYGY}\"\nSyzygyProbeDepth = 3\n"),
    );
    let mut engine = Engine::start_with_args(&["--config", &path]);
    let lines = engine.handshake();
    assert!(
        lines.contains(&format!(
            "option name SyzygyPath type string default {SYZYGY}"
        )),
        "{lines:#?}"
    );
    assert!(
        lines.contains(
            &"option name SyzygyProbeDepth type spin default 3 min 1 max 100".to_string()
        )
    );
    let after = engine.sync();
    assert_eq!(
        after,
        vec![
            format!("info string Syzygy: found 35 tables (up to 4 pieces) in {SYZYGY}"),
            "readyok".to_string()
        ]
    );
}

/// A config file under the test scratch folder.
fn config_file(name: &str, text: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn config_file_sets_defaults_and_reports_errors() {
    let good = config_file(
        "uci_test_good.toml",
        "Hash = 32\n\"Move Overhead\" = 50\nponder = true\n",
    );
    let mut engine = Engine::start_with_args(&["--config", &good]);
    let lines = engine.handshake();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Hash type spin default 32 ")),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Move Overhead type spin default 50 "))
    );
    assert!(lines.contains(&"option name Ponder type check default true".to_string()));
    let after = engine.sync();
    assert_eq!(
        after,
        vec!["readyok".to_string()],
        "no errors for a good file"
    );

    for (name, text) in [
        ("uci_test_bad_value.toml", "Hash = \"big\"\nThreads = 1\n"),
        ("uci_test_bad_name.toml", "Contempt = 3\n"),
        ("uci_test_bad_toml.toml", "Hash = = 3\n"),
    ] {
        let path = config_file(name, text);
        let mut engine = Engine::start_with_args(&["--config", &path]);
        let lines = engine.handshake();
        assert!(
            errors(&lines).is_empty(),
            "errors come after uciok: {lines:#?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("option name Hash type spin default 16 ")),
            "{name}: {lines:#?}"
        );
        let after = engine.sync();
        assert!(
            after
                .iter()
                .any(|l| l.starts_with("info string error: engine.toml:")),
            "{name}: {after:#?}"
        );
        engine.send("position startpos");
        let out = engine.go("depth 3");
        assert_legal_bestmove(&out, &Chess::default(), STD);
    }

    // A missing file is reported the same way.
    let mut engine = Engine::start_with_args(&["--config", "/nonexistent/rookery-test.toml"]);
    engine.handshake();
    let after = engine.sync();
    assert!(
        after
            .iter()
            .any(|l| l.starts_with("info string error: engine.toml:")),
        "{after:#?}"
    );
}

// ---------------------------------------------------------------------------
// Regressions: bugs found by these tests, since fixed.

/// A search stopped before it visits a node must not play the previous
/// search's move.
#[test]
fn stop_right_after_go_answers_in_the_new_position() {
    let mut engine = engine();
    for _ in 0..5 {
        engine.send("position startpos");
        let out = engine.go("depth 4");
        assert_legal_bestmove(&out, &Chess::default(), STD);
        let fen = "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1";
        let pos = parse_fen(fen, STD).unwrap();
        engine.send(&format!("position fen {fen}"));
        // `go` and `stop` in one write: the stop lands before the search
        // thread starts.
        engine.send_bytes(b"go infinite\nstop\n");
        let out = engine.wait_for("bestmove", PROMPT);
        assert_legal_bestmove(&out, &pos, STD);
        engine.sync();
    }
}

/// End of input stops a `go` that has no limit (it would never end).
#[test]
fn bare_go_then_end_of_input_exits() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go");
    engine.close_stdin();
    let status = engine.wait_exit(Duration::from_secs(5));
    assert!(status.success());
    engine.collect_for(Duration::from_millis(100));
    let all = engine.transcript().to_vec();
    assert_legal_bestmove(&all, &Chess::default(), STD);
}

// ---------------------------------------------------------------------------
// Regressions of bugs these tests found.

/// Regression: just after printing `bestmove` the engine counted itself
/// searching and rejected Hash/Threads/Clear Hash (and bench, go perft).
#[test]
fn setoption_right_after_bestmove_is_accepted() {
    // The window is a few microseconds: two busy engines make it likelier
    // that the search thread is preempted inside it.
    let mut busy: Vec<Engine> = (0..2).map(|_| engine()).collect();
    for other in &mut busy {
        other.send("go infinite");
    }
    let mut engine = engine();
    engine.send("position startpos");
    for _ in 0..1000 {
        let out = engine.go("depth 1");
        assert_legal_bestmove(&out, &Chess::default(), STD);
        // A GUI may change options as soon as the bestmove is in.
        let out = command(&mut engine, "setoption name Clear Hash");
        assert!(errors(&out).is_empty(), "{out:#?}");
    }
}
