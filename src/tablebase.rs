//! Syzygy endgame tablebases: finding them on `SyzygyPath` and probing
//! them.
//!
//! Reading and decoding the tables is the `shakmaty-syzygy` crate's work;
//! this module owns what the engine decides around it:
//!
//! * **Loading** ([`Tablebases::load`]): `SyzygyPath` lists directories the
//!   way `PATH` does (`:` between them on Unix, `;` on Windows). Each is
//!   scanned for table files, which are opened lazily on their first probe.
//!   A directory that cannot be read or holds no table, and a file whose
//!   size says it is corrupt, are reported and skipped: the engine always
//!   goes on, with whatever tables it found.
//! * **Probing** ([`Tablebases::probe_wdl`], [`Tablebases::probe_dtz`]):
//!   every failure (a missing table, a corrupt file, an I/O error) is "no
//!   result", logged at debug level, never an error the search must handle.

use std::io;
use std::path::Path;

use shakmaty::Chess;
use shakmaty_syzygy::{SyzygyError, Tablebase, Wdl};

/// Extension of the win-draw-loss tables (one per material signature).
const WDL_EXTENSION: &str = "rtbw";
/// Extension of the distance-to-zero tables.
const DTZ_EXTENSION: &str = "rtbz";

/// What loading a `SyzygyPath` found, as lines for the GUI.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// What was found (for `info string`).
    pub notes: Vec<String>,
    /// What could not be used (for `info string error:`).
    pub problems: Vec<String>,
}

/// The tables found on a `SyzygyPath`.
pub struct Tablebases {
    tables: Tablebase<Chess>,
}

impl Default for Tablebases {
    fn default() -> Self {
        Tablebases {
            tables: Tablebase::new(),
        }
    }
}

/// Table files found in one directory.
#[derive(Default)]
struct DirectoryCount {
    wdl: usize,
    dtz: usize,
    max_pieces: usize,
}

impl Tablebases {
    /// Adds the tables of every directory in `path_list` (empty: none).
    pub fn load(path_list: &str) -> (Tablebases, LoadReport) {
        let mut tablebases = Tablebases::default();
        let mut report = LoadReport::default();
        if path_list.trim().is_empty() {
            return (tablebases, report);
        }
        for directory in std::env::split_paths(path_list) {
            if directory.as_os_str().is_empty() {
                continue;
            }
            let shown = directory.display();
            match tablebases.add_directory(&directory, &mut report.problems) {
                Err(error) => report.problems.push(format!(
                    "SyzygyPath: cannot read directory {shown}: {error}"
                )),
                Ok(count) if count.wdl == 0 => report
                    .problems
                    .push(format!("SyzygyPath: no tables in {shown}")),
                Ok(count) => {
                    let dtz = if count.dtz == count.wdl {
                        String::new()
                    } else {
                        format!(", {} of them with DTZ", count.dtz)
                    };
                    let tables = if count.wdl == 1 { "table" } else { "tables" };
                    report.notes.push(format!(
                        "Syzygy: found {} {tables} (up to {} pieces{dtz}) in {shown}",
                        count.wdl, count.max_pieces
                    ));
                }
            }
        }
        if tablebases.max_pieces() == 0 {
            report
                .notes
                .push("Syzygy: no tables found; playing without tablebases".to_string());
        }
        (tablebases, report)
    }

    /// Adds the table files of `directory`; files that look like tables but
    /// cannot be used are noted in `problems`.
    fn add_directory(
        &mut self,
        directory: &Path,
        problems: &mut Vec<String>,
    ) -> io::Result<DirectoryCount> {
        let mut count = DirectoryCount::default();
        for entry in std::fs::read_dir(directory)? {
            let path = entry?.path();
            match self.tables.add_file(&path) {
                Ok(()) => {}
                // Not named like a table: not ours to judge.
                Err(error) if error.kind() == io::ErrorKind::InvalidInput => continue,
                Err(error) => {
                    problems.push(format!("SyzygyPath: skipping {}: {error}", path.display()));
                    continue;
                }
            }
            let extension = path.extension().and_then(|e| e.to_str());
            if extension == Some(WDL_EXTENSION) {
                count.wdl += 1;
            } else if extension == Some(DTZ_EXTENSION) {
                count.dtz += 1;
            }
            count.max_pieces = count.max_pieces.max(pieces_in_name(&path));
        }
        Ok(count)
    }

    /// Most pieces of any table found (0 without tables).
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// The outcome with the side to move's best play, as if the last move
    /// had zeroed the fifty-move counter (exact when it did), or `None`
    /// when the tables cannot tell.
    pub fn probe_wdl(&self, pos: &Chess) -> Option<Wdl> {
        self.tables
            .probe_wdl_after_zeroing(pos)
            .map_err(log_failure)
            .ok()
    }

    /// Plies to the next capture, pawn move or mate with the best play of
    /// both sides (positive when the side to move wins, negative when it
    /// loses, 0 for a draw; beyond ±100 a win or loss that the fifty-move
    /// rule turns into a draw), or `None` when the tables cannot tell.
    /// Where a table stores rounded values, the true distance may be one
    /// ply more.
    pub fn probe_dtz(&self, pos: &Chess) -> Option<i32> {
        self.tables
            .probe_dtz(pos)
            .map_err(log_failure)
            .ok()
            .map(|dtz| dtz.ignore_rounding().0)
    }
}

/// Pieces in a table named like `KQvKR.rtbw`.
fn pieces_in_name(path: &Path) -> usize {
    path.file_stem()
        .and_then(|stem| stem.to_str())
        .map_or(0, |stem| {
            stem.chars()
                .filter(|c| c.is_ascii_alphabetic() && *c != 'v')
                .count()
        })
}

fn log_failure(error: SyzygyError) {
    log::debug!("Syzygy probe failed: {error}");
}
