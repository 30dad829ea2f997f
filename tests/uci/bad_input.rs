//! Bad input: malformed FENs, illegal moves, unknown commands, bad arguments,
//! long lines and invalid UTF-8 are answered with `info string error` and
//! change nothing, with one exception that follows Stockfish: an illegal
//! move in `position … moves` sets the position reached by the moves before
//! it (and says so).

use super::*;

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

    // Bad arguments that leave no limit at all: a short search that ends
    // by itself, not one that waits for a `stop` the GUI will not send.
    for limits in ["fishing", "movetime 1,5", "wtime abc btime abc"] {
        engine.send(&format!("go {limits}"));
        let out = engine.wait_for("bestmove", PROMPT);
        assert!(!errors(&out).is_empty(), "{out:#?}");
        assert_legal_bestmove(&out, &pos, STD);
    }
    // A plain `go` asks for no limit: it searches until stop.
    engine.send("go");
    assert_no_bestmove(&engine.collect_for(QUIET), "before stop in a plain go");
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
