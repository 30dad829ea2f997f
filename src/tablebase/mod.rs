//! Syzygy endgame tablebases: finding them on `SyzygyPath`, probing them
//! for the search, and ranking the root moves by them.
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
//! * **When to probe** ([`TbConfig`]): the tables together with the
//!   options `SyzygyProbeLimit`, `SyzygyProbeDepth` and `Syzygy50MoveRule`,
//!   carried by a search.
//! * **Root ranking** ([`TbConfig::rank_root_moves`]): each root move gets
//!   its outcome under the fifty-move rule and its distance to zeroing the
//!   counter (DTZ); only the best are searched. Winning, that is the moves
//!   that zero the counter (mate, capture, pawn move) soonest, so a won
//!   ending is converted inside the fifty-move rule; drawing, every move
//!   that holds the draw; losing, the moves that resist longest. A move
//!   that repeats a position of the game for the third time is a draw,
//!   which the tables cannot see. When a DTZ probe fails (WDL tables
//!   only), the moves are ranked by their outcome alone, all of the best
//!   outcome searched.

use std::io;
use std::path::Path;
use std::sync::Arc;

use shakmaty::{Chess, Move, Position};
use shakmaty_syzygy::{Dtz, MaybeRounded, SyzygyError, Tablebase, Wdl};

use crate::board::{FIFTY_MOVE_HALFMOVES, KeyHistory, full_key};

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
        self.probe_dtz_maybe_rounded(pos)
            .map(|dtz| dtz.ignore_rounding().0)
    }

    fn probe_dtz_maybe_rounded(&self, pos: &Chess) -> Option<MaybeRounded<Dtz>> {
        self.tables.probe_dtz(pos).map_err(log_failure).ok()
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

/// The tables and the options that say when to use them: what one search
/// carries.
#[derive(Clone)]
pub struct TbConfig {
    tables: Arc<Tablebases>,
    /// Positions with more pieces are not probed: the smaller of
    /// `SyzygyProbeLimit` and the largest table.
    pub(crate) max_pieces: usize,
    /// Least remaining depth at which the search probes (`SyzygyProbeDepth`).
    pub(crate) probe_depth: i32,
    /// Whether wins and losses the fifty-move rule turns into draws count as
    /// draws (`Syzygy50MoveRule`).
    pub(crate) rule50: bool,
}

/// How a search probes, as the options `SyzygyProbeLimit`,
/// `SyzygyProbeDepth` and `Syzygy50MoveRule` set it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbeSettings {
    /// Positions with more pieces are not probed.
    pub(crate) probe_limit: usize,
    /// Least remaining depth at which the search probes.
    pub(crate) probe_depth: i32,
    /// Whether wins and losses the fifty-move rule spoils count as draws.
    pub(crate) rule50: bool,
}

impl TbConfig {
    /// The configuration for `settings`, or `None` when nothing would ever
    /// be probed (no tables, or a probe limit of 0).
    pub fn new(tables: &Arc<Tablebases>, settings: ProbeSettings) -> Option<TbConfig> {
        let max_pieces = tables.max_pieces().min(settings.probe_limit);
        (max_pieces > 0).then(|| TbConfig {
            tables: Arc::clone(tables),
            max_pieces,
            probe_depth: settings.probe_depth,
            rule50: settings.rule50,
        })
    }

    /// Whether the tables may be asked about `pos`: few enough pieces and
    /// no castling rights (tables hold no position with castling rights).
    pub(crate) fn covers(&self, pos: &Chess) -> bool {
        pos.board().occupied().count() <= self.max_pieces && !pos.castles().any()
    }

    /// See [`Tablebases::probe_wdl`].
    pub(crate) fn probe_wdl(&self, pos: &Chess) -> Option<Wdl> {
        self.tables.probe_wdl(pos)
    }

    /// The best of `moves` of the root `pos` by the tables (see the module
    /// header), or `None` when the root is not covered or a probe fails (the
    /// search then takes every move). `game_keys` are the keys of the game's
    /// positions, the root's last: a move that repeats one for the third
    /// time is a draw, whatever the tables say.
    pub fn rank_root_moves(
        &self,
        pos: &Chess,
        moves: &[Move],
        game_keys: &[u64],
    ) -> Option<RootRanking> {
        if !self.covers(pos) || moves.is_empty() {
            return None;
        }
        let mut history = KeyHistory::new(game_keys.to_vec());
        let children: Vec<(Move, Chess, bool)> = moves
            .iter()
            .map(|&m| {
                let child = after(pos, m);
                let repeats = repeats_for_the_third_time(&mut history, &child, m);
                (m, child, repeats)
            })
            .collect();
        let rank_all = |rank: &dyn Fn(Move, &Chess) -> Option<RootRank>| {
            children
                .iter()
                .map(|(m, child, repeats)| {
                    if *repeats {
                        Some(RootRank::DRAW)
                    } else {
                        rank(*m, child)
                    }
                })
                .collect::<Option<Vec<_>>>()
        };
        let ranks = rank_all(&|m, child| self.rank_by_distance(pos, m, child))
            .or_else(|| rank_all(&|_, child| self.rank_by_outcome(child)))?;
        let best = *ranks.iter().max()?;
        Some(RootRanking {
            moves: moves
                .iter()
                .zip(&ranks)
                .filter(|&(_, rank)| *rank == best)
                .map(|(&m, _)| m)
                .collect(),
            outcome: best.outcome,
            probes: moves.len() as u64,
        })
    }

    /// The rank of root move `m`, which leads to `child`: its outcome for
    /// the root's side to move given the root's fifty-move counter, then
    /// how soon (winning) or late (losing) the counter is zeroed. Needs the
    /// DTZ tables.
    fn rank_by_distance(&self, pos: &Chess, m: Move, child: &Chess) -> Option<RootRank> {
        // Plies to zeroing counted from the root, this move included.
        let (dtz, rounded) = if child.is_checkmate() {
            (1, false)
        } else if m.is_zeroing() {
            let wdl = -self.tables.probe_wdl(child)?;
            (Dtz::before_zeroing(wdl).0, false)
        } else {
            match -self.tables.probe_dtz_maybe_rounded(child)? {
                MaybeRounded::Precise(dtz) => (dtz.add_plies(1).0, false),
                MaybeRounded::Rounded(dtz) => (dtz.add_plies(1).0, true),
            }
        };
        let plies = dtz.unsigned_abs();
        // Where the table rounds, a win may take one ply more: count it so.
        let win_plies = plies + u32::from(rounded);
        // Saturating: a FEN may give any counter up to u32::MAX.
        let halfmoves = pos.halfmoves();
        let outcome = if dtz > 0 {
            if !self.rule50 || halfmoves.saturating_add(win_plies) <= FIFTY_MOVE_HALFMOVES {
                Wdl::Win
            } else {
                Wdl::CursedWin
            }
        } else if dtz < 0 {
            if !self.rule50 || halfmoves.saturating_add(plies) <= FIFTY_MOVE_HALFMOVES {
                Wdl::Loss
            } else {
                Wdl::BlessedLoss
            }
        } else {
            Wdl::Draw
        };
        let speed = match outcome {
            Wdl::Win | Wdl::CursedWin => -(plies as i32),
            Wdl::Draw => 0,
            Wdl::Loss | Wdl::BlessedLoss => plies as i32,
        };
        Some(RootRank { outcome, speed })
    }

    /// The rank of the root move that leads to `child` by the WDL tables
    /// alone, for when a DTZ probe fails (no `.rtbz` file, say): the
    /// outcome of `child` as if the counter were zero there (a draw once the
    /// fifty-move rule can be claimed), every speed alike, as Stockfish's
    /// `root_probe_wdl`. It still keeps the moves that throw a win or a
    /// draw away from the search.
    fn rank_by_outcome(&self, child: &Chess) -> Option<RootRank> {
        let outcome = if child.is_checkmate() {
            Wdl::Win
        } else if self.rule50 && child.halfmoves() >= FIFTY_MOVE_HALFMOVES {
            Wdl::Draw
        } else {
            match -self.tables.probe_wdl(child)? {
                Wdl::CursedWin if !self.rule50 => Wdl::Win,
                Wdl::BlessedLoss if !self.rule50 => Wdl::Loss,
                wdl => wdl,
            }
        };
        Some(RootRank { outcome, speed: 0 })
    }
}

/// `pos` after `m`.
fn after(pos: &Chess, m: Move) -> Chess {
    let mut child = pos.clone();
    child.play_unchecked(m);
    child
}

/// Whether `child`, reached by `m` from the root at the end of `history`,
/// is a third occurrence of a position of the game: a draw the tables,
/// which know no history, cannot see. `history` is left as it was.
fn repeats_for_the_third_time(history: &mut KeyHistory, child: &Chess, m: Move) -> bool {
    if m.is_zeroing() {
        return false;
    }
    history.push(full_key(child));
    let repeats = history.is_repetition(child.halfmoves());
    history.pop();
    repeats
}

/// How good a root move is by the tables; larger is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct RootRank {
    /// The outcome under the fifty-move rule (when `Syzygy50MoveRule` is
    /// on). A cursed win still ranks above a plain draw, and a plain draw
    /// above a blessed loss: either way it is a draw, but the opponent may
    /// go wrong.
    outcome: Wdl,
    /// Winning, minus the plies to zeroing; losing, the plies to zeroing.
    speed: i32,
}

impl RootRank {
    /// A draw, by the tables or by repetition.
    const DRAW: RootRank = RootRank {
        outcome: Wdl::Draw,
        speed: 0,
    };
}

/// The root moves worth searching by the tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootRanking {
    /// The moves of the best rank, in the order given.
    pub moves: Vec<Move>,
    /// Their outcome for the side to move.
    pub outcome: Wdl,
    /// Table probes made (each move's position was probed once).
    pub probes: u64,
}
