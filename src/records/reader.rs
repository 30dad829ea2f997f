//! Reading game files: the readers of every format version, one game at
//! a time, with the checks that tell a whole file from a cut one (an xz
//! stream that ends early, a game cut short, a trailer missing or wrong;
//! the parent module's notes describe them). Reading is the larger half of
//! the record and shares nothing with writing but the format's constants,
//! so it has a file of its own.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use sha2::{Digest, Sha256};

use super::*;

/// The games of the finished file at `path`, decompressed on the way when
/// its name ends in `.xz` (every xz stream of it: `cat a.xz b.xz` is one
/// file). Every error names the file.
pub fn open_game_file(path: &Path) -> io::Result<GameReader<Box<dyn BufRead + Send>>> {
    open_as(path, Ending::Finished)
}

/// The whole games of the open file at `path` (see [`Ending::Open`]).
pub(crate) fn open_part_file(path: &Path) -> io::Result<GameReader<Box<dyn BufRead + Send>>> {
    open_as(path, Ending::Open)
}

fn open_as(path: &Path, ending: Ending) -> io::Result<GameReader<Box<dyn BufRead + Send>>> {
    let file = File::open(path).map_err(naming(path))?;
    let input: Box<dyn BufRead + Send> = if path.extension().is_some_and(|e| e == "xz") {
        Box::new(BufReader::new(XzInput(
            liblzma::read::XzDecoder::new_multi_decoder(file),
        )))
    } else {
        Box::new(BufReader::new(file))
    };
    GameReader::open(input, path.display().to_string(), ending)
}

/// An xz decoder whose input ending early is an error, not the end of the
/// file (the decoder reports it as an unexpected end, which is how a read
/// that finds the end of a file ends too).
pub(super) struct XzInput<R: Read>(pub(super) liblzma::read::XzDecoder<R>);

impl<R: Read> Read for XzInput<R> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let read = self.0.read(buffer);
        read.map_err(|error| {
            if error.kind() == io::ErrorKind::UnexpectedEof {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "the xz stream is cut short after {} compressed bytes",
                        self.0.total_in()
                    ),
                )
            } else {
                error
            }
        })
    }
}

/// How a reader takes the end of its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// A finished file: it must end with its trailer (from version 4), and
    /// input that stops inside a game or a header is an error.
    Finished,
    /// A file still being written, or left by an interrupted writer: the
    /// input ends cleanly after its last whole game, and a game, header or
    /// trailer it cuts is dropped. A trailer that is there is checked.
    Open,
}

/// The reader's input: it counts the bytes read and hashes them, for the
/// trailer.
struct Tally<R> {
    inner: R,
    /// Bytes read (of the decompressed file).
    offset: u64,
    /// Of the bytes read since the current part's header began.
    hasher: Sha256,
}

impl<R: BufRead> Tally<R> {
    /// The next byte, not read yet; `None` at the end of the input.
    fn peek(&mut self) -> io::Result<Option<u8>> {
        Ok(self.inner.fill_buf()?.first().copied())
    }
}

impl<R: Read> Read for Tally<R> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buffer)?;
        self.hasher.update(&buffer[..read]);
        self.offset += read as u64;
        Ok(read)
    }
}

/// Reads the games of one file (any version) in order.
pub struct GameReader<R> {
    input: Tally<R>,
    /// What errors call the input: its path.
    name: String,
    ending: Ending,
    version: u16,
    notes: String,
    /// Games read, of every part.
    games: u64,
    /// Games read of the current part (each file joined on is one).
    part_games: u64,
    /// Whether the current part's trailer has been read and checked.
    closed: bool,
}

impl<R: BufRead> GameReader<R> {
    /// Reads the header of a finished file, if it has one: an error for a
    /// file of a version this build does not know.
    pub fn new(input: R) -> io::Result<GameReader<R>> {
        GameReader::open(input, "the input".to_string(), Ending::Finished)
    }

    pub(super) fn open(mut input: R, name: String, ending: Ending) -> io::Result<GameReader<R>> {
        let starts_with_magic = input
            .fill_buf()
            .map_err(|error| io::Error::new(error.kind(), format!("{name}: {error}")))?
            .first()
            == Some(&MAGIC[0]);
        let mut reader = GameReader {
            input: Tally {
                inner: input,
                offset: 0,
                hasher: Sha256::new(),
            },
            name,
            ending,
            version: FIRST_VERSION,
            notes: String::new(),
            games: 0,
            part_games: 0,
            closed: false,
        };
        if starts_with_magic {
            match reader.read_header() {
                Ok(Some((version, notes))) => (reader.version, reader.notes) = (version, notes),
                Ok(None) => return Err(reader.located(invalid("the file ends inside its header"))),
                Err(error) => return Err(reader.located(error)),
            }
        }
        Ok(reader)
    }

    /// The file's format version.
    pub fn version(&self) -> u16 {
        self.version
    }

    /// The notes of the file's header (empty before version 3).
    pub fn notes(&self) -> &str {
        &self.notes
    }

    /// Whether the file's version ends in a trailer, which reading it to
    /// its end checks (version 4 on). The end of a file of an older
    /// version only its manifest row can vouch for.
    pub fn has_trailer(&self) -> bool {
        self.version >= TRAILER_VERSION
    }

    /// Reads the next game: `Ok(None)` at the file's end. An error, naming
    /// the file, the byte where reading stopped and the games read, for a
    /// record that does not decode (a bad FEN, an illegal move, an unknown
    /// result), a trailer that is not the file's, and for a finished file
    /// whose input ends inside a game or without its trailer.
    pub fn next_game(&mut self) -> io::Result<Option<GameRecord>> {
        loop {
            let next = match self.input.peek() {
                Ok(next) => next,
                Err(error) => return Err(self.located(error)),
            };
            match next {
                None => return self.end_of_input(),
                Some(byte) if byte == TRAILER_MAGIC[0] && self.version >= TRAILER_VERSION => {
                    if !self.read_trailer()? {
                        return self.cut("the file ends inside its trailer");
                    }
                }
                // Another file's header (files joined end to end, `cat a
                // b`): a FEN's length is never 0xFF.
                Some(byte) if byte == MAGIC[0] && self.version > FIRST_VERSION => {
                    if !self.read_joined_header()? {
                        return self.cut("the file ends inside a joined file's header");
                    }
                }
                Some(_) if self.closed => {
                    return Err(self.located(invalid("a game after the trailer")));
                }
                Some(_) => {
                    return match self.read_game() {
                        Ok(Some(game)) => {
                            self.games += 1;
                            self.part_games += 1;
                            Ok(Some(game))
                        }
                        Ok(None) => self.cut("the file ends inside a game: it was cut short"),
                        Err(error) => Err(self.located(error)),
                    };
                }
            }
        }
    }

    /// The end of the input, met between games.
    fn end_of_input(&mut self) -> io::Result<Option<GameRecord>> {
        if self.version >= TRAILER_VERSION && !self.closed {
            return self.cut(
                "the file ends without its trailer: it was cut short (an open chunk, or the \
                 file of an interrupted `datagen --output` run, is closed by `rookery dataclose`)",
            );
        }
        Ok(None)
    }

    /// The input ended where it must not: an error for a finished file,
    /// the end of an open one.
    fn cut(&self, what: &str) -> io::Result<Option<GameRecord>> {
        match self.ending {
            Ending::Finished => Err(self.located(invalid(what))),
            Ending::Open => Ok(None),
        }
    }

    /// `error` with the file's name and where reading stopped.
    fn located(&self, error: io::Error) -> io::Error {
        io::Error::new(
            error.kind(),
            format!(
                "{}: {error} (reading stopped at byte {} of the decompressed file, after {} \
                 whole games)",
                self.name, self.input.offset, self.games
            ),
        )
    }

    /// Reads and checks the current part's trailer; `Ok(false)` when the
    /// input ends inside it.
    fn read_trailer(&mut self) -> io::Result<bool> {
        let checksum = self.input.hasher.clone().finalize();
        let mut trailer = [0u8; TRAILER_BYTES];
        match read_or_eof(&mut self.input, &mut trailer) {
            Ok(true) => {}
            Ok(false) => return Ok(false),
            Err(error) => return Err(self.located(error)),
        }
        let (magic, rest) = trailer.split_at(TRAILER_MAGIC.len());
        let (count, stored_checksum) = rest.split_at(TRAILER_COUNT_BYTES);
        let count = u64::from_le_bytes(count.try_into().expect("the count's bytes"));
        let fault = if magic != TRAILER_MAGIC {
            Some("a bad trailer magic".to_string())
        } else if self.closed {
            Some("a second trailer".to_string())
        } else if count != self.part_games {
            Some(format!(
                "the trailer counts {count} games, the file holds {}",
                self.part_games
            ))
        } else if stored_checksum != &checksum[..] {
            Some("the file's SHA-256 is not its trailer's: its bytes changed".to_string())
        } else {
            None
        };
        if let Some(fault) = fault {
            return Err(self.located(invalid(&fault)));
        }
        self.closed = true;
        Ok(true)
    }

    /// Reads a header met between games, which starts a new part: it must
    /// be of this file's version, and the part before it closed if its
    /// version has trailers; `Ok(false)` when the input ends inside it.
    /// Its notes are not kept: the first file's stand.
    fn read_joined_header(&mut self) -> io::Result<bool> {
        if self.version >= TRAILER_VERSION && !self.closed {
            return Err(self.located(invalid(
                "a joined file's header where the trailer should be: the part before it was \
                 cut short",
            )));
        }
        self.input.hasher = Sha256::new();
        self.part_games = 0;
        self.closed = false;
        match self.read_header() {
            Ok(Some((version, _))) if version == self.version => Ok(true),
            Ok(Some(_)) => Err(self.located(invalid("a joined file of another version"))),
            Ok(None) => Ok(false),
            Err(error) => Err(self.located(error)),
        }
    }

    /// Reads a header: its version and notes, `None` when the input ends
    /// inside it; an error for a bad magic or an unknown version.
    fn read_header(&mut self) -> io::Result<Option<(u16, String)>> {
        let input = &mut self.input;
        let mut header = [0u8; FILE_HEADER_BYTES];
        if !read_or_eof(input, &mut header)? {
            return Ok(None);
        }
        if header[..MAGIC.len()] != MAGIC {
            return Err(invalid("not a game file (bad magic)"));
        }
        let version = u16::from_le_bytes([header[MAGIC.len()], header[MAGIC.len() + 1]]);
        if !(UNSCORED_PLIES_VERSION..=FORMAT_VERSION).contains(&version) {
            return Err(invalid(&format!(
                "format version {version}, this build reads up to {FORMAT_VERSION}"
            )));
        }
        let mut notes = Vec::new();
        if version >= COMPACT_VERSION {
            let mut length = [0u8; 2];
            if !read_or_eof(input, &mut length)? {
                return Ok(None);
            }
            notes = vec![0u8; usize::from(u16::from_le_bytes(length))];
            if !read_or_eof(input, &mut notes)? {
                return Ok(None);
            }
        }
        let notes = String::from_utf8(notes).map_err(|_| invalid("notes are not UTF-8"))?;
        Ok(Some((version, notes)))
    }

    /// Reads one game; `None` when the input ends inside it.
    fn read_game(&mut self) -> io::Result<Option<GameRecord>> {
        let input = &mut self.input;
        let mut byte = [0u8; 1];
        if !read_or_eof(input, &mut byte)? {
            return Ok(None);
        }
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
