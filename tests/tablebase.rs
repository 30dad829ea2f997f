//! Syzygy tablebases through the library: the probes against known WDL and
//! DTZ values, loading and its reports, the probe inside the search, won
//! endings converted to mate inside the fifty-move rule when the engine
//! plays them out against itself, and corrupt tables.
//!
//! The tables are every 3- and 4-piece table, in `tests/data/syzygy/`.

use std::path::PathBuf;
use std::sync::Arc;

use rookery::board::{Board, full_key, parse_fen, parse_move};
use rookery::engine::options::Options;
use rookery::score::{MATE_BOUND, TB_WIN, TB_WIN_BOUND};
use rookery::search::{JobSpec, Limits, SearchJob, ThreadPool, ThreadResult};
use rookery::tablebase::{RootRanking, Tablebases, TbConfig};
use rookery::tt::TranspositionTable;
use shakmaty::{CastlingMode, Chess, Position};
use shakmaty_syzygy::Wdl;

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
const WDL_DTZ: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/edge/syzygy_wdl_dtz.epd"
);
/// Pieces of the largest table in `TABLES`.
const TABLE_PIECES: usize = 4;
/// Depth of each move's search when the engine plays an ending out.
const PLAY_DEPTH: i32 = 6;
/// The fifty-move rule in plies.
const FIFTY_MOVES: u32 = 100;

fn position(fen: &str) -> Chess {
    parse_fen(fen, CastlingMode::Standard).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn tables() -> Arc<Tablebases> {
    let (tables, report) = Tablebases::load(TABLES);
    assert!(report.problems.is_empty(), "{report:?}");
    Arc::new(tables)
}

/// The search configuration for the default options.
fn config(tables: &Arc<Tablebases>) -> TbConfig {
    TbConfig::new(tables, Options::default().probe_settings()).expect("tables to probe")
}

/// The root ranking of `pos` with every legal move and no game before it.
fn rank_all_moves(config: &TbConfig, pos: &Chess) -> Option<RootRanking> {
    let moves: Vec<_> = pos.legal_moves().into_iter().collect();
    config.rank_root_moves(pos, &moves, &[full_key(pos)])
}

/// A silent one-thread search of `board` to `depth`; returns the result and
/// the tablebase hits.
fn search(
    board: &Board,
    game_keys: Vec<u64>,
    tablebase: Option<TbConfig>,
    depth: i32,
) -> (ThreadResult, u64) {
    let pos = board.pos();
    let mut root_moves: Vec<_> = pos.legal_moves().into_iter().collect();
    let mut root_hits = 0;
    if let Some(ranking) = tablebase
        .as_ref()
        .and_then(|tables| tables.rank_root_moves(pos, &root_moves, &game_keys))
    {
        root_moves = ranking.moves;
        root_hits = ranking.probes;
    }
    let tt = Arc::new(TranspositionTable::new(16).unwrap());
    let (job, finished) = SearchJob::new(JobSpec {
        root_moves,
        tablebase,
        ..JobSpec::new(board.clone(), game_keys, Limits::depth(depth), tt)
    });
    job.control.add_tb_hits(0, root_hits);
    let job = Arc::new(job);
    let pool = ThreadPool::new(1).unwrap();
    pool.start(Arc::clone(&job));
    let result = finished.recv().unwrap().expect("a searched move");
    (result, job.control.total_tb_hits())
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
    assert!(TbConfig::new(&Arc::new(tables), Options::default().probe_settings()).is_none());

    let (tables, report) = Tablebases::load("");
    assert_eq!(tables.max_pieces(), 0);
    assert_eq!(report, Default::default(), "an empty path is silent");
}

#[test]
fn probe_limit_zero_turns_the_tables_off() {
    let options = Options {
        syzygy_probe_limit: 0,
        ..Options::default()
    };
    assert!(TbConfig::new(&tables(), options.probe_settings()).is_none());
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
// The search.

#[test]
fn a_capture_into_a_won_ending_scores_as_a_tablebase_win() {
    // Queen takes rook: KQvKP, won; five pieces, so only the search probes.
    let board = Board::new(position("4k3/p7/8/8/3r4/8/8/3QK3 w - - 0 1"));
    let (result, hits) = search(&board, vec![board.key()], Some(config(&tables())), 4);
    assert_eq!(
        result.pv[0].to_uci(CastlingMode::Standard).to_string(),
        "d1d4"
    );
    assert!(
        result.score >= TB_WIN_BOUND && result.score < MATE_BOUND,
        "score {}",
        result.score
    );
    assert_eq!(result.score, TB_WIN - 1, "the win is proven one ply down");
    assert!(hits > 0);

    let (result, hits) = search(&board, vec![board.key()], None, 4);
    assert!(result.score < TB_WIN_BOUND, "score {}", result.score);
    assert_eq!(hits, 0);
}

#[test]
fn a_drawn_ending_is_held_at_the_root() {
    // KRvKR: Black must not leave its rook en prise; the tables keep only
    // the drawing moves, and the search picks one of them.
    let tables = tables();
    let pos = position("8/8/4k3/8/8/2r5/3K4/7R b - - 0 1");
    let moves: Vec<_> = pos.legal_moves().into_iter().collect();
    let ranking = rank_all_moves(&config(&tables), &pos).unwrap();
    assert_eq!(ranking.outcome, Wdl::Draw);
    assert!(ranking.moves.len() < moves.len());
    for &m in &ranking.moves {
        let mut after = pos.clone();
        after.play_unchecked(m);
        let dtz = tables.probe_dtz(&after).unwrap();
        assert_eq!(dtz, 0, "{m} does not hold the draw");
    }
    assert_eq!(ranking.probes, moves.len() as u64);
}

#[test]
fn a_fifty_move_counter_at_its_largest_spoils_the_win_without_overflow() {
    // A FEN may give any counter up to u32::MAX; counting the plies to the
    // win on top of it used to wrap around to a small count, a win.
    let tables = tables();
    let pos = position("4k3/8/8/8/8/8/8/3QK3 w - - 4294967295 1");
    let ranking = rank_all_moves(&config(&tables), &pos).unwrap();
    assert_eq!(ranking.outcome, Wdl::CursedWin);
}

#[test]
fn a_move_that_repeats_a_position_for_the_third_time_is_a_draw_at_the_root() {
    // KQvK, Black to move and lost. Kd4-e3 resists less long than the
    // other king moves, but after the shuffle below it repeats its
    // position for the third time: a draw the tables cannot see, which the
    // ranking used to leave out.
    let tables = tables();
    let mut board = Board::new(position("8/8/8/8/3k4/8/8/1Q5K b - - 0 1"));
    let mut keys = vec![board.key()];
    for _ in 0..2 {
        for text in ["d4e3", "h1h2", "e3d4", "h2h1"] {
            let m = parse_move(board.pos(), text).unwrap();
            board = board.play(m);
            keys.push(board.key());
        }
    }
    let pos = board.pos();
    let repeat = parse_move(pos, "d4e3").unwrap();
    let moves: Vec<_> = pos.legal_moves().into_iter().collect();
    let config = config(&tables);
    let without_history = config.rank_root_moves(pos, &moves, &[board.key()]).unwrap();
    assert_eq!(without_history.outcome, Wdl::Loss);
    assert!(!without_history.moves.contains(&repeat));
    let ranking = config.rank_root_moves(pos, &moves, &keys).unwrap();
    assert_eq!(ranking.outcome, Wdl::Draw);
    assert_eq!(ranking.moves, vec![repeat]);
}

#[test]
fn without_dtz_tables_the_root_is_ranked_by_outcome() {
    // WDL tables only: every DTZ probe fails. The ranking used to give up,
    // leaving the search free to hang the queen (Qd1-d5+ Kxd5).
    let directory = scratch_directory("wdl-only-syzygy");
    std::fs::copy(format!("{TABLES}/KQvK.rtbw"), directory.join("KQvK.rtbw")).unwrap();
    let (tables, report) = Tablebases::load(directory.to_str().unwrap());
    assert!(report.problems.is_empty(), "{report:?}");
    let tables = Arc::new(tables);
    let pos = position("8/8/8/4k3/8/8/8/3Q3K w - - 0 1");
    assert_eq!(tables.probe_dtz(&pos), None);
    let moves: Vec<_> = pos.legal_moves().into_iter().collect();
    let ranking = rank_all_moves(&config(&tables), &pos).expect("a ranking from the WDL tables");
    assert_eq!(ranking.outcome, Wdl::Win);
    let hanging = parse_move(&pos, "d1d5").unwrap();
    assert!(!ranking.moves.contains(&hanging));
    assert!(ranking.moves.len() < moves.len());
    // At a fifty-move counter of 99 a quiet move reaches a claimable draw,
    // whatever the table says of the position.
    let late = position("8/8/8/4k3/8/8/8/3Q3K w - - 99 80");
    let ranking = rank_all_moves(&config(&tables), &late).unwrap();
    assert_eq!(ranking.outcome, Wdl::Draw);
}

/// Plays `fen` out with the engine on both sides, tables on; returns the
/// plies to mate. Panics when the game is drawn or runs past the fifty-move
/// rule first.
fn play_out(tables: &Arc<Tablebases>, fen: &str) -> usize {
    let config = config(tables);
    let mut board = Board::new(position(fen));
    let mut keys = vec![board.key()];
    let mut line = Vec::new();
    loop {
        let pos = board.pos();
        if pos.is_checkmate() {
            return line.len();
        }
        assert!(
            board.halfmoves() < FIFTY_MOVES && !pos.is_game_over(),
            "{fen}: no mate before the fifty-move rule or a draw: {}",
            line.join(" ")
        );
        let (result, _) = search(&board, keys.clone(), Some(config.clone()), PLAY_DEPTH);
        let m = result.pv[0];
        line.push(m.to_string());
        board = board.play(m);
        keys.push(board.key());
    }
}

#[test]
fn won_endings_are_converted_inside_the_fifty_move_rule() {
    let tables = tables();
    // The longest wins found among random positions (DTZ in plies), some
    // started with the fifty-move counter so far on that only the fastest
    // conversion mates in time.
    for (fen, dtz) in [
        ("8/8/3k4/8/8/8/6Q1/7K w - - 0 1", 19),
        ("8/8/3k4/8/8/8/6Q1/7K w - - 80 1", 19),
        ("K7/8/8/8/4k3/8/1R6/8 w - - 0 1", 31),
        ("K7/8/8/8/4k3/8/1R6/8 w - - 66 1", 31),
        ("7N/8/8/4k3/6B1/8/8/7K w - - 0 1", 64),
        ("7N/8/8/4k3/6B1/8/8/7K w - - 30 1", 64),
    ] {
        let pos = position(fen);
        assert_eq!(tables.probe_dtz(&pos), Some(dtz), "{fen}");
        let plies = play_out(&tables, fen);
        assert!(
            plies <= dtz as usize + 1,
            "{fen}: mate after {plies} plies, DTZ {dtz}"
        );
    }
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
    let tables = Arc::new(tables);
    let config = config(&tables);
    assert!(rank_all_moves(&config, &kqk).is_none());

    // The search goes on as if there were no tables, or with nonsense from
    // them, and still plays a legal move.
    for fen in [
        "4k3/8/8/8/3r4/8/8/3QK3 w - - 0 1",
        "4k3/8/8/8/3q4/8/8/3RK3 w - - 0 1",
        "K7/8/8/8/4k3/8/1R6/8 w - - 0 1",
    ] {
        let board = Board::new(position(fen));
        let (result, _) = search(&board, vec![board.key()], Some(config.clone()), 5);
        assert!(board.pos().is_legal(result.pv[0]), "{fen}");
    }
    std::fs::remove_dir_all(&directory).unwrap();
}
