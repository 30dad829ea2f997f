//! The search's view of a chess position: a `shakmaty::Chess` plus its
//! 64-bit Zobrist key, the keys of its pawns and of each side's other
//! pieces (what correction history is keyed by), its evaluation network's
//! accumulator, and the stack of keys used to detect repetitions.
//!
//! shakmaty has no unmake, so the search copies a [`Board`] and plays a move
//! on the copy (copy-make). Both the key and the accumulator follow the move
//! through the same [`PieceChanges`] (the pieces it takes off and puts on),
//! as do the pawn and non-pawn keys, so a child costs its parent's copy plus
//! a few updates, with nothing to undo. The key is kept incrementally with
//! shakmaty's own Zobrist values, so it always equals
//! `pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal)`: the en passant file
//! is hashed only when an en passant capture is really legal, which is what
//! the rules of repetition ask for (FIDE 9.2: positions are the same when the
//! same moves are possible). The tests prove incremental == from scratch over
//! thousands of random positions.
//!
//! [`KeyHistory`] holds the keys of every position since the game started:
//! the game's moves first, then the search path pushed and popped by the
//! search. A position repeated once inside the search path is scored a draw
//! (twofold); a position that only repeats game history needs two earlier
//! occurrences (threefold). A null move is no move of the game: positions
//! before it cannot repeat after it, so the scan stops there.
//!
//! Reading a position and a move from text ([`parse_fen`], [`parse_move`])
//! lives here too, below every layer that reads them (the protocol, the
//! tools, the tests), as does [`check`]: whether a move gives check, told
//! without playing it.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{
    CastlingMode, CastlingSide, Chess, Color, EnPassantMode, File, Move, Piece, Position,
    PositionError, Role, Square,
};

use crate::nnue::piece_changes::PieceChanges;
use crate::nnue::{self, Accumulator, Network};

pub(crate) mod check;

/// The halfmove clock at which the fifty-move rule draws (FIDE 9.3: fifty
/// moves of each side without a capture or a pawn move).
pub const FIFTY_MOVE_HALFMOVES: u32 = 100;

/// A position with its Zobrist key and its evaluation network's
/// accumulator, cheap enough to copy at every node.
#[derive(Clone, Debug)]
pub struct Board {
    pos: Chess,
    key: u64,
    /// The Zobrist key of the pawns alone, and of each colour's other
    /// pieces alone (by colour): what correction history is keyed by.
    pawn_key: u64,
    non_pawn_keys: [u64; 2],
    /// The en passant file included in `key`, if any.
    hashed_ep_file: Option<File>,
    /// The network this board is evaluated with (the one active when the
    /// root was set up) and its first layer for this position.
    network: &'static Network,
    accumulator: Accumulator,
}

impl Board {
    /// Wraps a position, hashing it and filling the accumulator from
    /// scratch with the active network.
    pub fn new(pos: Chess) -> Board {
        let key = full_key(&pos);
        let (pawn_key, non_pawn_keys) = material_keys(&pos);
        let hashed_ep_file = pos.ep_square(EnPassantMode::Legal).map(Square::file);
        let network = nnue::active();
        let accumulator = Accumulator::new(network, pos.board());
        Board {
            pos,
            key,
            pawn_key,
            non_pawn_keys,
            hashed_ep_file,
            network,
            accumulator,
        }
    }

    /// The network's evaluation in centipawns for the side to move.
    pub(crate) fn evaluate(&self) -> i32 {
        self.accumulator
            .evaluate(self.network, self.pos.turn(), self.pos.board().occupied())
    }

    /// The standard starting position.
    pub fn startpos() -> Board {
        Board::new(Chess::default())
    }

    pub fn pos(&self) -> &Chess {
        &self.pos
    }

    pub fn key(&self) -> u64 {
        self.key
    }

    /// The Zobrist key of both sides' pawns.
    pub(crate) fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// The Zobrist key of `color`'s pieces other than pawns.
    pub(crate) fn non_pawn_key(&self, color: Color) -> u64 {
        self.non_pawn_keys[color as usize]
    }

    pub(crate) fn turn(&self) -> Color {
        self.pos.turn()
    }

    pub fn halfmoves(&self) -> u32 {
        self.pos.halfmoves()
    }

    pub(crate) fn is_check(&self) -> bool {
        self.pos.is_check()
    }

    /// Returns the position after the legal move `m`, with its key and
    /// accumulator updated incrementally.
    pub fn play(&self, m: Move) -> Board {
        self.play_announcing_key(m, |_| ())
    }

    /// Plays `m` like [`Board::play`], and hands the child's key to
    /// `announce` before the network's accumulator is updated: the search
    /// prefetches the child's table entry there, so that the memory load
    /// overlaps the update instead of stalling the child's probe.
    pub(crate) fn play_announcing_key(&self, m: Move, announce: impl FnOnce(u64)) -> Board {
        let mover = self.pos.turn();
        let mut pos = self.pos.clone();
        pos.play_unchecked(m);

        let changes = PieceChanges::of(m, mover);
        let mut key = self.key ^ u64::from(Zobrist64::zobrist_for_white_turn());
        let (mut pawn_key, mut non_pawn_keys) = (self.pawn_key, self.non_pawn_keys);
        for &(square, piece) in changes.removed().iter().chain(changes.added()) {
            let change = piece_key(square, piece);
            key ^= change;
            match piece.role {
                Role::Pawn => pawn_key ^= change,
                _ => non_pawn_keys[piece.color as usize] ^= change,
            }
        }
        if self.pos.castles().castling_rights() != pos.castles().castling_rights() {
            key ^= castling_key(&self.pos) ^ castling_key(&pos);
        }
        if let Some(file) = self.hashed_ep_file {
            key ^= ep_key(file);
        }
        // shakmaty records an en passant square only after a double push;
        // the legality check (which generates moves) runs only then.
        let hashed_ep_file = pos
            .maybe_ep_square()
            .and_then(|_| pos.ep_square(EnPassantMode::Legal))
            .map(Square::file);
        if let Some(file) = hashed_ep_file {
            key ^= ep_key(file);
        }
        announce(key);
        Board {
            pos,
            key,
            pawn_key,
            non_pawn_keys,
            hashed_ep_file,
            network: self.network,
            accumulator: self.accumulator.play(self.network, &changes),
        }
    }

    /// Returns the position with the side to move passed, for null-move
    /// pruning, or `None` when that is not a legal setup (in check).
    pub(crate) fn play_null(&self) -> Option<Board> {
        let pos = self.pos.clone().swap_turn().ok()?;
        let mut key = self.key ^ u64::from(Zobrist64::zobrist_for_white_turn());
        if let Some(file) = self.hashed_ep_file {
            key ^= ep_key(file);
        }
        Some(Board {
            pos,
            key,
            pawn_key: self.pawn_key,
            non_pawn_keys: self.non_pawn_keys,
            hashed_ep_file: None,
            network: self.network,
            accumulator: self.accumulator.clone(),
        })
    }
}

/// The key of `pos` computed from scratch.
pub fn full_key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The pawn key and the non-pawn keys (by colour) of `pos` computed from
/// scratch.
fn material_keys(pos: &Chess) -> (u64, [u64; 2]) {
    let (mut pawn_key, mut non_pawn_keys) = (0, [0, 0]);
    for (square, piece) in pos.board().iter() {
        match piece.role {
            Role::Pawn => pawn_key ^= piece_key(square, piece),
            _ => non_pawn_keys[piece.color as usize] ^= piece_key(square, piece),
        }
    }
    (pawn_key, non_pawn_keys)
}

fn piece_key(square: Square, piece: Piece) -> u64 {
    Zobrist64::zobrist_for_piece(square, piece).0
}

fn ep_key(file: File) -> u64 {
    Zobrist64::zobrist_for_en_passant_file(file).0
}

fn castling_key(pos: &Chess) -> u64 {
    let castles = pos.castles();
    let mut key = 0;
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if castles.has(color, side) {
                key ^= Zobrist64::zobrist_for_castling_right(color, side).0;
            }
        }
    }
    key
}

/// Keys of all positions of the game so far, then of the search path.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeyHistory {
    keys: Vec<u64>,
    /// Index of the search's root position in `keys`.
    root: usize,
    /// Indices in `keys` of the positions reached by a null move on the
    /// current search path, innermost last.
    null_positions: Vec<usize>,
}

impl KeyHistory {
    /// A history whose last entry is the root position of a search.
    pub(crate) fn new(game_keys: Vec<u64>) -> KeyHistory {
        let root = game_keys.len().saturating_sub(1);
        KeyHistory {
            keys: game_keys,
            root,
            null_positions: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, key: u64) {
        self.keys.push(key);
    }

    /// Pushes the position after a null move: nothing before it counts as
    /// a repetition of what comes after.
    pub(crate) fn push_null(&mut self, key: u64) {
        self.null_positions.push(self.keys.len());
        self.keys.push(key);
    }

    pub(crate) fn pop(&mut self) {
        debug_assert!(self.keys.len() > self.root + 1, "popped the root");
        self.keys.pop();
        if self.null_positions.last() == Some(&self.keys.len()) {
            self.null_positions.pop();
        }
    }

    /// Whether the last pushed position (with `halfmoves` since the last
    /// capture or pawn move) is a draw by repetition: a repeat of a position
    /// after the root, or a third occurrence counting game history.
    pub(crate) fn is_repetition(&self, halfmoves: u32) -> bool {
        let Some((&key, earlier)) = self.keys.split_last() else {
            return false;
        };
        let since_null = self
            .null_positions
            .last()
            .map_or(earlier.len(), |&null| earlier.len() - null);
        let reach = (halfmoves as usize).min(since_null);
        let mut occurrences = 0;
        // Positions with the same side to move are two plies apart.
        for index in (earlier.len() - reach..earlier.len())
            .rev()
            .skip(1)
            .step_by(2)
        {
            if earlier[index] == key {
                if index > self.root {
                    return true;
                }
                occurrences += 1;
                if occurrences >= 2 {
                    return true;
                }
            }
        }
        false
    }
}

/// Parses a FEN into a playable position, with an error that says what is
/// wrong. A check that no legal move could have given (two sliders on one
/// line, say) is accepted, as perft suites and other engines do: the rules
/// still apply to such a position.
pub fn parse_fen(text: &str, mode: CastlingMode) -> Result<Chess, String> {
    let fen: Fen = text.trim().parse().map_err(|e| format!("{e}"))?;
    fen.into_position(mode)
        .or_else(PositionError::ignore_impossible_check)
        .map_err(|e| format!("{e}"))
}

/// Parses a UCI move and checks that it is legal in `pos`.
pub fn parse_move(pos: &Chess, text: &str) -> Result<Move, String> {
    let uci: UciMove = text.parse().map_err(|_| "not a UCI move".to_string())?;
    uci.to_move(pos)
        .map_err(|_| "illegal in this position".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::rng::SplitMix64;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;

    fn random_games_agree(start: Chess, games: usize, seed: u64) {
        let mut rng = SplitMix64::new(seed);
        let mut checked = 0;
        for _ in 0..games {
            let mut board = Board::new(start.clone());
            for _ in 0..200 {
                let moves = board.pos().legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = rng.choose(&moves);
                board = board.play(m);
                assert_eq!(board.key(), full_key(board.pos()), "after {m:?}");
                let (pawn_key, non_pawn_keys) = material_keys(board.pos());
                assert_eq!(board.pawn_key(), pawn_key, "after {m:?}");
                for color in Color::ALL {
                    assert_eq!(
                        board.non_pawn_key(color),
                        non_pawn_keys[color as usize],
                        "after {m:?}"
                    );
                }
                checked += 1;
            }
        }
        assert!(checked > games * 20);
    }

    #[test]
    fn incremental_key_matches_full_hash_in_random_games() {
        random_games_agree(Chess::default(), 300, 1);
    }

    #[test]
    fn incremental_key_matches_full_hash_from_tricky_positions() {
        for fen in [
            // Castling rights of both sides, en passant possibilities.
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 4",
        ] {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            random_games_agree(pos, 100, 7);
        }
        let pos: Chess = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .unwrap();
        random_games_agree(pos, 100, 9);
    }

    #[test]
    fn en_passant_is_hashed_only_when_legal() {
        // After e2e4 no black pawn can capture: same key as without ep.
        let board = Board::startpos();
        let e4 = UciMove::from_ascii(b"e2e4")
            .unwrap()
            .to_move(board.pos())
            .unwrap();
        let after = board.play(e4);
        assert_eq!(after.key(), full_key(after.pos()));
        assert_eq!(after.hashed_ep_file, None);
    }

    #[test]
    fn null_move_flips_side_and_keeps_key_consistent() {
        let board = Board::startpos();
        let null = board.play_null().unwrap();
        assert_eq!(null.turn(), Color::Black);
        assert_eq!(null.key(), full_key(null.pos()));
    }

    #[test]
    fn repetition_inside_search_is_twofold_and_game_history_needs_three() {
        let a = 1;
        let b = 2;
        // Game: a b a b [root=a]... the root itself is a second occurrence.
        let mut history = KeyHistory::new(vec![a, b, a, b, a]);
        history.push(b);
        // b occurred twice in the game before: third occurrence.
        assert!(history.is_repetition(10));
        history.pop();

        let mut fresh = KeyHistory::new(vec![a]);
        fresh.push(b);
        fresh.push(3);
        fresh.push(b);
        // b repeats inside the search path: twofold is enough.
        assert!(fresh.is_repetition(10));
        // A capture in between (halfmoves 1) makes it unreachable.
        assert!(!fresh.is_repetition(1));

        let mut once = KeyHistory::new(vec![b, 3, a]);
        once.push(4);
        once.push(b);
        // b occurred once, before the root: only twofold, not a draw.
        assert!(!once.is_repetition(10));
    }

    #[test]
    fn positions_before_a_null_move_do_not_repeat_after_it() {
        let (root, a, b, c, d) = (1, 2, 3, 4, 5);
        let mut history = KeyHistory::new(vec![root]);
        history.push(a);
        history.push(b);
        history.push_null(c);
        history.push(d);
        history.push(a);
        // a's earlier occurrence lies before the null move.
        assert!(!history.is_repetition(10));
        for _ in 0..3 {
            history.pop();
        }
        // The same keys reached by real moves do repeat.
        history.push(c);
        history.push(d);
        history.push(a);
        assert!(history.is_repetition(10));

        // A repeat after the null move still counts.
        let mut after = KeyHistory::new(vec![root]);
        after.push_null(a);
        after.push(b);
        after.push(c);
        after.push(b);
        assert!(after.is_repetition(10));
    }
}
