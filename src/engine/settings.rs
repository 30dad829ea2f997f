//! What a `setoption` does to the engine beyond recording the value: the
//! options that own a resource (the table's memory, the search threads,
//! the Syzygy tables, the network) rebuild it here, and refuse while a
//! search runs when it would pull that resource from under it. Parsing and
//! validating the value is `options`' job; this file only applies it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::Engine;
use crate::board::Board;
use crate::debug_log;
use crate::nnue::{self, Network};
use crate::options::{self, Change, MIN_HASH_MB};
use crate::search::ThreadPool;
use crate::tablebase::{LoadReport, Tablebases};
use crate::tt::TranspositionTable;

/// How long a resize waits for the search threads to let go of the old
/// table: they drop their handles on it just after the `bestmove`.
const TABLE_RELEASE_WAIT: Duration = Duration::from_secs(1);

impl Engine {
    /// Replaces the table by an empty one of `mb` MB. The old table is
    /// freed first: holding both at once could need more memory than the
    /// machine has (going from 8 GB to 12 GB would need 20). If `mb` MB
    /// cannot be had, the old size is allocated again, empty, and the error
    /// says so.
    fn resize_table(&mut self, mb: usize) -> Result<(), String> {
        let old_mb = self.options.hash_mb;
        let smallest = MIN_HASH_MB as usize;
        let placeholder = TranspositionTable::new(smallest)
            .map_err(|error| format!("{error}; keeping {old_mb} MB"))?;
        if !free_once_released(std::mem::replace(&mut self.tt, Arc::new(placeholder))) {
            log::warn!("the old table was still held after {TABLE_RELEASE_WAIT:?}");
        }
        let error = match TranspositionTable::new(mb) {
            Ok(tt) => {
                self.tt = Arc::new(tt);
                return Ok(());
            }
            Err(error) => error,
        };
        match TranspositionTable::new(old_mb) {
            Ok(tt) => {
                self.tt = Arc::new(tt);
                Err(format!("{error}; keeping {old_mb} MB (cleared)"))
            }
            Err(_) => {
                self.options.hash_mb = smallest;
                Err(format!(
                    "{error}, and {old_mb} MB cannot be had again: the table has {smallest} MB"
                ))
            }
        }
    }

    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>) {
        #[cfg(feature = "tuning")]
        if let Some(set) = crate::search::tunables::set_from_text(name.trim(), value) {
            return match set {
                Ok(_) => (),
                Err(error) => self.error(&error),
            };
        }
        let parsed = match options::parse_change(name, value) {
            Ok(parsed) => parsed,
            Err(error) => return self.error(&error),
        };
        let needs_idle = matches!(
            parsed.change,
            Change::Hash(_) | Change::Threads(_) | Change::ClearHash(_) | Change::EvalFile(_)
        );
        if needs_idle && self.is_searching() {
            return self.error(&format!("option '{name}' cannot change while searching"));
        }
        if let Some(note) = &parsed.note {
            self.error(note);
        }
        match parsed.change {
            Change::Hash(mb) if mb != self.options.hash_mb => {
                if let Err(error) = self.resize_table(mb) {
                    return self.error(&error);
                }
            }
            Change::Threads(n) if n != self.options.threads => {
                // The old threads are joined once the new ones run; if the
                // new ones cannot start, the old pool stays.
                self.pool = match ThreadPool::new(n) {
                    Ok(pool) => pool,
                    Err(error) => {
                        return self.error(&format!("cannot start {n} threads: {error}"));
                    }
                };
            }
            Change::ClearHash(_) => self.tt.clear(),
            Change::DebugLogFile(ref path) => {
                if let Err(error) = debug_log::log_to(path) {
                    return self.error(&format!("Debug Log File: {error}"));
                }
            }
            // A running search keeps the tables it started with.
            Change::SyzygyPath(ref path) => {
                let (tablebases, report) = Tablebases::load(path);
                self.tablebases = Arc::new(tablebases);
                self.startup_tablebase_report = LoadReport::default();
                self.tell(&report);
            }
            Change::EvalFile(ref path) if *path != self.options.eval_file => {
                if path.is_empty() {
                    nnue::set_active(None);
                } else {
                    match Network::load(path) {
                        Ok(network) => nnue::set_active(Some(network)),
                        Err(error) => {
                            return self
                                .error(&format!("EvalFile: {error}; keeping the current network"));
                        }
                    }
                }
                self.note(&format!(
                    "EvalFile: evaluating with {} (network {})",
                    if path.is_empty() {
                        "the embedded network"
                    } else {
                        path
                    },
                    nnue::active().identity()
                ));
                // The position's accumulator and the table's static
                // evaluations belong to the old network.
                self.game.board = Board::new(self.game.board.pos().clone());
                self.tt.clear();
            }
            _ => {}
        }
        self.options.apply(parsed.change);
    }
}

/// Drops `table`, waiting first (at most [`TABLE_RELEASE_WAIT`]) until this
/// is its last handle, so that it is freed here, before a new table is
/// allocated: the search threads may still hold theirs for a moment after
/// the search has finished. True when it was freed here.
fn free_once_released(table: Arc<TranspositionTable>) -> bool {
    let deadline = Instant::now() + TABLE_RELEASE_WAIT;
    while Arc::strong_count(&table) > 1 && Instant::now() < deadline {
        std::thread::yield_now();
    }
    Arc::into_inner(table).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_old_table_is_freed_once_a_search_thread_lets_go_of_it() {
        let table = Arc::new(TranspositionTable::new(1).unwrap());
        let held = Arc::clone(&table);
        let thread = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            drop(held);
        });
        assert!(free_once_released(table));
        thread.join().unwrap();
    }
}
