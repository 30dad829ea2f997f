//! Options: `UCI_ShowWDL`, `UCI_LimitStrength`, `Skill Level`, `Debug Log
//! File`, changes between searches, case-insensitive names, and Chess960
//! castling notation.

use super::*;

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
    // A value out of range is refused alone, not first noted as clamped.
    let out = command(&mut engine, "setoption name Hash value 999999999");
    let refused = errors(&out);
    assert_eq!(refused.len(), 1, "{out:#?}");
    assert!(refused[0].contains("while searching"), "{out:#?}");
    engine.send("stop");
    let out = engine.wait_for("bestmove", PROMPT);
    assert_legal_bestmove(&out, &pos, STD);

    let out = command(&mut engine, "setoption name Threads value 1");
    assert!(errors(&out).is_empty(), "{out:#?}");
    let out = engine.go("depth 5");
    assert_legal_bestmove(&out, &pos, STD);
}

/// Sends each command and asserts that the engine took it without an error.
fn assert_accepted(engine: &mut Engine, cmds: &[&str]) {
    for cmd in cmds {
        let out = command(engine, cmd);
        assert!(errors(&out).is_empty(), "'{cmd}': {out:#?}");
    }
}

#[test]
fn option_names_are_case_insensitive() {
    let mut engine = engine();
    assert_accepted(
        &mut engine,
        &[
            "setoption name move overhead value 20",
            "setoption name MOVE OVERHEAD value 25",
            "setoption name hash value 8",
            "setoption name threads value 1",
            "setoption name clear hash",
            "setoption name ponder value FALSE",
            "setoption name uci_chess960 value false",
        ],
    );
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

/// The first move of the last `info … pv` line.
fn last_pv_move(lines: &[String]) -> Option<&str> {
    let line = lines.iter().rev().find(|l| l.contains(" pv "))?;
    line.split(" pv ").nth(1)?.split_whitespace().next()
}

#[test]
fn limited_strength_plays_on_a_small_budget_and_still_mates() {
    let mut engine = engine();
    assert_accepted(
        &mut engine,
        &[
            "setoption name UCI_LimitStrength value true",
            "setoption name UCI_Elo value 1350",
        ],
    );
    engine.send("position startpos");
    // It draws among four lines, but shows only the one MultiPV asks for,
    // and last the line it plays, over draws that often stray from the
    // best line (1350's temperature is wide).
    for _ in 0..8 {
        let lines = engine.go("wtime 60000 btime 60000");
        assert_legal_bestmove(&lines, &Chess::default(), STD);
        assert!(
            !lines.iter().any(|l| l.contains(" multipv 2 ")),
            "{lines:#?}"
        );
        assert_eq!(
            last_pv_move(&lines),
            Some(the_bestmove(&lines).0.as_str()),
            "{lines:#?}"
        );
    }
    let lines = engine.go("wtime 60000 btime 60000");
    // The weakest rating's budget is a few hundred nodes (capped at 8×),
    // however long the clock.
    let most = lines
        .iter()
        .filter_map(|l| info_number(l, "nodes"))
        .max()
        .unwrap();
    assert!(most < 10_000, "{lines:#?}");

    // Whatever it draws, a mate in one outweighs every other line.
    let fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
    engine.send(&format!("position fen {fen}"));
    let lines = engine.go("wtime 60000 btime 60000");
    assert_eq!(the_bestmove(&lines).0, "a1a8", "{lines:#?}");

    engine.send("setoption name UCI_LimitStrength value false");
    engine.send("position startpos");
    let lines = engine.go("depth 3");
    assert!(
        !lines.iter().any(|l| l.contains(" multipv 2 ")),
        "{lines:#?}"
    );
}

#[test]
fn skill_level_below_twenty_plays_on_a_small_budget_and_twenty_is_full_strength() {
    let mut engine = engine();
    assert_accepted(&mut engine, &["setoption name Skill Level value 0"]);
    engine.send("position startpos");
    let lines = engine.go("wtime 60000 btime 60000");
    assert_legal_bestmove(&lines, &Chess::default(), STD);
    // Level 0 is UCI_Elo 1350's budget: a few hundred nodes (capped at 8×).
    let most = lines
        .iter()
        .filter_map(|l| info_number(l, "nodes"))
        .max()
        .unwrap();
    assert!(most < 10_000, "{lines:#?}");

    // Its budget ends the search long before depth 10; level 20 has none.
    let lines = engine.go("depth 10");
    assert!(deepest_depth(&lines) < 10, "{lines:#?}");
    assert_accepted(&mut engine, &["setoption name Skill Level value 20"]);
    let lines = engine.go("depth 10");
    assert_eq!(deepest_depth(&lines), 10, "{lines:#?}");
}

#[test]
fn debug_log_file_holds_every_line_in_and_out() {
    let path = std::env::temp_dir().join(format!("rookery-debug-log-{}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let mut engine = engine();
    engine.send(&format!(
        "setoption name Debug Log File value {}",
        path.display()
    ));
    engine.send("position startpos");
    let lines = engine.go("depth 3");
    // `go` waits for the bestmove, then sends `isready` for its readyok.
    let bestmove = lines.last().unwrap().clone();
    engine.send("setoption name Debug Log File value <empty>");
    engine.sync();
    let log = std::fs::read_to_string(&path).unwrap();
    let logged: Vec<&str> = log.lines().collect();
    assert_eq!(logged.first(), Some(&">> position startpos"), "{log}");
    for expected in [
        ">> go depth 3".to_string(),
        format!("<< {bestmove}"),
        ">> isready".to_string(),
        "<< readyok".to_string(),
        ">> setoption name Debug Log File value <empty>".to_string(),
    ] {
        assert!(logged.contains(&expected.as_str()), "{expected}: {log}");
    }
    // Off: the isready after it is not logged.
    assert_eq!(logged.iter().filter(|l| **l == "<< readyok").count(), 1);
    std::fs::remove_file(&path).unwrap();

    // A file that cannot be opened is an error, and the engine plays on.
    let out = command(
        &mut engine,
        "setoption name Debug Log File value /nonexistent/dir/log.txt",
    );
    assert_eq!(errors(&out).len(), 1, "{out:#?}");
    assert!(errors(&out)[0].contains("Debug Log File"), "{out:#?}");
}
