//! The self-play game record: how `rookery datagen` stores its games and
//! how the trainer, the text converter and the data manifest read them
//! back.
//!
//! Games, not positions, are stored: a start position, then each ply's
//! move and the search's score before it. Every position of a game can be
//! rebuilt by replaying its moves, so a position costs a few bytes instead
//! of a FEN's sixty.
//!
//! ```text
//! file, little-endian:
//!   header (version 2 on; version 1 files have none)
//!     4 bytes  magic FF 52 4B 47 (0xFF, then "RKG")
//!     u16      format version
//!     from version 3: u16 length L, then L bytes of notes (UTF-8,
//!              `key=value` words: engine commit, network, seed, ...)
//!   games, one after another:
//!     u8       length L of the start FEN
//!     L bytes  start FEN (ASCII, standard chess)
//!     u8       result from White's view: 0 = loss, 1 = draw, 2 = win
//!     then the plies, in the version's layout:
//!   versions 1 and 2 (fixed width, `fixed.rs`):
//!     u16      ply count N
//!     N times  u16 move (below), i16 score
//!   version 3 (compact, `compact.rs`):
//!     varint   ply count N
//!     N bytes  each move as its index among the position's legal moves
//!              sorted by their 16-bit encoding
//!     N varints each score as the zigzag of its difference from the
//!              last scored ply's, plus one; 0 means "not scored"
//!
//! score: centipawns from White's view of the position before the move, as
//!   the search found it (mate scores clamped); from version 2 a ply can
//!   be "not scored" (version 2 stores -32768 for it)
//! move: from | to << 6 | promotion << 12
//!   squares 0 = a1 … 63 = h8; castling is king square → rook square;
//!   promotion 0 = none, 2 = knight, 3 = bishop, 4 = rook, 5 = queen
//! ```
//!
//! **Versions.** Version 1 (the archive's first files, until session 24)
//! had no header and always stored a score, some of them from a search the
//! node limit cut inside an iteration. Version 2 added the header and
//! marks a ply whose search completed no iteration at its last depth as
//! not scored, so training never learns from a bound. Version 3 stores the
//! same games in about 60% of the space after xz (2.4 bytes a training
//! position instead of 4.2, measured on the archive): a move is one byte,
//! its index in an order that depends only on the position and the move
//! encoding (never on the move generator's order), and a score is usually
//! one byte, as neighbouring
//! plies score alike; the notes make every file say where it came from.
//! A version-1 file cannot start with the magic: its first byte is a
//! FEN's length, far below 0xFF. This build reads every version and writes
//! only the newest; `rookery dataconvert` rewrites old files.
//!
//! A file is only ever appended to, one whole game per write, so a
//! generator that is interrupted leaves every finished game readable; the
//! reader ignores a truncated last record. Files whose name ends in `.xz`
//! are decompressed as they are read ([`open_game_file`]), and files of
//! one version joined end to end (`cat a.bin.xz b.bin.xz`) read as one:
//! the reader skips a header met between games.
//!
//! Which positions are fit for training is decided when reading
//! ([`TrainingPosition`]): scored, from game ply [`MIN_TRAINING_PLY`] on,
//! not in check, a quiet best move, no mate or tablebase score (nor the
//! largest evaluation, which a spoilt one becomes).

mod compact;
mod fixed;

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, Role, Square};

use crate::score::is_decided;

/// The first bytes of a file of version 2 or later.
const MAGIC: [u8; 4] = [0xFF, b'R', b'K', b'G'];
/// The version this build writes.
pub(crate) const FORMAT_VERSION: u16 = 3;
/// The headerless first version.
const FIRST_VERSION: u16 = 1;
/// The first version that can mark a ply as not scored.
const UNSCORED_PLIES_VERSION: u16 = 2;
/// The first version with notes in its header, and compact plies.
const COMPACT_VERSION: u16 = 3;
/// Bytes of the header's fixed part: the magic and the version.
const FILE_HEADER_BYTES: usize = MAGIC.len() + 2;
/// Bits of a square in a stored move.
const SQUARE_BITS: u16 = 6;
const SQUARE_MASK: u16 = (1 << SQUARE_BITS) - 1;
/// Where the promotion's role starts in a stored move.
const PROMOTION_SHIFT: u16 = 2 * SQUARE_BITS;
/// Positions before this game ply (counted from the standard start, so
/// the random opening and the first plies after it) are not trained on:
/// they are the random opening's, not the engine's, and alike across games.
pub(crate) const MIN_TRAINING_PLY: u32 = 16;

/// The game's result from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    BlackWins = 0,
    Draw = 1,
    WhiteWins = 2,
}

impl GameResult {
    /// 0.0, 0.5 or 1.0: White's share of the point.
    pub(crate) fn white_score(self) -> f32 {
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
pub(crate) struct Ply {
    pub(crate) best_move: Move,
    /// Centipawns from White's view; `None` when the search completed no
    /// iteration at the depth it played the move from.
    pub(crate) white_score: Option<i16>,
}

impl Ply {
    /// The ply of `best_move` with a search score (White's view) clamped
    /// into what the record stores.
    pub(crate) fn scored(best_move: Move, white_score: i32) -> Ply {
        let stored = white_score.clamp(-i32::from(i16::MAX), i32::from(i16::MAX));
        Ply {
            best_move,
            white_score: Some(stored as i16),
        }
    }
}

/// A self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub(crate) start: Chess,
    pub(crate) plies: Vec<Ply>,
    pub(crate) result: GameResult,
}

/// Opens a game file for appending games of [`FORMAT_VERSION`]: a new or
/// empty file gets the header with `notes`; an existing one must already
/// have the header of this version with the same notes (games of two
/// versions, or of two engines, seeds or node limits, never share a file,
/// so a file's notes stay true of every game in it).
pub(crate) fn open_for_append(path: &Path, notes: &str) -> io::Result<File> {
    let mut file = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)?;
    if file.metadata()?.len() == 0 {
        file.write_all(&file_header(notes)?)?;
        return Ok(file);
    }
    let reader = GameReader::new(BufReader::new(&mut file))?;
    let refusal = if reader.version() != FORMAT_VERSION {
        format!(
            "holds games of format version {}; this build appends version {FORMAT_VERSION}",
            reader.version()
        )
    } else if reader.notes() != notes {
        format!("holds games noted '{}', not '{notes}'", reader.notes())
    } else {
        return Ok(file);
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{} {refusal}: choose a new file", path.display()),
    ))
}

/// The bytes a file of [`FORMAT_VERSION`] starts with.
pub(crate) fn file_header(notes: &str) -> io::Result<Vec<u8>> {
    let length = u16::try_from(notes.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "notes over 65535 bytes"))?;
    let mut header = MAGIC.to_vec();
    header.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    header.extend_from_slice(&length.to_le_bytes());
    header.extend_from_slice(notes.as_bytes());
    Ok(header)
}

/// Turns an I/O error into one that names `path`.
pub(crate) fn naming(path: &Path) -> impl Fn(io::Error) -> io::Error + '_ {
    move |error| io::Error::new(error.kind(), format!("{}: {error}", path.display()))
}

/// The games of the file at `path`, decompressed on the way when its name
/// ends in `.xz` (every xz stream of it: `cat a.xz b.xz` is one file).
pub fn open_game_file(path: &Path) -> io::Result<GameReader<Box<dyn BufRead + Send>>> {
    let with_path = naming(path);
    let file = File::open(path).map_err(&with_path)?;
    let input: Box<dyn BufRead + Send> = if path.extension().is_some_and(|e| e == "xz") {
        Box::new(BufReader::new(liblzma::read::XzDecoder::new_multi_decoder(
            file,
        )))
    } else {
        Box::new(BufReader::new(file))
    };
    GameReader::new(input).map_err(with_path)
}

/// Reads the games of one file (any version) in order.
pub struct GameReader<R> {
    input: R,
    version: u16,
    notes: String,
}

impl<R: BufRead> GameReader<R> {
    /// Reads the file's header, if it has one: an error for a file of a
    /// version this build does not know.
    pub fn new(mut input: R) -> io::Result<GameReader<R>> {
        let starts_with_magic = input.fill_buf()?.first() == Some(&MAGIC[0]);
        if !starts_with_magic {
            return Ok(GameReader {
                input,
                version: FIRST_VERSION,
                notes: String::new(),
            });
        }
        let mut header = [0u8; FILE_HEADER_BYTES];
        input.read_exact(&mut header)?;
        if header[..MAGIC.len()] != MAGIC {
            return Err(invalid("not a game file (bad magic)"));
        }
        let version = u16::from_le_bytes([header[MAGIC.len()], header[MAGIC.len() + 1]]);
        if !(FIRST_VERSION..=FORMAT_VERSION).contains(&version) {
            return Err(invalid(&format!(
                "format version {version}, this build reads up to {FORMAT_VERSION}"
            )));
        }
        let mut notes = String::new();
        if version >= COMPACT_VERSION {
            let mut length = [0u8; 2];
            input.read_exact(&mut length)?;
            let mut bytes = vec![0u8; usize::from(u16::from_le_bytes(length))];
            input.read_exact(&mut bytes)?;
            notes = String::from_utf8(bytes).map_err(|_| invalid("notes are not UTF-8"))?;
        }
        Ok(GameReader {
            input,
            version,
            notes,
        })
    }

    /// The file's format version.
    pub fn version(&self) -> u16 {
        self.version
    }

    /// Reads the rest of a header met between games (its first byte read):
    /// it must be of this file's version; `Ok(false)` when the input ends
    /// inside it. Its notes are not kept: the first file's stand.
    fn skip_joined_header(&mut self) -> io::Result<bool> {
        let mut header = [0u8; FILE_HEADER_BYTES - 1];
        if !read_or_eof(&mut self.input, &mut header)? {
            return Ok(false);
        }
        let version = u16::from_le_bytes([header[MAGIC.len() - 1], header[MAGIC.len()]]);
        if header[..MAGIC.len() - 1] != MAGIC[1..] || version != self.version {
            return Err(invalid("a joined file of another version, or a bad magic"));
        }
        if version >= COMPACT_VERSION {
            let mut length = [0u8; 2];
            if !read_or_eof(&mut self.input, &mut length)? {
                return Ok(false);
            }
            let mut notes = vec![0u8; usize::from(u16::from_le_bytes(length))];
            return read_or_eof(&mut self.input, &mut notes);
        }
        Ok(true)
    }

    /// The notes of the file's header (empty before version 3).
    pub fn notes(&self) -> &str {
        &self.notes
    }

    /// Reads the next game: `Ok(None)` at the end of the input or at a
    /// truncated last record, an error for a record that does not decode
    /// (a bad FEN, an illegal move, an unknown result).
    pub fn next_game(&mut self) -> io::Result<Option<GameRecord>> {
        let mut byte = [0u8; 1];
        if !read_or_eof(&mut self.input, &mut byte)? {
            return Ok(None);
        }
        // Another file's header (files joined end to end, `cat a b`): a
        // FEN's length is never 0xFF.
        if byte[0] == MAGIC[0]
            && self.version > FIRST_VERSION
            && (!self.skip_joined_header()? || !read_or_eof(&mut self.input, &mut byte)?)
        {
            return Ok(None);
        }
        let input = &mut self.input;
        let mut fen = vec![0u8; usize::from(byte[0])];
        if !read_or_eof(input, &mut fen)? || !read_or_eof(input, &mut byte)? {
            return Ok(None);
        }
        let start = Fen::from_ascii(&fen)
            .ok()
            .and_then(|fen| fen.into_position::<Chess>(CastlingMode::Standard).ok())
            .ok_or_else(|| invalid("bad start FEN"))?;
        let result = GameResult::from_byte(byte[0]).ok_or_else(|| invalid("bad result"))?;
        let plies = if self.version >= COMPACT_VERSION {
            compact::read_plies(input, &start)?
        } else {
            let unscored_marked = self.version >= UNSCORED_PLIES_VERSION;
            fixed::read_plies(input, &start, unscored_marked)?
        };
        Ok(plies.map(|plies| GameRecord {
            start,
            plies,
            result,
        }))
    }
}

impl GameRecord {
    /// Appends the encoded game (of [`FORMAT_VERSION`]) to `out` in one
    /// write; the file's header is [`file_header`]'s.
    pub(crate) fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        let fen = Fen::from_position(&self.start, EnPassantMode::Legal).to_string();
        let fen_length = u8::try_from(fen.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "FEN over 255 bytes"))?;
        let mut bytes = Vec::with_capacity(fen.len() + 2 + 3 * self.plies.len());
        bytes.push(fen_length);
        bytes.extend_from_slice(fen.as_bytes());
        bytes.push(self.result as u8);
        compact::write_plies(&mut bytes, &self.start, &self.plies)?;
        out.write_all(&bytes)
    }

    /// The positions of the game fit for training, in order.
    pub fn training_positions(&self) -> Vec<TrainingPosition> {
        let mut positions = Vec::new();
        let mut pos = self.start.clone();
        for ply in &self.plies {
            if let Some(white_score) = ply.white_score
                && is_fit_for_training(&pos, ply.best_move, white_score)
            {
                positions.push(TrainingPosition {
                    pos: pos.clone(),
                    white_score,
                    result: self.result,
                });
            }
            pos.play_unchecked(ply.best_move);
        }
        positions
    }

    /// Plies recorded.
    pub fn ply_count(&self) -> usize {
        self.plies.len()
    }
}

/// Whether a scored position is one to learn from: late enough, quiet (not
/// in check, no capture or promotion to play) and not already decided.
fn is_fit_for_training(pos: &Chess, best_move: Move, white_score: i16) -> bool {
    let quiet = !best_move.is_capture() && !best_move.is_promotion() && !pos.is_check();
    // Mates and tablebase results, and a proven result the fifty-move rule
    // downgraded to the largest evaluation, which is no evaluation either:
    // the same predicate keeps them out of correction history.
    quiet && !is_decided(i32::from(white_score)) && game_ply(pos) >= MIN_TRAINING_PLY
}

/// Plies played since the standard start position, by the move counter.
fn game_ply(pos: &Chess) -> u32 {
    let full_moves_done = pos.fullmoves().get() - 1;
    2 * full_moves_done + u32::from(pos.turn() == Color::Black)
}

/// The record's 16 bits of `m` (see the module notes).
fn encode_move(m: Move) -> u16 {
    let (from, to) = match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
        Move::Castle { king, rook } => (king, rook),
        Move::Put { to, .. } => (to, to),
    };
    let promotion = m.promotion().map_or(0, |role| role as u16);
    u16::from(from) | (u16::from(to) << SQUARE_BITS) | (promotion << PROMOTION_SHIFT)
}

/// The legal move of `pos` that `bits` encodes, if any.
fn decode_move(bits: u16, pos: &Chess) -> Option<Move> {
    let from = Square::new(u32::from(bits & SQUARE_MASK));
    let to = Square::new(u32::from((bits >> SQUARE_BITS) & SQUARE_MASK));
    let promotion = match bits >> PROMOTION_SHIFT {
        0 => None,
        number => Some(*Role::ALL.get(usize::from(number).checked_sub(1)?)?),
    };
    let m = UciMove::Normal {
        from,
        to,
        promotion,
    }
    .to_move(pos)
    .ok()?;
    // King-takes-rook is castling only where the rook may be taken that
    // way; a move that encodes differently is some other move.
    (encode_move(m) == bits).then_some(m)
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
/// A compressed stream cut short ends the same way: the decoder says
/// "unexpected end" for it.
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
mod record_tests;
