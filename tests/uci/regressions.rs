//! Regressions: bugs these tests found, since fixed.

use super::*;

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
        // Not `Engine::go`, whose check after the bestmove would give the
        // search thread all the time it needs.
        engine.send("go depth 1");
        let out = engine.wait_for("bestmove", SEARCH);
        assert_legal_bestmove(&out, &Chess::default(), STD);
        // A GUI may change options as soon as the bestmove is in.
        let out = command(&mut engine, "setoption name Clear Hash");
        assert!(errors(&out).is_empty(), "{out:#?}");
    }
}
