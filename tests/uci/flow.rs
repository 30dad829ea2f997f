//! The handshake, the flow of `go`/`stop`/`quit`/end of input, and pondering.

use super::*;

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
    // The network is named by the first 12 hex digits of its SHA-256,
    // followed by the SIMD path its loops run on.
    let network = &lines[lines.len() - 2];
    let (identity, simd) = network
        .strip_prefix("info string network ")
        .and_then(|rest| rest.split_once(", simd "))
        .unwrap_or_else(|| panic!("{network}"));
    assert!(["plain", "avx2", "avx512"].contains(&simd), "{network}");
    assert_eq!(identity.len(), 12, "{network}");
    assert!(identity.chars().all(|c| c.is_ascii_hexdigit()), "{network}");
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
fn end_of_input_ends_a_mate_search_that_finds_none() {
    // There is no mate in 2 from the start: the search used to go on to
    // the deepest iteration, with nobody left to stop it.
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go mate 2");
    engine.close_stdin();
    let lines = engine.collect_for(SEARCH);
    let status = engine.wait_exit(PROMPT * 5);
    assert!(status.success(), "exit status {status:?}");
    assert_legal_bestmove(&lines, &Chess::default(), STD);
    assert!(lines.last().unwrap().starts_with("bestmove"), "{lines:#?}");
    // It gives up past 2·2 − 1 + 8 = 11 plies: at most the iteration after
    // that is begun (cut, if the end of input was read late).
    let deepest = deepest_depth(&lines);
    assert!((11..=12).contains(&deepest), "{lines:#?}");
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
    let mut all = assert_searching_and_responsive(&mut engine, "before stop in go infinite");

    engine.send("stop");
    all.extend(engine.wait_for("bestmove", PROMPT));
    assert_legal_bestmove(&all, &pos, STD);
    // Nothing more after the bestmove, in particular no second bestmove.
    let after = engine.sync();
    assert_eq!(after, vec!["readyok".to_string()]);
    // `stop` with no search running is harmless.
    assert_eq!(command(&mut engine, "stop"), vec!["readyok".to_string()]);
}

#[test]
fn go_infinite_ignores_clocks_and_node_limits_until_stop() {
    let mut engine = engine();
    engine.send("position startpos");
    for limits in ["nodes 1000", "movetime 20", "wtime 50 btime 50"] {
        engine.send(&format!("go infinite {limits}"));
        let mut all =
            assert_searching_and_responsive(&mut engine, &format!("in go infinite {limits}"));
        engine.send("stop");
        all.extend(engine.wait_for("bestmove", PROMPT));
        assert_legal_bestmove(&all, &Chess::default(), STD);
    }
}

#[test]
fn a_stop_racing_the_end_of_a_short_search_gives_one_bestmove() {
    // The classic double bestmove: the search ends by itself while the
    // stop is on its way.
    let mut engine = engine();
    engine.send("position startpos");
    for _ in 0..100 {
        engine.send("go depth 1");
        engine.send("stop");
        let mut lines = engine.wait_for("bestmove", PROMPT);
        lines.extend(engine.sync());
        let bestmoves = lines.iter().filter(|l| l.starts_with("bestmove")).count();
        assert_eq!(bestmoves, 1, "{lines:#?}");
    }
}

#[test]
fn go_or_ucinewgame_during_a_search_ends_it_with_one_bestmove() {
    let mut engine = engine();
    engine.send("position startpos");
    engine.send("go infinite");
    engine.collect_for(Duration::from_millis(100));
    // The running search answers first, then the new one.
    engine.send("go depth 1");
    let mut lines = engine.wait_for("bestmove", PROMPT);
    lines.extend(engine.wait_for("bestmove", SEARCH));
    lines.extend(engine.sync());
    let bestmoves = lines.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(bestmoves, 2, "{lines:#?}");

    engine.send("go infinite");
    engine.collect_for(Duration::from_millis(100));
    engine.send("ucinewgame");
    let lines = engine.sync();
    let bestmoves = lines.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(bestmoves, 1, "{lines:#?}");
}

/// Splits `lines` at each `bestmove`: the lines of each search, its
/// `bestmove` last.
fn searches(lines: &[String]) -> Vec<Vec<String>> {
    let mut searches = vec![Vec::new()];
    for line in lines {
        searches.last_mut().unwrap().push(line.clone());
        if line.starts_with("bestmove") {
            searches.push(Vec::new());
        }
    }
    searches.pop();
    searches
}

#[test]
fn piped_commands_wait_for_a_finite_search_and_run_in_order() {
    // A script that pipes its queries without waiting for each bestmove:
    // the second go used to stop the first search at once (an unsearched
    // first legal move), and the setoption and perft were refused.
    let second = position(Some("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"), &[], STD);
    let mut engine = engine();
    engine.send("position startpos");
    engine.send("go depth 7");
    engine.send(&format!("position fen {}", fen_of(&second)));
    engine.send("go depth 7");
    engine.send("setoption name Hash value 2");
    engine.send("go perft 2");
    engine.send("ucinewgame");
    engine.send("position startpos moves e2e4");
    engine.send("go depth 3");
    let mut lines = engine.wait_for("bestmove", SEARCH);
    lines.extend(engine.wait_for("bestmove", SEARCH));
    lines.extend(engine.wait_for("bestmove", SEARCH));
    lines.extend(engine.sync());
    assert!(errors(&lines).is_empty(), "{lines:#?}");
    let searches = searches(&lines);
    assert_eq!(searches.len(), 3, "{lines:#?}");
    let after_e4 = position(None, &["e2e4"], STD);
    for (search, (pos, depth)) in
        searches
            .iter()
            .zip([(Chess::default(), 7), (second, 7), (after_e4, 3)])
    {
        assert_eq!(deepest_depth(search), depth, "{search:#?}");
        assert_legal_bestmove(search, &pos, STD);
        assert_pvs_legal(search, &pos, STD);
    }
    // The perft ran on the second position, after its search.
    assert!(
        searches[2].contains(&"info string Nodes searched: 44".to_string()),
        "{lines:#?}"
    );
}

#[test]
fn stop_ends_the_running_and_every_queued_search() {
    let mut engine = engine();
    engine.send("position startpos");
    engine.send("go depth 60");
    engine.send("go depth 60");
    // isready is answered at once, queue or not.
    engine.send("isready");
    let mut lines = engine.wait_for("readyok", PROMPT);
    assert_no_bestmove(&lines, "before stop");
    engine.send("stop");
    lines.extend(engine.wait_for("bestmove", PROMPT));
    lines.extend(engine.wait_for("bestmove", PROMPT));
    // The queue is empty: isready now follows everything before it.
    let after = engine.sync();
    assert_eq!(after, vec!["readyok".to_string()], "{lines:#?}");
    for search in searches(&lines) {
        assert_legal_bestmove(&search, &Chess::default(), STD);
    }
}

#[test]
fn end_of_input_carries_out_the_queued_commands() {
    let second = position(None, &["d2d4", "d7d5"], STD);
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go depth 6");
    engine.send("position startpos moves d2d4 d7d5");
    engine.send("go depth 6");
    engine.close_stdin();
    let lines = engine.collect_for(SEARCH);
    assert!(engine.wait_exit(PROMPT * 5).success());
    let searches = searches(&lines);
    assert_eq!(searches.len(), 2, "{lines:#?}");
    for (search, pos) in searches.iter().zip([Chess::default(), second]) {
        assert_eq!(deepest_depth(search), 6, "{search:#?}");
        assert_legal_bestmove(search, &pos, STD);
    }
}

#[test]
fn quit_stops_the_queued_searches_and_lets_a_queued_count_finish() {
    let mut engine = engine();
    engine.send("position startpos");
    engine.send("go depth 60");
    engine.send("go depth 60");
    engine.send("go perft 3");
    engine.send("quit");
    assert!(engine.wait_exit(SEARCH).success());
    let lines = engine.collect_for(PROMPT);
    let bestmoves = lines.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(bestmoves, 2, "{lines:#?}");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("info string Nodes searched: 8902"),
        "{lines:#?}"
    );
}

/// Pipes `go FIRST` and `go SECOND` from the start position without
/// waiting; returns every line up to the second `bestmove`, and the two
/// searches' lines.
fn two_piped_searches(first: &str, second: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut engine = engine();
    engine.send("position startpos");
    engine.send(&format!("go {first}"));
    engine.send(&format!("go {second}"));
    let mut lines = engine.wait_for("bestmove", SEARCH);
    lines.extend(engine.wait_for("bestmove", SEARCH));
    let searches = searches(&lines);
    (lines, searches)
}

#[test]
fn a_queued_go_has_its_whole_time_from_when_it_starts() {
    // Its clock used to run from when it was read, so that the wait behind
    // the first search was spent before it began: it stopped after its
    // first iteration. With its whole 400 ms it completes many: depth 6
    // from the start position is a few thousand nodes, milliseconds even
    // on a loaded machine. (This once asserted that an iteration ended
    // after 100 ms, which a loaded machine with the first search's table
    // to start from can miss: the next iteration may not end in time.)
    let (lines, searches) = two_piped_searches("movetime 400", "movetime 400");
    assert!(deepest_depth(&searches[1]) >= 6, "{lines:#?}");
}

#[test]
fn a_mate_search_that_commands_wait_for_gives_up_by_itself() {
    // No mate in 2 from the start: nobody is to stop the search while the
    // next go waits, so it gives up as at the end of input.
    let (lines, searches) = two_piped_searches("mate 2", "depth 3");
    assert!(
        (11..=12).contains(&deepest_depth(&searches[0])),
        "{lines:#?}"
    );
    assert_eq!(deepest_depth(&searches[1]), 3, "{lines:#?}");
}

#[test]
fn a_mate_search_started_from_the_queue_gives_up_by_itself() {
    // It starts when the first search ends, with a go still behind it.
    let mut engine = engine();
    engine.send("position startpos");
    for go in ["go depth 5", "go mate 2", "go depth 3"] {
        engine.send(go);
    }
    let mut lines = Vec::new();
    for _ in 0..3 {
        lines.extend(engine.wait_for("bestmove", SEARCH));
    }
    let searches = searches(&lines);
    assert!(
        (11..=12).contains(&deepest_depth(&searches[1])),
        "{lines:#?}"
    );
}

// ---------------------------------------------------------------------------
// Pondering.

#[test]
fn ponderhit_goes_on_searching_where_stop_would_answer() {
    // After the ponderhit the move has its whole movetime: no bestmove
    // comes for a while (a ponderhit taken for a stop would answer at
    // once), and the stop then gets exactly one.
    let mut engine = engine();
    let pos = position(None, &["e2e4"], STD);
    engine.send("position startpos moves e2e4");
    engine.send("go ponder movetime 60000");
    assert_searching_and_responsive(&mut engine, "while pondering");
    engine.send("ponderhit");
    let quiet = engine.collect_for(Duration::from_millis(500));
    assert!(
        !quiet.iter().any(|l| l.starts_with("bestmove")),
        "{quiet:#?}"
    );
    engine.send("stop");
    let lines = engine.wait_for("bestmove", PROMPT);
    assert_legal_bestmove(&lines, &pos, STD);
    assert_eq!(engine.sync(), vec!["readyok".to_string()]);
}

#[test]
fn ponder_waits_for_ponderhit_then_plays_on_the_clock() {
    let mut engine = engine();
    let pos = position(None, &["e2e4", "c7c5", "g1f3"], STD);
    engine.send("position startpos moves e2e4 c7c5 g1f3");
    engine.send("go ponder wtime 3000 btime 3000 winc 0 binc 0");
    assert_searching_and_responsive(&mut engine, "while pondering");

    engine.send("ponderhit");
    // The clock starts at ponderhit, and 3 s for the game ends the move by
    // itself, without a `stop` (the wait is generous for a loaded machine;
    // how much of the budget the move uses is not asserted here).
    let lines = engine.wait_for("bestmove", Duration::from_secs(10));
    assert_legal_bestmove(&lines, &pos, STD);
    assert_eq!(engine.sync(), vec!["readyok".to_string()]);
}

/// Plays `moves` from the start, ponders with `go_arguments`, checks that
/// no `bestmove` comes while pondering, then sends `release` (`ponderhit` or
/// `stop`) and checks that exactly one legal `bestmove` follows.
fn assert_ponder_waits_for(moves: &[&str], go_arguments: &str, release: &str) {
    let mut engine = engine();
    let pos = position(None, moves, STD);
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    engine.send(&format!("go ponder {go_arguments}"));
    assert_searching_and_responsive(&mut engine, &format!("while pondering ({go_arguments})"));
    engine.send(release);
    let lines = engine.wait_for("bestmove", PROMPT);
    assert_legal_bestmove(&lines, &pos, STD);
    assert_eq!(engine.sync(), vec!["readyok".to_string()]);
}

/// Depth 2 is searched at once; the bestmove must still wait.
#[test]
fn ponder_search_that_is_done_still_waits_for_ponderhit() {
    assert_ponder_waits_for(&["d2d4"], "depth 2", "ponderhit");
}

#[test]
fn ponder_then_stop_gives_one_bestmove() {
    assert_ponder_waits_for(&["e2e4", "e7e5"], "wtime 60000 btime 60000", "stop");
}

/// A node limit, like the clock, waits for `ponderhit`: the search must not
/// end (and print `bestmove`) while the opponent is still thinking.
#[test]
fn ponder_with_a_node_limit_waits_for_ponderhit() {
    assert_ponder_waits_for(&["d2d4", "d7d5"], "nodes 2000", "ponderhit");
}
