//! Fuzz target: arbitrary bytes as a FEN (first line) and a list of UCI
//! moves (the rest), read the way `position fen … moves …` reads them, in
//! both castling modes. Nothing may panic, and every position reached must
//! keep its incremental key equal to a from-scratch hash.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rookery::board::{Board, full_key};
use rookery::board::{parse_fen, parse_move};
use shakmaty::CastlingMode;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut lines = text.lines();
    let Some(fen) = lines.next() else { return };
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        let Ok(pos) = parse_fen(fen, mode) else {
            continue;
        };
        let mut board = Board::new(pos);
        for token in lines.clone().flat_map(str::split_whitespace) {
            let Ok(m) = parse_move(board.pos(), token) else {
                break;
            };
            board = board.play(m);
            assert_eq!(
                board.key(),
                full_key(board.pos()),
                "after {token} from {fen}"
            );
        }
    }
});
