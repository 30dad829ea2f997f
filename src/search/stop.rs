//! When a search thread must unwind: `stop` (or `quit`, end of input, a
//! helper seeing the leader done), the hard time limit, or the node limit
//! (neither limit while pondering, nor in `go infinite`, which searches
//! until `stop` whatever limits come with it), or, once no `stop` can be
//! waited for (the input has ended, or commands wait for the search), a
//! `go mate` iteration deeper than the mate could need
//! ([`super::job::SearchJob::mate_search_cap`]).
//!
//! The check is cheap enough for every node: the shared flag and the clock
//! are read only every [`STOP_CHECK_INTERVAL`] nodes, the node limit (main
//! thread only) on every call. `stop` and the node limit hold from the very
//! first node, first iteration included: the driver keeps the best root
//! move found before the cut. The clock waits until there is such a move,
//! so that no time control, however short, is answered with an unsearched
//! move.
//! Once a thread has said stop it keeps saying so until its next search.

use super::job::SearchJob;
use super::searcher::Searcher;

/// Nodes between two looks at the stop flag and the clock (a power of two:
/// about a millisecond of search while each thread has a core; with more
/// threads than cores a thread looks only when the system runs it, so
/// `Threads` above the core count can overrun a short clock).
pub(super) const STOP_CHECK_INTERVAL: u64 = 1024;

impl Searcher {
    /// Whether the search must unwind now; sets `aborted` and the shared
    /// stop flag when it must.
    pub(super) fn should_stop(&mut self, job: &SearchJob) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes.is_multiple_of(STOP_CHECK_INTERVAL) {
            let control = &job.control;
            control.set_nodes(self.id, self.nodes);
            if control.is_stopped() {
                self.aborted = true;
            } else if self.is_main() {
                self.other_nodes = control.total_nodes().saturating_sub(self.nodes);
                let out_of_time = job
                    .time
                    .is_some_and(|t| !control.is_pondering() && control.elapsed() >= t.hard)
                    && self.has_a_searched_move();
                let mate_given_up = job
                    .mate_search_cap()
                    .is_some_and(|cap| self.root_depth > cap);
                if out_of_time || mate_given_up {
                    self.aborted = true;
                }
            }
        }
        // Like the clock, the node limit waits for `ponderhit`: a ponder
        // search ends only on `ponderhit` or `stop`.
        if self.is_main()
            && job
                .spec
                .limits
                .node_cap()
                .is_some_and(|limit| self.nodes + self.other_nodes >= limit)
            && !job.control.is_pondering()
        {
            self.aborted = true;
        }
        if self.aborted {
            job.control.stop();
        }
        self.aborted
    }

    /// Whether the search has a move to answer with: some iteration done,
    /// or a root move of the first one searched. Until then the clock
    /// waits (a few thousand nodes at most, even with eighteen rooks):
    /// with 100 ms left the hard limit can pass before the first node, and
    /// the answer would be an unsearched move.
    fn has_a_searched_move(&self) -> bool {
        self.root_depth > 1 || !self.excluded_root_moves.is_empty() || self.iteration_best.is_some()
    }
}
