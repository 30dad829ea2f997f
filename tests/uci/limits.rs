//! Legal best moves under every kind of limit: depth, nodes, time, clocks,
//! `searchmoves`, MultiPV.

use super::*;

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
