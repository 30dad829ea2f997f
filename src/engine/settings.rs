//! How an option value reaches the engine: by one path, whether it comes
//! from the built-in defaults and `engine.toml` at start-up
//! ([`Engine::new`]) or from a `setoption`. [`Engine::apply_option`] gives
//! the engine a validated value: the options that own a resource (the
//! table's memory, the search threads, the Syzygy tables, the network, the
//! debug log) rebuild it here, and a value that cannot be had is not taken:
//! the one before it stays (at start-up, the built-in default) and the
//! error says why, in the same words on both paths. `setoption` refuses
//! while a search runs when the change would pull a resource from under
//! it. Parsing and validating the value is `options`' job; this file only
//! applies it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::debug_log;
use super::options::{self, Change, MIN_HASH_MB, Options};
use super::{Engine, Finding};
use crate::board::Board;
use crate::nnue::{self, Network};
use crate::search::ThreadPool;
use crate::tablebase::Tablebases;
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

    /// `setoption`: validates the value (a clamped number is said so),
    /// refuses a change that needs the engine idle while a search runs,
    /// and applies the value, telling the GUI at once what applying it
    /// found. What start-up found about the option is forgotten: a later
    /// `uci` no longer repeats it.
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
        let id = parsed.change.id();
        self.startup_findings.retain(|(about, _)| *about != id);
        for finding in self.apply_option(parsed.change) {
            self.protocol.send(finding.reply());
        }
    }

    /// Applies the built-in defaults, then the values `engine.toml` sets,
    /// to an engine built with the least it runs with ([`Engine::new`]),
    /// each as a `setoption` would; keeps what applying them found, to be
    /// told after `uci`, and advertises the values taken as the defaults.
    /// A build that embeds no network and was given none says so then.
    pub(super) fn apply_defaults(&mut self) {
        let built_in = Options::default();
        let mut changes = built_in.changes_from(&self.options);
        changes.extend(self.config.defaults.changes_from(&built_in));
        for change in changes {
            let id = change.id();
            let found = self.apply_option(change);
            self.startup_findings
                .extend(found.into_iter().map(|finding| (id, finding)));
        }
        if let Some(missing) = nnue::missing_network() {
            let finding = Finding::Error(format!("EvalFile: {missing}"));
            self.startup_findings.push((options::Id::EvalFile, finding));
        }
        self.config.defaults = self.options.clone();
    }

    /// Gives the engine the option value `change`, rebuilding the resource
    /// the option owns, and records it; the one place where a value takes
    /// effect. A value that cannot be had is not recorded: the one before
    /// it stays, and the error says why. Returns what there is to tell.
    pub(super) fn apply_option(&mut self, change: Change) -> Vec<Finding> {
        let mut found = Vec::new();
        match change {
            Change::Hash(mb) if mb != self.options.hash_mb => {
                if let Err(error) = self.resize_table(mb) {
                    return vec![Finding::Error(format!("Hash: {error}"))];
                }
            }
            Change::Threads(n) if n != self.options.threads => {
                // The old threads are joined once the new ones run; if the
                // new ones cannot start, the old pool stays.
                self.pool = match ThreadPool::new(n) {
                    Ok(pool) => pool,
                    Err(error) => {
                        let kept = self.options.threads;
                        return vec![Finding::Error(format!(
                            "Threads: cannot start {n} search threads: {error}; keeping {kept}"
                        ))];
                    }
                };
            }
            Change::ClearHash(_) => self.tt.clear(),
            Change::DebugLogFile(ref path) => {
                if let Err(error) = debug_log::log_to(path) {
                    return vec![Finding::Error(format!("Debug Log File: {error}"))];
                }
            }
            // A running search keeps the tables it started with.
            Change::SyzygyPath(ref path) => {
                let (tablebases, report) = Tablebases::load(path);
                self.tablebases = Arc::new(tablebases);
                found.extend(report.problems.into_iter().map(Finding::Error));
                found.extend(report.notes.into_iter().map(Finding::Note));
            }
            Change::EvalFile(ref path) if *path != self.options.eval_file => {
                if path.is_empty() {
                    nnue::set_active(None);
                } else {
                    match Network::load(path) {
                        Ok(network) => nnue::set_active(Some(network)),
                        Err(error) => {
                            return vec![Finding::Error(format!(
                                "EvalFile: {error}; keeping the current network"
                            ))];
                        }
                    }
                }
                found.push(match nnue::missing_network() {
                    Some(missing) => Finding::Error(format!("EvalFile: {missing}")),
                    None => Finding::Note(format!(
                        "EvalFile: evaluating with {} (network {})",
                        if path.is_empty() {
                            "the embedded network"
                        } else {
                            path
                        },
                        nnue::active().identity()
                    )),
                });
                // The position's accumulator and the table's static
                // evaluations belong to the old network.
                self.game.board = Board::new(self.game.board.pos().clone());
                self.tt.clear();
            }
            _ => {}
        }
        self.options.apply(change);
        found
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
