//! The self-play game record: how `rookery datagen` stores its games and
//! how the trainer and the text converter read them back.
//!
//! Games, not positions, are stored: a start position, then one 16-bit move
//! and one 16-bit score per ply, then nothing else. A position costs four
//! bytes instead of a FEN's sixty, so tens of millions fit in a few hundred
//! MB, and every position of a game can be rebuilt by replaying its moves.
//!
//! ```text
//! one game, little-endian, games simply follow one another:
//!   u8       length L of the start FEN
//!   L bytes  start FEN (ASCII, standard chess)
//!   u8       result from White's view: 0 = loss, 1 = draw, 2 = win
//!   u16      ply count N
//!   N times  u16 move (tt::PackedMove: from | to << 6 | promotion << 12)
//!            i16 score of the position before the move, centipawns from
//!                White's view, as the search found it (mate scores clamped)
//! ```
//!
//! A file is only ever appended to, one whole game per write, so a
//! generator that is interrupted leaves every finished game readable; the
//! reader ignores a truncated last record.
//!
//! Which positions are fit for training is decided when reading
//! ([`TrainingPosition`]): not in check, a quiet best move, no mate score.

use std::io::{self, Read, Write};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

use crate::score::TB_WIN_BOUND;
use crate::tt::PackedMove;

/// Bytes a ply takes: the packed move and the score.
const PLY_BYTES: usize = 4;
/// Bytes of a game's header besides its FEN: the FEN's length, the result
/// and the ply count.
const HEADER_BYTES: usize = 4;

/// The game's result from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    BlackWins = 0,
    Draw = 1,
    WhiteWins = 2,
}

impl GameResult {
    /// 0.0, 0.5 or 1.0: White's share of the point.
    pub fn white_score(self) -> f32 {
        f32::from(self as u8) / 2.0
    }

    fn from_byte(byte: u8) -> Option<GameResult> {
        match byte {
            0 => Some(GameResult::BlackWins),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::WhiteWins),
            _ => None,
        }
    }
}

/// One ply of a game: the move played and the search's score before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    pub best_move: Move,
    /// Centipawns from White's view.
    pub white_score: i16,
}

/// A self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub start: Chess,
    pub plies: Vec<Ply>,
    pub result: GameResult,
}

impl GameRecord {
    /// Appends the encoded game to `out` in one write.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        let fen = Fen::from_position(&self.start, EnPassantMode::Legal).to_string();
        let fen_length = u8::try_from(fen.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "FEN over 255 bytes"))?;
        let ply_count = u16::try_from(self.plies.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "game over 65535 plies"))?;
        let mut bytes = Vec::with_capacity(HEADER_BYTES + fen.len() + PLY_BYTES * self.plies.len());
        bytes.push(fen_length);
        bytes.extend_from_slice(fen.as_bytes());
        bytes.push(self.result as u8);
        bytes.extend_from_slice(&ply_count.to_le_bytes());
        for ply in &self.plies {
            bytes.extend_from_slice(&PackedMove::new(ply.best_move).bits().to_le_bytes());
            bytes.extend_from_slice(&ply.white_score.to_le_bytes());
        }
        out.write_all(&bytes)
    }

    /// Reads the next game: `Ok(None)` at the end of the input or at a
    /// truncated last record, an error for a record that does not decode
    /// (a bad FEN, an illegal move, an unknown result).
    pub fn read_from(input: &mut impl Read) -> io::Result<Option<GameRecord>> {
        let mut byte = [0u8; 1];
        if !read_or_eof(input, &mut byte)? {
            return Ok(None);
        }
        let mut fen = vec![0u8; usize::from(byte[0])];
        let mut header = [0u8; 3];
        if !read_or_eof(input, &mut fen)? || !read_or_eof(input, &mut header)? {
            return Ok(None);
        }
        let start = Fen::from_ascii(&fen)
            .ok()
            .and_then(|fen| fen.into_position::<Chess>(CastlingMode::Standard).ok())
            .ok_or_else(|| invalid("bad start FEN"))?;
        let result = GameResult::from_byte(header[0]).ok_or_else(|| invalid("bad result"))?;
        let ply_count = usize::from(u16::from_le_bytes([header[1], header[2]]));
        let mut body = vec![0u8; PLY_BYTES * ply_count];
        if !read_or_eof(input, &mut body)? {
            return Ok(None);
        }
        let mut pos = start.clone();
        let mut plies = Vec::with_capacity(ply_count);
        for chunk in body.chunks_exact(PLY_BYTES) {
            let packed = PackedMove::from_bits(u16::from_le_bytes([chunk[0], chunk[1]]));
            let best_move = packed
                .to_move(&pos)
                .ok_or_else(|| invalid("illegal move"))?;
            pos.play_unchecked(best_move);
            plies.push(Ply {
                best_move,
                white_score: i16::from_le_bytes([chunk[2], chunk[3]]),
            });
        }
        Ok(Some(GameRecord {
            start,
            plies,
            result,
        }))
    }

    /// The positions of the game fit for training, in order.
    pub fn training_positions(&self) -> Vec<TrainingPosition> {
        let mut positions = Vec::new();
        let mut pos = self.start.clone();
        for ply in &self.plies {
            let quiet = !ply.best_move.is_capture() && !ply.best_move.is_promotion();
            let decided = i32::from(ply.white_score).abs() >= TB_WIN_BOUND;
            if quiet && !decided && !pos.is_check() {
                positions.push(TrainingPosition {
                    pos: pos.clone(),
                    white_score: ply.white_score,
                    result: self.result,
                });
            }
            pos.play_unchecked(ply.best_move);
        }
        positions
    }
}

/// A position to learn from, with its search score and its game's result.
#[derive(Clone, Debug)]
pub struct TrainingPosition {
    pub pos: Chess,
    /// Centipawns from White's view.
    pub white_score: i16,
    pub result: GameResult,
}

impl TrainingPosition {
    /// The text form shared with other tools:
    /// `<FEN> | <score cp, White's view> | <1.0|0.5|0.0>`.
    pub fn to_text(&self) -> String {
        let fen = Fen::from_position(&self.pos, EnPassantMode::Legal);
        format!(
            "{fen} | {} | {:.1}",
            self.white_score,
            self.result.white_score()
        )
    }
}

/// Fills `buffer`; `Ok(false)` when the input ends first (cleanly or not).
fn read_or_eof(input: &mut impl Read, buffer: &mut [u8]) -> io::Result<bool> {
    match input.read_exact(buffer) {
        Ok(()) => Ok(true),
        Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => Ok(false),
        Err(error) => Err(error),
    }
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("game record: {what}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::uci::UciMove;

    fn game(moves: &[&str], scores: &[i16], result: GameResult) -> GameRecord {
        let start = Chess::default();
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

    #[test]
    fn games_round_trip_and_a_truncated_tail_is_ignored() {
        let first = game(
            &["e2e4", "d7d5", "e4d5", "g8f6", "f1b5", "c7c6"],
            &[20, -15, 30, 90, 80, 75],
            GameResult::WhiteWins,
        );
        let second = game(&["g1f3"], &[-5], GameResult::Draw);
        let mut bytes = Vec::new();
        first.write_to(&mut bytes).unwrap();
        second.write_to(&mut bytes).unwrap();
        let whole = bytes.len();
        bytes.extend_from_within(..7);

        let mut input = &bytes[..];
        assert_eq!(GameRecord::read_from(&mut input).unwrap(), Some(first));
        assert_eq!(GameRecord::read_from(&mut input).unwrap(), Some(second));
        assert_eq!(GameRecord::read_from(&mut input).unwrap(), None);
        assert_eq!(bytes.len() - whole, 7);
    }

    #[test]
    fn training_positions_skip_checks_tactical_moves_and_mates() {
        // 1. e4 d5 2. exd5 (capture) Nf6 3. Bb5+ (quiet, gives check)
        // c6 (played in check) 4. ... with a mate score on the last ply.
        let record = game(
            &["e2e4", "d7d5", "e4d5", "g8f6", "f1b5", "c7c6", "d5c6"],
            &[20, -15, 30, 90, 80, 75, 31000],
            GameResult::WhiteWins,
        );
        let kept: Vec<i16> = record
            .training_positions()
            .iter()
            .map(|p| p.white_score)
            .collect();
        assert_eq!(kept, vec![20, -15, 90, 80]);
        let first = &record.training_positions()[0];
        assert_eq!(
            first.to_text(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 20 | 1.0"
        );
    }
}
