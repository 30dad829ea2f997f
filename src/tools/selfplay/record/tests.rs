//! Tests of the game record: round trips of the current version, the
//! archive's headerless first version, the move encoding and which
//! positions are kept for training.

use super::*;

/// The first five games of the archive's `a1153ef_gen5c/s30001.bin.xz`,
/// byte for byte: a headerless version-1 file.
const ARCHIVE_V1_GAMES: &[u8] =
    include_bytes!("../../../../tests/data/selfplay/a1153ef_s30001_first5.bin");

/// After 1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d3 d6 6. c3 O-O
/// 7. h3 h6 8. Re1 a6: game ply 16, White to move.
const PLY_16: &str = "r1bq1rk1/1pp2pp1/p1np1n1p/2b1p3/2B1P3/2PP1N1P/PP3PP1/RNBQR1K1 w - - 0 9";

fn position(fen: &str) -> Chess {
    Fen::from_ascii(fen.as_bytes())
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn game(start: &str, moves: &[&str], scores: &[Option<i16>], result: GameResult) -> GameRecord {
    let start = position(start);
    let mut pos = start.clone();
    let mut plies = Vec::new();
    for (text, &white_score) in moves.iter().zip(scores) {
        let m = UciMove::from_ascii(text.as_bytes())
            .unwrap()
            .to_move(&pos)
            .unwrap();
        pos.play_unchecked(m);
        plies.push(Ply {
            best_move: m,
            white_score,
        });
    }
    GameRecord {
        start,
        plies,
        result,
    }
}

fn read_all(bytes: &[u8]) -> io::Result<(u16, Vec<GameRecord>)> {
    let mut reader = GameReader::new(bytes)?;
    let mut games = Vec::new();
    while let Some(game) = reader.next_game()? {
        games.push(game);
    }
    Ok((reader.version(), games))
}

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn games_round_trip_and_a_truncated_tail_is_ignored() {
    let first = game(
        STARTPOS,
        &["e2e4", "d7d5", "e4d5", "g8f6", "f1b5", "c7c6"],
        &[
            Some(20),
            Some(-15),
            None,
            Some(90),
            Some(i16::MIN + 1),
            Some(75),
        ],
        GameResult::WhiteWins,
    );
    let second = game(STARTPOS, &["g1f3"], &[Some(-5)], GameResult::Draw);
    let mut bytes = file_header().to_vec();
    first.write_to(&mut bytes).unwrap();
    second.write_to(&mut bytes).unwrap();
    bytes.extend_from_within(FILE_HEADER_BYTES..FILE_HEADER_BYTES + 7);

    let (version, games) = read_all(&bytes).unwrap();
    assert_eq!(version, FORMAT_VERSION);
    assert_eq!(games, vec![first, second]);
}

#[test]
fn the_archives_headerless_files_read_as_the_first_version() {
    let (version, games) = read_all(ARCHIVE_V1_GAMES).unwrap();
    assert_eq!(version, FIRST_VERSION);
    assert_eq!(games.len(), 5);
    let plies: Vec<usize> = games.iter().map(|game| game.plies.len()).collect();
    assert_eq!(plies, vec![126, 84, 138, 13, 118]);
    let results: Vec<GameResult> = games.iter().map(|game| game.result).collect();
    use GameResult::{BlackWins, Draw, WhiteWins};
    assert_eq!(results, vec![BlackWins, WhiteWins, WhiteWins, Draw, Draw]);
    for game in &games {
        assert!(game.plies.iter().all(|ply| ply.white_score.is_some()));
    }
    assert!(
        games
            .iter()
            .all(|game| !game.training_positions().is_empty())
    );
    // Version 1 has no "not scored": its lowest score is a score.
    let mut bytes = Vec::new();
    let low = game(STARTPOS, &["e2e4"], &[Some(NO_SCORE)], GameResult::Draw);
    low.write_to(&mut bytes).unwrap();
    let (version, games) = read_all(&bytes).unwrap();
    assert_eq!(
        (version, games[0].plies[0].white_score),
        (FIRST_VERSION, Some(NO_SCORE))
    );
}

#[test]
fn files_of_unknown_versions_or_with_a_bad_magic_are_refused() {
    let mut future = file_header();
    future[MAGIC.len()..].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    assert!(GameReader::new(&future[..]).is_err());
    let mut bad_magic = file_header();
    bad_magic[1] = b'X';
    assert!(GameReader::new(&bad_magic[..]).is_err());
    let (version, games) = read_all(&file_header()).unwrap();
    assert_eq!((version, games.len()), (FORMAT_VERSION, 0));
}

#[test]
fn appending_writes_the_header_once_and_never_mixes_versions() {
    let dir = std::env::temp_dir().join(format!("rookery-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.bin");
    let one = game(STARTPOS, &["d2d4"], &[Some(12)], GameResult::BlackWins);
    for _ in 0..2 {
        let mut file = open_for_append(&path).unwrap();
        one.write_to(&mut file).unwrap();
    }
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(
        read_all(&bytes).unwrap(),
        (FORMAT_VERSION, vec![one.clone(), one])
    );

    let old = dir.join("old.bin");
    std::fs::write(&old, ARCHIVE_V1_GAMES).unwrap();
    let error = open_for_append(&old).unwrap_err();
    assert!(error.to_string().contains("version 1"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_legal_move_encodes_and_decodes_to_itself() {
    for fen in [
        STARTPOS,
        // Castling both ways, en passant, promotions with and without capture.
        "r3k2r/1P4P1/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1",
        "r3k2r/1P4P1/8/8/3pP3/8/6p1/R3K2R b KQkq e3 0 1",
    ] {
        let pos = position(fen);
        for m in pos.legal_moves() {
            assert_eq!(decode_move(encode_move(m), &pos), Some(m), "{fen} {m:?}");
        }
    }
    // The layout is the format's: White's short castle is e1 → h1.
    let castle = UciMove::from_ascii(b"e1g1")
        .unwrap()
        .to_move(&position("4k3/8/8/8/8/8/8/4K2R w K - 0 1"))
        .unwrap();
    assert_eq!(encode_move(castle), 4 | (7 << SQUARE_BITS));
    let queen = UciMove::from_ascii(b"b7b8q")
        .unwrap()
        .to_move(&position("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"))
        .unwrap();
    assert_eq!(
        encode_move(queen),
        49 | (57 << SQUARE_BITS) | (5 << PROMOTION_SHIFT)
    );
    assert_eq!(decode_move(0, &position(STARTPOS)), None);
}

#[test]
fn training_positions_skip_the_unscored_the_early_the_tactical_and_mates() {
    // From ply 16: two quiet moves, two captures, an unscored quiet move,
    // a mate score, and a last quiet move.
    let record = game(
        PLY_16,
        &["b1d2", "c8e6", "c4e6", "f7e6", "d1b3", "d8c8", "d2c4"],
        &[
            Some(20),
            Some(-15),
            Some(30),
            Some(-40),
            None,
            Some(31_900),
            Some(35),
        ],
        GameResult::WhiteWins,
    );
    let kept: Vec<i16> = record
        .training_positions()
        .iter()
        .map(|p| p.white_score)
        .collect();
    // c4e6 and f7e6 capture; d1b3 is unscored; d8c8 has a mate score.
    assert_eq!(kept, vec![20, -15, 35]);
    assert_eq!(
        record.training_positions()[0].to_text(),
        format!("{PLY_16} | 20 | 1.0")
    );

    // The same quiet moves one full move earlier are not kept.
    let early = game(
        STARTPOS,
        &["g1f3", "g8f6"],
        &[Some(10), Some(5)],
        GameResult::Draw,
    );
    assert!(early.training_positions().is_empty());
    let in_check = position("4k3/8/8/8/8/8/4q3/4K3 w - - 0 20");
    assert!(!is_fit_for_training(
        &in_check,
        in_check.legal_moves()[0],
        0
    ));
}

#[test]
fn scores_at_the_evaluation_ceiling_are_decided() {
    // A mate from the table that the fifty-move rule spoils comes back as
    // the largest evaluation: a mate's label, not an evaluation's.
    let quiet = position("4k3/8/8/8/8/8/8/R3K3 w - - 0 20");
    let rook_lift = quiet
        .legal_moves()
        .into_iter()
        .find(|m| m.to() == Square::A2)
        .unwrap();
    let ceiling = i16::try_from(MAX_EVAL).unwrap();
    for (score, fit) in [(ceiling - 1, true), (ceiling, false), (-ceiling, false)] {
        assert_eq!(
            is_fit_for_training(&quiet, rook_lift, score),
            fit,
            "{score}"
        );
    }
}
