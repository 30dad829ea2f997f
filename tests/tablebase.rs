//! Syzygy tablebases through the library: the probes against known WDL and
//! DTZ values, loading and its reports, and corrupt tables.
//!
//! The tables are every 3- and 4-piece table, in `tests/data/syzygy/`.

use std::path::PathBuf;

use rookery::engine::parse_fen;
use rookery::tablebase::Tablebases;
use shakmaty::{CastlingMode, Chess, Position};

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
const WDL_DTZ: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/edge/syzygy_wdl_dtz.epd"
);
/// Pieces of the largest table in `TABLES`.
const TABLE_PIECES: usize = 4;

fn position(fen: &str) -> Chess {
    parse_fen(fen, CastlingMode::Standard).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn tables() -> Tablebases {
    let (tables, report) = Tablebases::load(TABLES);
    assert!(report.problems.is_empty(), "{report:?}");
    tables
}

// ---------------------------------------------------------------------------
// Loading.

#[test]
fn loading_counts_the_tables() {
    let (tables, report) = Tablebases::load(TABLES);
    assert_eq!(tables.max_pieces(), TABLE_PIECES);
    assert_eq!(
        report.notes,
        vec![format!(
            "Syzygy: found 35 tables (up to 4 pieces) in {TABLES}"
        )]
    );
    assert!(report.problems.is_empty(), "{report:?}");
}

#[test]
fn bad_directories_are_reported_and_the_good_ones_kept() {
    let missing = "/nonexistent/rookery-syzygy";
    let empty = env!("CARGO_MANIFEST_DIR"); // holds no table
    let list = std::env::join_paths([missing, empty, TABLES]).unwrap();
    let (tables, report) = Tablebases::load(list.to_str().unwrap());
    assert_eq!(tables.max_pieces(), TABLE_PIECES);
    assert_eq!(report.problems.len(), 2, "{report:?}");
    assert!(report.problems[0].contains(missing), "{report:?}");
    assert!(report.problems[1].contains("no tables"), "{report:?}");
    assert_eq!(report.notes.len(), 1, "{report:?}");

    let (tables, report) = Tablebases::load(missing);
    assert_eq!(tables.max_pieces(), 0);
    assert_eq!(
        report.notes,
        vec!["Syzygy: no tables found; playing without tablebases"]
    );

    let (tables, report) = Tablebases::load("");
    assert_eq!(tables.max_pieces(), 0);
    assert_eq!(report, Default::default(), "an empty path is silent");
}

// ---------------------------------------------------------------------------
// Probes against known values.

/// An EPD operation's integer value (`wdl 2;`).
fn operation(line: &str, name: &str) -> Option<i32> {
    line.split(';').find_map(|op| {
        let mut words = op.split_whitespace();
        (words.next() == Some(name))
            .then(|| words.next()?.parse().ok())
            .flatten()
    })
}

#[test]
fn wdl_and_dtz_match_the_known_values() {
    let tables = tables();
    let text = std::fs::read_to_string(WDL_DTZ).unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            continue;
        }
        let fen = format!("{} 0 1", fields[..4].join(" "));
        let pos = position(&fen);
        if pos.board().occupied().count() > TABLE_PIECES {
            continue;
        }
        let expected_wdl = operation(line, "wdl").expect("a wdl operation");
        let expected_dtz = operation(line, "dtz").expect("a dtz operation");
        let wdl = tables.probe_wdl(&pos).map(|wdl| wdl as i32);
        let dtz = tables.probe_dtz(&pos);
        if wdl != Some(expected_wdl) || dtz != Some(expected_dtz) {
            failures.push(format!(
                "line {}: {fen}: wdl {wdl:?} dtz {dtz:?}, expected {expected_wdl} {expected_dtz}",
                index + 1
            ));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(checked, 200, "every position has at most 4 pieces");
}

// ---------------------------------------------------------------------------
// Corrupt tables.

/// A fresh empty directory under the system's temporary directory.
fn scratch_directory(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("rookery-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&path);
    std::fs::create_dir_all(&path).unwrap();
    path
}

/// `bytes` with everything after the first `keep` scrambled.
fn scrambled(bytes: &[u8], keep: usize, seed: usize) -> Vec<u8> {
    bytes
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            if i < keep {
                b
            } else {
                b ^ ((i * 131 + seed * 29) % 251) as u8
            }
        })
        .collect()
}

#[test]
fn corrupt_tables_give_no_result_and_never_a_crash() {
    let directory = scratch_directory("corrupt-syzygy");
    let table = |name: &str| std::fs::read(format!("{TABLES}/{name}")).unwrap();
    // Garbage of a size a table can have (16 more than a multiple of 64):
    // the header is wrong, so every probe fails.
    let garbage: Vec<u8> = (0..64 * 5 + 16).map(|i| (i * 37 % 251) as u8).collect();
    std::fs::write(directory.join("KQvK.rtbw"), &garbage).unwrap();
    std::fs::write(directory.join("KQvK.rtbz"), &garbage).unwrap();
    // Real tables with their contents scrambled after the magic bytes:
    // probes may answer nonsense, but must not crash.
    for (seed, name) in ["KRvK.rtbw", "KRvK.rtbz"].into_iter().enumerate() {
        std::fs::write(directory.join(name), scrambled(&table(name), 4, seed)).unwrap();
    }
    // A file whose size no table can have.
    std::fs::write(directory.join("KBNvK.rtbw"), [0u8; 100]).unwrap();
    let (tables, report) = Tablebases::load(directory.to_str().unwrap());
    assert_eq!(report.problems.len(), 1, "{report:?}");
    assert!(report.problems[0].contains("KBNvK.rtbw"), "{report:?}");
    assert_eq!(report.notes.len(), 1, "{report:?}");
    assert!(report.notes[0].contains("found 2 tables"), "{report:?}");

    let kqk = position("8/8/3k4/8/8/8/6Q1/7K w - - 0 1");
    assert_eq!(tables.probe_wdl(&kqk), None);
    assert_eq!(tables.probe_dtz(&kqk), None);
    // The scrambled tables answer something or nothing, without a crash.
    let krk = position("K7/8/8/8/4k3/8/1R6/8 w - - 0 1");
    for m in krk.legal_moves() {
        let mut after = krk.clone();
        after.play_unchecked(m);
        let _ = (tables.probe_wdl(&after), tables.probe_dtz(&after));
    }
    std::fs::remove_dir_all(&directory).unwrap();
}
