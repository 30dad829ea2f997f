//! The few things every thread of one search shares besides the table: the
//! stop flag, the ponder flag, the clock and the per-thread node and
//! tablebase-hit counters.
//!
//! Most are atomics read with relaxed ordering: a thread that sees `stop` a
//! few nodes late only searches a few nodes more. The ponder flag is the
//! exception: `ponderhit` moves the clock's start and then clears the flag
//! with (at least) release ordering, and readers load the flag with
//! (at least) acquire ordering, so a thread that sees pondering over also
//! sees the new start (else it would count the whole ponder against the
//! move's time). Counters sit on their own cache lines so threads
//! publishing their counts do not slow each other. A thread publishes its
//! node count now and then, but adds each tablebase hit at once: a hit is
//! rare next to the table read it stands for.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crossbeam::utils::CachePadded;

pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// Set while pondering once the search has done what its move asks:
    /// `ponderhit` then stops it at once.
    stop_on_ponderhit: AtomicBool,
    /// No `stop` is to be waited for: the engine's input has ended, or
    /// commands wait for this search to end by itself.
    ends_without_stop: AtomicBool,
    /// When the `go` arrived.
    go_received: Instant,
    /// When the clock started, in nanoseconds after `go_received`; moved by
    /// `ponderhit`, when the real clock starts.
    clock_start_ns: AtomicU64,
    nodes: Vec<CachePadded<AtomicU64>>,
    tb_hits: Vec<CachePadded<AtomicU64>>,
}

impl SearchControl {
    /// The control block of a search whose clock runs from `started` (when
    /// its `go` arrived: what happens before the threads start, such as
    /// ranking the root moves by tablebase, is on the clock too).
    pub(crate) fn new(threads: usize, pondering: bool, started: Instant) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            stop_on_ponderhit: AtomicBool::new(false),
            ends_without_stop: AtomicBool::new(false),
            go_received: started,
            clock_start_ns: AtomicU64::new(0),
            nodes: counters(threads),
            tb_hits: counters(threads),
        }
    }

    pub(crate) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub(crate) fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// No `stop` is to be waited for (the input has ended, or commands
    /// wait for the search to end): a search that only `stop` would end
    /// must end by itself (see [`super::Limits::mate_search_depth`]).
    pub(crate) fn end_without_stop(&self) {
        self.ends_without_stop.store(true, Ordering::Relaxed);
    }

    pub(crate) fn must_end_without_stop(&self) -> bool {
        self.ends_without_stop.load(Ordering::Relaxed)
    }

    pub(crate) fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// The opponent played the expected move: the clock starts when the
    /// `ponderhit` was `received` (read, not handled: the GUI's clock runs
    /// from there), and never before the `go` arrived; a search that asked
    /// to ([`SearchControl::stop_at_ponderhit`]) stops. A `ponderhit`
    /// outside ponder mode changes nothing.
    pub(crate) fn ponder_hit(&self, received: Instant) {
        let start = received.saturating_duration_since(self.go_received);
        if self.pondering.load(Ordering::Relaxed) {
            self.clock_start_ns
                .store(start.as_nanos() as u64, Ordering::Relaxed);
            self.pondering.store(false, Ordering::SeqCst);
            if self.stop_on_ponderhit.load(Ordering::SeqCst) {
                self.stop();
            }
        }
    }

    /// A ponder search that has done what its move asks (as Stockfish's
    /// `stopOnPonderhit`): `ponderhit` stops it at once, and it answers with
    /// what it has, rather than searching on until its next iteration ends
    /// or its hard limit. True when the `ponderhit` has already come, so the
    /// caller stops now. (Both sides store, then load the other's flag, in
    /// one sequentially consistent order: one of them sees the other.)
    pub(crate) fn stop_at_ponderhit(&self) -> bool {
        self.stop_on_ponderhit.store(true, Ordering::SeqCst);
        !self.pondering.load(Ordering::SeqCst)
    }

    /// Tests only: whether `ponderhit` will stop the search.
    #[cfg(test)]
    pub(crate) fn stops_at_ponderhit(&self) -> bool {
        self.stop_on_ponderhit.load(Ordering::SeqCst)
    }

    /// Time since the clock started (since `go`, or since `ponderhit`):
    /// what the time limits are measured against.
    pub(crate) fn elapsed(&self) -> Duration {
        let start = Duration::from_nanos(self.clock_start_ns.load(Ordering::Relaxed));
        self.go_received.elapsed().saturating_sub(start)
    }

    /// Time since the `go` arrived, pondering included: what the search
    /// reports (`info time`, `nps`), which must not jump back at `ponderhit`
    /// while the node count goes on.
    pub(crate) fn since_go(&self) -> Duration {
        self.go_received.elapsed()
    }

    /// Publishes the node count of thread `id`.
    pub(crate) fn set_nodes(&self, id: usize, nodes: u64) {
        self.nodes[id].store(nodes, Ordering::Relaxed);
    }

    /// Nodes of all threads, as last published.
    pub(crate) fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// Counts `hits` tablebase probes that answered, by thread `id`.
    pub fn add_tb_hits(&self, id: usize, hits: u64) {
        self.tb_hits[id].fetch_add(hits, Ordering::Relaxed);
    }

    /// Tablebase hits of all threads.
    pub fn total_tb_hits(&self) -> u64 {
        self.tb_hits.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    pub(crate) fn thread_count(&self) -> usize {
        self.nodes.len()
    }
}

/// One zeroed counter per thread (at least one).
fn counters(threads: usize) -> Vec<CachePadded<AtomicU64>> {
    (0..threads.max(1))
        .map(|_| CachePadded::new(AtomicU64::new(0)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const WAIT: Duration = Duration::from_millis(100);

    #[test]
    fn ponderhit_starts_the_clock_and_the_reported_time_runs_on() {
        let control = SearchControl::new(1, true, Instant::now());
        std::thread::sleep(WAIT);
        control.ponder_hit(Instant::now());
        assert!(!control.is_pondering());
        // Read in this order, the two differ by at least the wait before
        // the ponderhit however the thread is scheduled: the clock started
        // there, the reported time at the go.
        let clock = control.elapsed();
        let reported = control.since_go();
        assert!(reported >= clock + WAIT, "{clock:?} {reported:?}");
    }

    #[test]
    fn ponderhit_stops_a_search_that_asked_for_it() {
        let control = SearchControl::new(1, true, Instant::now());
        control.ponder_hit(Instant::now());
        assert!(!control.is_stopped(), "not asked");
        let control = SearchControl::new(1, true, Instant::now());
        assert!(!control.stop_at_ponderhit(), "still pondering");
        assert!(!control.is_stopped());
        control.ponder_hit(Instant::now());
        assert!(control.is_stopped());
        // Asked after the ponderhit: the caller is told to stop.
        let control = SearchControl::new(1, true, Instant::now());
        control.ponder_hit(Instant::now());
        assert!(control.stop_at_ponderhit());
    }

    #[test]
    fn ponderhit_outside_ponder_mode_keeps_the_clock() {
        let control = SearchControl::new(1, false, Instant::now());
        std::thread::sleep(WAIT);
        control.ponder_hit(Instant::now());
        assert!(control.elapsed() >= WAIT);
    }

    #[test]
    fn the_clock_runs_from_when_the_ponderhit_was_read() {
        let go = Instant::now();
        let control = SearchControl::new(1, true, go);
        std::thread::sleep(2 * WAIT);
        // Read a while ago, handled only now: the clock ran from the read.
        control.ponder_hit(Instant::now() - WAIT);
        assert!(control.elapsed() >= WAIT);
        // A ponderhit read before its (queued) `go` started starts the
        // clock at the `go`.
        let queued = SearchControl::new(1, true, Instant::now());
        queued.ponder_hit(go);
        assert_eq!(queued.clock_start_ns.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn the_clock_runs_from_when_the_go_arrived() {
        let control = SearchControl::new(1, false, Instant::now() - WAIT);
        assert!(control.elapsed() >= WAIT);
    }

    #[test]
    fn node_counts_add_up_over_threads() {
        let control = SearchControl::new(3, false, Instant::now());
        control.set_nodes(0, 5);
        control.set_nodes(2, 7);
        assert_eq!(control.total_nodes(), 12);
        assert_eq!(control.thread_count(), 3);
    }

    #[test]
    fn tablebase_hits_add_up_over_threads() {
        let control = SearchControl::new(2, false, Instant::now());
        control.add_tb_hits(0, 3);
        control.add_tb_hits(1, 1);
        control.add_tb_hits(1, 1);
        assert_eq!(control.total_tb_hits(), 5);
    }
}
