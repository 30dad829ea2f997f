//! The few things every thread of one search shares besides the table: the
//! stop flag, the ponder flag, the clock and the per-thread node counters.
//!
//! All are atomics read with relaxed ordering: a thread that sees `stop` a
//! few nodes late only searches a few nodes more. Node counters sit on their
//! own cache lines so threads publishing their counts do not slow each other.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crossbeam::utils::CachePadded;

pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    created: Instant,
    /// When the clock started, in nanoseconds after `created`; moved by
    /// `ponderhit`, when the real clock starts.
    clock_start_ns: AtomicU64,
    nodes: Vec<CachePadded<AtomicU64>>,
}

impl SearchControl {
    pub fn new(threads: usize, pondering: bool) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            created: Instant::now(),
            clock_start_ns: AtomicU64::new(0),
            nodes: (0..threads.max(1))
                .map(|_| CachePadded::new(AtomicU64::new(0)))
                .collect(),
        }
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the clock starts now. A
    /// `ponderhit` outside ponder mode changes nothing.
    pub fn ponder_hit(&self) {
        let now = self.created.elapsed().as_nanos() as u64;
        if self.pondering.load(Ordering::Relaxed) {
            self.clock_start_ns.store(now, Ordering::Relaxed);
            self.pondering.store(false, Ordering::Relaxed);
        }
    }

    /// Time since the clock started (since `go`, or since `ponderhit`).
    pub fn elapsed(&self) -> Duration {
        let start = Duration::from_nanos(self.clock_start_ns.load(Ordering::Relaxed));
        self.created.elapsed().saturating_sub(start)
    }

    /// Publishes the node count of thread `id`.
    pub fn set_nodes(&self, id: usize, nodes: u64) {
        self.nodes[id].store(nodes, Ordering::Relaxed);
    }

    /// Nodes of all threads, as last published.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    pub fn thread_count(&self) -> usize {
        self.nodes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WAIT: Duration = Duration::from_millis(100);

    #[test]
    fn ponderhit_starts_the_clock() {
        let control = SearchControl::new(1, true);
        std::thread::sleep(WAIT);
        control.ponder_hit();
        assert!(!control.is_pondering());
        assert!(control.elapsed() < WAIT);
    }

    #[test]
    fn ponderhit_outside_ponder_mode_keeps_the_clock() {
        let control = SearchControl::new(1, false);
        std::thread::sleep(WAIT);
        control.ponder_hit();
        assert!(control.elapsed() >= WAIT);
    }

    #[test]
    fn node_counts_add_up_over_threads() {
        let control = SearchControl::new(3, false);
        control.set_nodes(0, 5);
        control.set_nodes(2, 7);
        assert_eq!(control.total_nodes(), 12);
        assert_eq!(control.thread_count(), 3);
    }
}
