//! The self-play game record: how `rookery datagen` stores its games and
//! how the trainer, the text converter and the data manifest read them
//! back. Two programs share it (the engine's tools write, the trainer
//! reads), so it is a module of its own, below both, that knows nothing
//! of the search:
//! * this file: the record format, its versions' writing (the
//!   fixed-width layout of versions 1 and 2 in `fixed.rs`, the compact one
//!   of 3 and 4 in `compact.rs`), and the training filter;
//! * `reader.rs`: reading every version back, and telling a whole file
//!   from a cut one;
//! * [`chunks`]: the files a generator writes, finished and compressed
//!   chunk by chunk, and closing those a run left open;
//! * [`manifest`]: the list of a data folder's files with their counts,
//!   and what it vouches for;
//! * [`convert`]: rewriting old files in the current version.
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
//!   versions 3 and 4 (compact, `compact.rs`):
//!     varint   ply count N
//!     N bytes  each move as its index among the position's legal moves
//!              sorted by their 16-bit encoding
//!     N varints each score as the zigzag of its difference from the
//!              last scored ply's, plus one; 0 means "not scored"
//!   trailer (version 4 on; the file's last bytes)
//!     4 bytes  magic FE 45 4E 44 (0xFE, then "END")
//!     u64      the number of games before it
//!     32 bytes SHA-256 of every byte before it, header included
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
//! Version 4 is version 3 with a trailer (below). A version-1 file cannot
//! start with the magic: its first byte is a FEN's length, far below 0xFF.
//! This build reads every version and writes only the newest; `rookery
//! dataconvert` rewrites old files.
//!
//! **The trailer: a cut file is refused.** Without one, a file cut at a
//! game's end (a full disk, a killed copy, an xz stream cut and
//! recompressed) reads exactly like a whole file with fewer games. So a
//! file of version 4 ends in a trailer giving its number of games and the
//! SHA-256 of everything before it; the reader checks both, and input that
//! ends without the trailer, or inside a game, is an error naming the file,
//! the byte where reading stopped and the games read. It is a new version
//! rather than a trailer record inside version 3 because a build that
//! reads up to version 3 would take such a record for a game cut short
//! (its first byte a FEN's length) and end there without a word: it refuses
//! a version-4 file outright instead. The checksum covers the header too,
//! so the notes that say where the games came from cannot change unseen;
//! it is computed by the writer from the bytes it means to write, never by
//! reading them back. A cut xz stream is an error of its own (the decoder
//! says where the compressed bytes stopped), whatever the version.
//!
//! Files of versions 1 to 3, every file committed before version 4, have
//! no trailer: they read to their last whole game, and
//! [`GameReader::has_trailer`] says that nothing in them vouches for their
//! end. Their manifest rows do (size and SHA-256): `manifest::vouch_for_end`
//! is what the tools ask, and they refuse such a file that no row vouches
//! for (`rookery dataconvert`, which exists to read old files, only says
//! so).
//!
//! **Open files.** A file being written (a chunk's `.part`, a `datagen
//! --output` file while its run lasts) has no trailer yet: one game per
//! write, so an interrupted generator leaves every finished game readable.
//! Only `rookery dataclose` reads such a file ([`Ending::Open`]): up to its
//! last whole game, dropping one the interruption cut; it then writes the
//! games again with their trailer. Files of one version joined end to end
//! (`cat a.bin.xz b.bin.xz`) read as one: each part is checked against its
//! own trailer, and the reader skips a header met between games. Files
//! whose name ends in `.xz` are decompressed as they are read
//! ([`open_game_file`]).
//!
//! Which positions are fit for training is decided when reading
//! ([`TrainingPosition`]): scored, from game ply [`MIN_TRAINING_PLY`] on,
//! not in check, a quiet best move, no mate or tablebase score (nor the
//! largest evaluation, which a spoilt one becomes). That filter has a
//! version, [`TRAINING_FILTER_VERSION`], named by every list of counts.

pub mod chunks;
mod compact;
pub mod convert;
mod fixed;
pub mod manifest;
mod reader;

use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, Read, Write};
use std::path::Path;

use sha2::{Digest, Sha256};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, Role, Square};

use crate::score::is_decided;

pub(crate) use reader::{Ending, open_part_file};
pub use reader::{GameReader, open_game_file};

/// The first bytes of a file of version 2 or later.
const MAGIC: [u8; 4] = [0xFF, b'R', b'K', b'G'];
/// The version this build writes.
pub(crate) const FORMAT_VERSION: u16 = 4;
/// The headerless first version.
const FIRST_VERSION: u16 = 1;
/// The first version that can mark a ply as not scored.
const UNSCORED_PLIES_VERSION: u16 = 2;
/// The first version with notes in its header, and compact plies.
const COMPACT_VERSION: u16 = 3;
/// The first version whose files end in a trailer.
const TRAILER_VERSION: u16 = 4;
/// Bytes of the header's fixed part: the magic and the version.
const FILE_HEADER_BYTES: usize = MAGIC.len() + 2;
/// The first bytes of the trailer: 0xFE is neither a FEN's length (under
/// a hundred) nor the header's first byte.
const TRAILER_MAGIC: [u8; 4] = [0xFE, b'E', b'N', b'D'];
/// Bytes of the trailer's game count.
const TRAILER_COUNT_BYTES: usize = 8;
/// Bytes of the trailer's checksum, a SHA-256.
const CHECKSUM_BYTES: usize = 32;
/// Bytes of the trailer.
const TRAILER_BYTES: usize = TRAILER_MAGIC.len() + TRAILER_COUNT_BYTES + CHECKSUM_BYTES;
/// Bits of a square in a stored move.
const SQUARE_BITS: u16 = 6;
const SQUARE_MASK: u16 = (1 << SQUARE_BITS) - 1;
/// Where the promotion's role starts in a stored move.
const PROMOTION_SHIFT: u16 = 2 * SQUARE_BITS;
/// Positions before this game ply (counted from the standard start, so
/// the random opening and the first plies after it) are not trained on:
/// they are the random opening's, not the engine's, and alike across games.
pub(crate) const MIN_TRAINING_PLY: u32 = 16;
/// The version of the training filter, [`is_fit_for_training`] with
/// [`MIN_TRAINING_PLY`]: which positions of a game are trained on. A count
/// of training positions (a manifest's, a network's data list's) is a
/// count under one version, which its file names, and the trainer refuses
/// a list whose version is not this one. A change to what the filter keeps
/// must come with a new version: `record_tests.rs` pins the filter's
/// output on fixed games to each version, so one cannot change without the
/// other. Version 1 is the filter of every list until this constant
/// existed (their counts are what it gives).
pub const TRAINING_FILTER_VERSION: u32 = 1;

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

/// Writes a game file of [`FORMAT_VERSION`]: the header, each game in one
/// write, and at [`GameWriter::finish`] the trailer, whose checksum is of
/// the bytes given to `out`.
pub(crate) struct GameWriter<W: Write> {
    out: W,
    hasher: Sha256,
    games: u64,
}

impl<W: Write> GameWriter<W> {
    /// Writes the header with `notes` to `out`.
    pub(crate) fn new(mut out: W, notes: &str) -> io::Result<GameWriter<W>> {
        let header = file_header(notes)?;
        out.write_all(&header)?;
        let mut hasher = Sha256::new();
        hasher.update(&header);
        Ok(GameWriter {
            out,
            hasher,
            games: 0,
        })
    }

    /// Appends `game` in one write.
    pub(crate) fn write(&mut self, game: &GameRecord) -> io::Result<()> {
        let bytes = game.encode()?;
        self.out.write_all(&bytes)?;
        self.hasher.update(&bytes);
        self.games += 1;
        Ok(())
    }

    /// Games written.
    pub(crate) fn games(&self) -> u64 {
        self.games
    }

    /// Writes the trailer; the file is then finished.
    pub(crate) fn finish(mut self) -> io::Result<W> {
        let mut trailer = TRAILER_MAGIC.to_vec();
        trailer.extend_from_slice(&self.games.to_le_bytes());
        trailer.extend_from_slice(&self.hasher.finalize());
        self.out.write_all(&trailer)?;
        Ok(self.out)
    }
}

/// Opens a game file for appending games of [`FORMAT_VERSION`]: a new or
/// empty file gets the header with `notes`; an existing one must read to
/// its end, every part with its trailer (a run that was interrupted left
/// none: `rookery dataclose FILE` closes it), and be of this version with
/// the same notes (games of two versions, or of two engines, seeds or node
/// limits, never share a file, so a file's notes stay true of every game
/// in it). Each run appends a part of its own, header, games and, at
/// [`GameWriter::finish`], trailer, as files joined end to end.
pub(crate) fn open_for_append(path: &Path, notes: &str) -> io::Result<GameWriter<File>> {
    let mut file = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)?;
    if file.metadata()?.len() > 0 {
        let name = path.display().to_string();
        let mut reader = GameReader::open(BufReader::new(&mut file), name, Ending::Finished)?;
        let refusal = if reader.version() != FORMAT_VERSION {
            format!(
                "holds games of format version {}; this build appends version {FORMAT_VERSION}",
                reader.version()
            )
        } else if reader.notes() != notes {
            format!("holds games noted '{}', not '{notes}'", reader.notes())
        } else {
            while reader.next_game()?.is_some() {}
            String::new()
        };
        if !refusal.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{} {refusal}: choose a new file", path.display()),
            ));
        }
    }
    GameWriter::new(file, notes)
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

impl GameRecord {
    /// The game's bytes (of [`FORMAT_VERSION`]), as [`GameWriter`] writes
    /// them.
    pub(crate) fn encode(&self) -> io::Result<Vec<u8>> {
        let fen = Fen::from_position(&self.start, EnPassantMode::Legal).to_string();
        let fen_length = u8::try_from(fen.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "FEN over 255 bytes"))?;
        let mut bytes = Vec::with_capacity(fen.len() + 2 + 3 * self.plies.len());
        bytes.push(fen_length);
        bytes.extend_from_slice(fen.as_bytes());
        bytes.push(self.result as u8);
        compact::write_plies(&mut bytes, &self.start, &self.plies)?;
        Ok(bytes)
    }

    /// The positions of the game fit for training, in order.
    pub fn training_positions(&self) -> Vec<TrainingPosition> {
        let mut positions = Vec::new();
        self.for_each_training_position(|pos, white_score| {
            positions.push(TrainingPosition {
                pos: pos.clone(),
                white_score,
                result: self.result,
            });
        });
        positions
    }

    /// How many positions of the game are fit for training.
    pub fn training_position_count(&self) -> usize {
        let mut count = 0;
        self.for_each_training_position(|_, _| count += 1);
        count
    }

    /// Calls `keep` with each position fit for training and its score.
    fn for_each_training_position(&self, mut keep: impl FnMut(&Chess, i16)) {
        let mut pos = self.start.clone();
        for ply in &self.plies {
            if let Some(white_score) = ply.white_score
                && is_fit_for_training(&pos, ply.best_move, white_score)
            {
                keep(&pos, white_score);
            }
            pos.play_unchecked(ply.best_move);
        }
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

/// Fills `buffer`; `Ok(false)` when the input ends first. A compressed
/// stream cut short is an error, not an end ([`reader::XzInput`]).
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
