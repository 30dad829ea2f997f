//! The move-picker perft: over the perft suites, the staged picker hands
//! out exactly the legal moves of every node, each once, whatever the
//! table move, killers and countermove it is given. Leaf counts walked
//! through the picker must equal the suites' perft counts.
//!
//! Each node takes its table move, killers and countermove from a
//! deterministic mix of its own legal moves, none, and the moves of its
//! parent (often illegal here, as a killer from a sibling can be).

use shakmaty::{CastlingMode, Move, MoveList, Position};

use super::{Candidates, MovePicker, Ordering, is_tactical};
use crate::board::{Board, parse_fen};
use crate::search::history::{Context, Histories};
use crate::search::movekey::MoveKey;
use crate::tt::PackedMove;

const STANDARD: &str = include_str!("../../../tests/data/perft/standard.epd");
const CHESS960: &str = include_str!("../../../tests/data/perft/chess960.epd");
const EDGE_CASES: &str = include_str!("../../../tests/data/perft/edge_cases.epd");
/// Deepest perft the picker walks: three plies of the standard suite are
/// about two million picker nodes; two of the 960 Chess960 starts, under a
/// million.
const STANDARD_DEPTH: u32 = 3;
const CHESS960_DEPTH: u32 = 2;

/// The moves the main-search picker hands out at `board`, asserting that
/// they are its legal moves, each once.
fn picked_moves(board: &Board, parent_moves: &[Move], salt: u64) -> Vec<Move> {
    let legal = board.pos().legal_moves();
    let pick = |list: &[Move], index: u64| {
        (!list.is_empty()).then(|| list[(index % list.len() as u64) as usize])
    };
    let key = board.key() ^ salt;
    let table_move = if key.is_multiple_of(3) {
        None
    } else {
        pick(&legal, key >> 8)
    };
    let key_of = |m: Option<Move>| m.map_or(MoveKey::NONE, MoveKey::new);
    let ordering = Ordering {
        turn: board.turn(),
        killers: [
            key_of(pick(parent_moves, key >> 16)),
            key_of(pick(&legal, key >> 24)),
        ],
        countermove: key_of(pick(parent_moves, key >> 32)),
        context: Context::default(),
    };
    let histories = Histories::default();
    let mut picker = MovePicker::new(table_move, Candidates::AllBut(None), ordering);
    let picked: Vec<Move> = std::iter::from_fn(|| picker.next(board, &histories)).collect();
    assert_same_moves(&picked, &legal, board);
    picked
}

/// Asserts that the quiescence picker hands out exactly the kept moves.
fn check_quiescence_picker(board: &Board, legal: &MoveList) {
    let in_check = board.pos().is_check();
    let keep = |m: Move| in_check || is_tactical(m);
    let table_move = legal
        .first()
        .map_or(PackedMove::NONE, |&m| PackedMove::new(m));
    let mut picker = MovePicker::quiescence();
    picker.keep_tactical(legal, table_move, keep);
    let histories = Histories::default();
    let picked: Vec<Move> = std::iter::from_fn(|| picker.next(board, &histories)).collect();
    let kept: MoveList = legal.iter().copied().filter(|&m| keep(m)).collect();
    assert_same_moves(&picked, &kept, board);
}

fn assert_same_moves(picked: &[Move], expected: &[Move], board: &Board) {
    let fen = shakmaty::fen::Fen::from_position(board.pos(), shakmaty::EnPassantMode::Legal);
    assert_eq!(picked.len(), expected.len(), "{fen}: {picked:?}");
    for m in expected {
        let times = picked.iter().filter(|&p| p == m).count();
        assert_eq!(times, 1, "{fen}: {m:?} handed out {times} times");
    }
}

/// Leaves at `depth` below `board`, every node's moves from the picker.
fn picker_perft(board: &Board, depth: u32, parent_moves: &[Move]) -> u64 {
    let moves = picked_moves(board, parent_moves, u64::from(depth));
    check_quiescence_picker(board, &board.pos().legal_moves());
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| picker_perft(&board.play(m), depth - 1, &moves))
        .sum()
}

/// Each line's FEN and its perft counts by depth.
fn suite(text: &str) -> impl Iterator<Item = (&str, Vec<(u32, u64)>)> {
    text.lines().filter(|l| !l.trim().is_empty()).map(|line| {
        let mut fields = line.split(';');
        let fen = fields.next().unwrap().trim();
        let counts = fields
            .filter_map(|field| {
                let (depth, count) = field.trim().strip_prefix('D')?.split_once(' ')?;
                Some((depth.parse().ok()?, count.trim().parse().ok()?))
            })
            .collect();
        (fen, counts)
    })
}

fn check_suite(text: &str, mode: CastlingMode, max_depth: u32) {
    for (fen, counts) in suite(text) {
        let board = Board::new(parse_fen(fen, mode).unwrap());
        match counts.iter().filter(|&&(d, _)| d <= max_depth).max() {
            Some(&(depth, count)) => {
                assert_eq!(
                    picker_perft(&board, depth, &[]),
                    count,
                    "{fen} depth {depth}"
                );
            }
            // Only deep counts: every node of two plies is still checked.
            None => {
                picker_perft(&board, 2, &[]);
            }
        }
    }
}

#[test]
fn the_picker_hands_out_every_legal_move_once_over_the_standard_suite() {
    check_suite(STANDARD, CastlingMode::Standard, STANDARD_DEPTH);
    check_suite(EDGE_CASES, CastlingMode::Standard, STANDARD_DEPTH);
}

#[test]
fn the_picker_hands_out_every_legal_move_once_over_the_chess960_suite() {
    check_suite(CHESS960, CastlingMode::Chess960, CHESS960_DEPTH);
}
