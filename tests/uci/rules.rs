//! Mates, stalemates and the draw rules (fifty moves, repetition) as the
//! engine reports and plays them.

use super::*;
use shakmaty::Color;

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
        engine.send(&format!("position fen {fen}"));
        // A fresh search of the position under `limits`, which must report
        // the mate in 2.
        let mut mate_in_2 = |limits: &str| {
            engine.send("ucinewgame");
            let out = engine.go(limits);
            let score = last_score(&out);
            assert_eq!(
                score,
                Some(("mate".to_string(), 2)),
                "{fen} {limits}: {out:#?}"
            );
            out
        };
        let out = mate_in_2("depth 6");
        let best = assert_legal_bestmove(&out, &pos, STD);
        assert_pvs_legal(&out, &pos, STD);
        let mut after = pos.clone();
        after.play_unchecked(best);
        assert!(
            every_reply_is_mated(&after, 1),
            "{fen}: bestmove {best:?} does not force mate in 2"
        );
        // `go mate 2` ends by itself once the mate is found.
        let out = mate_in_2("mate 2");
        assert_legal_bestmove(&out, &pos, STD);
        // So does a mate limit past `u32` (read as `u32::MAX`: any mate),
        // in the same iteration, not the deepest there is.
        let any = mate_in_2("mate 99999999999");
        assert_eq!(deepest_depth(&any), deepest_depth(&out), "{fen}: {any:#?}");
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
    // (or 0000 when the game is over on the board), and one that the next
    // move makes a draw, with no capture, pawn move or mate to stop it,
    // scores as a draw.
    let text = read_data(RULES);
    let mut engine = engine();
    let (mut checked, mut claimable) = (0, 0);
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
        let status = fields[2].strip_prefix("status ").unwrap();
        if status == "\"claimable_fifty\"" {
            assert!(!forces_mate_within(&pos, 1));
            assert!(pos.legal_moves().iter().all(|m| !m.is_zeroing()));
            assert_eq!(last_score(&out), Some(("cp".to_string(), 0)), "{fen}");
            claimable += 1;
        }
        checked += 1;
    }
    assert_eq!((checked, claimable), (7, 1));
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

/// White has a queen more; each side's knight shuffles g1-f3 and g8-f6.
/// From this position with White to move, seven plies of shuffling leave
/// Black to move, able to repeat it a third time with f6g8; from the same
/// position with Black to move, White is the one who can.
const REPEATING_QUEEN_UP: &str = "4k1n1/8/8/8/8/8/8/3QK1N1";
/// White's and Black's knight, out and back.
const KNIGHT_SHUFFLES: [[&str; 2]; 2] = [["g1f3", "f3g1"], ["g8f6", "f6g8"]];
/// Deep enough to see that every other move loses (or wins) the queen's
/// worth, shallow enough for a test.
const REPETITION_DEPTH: &str = "depth 8";
/// A reported score that is a near-certain win, well above any drawish
/// score. Scores are normalized (100 is an even chance to win), and with
/// this little material on the board the model's even chance lies at a
/// large internal score, so 200 is already a 96% chance to win.
const QUEEN_UP_AT_LEAST: i32 = 200;

/// Sets up the repetition position with `turn` ("w" or "b") to move and
/// the seven shuffling plies after it; returns the position and the move
/// that repeats the start a third time.
fn repetition_game(engine: &mut Engine, turn: &str) -> (Chess, &'static str) {
    let fen = format!("{REPEATING_QUEEN_UP} {turn} - - 0 1");
    let first_mover = usize::from(turn == "b");
    let ply_move = |ply: usize| KNIGHT_SHUFFLES[(first_mover + ply) % 2][(ply / 2) % 2];
    let moves: Vec<&str> = (0..7).map(ply_move).collect();
    let repeat = ply_move(7);
    engine.send("ucinewgame");
    engine.send(&format!("position fen {fen} moves {}", moves.join(" ")));
    (position(Some(&fen), &moves, STD), repeat)
}

#[test]
fn threefold_repetition_is_taken_when_lost_and_avoided_when_won() {
    let mut engine = engine();

    // Black, a queen down, repeats: the draw scores 0.
    let (pos, repeat) = repetition_game(&mut engine, "w");
    assert_eq!(pos.turn(), Color::Black);
    let out = engine.go(REPETITION_DEPTH);
    assert_legal_bestmove(&out, &pos, STD);
    assert_eq!(the_bestmove(&out).0, repeat, "{out:#?}");
    assert_eq!(last_score(&out), Some(("cp".to_string(), 0)), "{out:#?}");

    // White, a queen up, plays on, although the repeating move is there
    // and scores 0 when it is the only one searched.
    let (pos, repeat) = repetition_game(&mut engine, "b");
    assert_eq!(pos.turn(), Color::White);
    let out = engine.go(REPETITION_DEPTH);
    assert_legal_bestmove(&out, &pos, STD);
    assert_ne!(the_bestmove(&out).0, repeat, "{out:#?}");
    let winning = match last_score(&out) {
        Some((kind, value)) if kind == "cp" => value > QUEEN_UP_AT_LEAST,
        Some((kind, value)) => kind == "mate" && value > 0,
        None => false,
    };
    assert!(winning, "{out:#?}");
    repetition_game(&mut engine, "b");
    let out = engine.go(&format!("{REPETITION_DEPTH} searchmoves {repeat}"));
    assert_eq!(the_bestmove(&out).0, repeat, "{out:#?}");
    assert_eq!(last_score(&out), Some(("cp".to_string(), 0)), "{out:#?}");
}
