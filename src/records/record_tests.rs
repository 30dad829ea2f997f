//! Tests of the game record: every version reads back (the archive's
//! headerless first version and version 2 from real files, the current
//! one from its writer), every version converts to the current one without
//! loss, a finished file cut anywhere or changed is refused while an open
//! one reads up to its last whole game, the move encodings, and which
//! positions are kept for training (pinned to the filter's version).

use super::reader::XzInput;
use super::*;
use crate::score::MAX_EVAL;

/// The first five games of the archive's `a1153ef_gen5c/s30001.bin.xz`,
/// byte for byte: a headerless version-1 file.
const ARCHIVE_V1_GAMES: &[u8] =
    include_bytes!("../../tests/data/selfplay/a1153ef_s30001_first5.bin");
/// The first five games of the archive's `257e666_gen9/s40001.bin.xz`,
/// byte for byte: a version-2 file, with unscored plies.
const ARCHIVE_V2_GAMES: &[u8] =
    include_bytes!("../../tests/data/selfplay/257e666_s40001_first5.bin");
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

/// The games of an open file (one still being written) in `bytes`.
fn read_open(bytes: &[u8]) -> io::Result<Vec<GameRecord>> {
    let mut reader = GameReader::open(bytes, "open".to_string(), Ending::Open)?;
    let mut games = Vec::new();
    while let Some(game) = reader.next_game()? {
        games.push(game);
    }
    Ok(games)
}

/// A finished file of the current version holding `games`.
fn current_file(notes: &str, games: &[GameRecord]) -> Vec<u8> {
    let mut writer = GameWriter::new(Vec::new(), notes).unwrap();
    for game in games {
        writer.write(game).unwrap();
    }
    writer.finish().unwrap()
}

/// The same file still open: without its trailer.
fn open_file(notes: &str, games: &[GameRecord]) -> Vec<u8> {
    let mut bytes = file_header(notes).unwrap();
    for game in games {
        bytes.extend(game.encode().unwrap());
    }
    bytes
}

/// `game` in the fixed-width layout of versions 1 and 2 (written here,
/// from the module notes, as the build no longer writes it).
fn fixed_width_game(game: &GameRecord, no_score: i16) -> Vec<u8> {
    let fen = Fen::from_position(&game.start, EnPassantMode::Legal).to_string();
    let mut bytes = vec![fen.len() as u8];
    bytes.extend_from_slice(fen.as_bytes());
    bytes.push(game.result as u8);
    bytes.extend_from_slice(&(game.plies.len() as u16).to_le_bytes());
    for ply in &game.plies {
        bytes.extend_from_slice(&encode_move(ply.best_move).to_le_bytes());
        bytes.extend_from_slice(&ply.white_score.unwrap_or(no_score).to_le_bytes());
    }
    bytes
}

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// What version 2 stores for a ply without a score.
const V2_NO_SCORE: i16 = i16::MIN;

fn two_games() -> Vec<GameRecord> {
    let first = game(
        STARTPOS,
        &["e2e4", "d7d5", "e4d5", "g8f6", "f1b5", "c7c6"],
        &[
            Some(20),
            Some(-15),
            None,
            Some(90),
            Some(i16::MIN + 1),
            Some(i16::MAX),
        ],
        GameResult::WhiteWins,
    );
    let second = game(STARTPOS, &["g1f3"], &[Some(-5)], GameResult::Draw);
    vec![first, second]
}

#[test]
fn games_round_trip_with_their_notes() {
    let games = two_games();
    let bytes = current_file("engine=abc1234 seed=9", &games);
    let mut reader = GameReader::new(&bytes[..]).unwrap();
    assert_eq!(
        (reader.version(), reader.notes()),
        (FORMAT_VERSION, "engine=abc1234 seed=9")
    );
    assert_eq!(reader.next_game().unwrap().as_ref(), Some(&games[0]));
    assert_eq!(reader.next_game().unwrap().as_ref(), Some(&games[1]));
    assert_eq!(reader.next_game().unwrap(), None);
}

#[test]
fn a_finished_file_cut_anywhere_is_refused_saying_where() {
    let games = two_games();
    let whole = current_file("", &games);
    let header = file_header("").unwrap().len();
    for cut in header..whole.len() {
        let error = read_all(&whole[..cut]).unwrap_err().to_string();
        assert!(
            error.contains(&format!("stopped at byte {cut} ")),
            "cut at byte {cut}: {error}"
        );
    }
    // A file of the versions before the trailer is refused when cut inside
    // a game; cut at a game's end it reads, and says it has no trailer.
    let v2 = ARCHIVE_V2_GAMES;
    let (_, archived) = read_all(v2).unwrap();
    assert!(read_all(&v2[..v2.len() - 1]).is_err());
    let fifth_starts = FILE_HEADER_BYTES
        + archived[..4]
            .iter()
            .map(|game| fixed_width_game(game, V2_NO_SCORE).len())
            .sum::<usize>();
    let mut reader = GameReader::new(&v2[..fifth_starts]).unwrap();
    let mut read = 0;
    while reader.next_game().unwrap().is_some() {
        read += 1;
    }
    assert_eq!((read, reader.has_trailer()), (4, false));
}

#[test]
fn an_open_file_reads_up_to_its_last_whole_game() {
    let games = two_games();
    let open = open_file("", &games);
    let first_game_ends = open_file("", &games[..1]).len();
    for cut in first_game_ends..open.len() {
        assert_eq!(read_open(&open[..cut]).unwrap(), games[..1], "cut at {cut}");
    }
    assert_eq!(read_open(&open).unwrap(), games);
    // Its trailer, once written, is checked as a finished file's.
    assert_eq!(read_open(&current_file("", &games)).unwrap(), games);
    // Without its trailer it is not a finished file.
    let error = read_all(&open).unwrap_err().to_string();
    assert!(error.contains("without its trailer"), "{error}");
}

#[test]
fn a_changed_trailer_or_game_is_refused() {
    let games = two_games();
    let whole = current_file("engine=a", &games);
    let count_at = whole.len() - CHECKSUM_BYTES - TRAILER_COUNT_BYTES;
    let mut miscounted = whole.clone();
    miscounted[count_at] -= 1;
    let error = read_all(&miscounted).unwrap_err().to_string();
    assert!(
        error.contains("counts 1 games, the file holds 2"),
        "{error}"
    );
    // The notes are covered too, and a score changed without a trace in
    // the decoding (the last byte of the second game's score).
    for at in [MAGIC.len() + 4, count_at - TRAILER_MAGIC.len() - 1] {
        let mut changed = whole.clone();
        changed[at] ^= 2;
        let error = read_all(&changed).unwrap_err().to_string();
        assert!(error.contains("SHA-256"), "byte {at}: {error}");
    }
    let mut more = whole.clone();
    more.extend(games[0].encode().unwrap());
    assert!(
        read_all(&more)
            .unwrap_err()
            .to_string()
            .contains("after the trailer")
    );
}

#[test]
fn a_compressed_file_cut_short_is_refused() {
    let games: Vec<GameRecord> = [two_games(), two_games()].concat();
    let mut encoder = liblzma::write::XzEncoder::new(Vec::new(), 6);
    // An open file, which would read to its last whole game if the cut
    // stream ended like a file.
    encoder.write_all(&open_file("", &games)).unwrap();
    let compressed = encoder.finish().unwrap();
    let cut = &compressed[..compressed.len() * 3 / 4];
    let decoder = XzInput(liblzma::read::XzDecoder::new_multi_decoder(cut));
    let input = io::BufReader::new(decoder);
    let mut reader = GameReader::open(input, "cut.xz".to_string(), Ending::Open).unwrap();
    let error = loop {
        match reader.next_game() {
            Ok(Some(_)) => {}
            Ok(None) => panic!("a cut stream read as an end"),
            Err(error) => break error.to_string(),
        }
    };
    assert!(
        error.starts_with("cut.xz: the xz stream is cut short after"),
        "{error}"
    );
}

#[test]
fn files_joined_end_to_end_read_as_one() {
    let games = two_games();
    let mut joined = current_file("engine=a", &games[..1]);
    joined.extend(current_file("engine=b", &games[1..]));
    let mut reader = GameReader::new(&joined[..]).unwrap();
    assert_eq!(reader.notes(), "engine=a");
    assert_eq!(reader.next_game().unwrap().as_ref(), Some(&games[0]));
    assert_eq!(reader.next_game().unwrap().as_ref(), Some(&games[1]));
    assert_eq!(reader.next_game().unwrap(), None);
    // Cut inside the second header: refused, or the end of an open file.
    let first_file = current_file("engine=a", &games[..1]).len();
    assert!(read_all(&joined[..first_file + 3]).is_err());
    assert_eq!(read_open(&joined[..first_file + 3]).unwrap(), games[..1]);
    // A file joined on before the first one's trailer: refused.
    let mut unclosed = open_file("", &games[..1]);
    unclosed.extend(current_file("", &games[1..]));
    assert!(read_all(&unclosed).is_err());
    // A file of another version joined on is refused.
    let mut mixed = current_file("", &games[..1]);
    mixed.extend(MAGIC);
    mixed.extend(UNSCORED_PLIES_VERSION.to_le_bytes());
    assert!(read_all(&mixed).is_err());
}

#[test]
fn a_corrupt_ply_count_or_score_is_an_error_not_a_crash() {
    let mut bytes = file_header("").unwrap();
    let fen = STARTPOS.as_bytes();
    bytes.push(fen.len() as u8);
    bytes.extend(fen);
    bytes.push(GameResult::Draw as u8);
    // A ply count of 2^32 - 1 (a varint of five bytes).
    bytes.extend([0xFF, 0xFF, 0xFF, 0xFF, 0x0F]);
    assert!(read_all(&bytes).is_err());
    // One ply (move index 0, a legal move) whose score difference
    // overflows i16.
    let mut bytes = file_header("").unwrap();
    bytes.push(fen.len() as u8);
    bytes.extend(fen);
    bytes.push(GameResult::Draw as u8);
    bytes.extend([1, 0, 0xFE, 0xFF, 0xFF, 0xFF, 0x0F]);
    assert!(read_all(&bytes).is_err());
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
    let low = game(STARTPOS, &["e2e4"], &[Some(V2_NO_SCORE)], Draw);
    let (version, games) = read_all(&fixed_width_game(&low, V2_NO_SCORE)).unwrap();
    assert_eq!(
        (version, games[0].plies[0].white_score),
        (FIRST_VERSION, Some(V2_NO_SCORE))
    );
}

#[test]
fn version_two_files_read_with_their_unscored_plies() {
    let (version, games) = read_all(ARCHIVE_V2_GAMES).unwrap();
    assert_eq!(version, UNSCORED_PLIES_VERSION);
    let plies: Vec<usize> = games.iter().map(|game| game.plies.len()).collect();
    assert_eq!(plies, vec![97, 59, 212, 215, 366]);
    let unscored: Vec<usize> = games
        .iter()
        .map(|game| {
            game.plies
                .iter()
                .filter(|p| p.white_score.is_none())
                .count()
        })
        .collect();
    assert_eq!(unscored, vec![2, 0, 0, 7, 4]);
    // Written by hand in the layout, a game reads back as itself.
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&UNSCORED_PLIES_VERSION.to_le_bytes());
    for game in &two_games() {
        bytes.extend_from_slice(&fixed_width_game(game, V2_NO_SCORE));
    }
    assert_eq!(read_all(&bytes).unwrap().1, two_games());
}

#[test]
fn every_version_converts_to_the_current_one_without_loss() {
    for old in [ARCHIVE_V1_GAMES, ARCHIVE_V2_GAMES] {
        let (_, games) = read_all(old).unwrap();
        let (version, converted) = read_all(&current_file("", &games)).unwrap();
        assert_eq!((version, &converted), (FORMAT_VERSION, &games));
        let text = |games: &[GameRecord]| -> Vec<String> {
            games
                .iter()
                .flat_map(GameRecord::training_positions)
                .map(|p| p.to_text())
                .collect()
        };
        assert_eq!(text(&converted), text(&games));
    }
}

#[test]
fn files_of_unknown_versions_or_with_a_bad_magic_are_refused() {
    let mut future = file_header("").unwrap();
    future[MAGIC.len()..FILE_HEADER_BYTES].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    assert!(GameReader::new(&future[..]).is_err());
    let mut bad_magic = file_header("").unwrap();
    bad_magic[1] = b'X';
    assert!(GameReader::new(&bad_magic[..]).is_err());
    let (version, games) = read_all(&current_file("", &[])).unwrap();
    assert_eq!((version, games.len()), (FORMAT_VERSION, 0));
}

#[test]
fn appending_adds_a_closed_part_a_run_and_never_mixes_versions() {
    let dir = std::env::temp_dir().join(format!("rookery-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.bin");
    let one = game(STARTPOS, &["d2d4"], &[Some(12)], GameResult::BlackWins);
    for _ in 0..2 {
        let mut writer = open_for_append(&path, "seed=1").unwrap();
        writer.write(&one).unwrap();
        writer.finish().unwrap();
    }
    let reader = open_game_file(&path).unwrap();
    assert_eq!(reader.notes(), "seed=1");
    // Games of another seed (engine, node limit) would make the notes false.
    let error = open_for_append(&path, "seed=2").err().unwrap();
    assert!(error.to_string().contains("seed=1"), "{error}");
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(
        read_all(&bytes).unwrap(),
        (FORMAT_VERSION, vec![one.clone(), one.clone()])
    );
    // A run that was interrupted left its part without a trailer: the file
    // is refused until `dataclose` closes it, with its three games.
    open_for_append(&path, "seed=1")
        .unwrap()
        .write(&one)
        .unwrap();
    let error = open_for_append(&path, "seed=1").err().unwrap();
    assert!(error.to_string().contains("dataclose"), "{error}");
    assert_eq!(crate::records::chunks::close_file(&path).unwrap(), Some(3));
    assert_eq!(crate::records::chunks::close_file(&path).unwrap(), None);
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(read_all(&bytes).unwrap().1, vec![one.clone(); 3]);

    let old = dir.join("old.bin");
    std::fs::write(&old, ARCHIVE_V1_GAMES).unwrap();
    let error = open_for_append(&old, "").err().unwrap();
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
            // And as its index in the compact version.
            let one_ply = GameRecord {
                start: pos.clone(),
                plies: vec![Ply::scored(m, 0)],
                result: GameResult::Draw,
            };
            let (_, read) = read_all(&current_file("", std::slice::from_ref(&one_ply))).unwrap();
            assert_eq!(read, vec![one_ply], "{fen} {m:?}");
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

/// The training filter's output on the archive's ten games (version 1 and
/// 2 files): a SHA-256 prefix of their training positions as text, one per
/// filter version, oldest first. A change to what the filter keeps changes
/// the fingerprint: it must come with a new [`TRAINING_FILTER_VERSION`]
/// and a new line here, never an edited one (the old lines stay, so a
/// filter that went back to an old output would show as that version).
const FILTER_FINGERPRINTS: [(u32, &str); 1] = [(1, "984 positions, sha256 cd58f50c03ecf908")];

#[test]
fn the_training_filters_output_is_pinned_to_its_version() {
    let mut hasher = Sha256::new();
    let mut count = 0;
    for file in [ARCHIVE_V1_GAMES, ARCHIVE_V2_GAMES] {
        for game in read_all(file).unwrap().1 {
            assert_eq!(
                game.training_position_count(),
                game.training_positions().len()
            );
            for position in game.training_positions() {
                hasher.update(position.to_text().as_bytes());
                hasher.update(b"\n");
                count += 1;
            }
        }
    }
    let digest: String = hasher.finalize()[..8]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    let fingerprint = format!("{count} positions, sha256 {digest}");
    let (newest, pinned) = FILTER_FINGERPRINTS[FILTER_FINGERPRINTS.len() - 1];
    assert_eq!(
        newest, TRAINING_FILTER_VERSION,
        "the newest pinned filter is not the one this build names"
    );
    assert_eq!(
        fingerprint, pinned,
        "the training filter keeps other positions than version {TRAINING_FILTER_VERSION} \
         did: give it a new TRAINING_FILTER_VERSION and pin its output here"
    );
    let mut versions: Vec<u32> = FILTER_FINGERPRINTS.iter().map(|(v, _)| *v).collect();
    versions.dedup();
    assert!(versions.is_sorted() && versions.len() == FILTER_FINGERPRINTS.len());
}
