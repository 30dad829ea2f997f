//! Property tests over positions reached by random legal play: the table's
//! move encoding, score packing through store/probe, FEN round trips and the
//! incremental Zobrist key.

use proptest::prelude::*;
use rookery::board::{Board, FIFTY_MOVE_HALFMOVES, full_key, parse_fen};
use rookery::score::{MATE, MATE_BOUND, MAX_PLY, TB_WIN, TB_WIN_BOUND};
use rookery::tt::{Bound, PackedMove, TranspositionTable, TtStore};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

/// Plays `plies` pseudo-random legal moves (chosen by `choices`) from the
/// start position, or from a Chess960 start when `chess960` is set.
fn random_game(choices: &[u16], chess960: Option<u16>) -> Vec<Board> {
    let start: Chess = match chess960 {
        None => Chess::default(),
        Some(index) => {
            let fens = include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/data/openings/chess960.epd"
            ));
            let fen = fens.lines().nth(usize::from(index) % 960).unwrap();
            let fen: String = fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
            parse_fen(&format!("{fen} 0 1"), CastlingMode::Chess960).unwrap()
        }
    };
    let mut boards = vec![Board::new(start)];
    for &choice in choices {
        let board = boards.last().unwrap();
        let moves = board.pos().legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[usize::from(choice) % moves.len()];
        boards.push(board.play(m));
    }
    boards
}

fn mode(chess960: Option<u16>) -> CastlingMode {
    if chess960.is_some() {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn incremental_key_equals_full_hash(
        choices in prop::collection::vec(any::<u16>(), 0..150),
        chess960 in prop::option::of(any::<u16>()),
    ) {
        for board in random_game(&choices, chess960) {
            prop_assert_eq!(board.key(), full_key(board.pos()));
        }
    }

    #[test]
    fn fen_round_trips(
        choices in prop::collection::vec(any::<u16>(), 0..150),
        chess960 in prop::option::of(any::<u16>()),
    ) {
        for board in random_game(&choices, chess960) {
            let fen = Fen::from_position(board.pos(), EnPassantMode::Legal).to_string();
            let parsed = parse_fen(&fen, mode(chess960)).unwrap();
            prop_assert_eq!(
                Fen::from_position(&parsed, EnPassantMode::Legal).to_string(),
                fen
            );
            prop_assert_eq!(full_key(&parsed), board.key());
        }
    }

    #[test]
    fn every_legal_move_packs_to_itself_alone(
        choices in prop::collection::vec(any::<u16>(), 0..150),
        chess960 in prop::option::of(any::<u16>()),
    ) {
        for board in random_game(&choices, chess960) {
            let moves = board.pos().legal_moves();
            for &m in &moves {
                let packed = PackedMove::new(m);
                let matching = moves.iter().filter(|&&other| packed.matches(other)).count();
                prop_assert_eq!(matching, 1, "{:?}", m);
            }
        }
    }

    #[test]
    fn scores_survive_the_table(
        key in any::<u64>(),
        score in -MATE..=MATE,
        static_eval in -30_000i32..30_000,
        depth in 0i32..=255,
        ply in 0usize..MAX_PLY,
        bound in prop::sample::select(vec![Bound::Upper, Bound::Lower, Bound::Exact]),
    ) {
        // A mate or tablebase win is only possible beyond the ply it is
        // seen at; one further from the node than the fifty-move rule
        // reaches comes back as no proven win (tested in `score`).
        let best = if score.abs() >= MATE_BOUND { MATE } else { TB_WIN };
        let distance = best - score.abs() - ply as i32;
        prop_assume!(
            score.abs() < TB_WIN_BOUND || (0..=FIFTY_MOVE_HALFMOVES as i32).contains(&distance)
        );
        let table = TranspositionTable::new(1).unwrap();
        table.store(key, TtStore { best_move: None, score, static_eval, depth, bound, ply });
        let hit = table.probe(key, ply, 0).expect("just stored");
        prop_assert_eq!(hit.score, score);
        prop_assert_eq!(hit.static_eval, static_eval);
        prop_assert_eq!(hit.depth, depth);
        prop_assert_eq!(hit.bound, bound);
        prop_assert!(hit.best_move.is_none());
    }
}
