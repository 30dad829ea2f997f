//! Lazy SMP from the outside: several thread counts give legal results
//! whose bestmove agrees with the last reported PV, `go infinite`/`stop`
//! cycles never lose or duplicate a bestmove, `stop` is prompt with many
//! threads, and options change safely between searches.

mod common;

use std::time::{Duration, Instant};

use common::{Engine, PROMPT, assert_legal_bestmove, assert_pvs_legal, position};
use shakmaty::{CastlingMode, Chess};

const FENS: [&str; 4] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "rq3rk1/ppp2ppp/1bnpN3/3N2B1/4P3/7P/PPPQ1PP1/2KR3R b - - 0 14",
];

/// CPU time (user + system) the process has used, in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("proc stat");
    // Fields after the command name (which may contain spaces) start at ')'.
    let after = &stat[stat.rfind(')').expect("stat format") + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the full line: 11 and 12 here.
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

#[test]
fn every_thread_count_gives_a_legal_bestmove_and_pv() {
    for threads in [1, 2, 4, 8] {
        let mut engine = Engine::start();
        engine.send(&format!("setoption name Threads value {threads}"));
        for fen in FENS {
            let pos = position(Some(fen), &[], CastlingMode::Standard);
            engine.send(&format!("position fen {fen}"));
            let lines = engine.go("depth 7");
            assert_legal_bestmove(&lines, &pos, CastlingMode::Standard);
            assert_pvs_legal(&lines, &pos, CastlingMode::Standard);
            let lines = engine.go("movetime 150");
            assert_legal_bestmove(&lines, &pos, CastlingMode::Standard);
            assert_pvs_legal(&lines, &pos, CastlingMode::Standard);
        }
    }
}

#[test]
fn a_thousand_infinite_stop_cycles_with_four_threads() {
    let mut engine = Engine::start();
    engine.send("setoption name Threads value 4");
    engine.sync();
    let pos = Chess::default();
    for cycle in 0..1000 {
        engine.send("position startpos");
        engine.send("go infinite");
        if cycle % 100 == 0 {
            // Now and then let the threads really get going first.
            std::thread::sleep(Duration::from_millis(20));
        }
        engine.send("stop");
        let lines = engine.wait_for("bestmove", PROMPT * 5);
        assert_legal_bestmove(&lines, &pos, CastlingMode::Standard);
    }
    // No stray bestmove afterwards, and the engine is responsive.
    let lines = engine.sync();
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "extra bestmove: {lines:?}"
    );
    // No search thread is left running: the process is idle.
    let before = cpu_ticks(engine.pid());
    std::thread::sleep(Duration::from_millis(500));
    let used = cpu_ticks(engine.pid()) - before;
    assert!(used <= 10, "idle engine used {used} ticks in 0.5 s");
}

#[test]
fn stop_with_eight_threads_is_answered_within_the_prompt_limit() {
    let mut engine = Engine::start();
    engine.send("setoption name Threads value 8");
    engine.send("position startpos");
    engine.sync();
    let mut worst = Duration::ZERO;
    for _ in 0..5 {
        engine.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        let start = Instant::now();
        engine.send("stop");
        engine.wait_for("bestmove", PROMPT);
        worst = worst.max(start.elapsed());
    }
    // What it checks: every stop is answered within PROMPT (2 s), so no
    // helper thread keeps the bestmove waiting. How prompt it is (50 ms is
    // the goal) is a measure, printed here, not asserted: eight threads on
    // a loaded 2-core machine can be descheduled for longer.
    eprintln!("slowest stop with 8 threads: {worst:?}");
}

#[test]
fn threads_and_hash_change_safely_between_searches() {
    let mut engine = Engine::start();
    let pos = position(Some(FENS[0]), &[], CastlingMode::Standard);
    engine.send(&format!("position fen {}", FENS[0]));
    for round in 0..40usize {
        let threads = 1 + round * 7 % 8;
        let hash = 1 + round * 13 % 64;
        engine.send(&format!("setoption name Threads value {threads}"));
        engine.send(&format!("setoption name Hash value {hash}"));
        if round % 5 == 0 {
            engine.send("setoption name Clear Hash");
            engine.send("ucinewgame");
            engine.send(&format!("position fen {}", FENS[0]));
        }
        let lines = engine.go("depth 4");
        assert!(common::errors(&lines).is_empty(), "{lines:?}");
        assert_legal_bestmove(&lines, &pos, CastlingMode::Standard);
    }
    engine.sync();
}
