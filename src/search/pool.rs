//! The pool of search threads (Lazy SMP).
//!
//! Threads are created when the `Threads` option changes, not per `go`, each
//! with a large stack (copy-make keeps a move picker, with its move list
//! and scores, and a board with its 1 KB accumulator in every frame). Every
//! `go` hands the same [`SearchJob`] to all of them (to the first alone
//! under a limited strength, whose node budget is one thread's); each runs
//! its own iterative deepening on its own copy of the position and its own
//! history tables, and they share only the transposition table and the
//! job's control block.
//!
//! Thread 0 leads: it reports iterations, watches the clock, and when its
//! search ends (or, in `go infinite` and ponder mode, when `stop` or
//! `ponderhit` lets it) it stops the helpers, gathers their last results,
//! picks the deepest ([`ThreadResult::rank`]; its own under MultiPV > 1,
//! whose other lines are its own too), and prints exactly one `bestmove`.
//! A panic in any thread is caught: the thread starts afresh and the
//! result comes from the others, or, when no thread searched a
//! root move, from the table's move for the root or the first legal one. A
//! panic while the leader concludes is caught too, so that a `bestmove` (the
//! first legal move, which needs nothing that could panic again) is still
//! printed (once) and `stop`/`quit` are not left waiting.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use crossbeam::channel::{Receiver, Sender};
use shakmaty::{Move, Position};

use super::job::SearchJob;
use super::result::ThreadResult;
use super::searcher::Searcher;
use crate::tt::PackedMove;

/// Stack of each search thread.
const STACK_SIZE: usize = 64 << 20;
/// How often the leader looks for `stop`/`ponderhit` once its search is done.
const WAIT_POLL_INTERVAL: Duration = Duration::from_millis(1);

enum Task {
    Search(Arc<SearchJob>),
    /// Forget what was learnt in the last game (`ucinewgame`).
    NewGame,
}

struct Worker {
    tasks: Sender<Task>,
    handle: JoinHandle<()>,
}

pub struct ThreadPool {
    workers: Vec<Worker>,
}

impl ThreadPool {
    /// Starts `threads` idle search threads (at least one).
    pub fn new(threads: usize) -> std::io::Result<ThreadPool> {
        let workers = (0..threads.max(1))
            .map(|id| {
                let (tasks, inbox) = crossbeam::channel::unbounded();
                let handle = std::thread::Builder::new()
                    .name(format!("search-{id}"))
                    .stack_size(STACK_SIZE)
                    .spawn(move || run_worker(id, inbox))?;
                Ok(Worker { tasks, handle })
            })
            .collect::<std::io::Result<Vec<_>>>()?;
        Ok(ThreadPool { workers })
    }

    pub(crate) fn thread_count(&self) -> usize {
        self.workers.len()
    }

    /// Starts `job` on its first [`JobSpec::threads`](super::job::JobSpec)
    /// threads; its `finished` channel tells when done.
    pub fn start(&self, job: Arc<SearchJob>) {
        let threads = job.spec.threads;
        assert!(
            (1..=self.workers.len()).contains(&threads),
            "a job for {threads} threads on a pool of {}",
            self.workers.len()
        );
        for worker in &self.workers[..threads] {
            send(&worker.tasks, Task::Search(Arc::clone(&job)));
        }
    }

    pub(crate) fn new_game(&self) {
        for worker in &self.workers {
            send(&worker.tasks, Task::NewGame);
        }
    }
}

fn send(tasks: &Sender<Task>, task: Task) {
    if tasks.send(task).is_err() {
        log::error!("a search thread is gone");
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        for worker in self.workers.drain(..) {
            drop(worker.tasks);
            if worker.handle.join().is_err() {
                log::error!("a search thread ended in a panic");
            }
        }
    }
}

fn run_worker(id: usize, inbox: Receiver<Task>) {
    let mut searcher = Searcher::new(id);
    for task in inbox {
        match task {
            Task::NewGame => searcher = Searcher::new(id),
            Task::Search(job) => {
                let result = match catch_unwind(AssertUnwindSafe(|| searcher.search(&job))) {
                    Ok(result) => result,
                    Err(payload) => {
                        let message = panic_message(payload.as_ref());
                        job.spec
                            .reporter
                            .error(&format!("search thread {id} panicked: {message}"));
                        // Keep the last iteration's result, start afresh.
                        let last = searcher.last_result.take();
                        searcher = Searcher::new(id);
                        last
                    }
                };
                if searcher.is_main() {
                    finish(&job, result);
                } else if job.helper_results.0.send(result).is_err() {
                    log::error!("search leader is gone");
                }
            }
        }
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// The leader's end of a search: [`conclude`], and should that panic, the
/// first legal move as the `bestmove` if none was printed yet, and `None`
/// on `finished` so that whoever waits for the search goes on.
fn finish(job: &SearchJob, own: Option<ThreadResult>) {
    let mut answered = false;
    let concluded = catch_unwind(AssertUnwindSafe(|| conclude(job, own, &mut answered)));
    if let Err(payload) = concluded {
        let message = panic_message(payload.as_ref());
        job.spec.reporter.error(&format!(
            "search leader panicked while concluding: {message}"
        ));
        job.control.stop();
        if !answered {
            job.spec
                .reporter
                .best_move(job.spec.root_moves.first().copied(), None);
        }
        if job.finished.send(None).is_err() {
            log::debug!("nobody waits for the search to finish");
        }
    }
}

/// In `go infinite` and ponder mode wait for `stop` or `ponderhit`, then
/// stop and gather the helpers, print the `bestmove` (and set `answered`),
/// and send the chosen result on `finished`.
fn conclude(job: &SearchJob, own: Option<ThreadResult>, answered: &mut bool) {
    let control = &job.control;
    while (job.spec.limits.bestmove_waits_for_stop() || control.is_pondering())
        && !control.is_stopped()
    {
        std::thread::sleep(WAIT_POLL_INTERVAL);
    }
    control.stop();
    let helpers = (1..control.thread_count())
        .map(|_| job.helper_results.1.recv().unwrap_or(None))
        .collect();
    let chosen = choose(job.spec.multipv, own.clone(), helpers);

    if let Some(chosen) = &chosen
        && own.as_ref() != Some(chosen)
    {
        // Keep the last reported line in agreement with the bestmove.
        job.spec.reporter.iteration(&job.iteration(chosen, 1));
    }
    let (best, ponder) = best_and_ponder(job, chosen.as_ref());
    #[cfg(test)]
    if job.inject_finish_panic {
        panic!("injected fault while concluding");
    }
    job.spec.reporter.best_move(best, ponder);
    *answered = true;
    if job.finished.send(chosen).is_err() {
        log::debug!("nobody waits for the search to finish");
    }
}

/// The result to play: the deepest of all threads' ([`ThreadResult::rank`]).
/// With several lines shown (MultiPV > 1) it is the leader's own, as in
/// Stockfish, since a helper's line shown as line 1 could repeat one of the
/// leader's other lines; a helper's only when the leader has none.
fn choose(
    multipv: usize,
    own: Option<ThreadResult>,
    helpers: Vec<Option<ThreadResult>>,
) -> Option<ThreadResult> {
    if multipv > 1 && own.is_some() {
        return own;
    }
    std::iter::once(own)
        .chain(helpers)
        .flatten()
        .max_by_key(ThreadResult::rank)
}

/// The move to play and the reply to ponder on. When nothing was searched
/// (a `stop` before the first root move was done), the move is the table's
/// for the root if it is one of the root moves, which an earlier search
/// of the same position left there, else the first root move; none without
/// legal moves.
fn best_and_ponder(job: &SearchJob, chosen: Option<&ThreadResult>) -> (Option<Move>, Option<Move>) {
    let best = chosen
        .map(|r| r.pv[0])
        .or_else(|| root_move_from_table(job))
        .or_else(|| job.spec.root_moves.first().copied());
    let ponder = best.and_then(|best| {
        chosen
            .and_then(|r| r.pv.get(1).copied())
            .or_else(|| ponder_from_table(job, best))
    });
    (best, ponder)
}

/// The table's move for the root, if it is one of the moves to search.
fn root_move_from_table(job: &SearchJob) -> Option<Move> {
    let root = &job.spec.root;
    let hit = job.spec.tt.probe(root.key(), 0, root.halfmoves())?;
    job.spec
        .root_moves
        .iter()
        .copied()
        .find(|&m| hit.best_move.matches(m))
}

/// The expected reply to `best` from the table, when the PV is one move long.
fn ponder_from_table(job: &SearchJob, best: Move) -> Option<Move> {
    let child = job.spec.root.play(best);
    let hit = job.spec.tt.probe(child.key(), 1, child.halfmoves())?;
    let expected: PackedMove = hit.best_move;
    child
        .pos()
        .legal_moves()
        .into_iter()
        .find(|&m| expected.matches(m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::search::{JobSpec, Limits};
    use crate::tt::TranspositionTable;

    /// A silent search of the start position to `depth`.
    fn startpos_job(depth: i32, threads: usize) -> (SearchJob, Receiver<Option<ThreadResult>>) {
        let board = Board::startpos();
        let keys = vec![board.key()];
        let tt = Arc::new(TranspositionTable::new(1).unwrap());
        SearchJob::new(JobSpec {
            threads,
            ..JobSpec::new(board, keys, Limits::depth(depth), tt)
        })
    }

    /// A depth-6 search of the start position where thread `panicking`
    /// panics on reaching depth 3; returns the chosen result and the move
    /// that would be played.
    fn search_with_fault(threads: usize, panicking: usize) -> (Option<ThreadResult>, Option<Move>) {
        let pool = ThreadPool::new(threads).unwrap();
        let (mut job, finished) = startpos_job(6, threads);
        job.inject_panic = Some((panicking, 3));
        let job = Arc::new(job);
        pool.start(Arc::clone(&job));
        let chosen = finished
            .recv()
            .expect("the search finishes despite the panic");
        let (best, _) = best_and_ponder(&job, chosen.as_ref());
        (chosen, best)
    }

    fn assert_legal(best: Option<Move>) {
        let best = best.expect("a move to play");
        assert!(Board::startpos().pos().is_legal(best), "{best:?}");
    }

    #[test]
    fn a_panicking_leader_plays_from_its_last_result() {
        let (chosen, best) = search_with_fault(1, 0);
        assert_eq!(chosen.map(|r| r.depth), Some(2));
        assert_legal(best);
        let (chosen, best) = search_with_fault(2, 0);
        assert!(chosen.is_some_and(|r| r.depth >= 2));
        assert_legal(best);
    }

    #[test]
    fn a_panicking_helper_does_not_disturb_the_leader() {
        let (chosen, best) = search_with_fault(2, 1);
        assert!(chosen.is_some_and(|r| r.depth >= 6));
        assert_legal(best);
    }

    /// Records the moves a search reports as its `bestmove`, and its faults.
    #[derive(Default)]
    struct Recorded {
        best_moves: std::sync::Mutex<Vec<Option<Move>>>,
        faults: std::sync::Mutex<Vec<String>>,
    }

    impl crate::search::Reporter for Recorded {
        fn iteration(&self, _: &crate::search::Iteration) {}
        fn best_move(&self, best: Option<Move>, _: Option<Move>) {
            self.best_moves.lock().unwrap().push(best);
        }
        fn error(&self, message: &str) {
            self.faults.lock().unwrap().push(message.to_string());
        }
    }

    #[test]
    fn a_panic_while_concluding_still_answers_once_and_finishes() {
        for threads in [1, 2] {
            let pool = ThreadPool::new(threads).unwrap();
            let reporter = Arc::new(Recorded::default());
            let (mut job, finished) = startpos_job(3, threads);
            job.spec.reporter = reporter.clone();
            job.inject_finish_panic = true;
            pool.start(Arc::new(job));
            let chosen = finished.recv().expect("finished is sent despite the panic");
            assert!(chosen.is_none());
            let answers = reporter.best_moves.lock().unwrap().clone();
            assert_eq!(answers.len(), 1, "{answers:?}");
            assert_legal(answers[0]);
        }
    }

    #[test]
    fn a_job_for_fewer_threads_than_the_pool_runs_on_the_first_ones_only() {
        let pool = ThreadPool::new(2).unwrap();
        let faults = Arc::new(Recorded::default());
        let (mut job, finished) = startpos_job(4, 1);
        job.spec.reporter = faults.clone();
        let job = Arc::new(job);
        pool.start(Arc::clone(&job));
        let chosen = finished.recv().expect("the search finishes");
        assert!(chosen.is_some_and(|r| r.depth == 4));
        // A later job for both threads still runs on both.
        let (both, both_finished) = startpos_job(4, 2);
        pool.start(Arc::new(both));
        assert!(both_finished.recv().unwrap().is_some());
        // Joined, the second thread has sent nothing for the first job:
        // it never searched it.
        drop(pool);
        assert!(job.helper_results.1.try_recv().is_err());
        assert_eq!(*faults.faults.lock().unwrap(), Vec::<String>::new());
    }

    /// A result of `depth` whose line is `uci`, in the start position.
    fn result(depth: i32, uci: &str) -> Option<ThreadResult> {
        let best = uci
            .parse::<shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(Board::startpos().pos())
            .unwrap();
        Some(ThreadResult {
            depth,
            seldepth: depth as usize,
            score: 0,
            pv: vec![best],
            complete: true,
        })
    }

    #[test]
    fn several_lines_shown_play_the_leaders_line_one() {
        let leader = result(8, "e2e4");
        let helpers = || vec![result(9, "d2d4"), None];
        assert_eq!(choose(1, leader.clone(), helpers()), helpers()[0]);
        assert_eq!(choose(3, leader.clone(), helpers()), leader);
        // With no line of its own the leader falls back on the helpers'.
        assert_eq!(choose(3, None, helpers()), helpers()[0]);
        assert_eq!(choose(3, None, vec![None]), None);
    }

    #[test]
    fn with_nothing_searched_the_table_move_or_else_the_first_move_is_played() {
        let (mut job, _finished) = startpos_job(1, 1);
        let first = job.spec.root_moves[0];
        assert_eq!(best_and_ponder(&job, None).0, Some(first));
        // An earlier search left its move for the root in the table.
        let known = *job.spec.root_moves.last().unwrap();
        job.spec.tt.store(
            job.spec.root.key(),
            crate::tt::TtStore {
                best_move: Some(known),
                score: 0,
                static_eval: 0,
                depth: 10,
                bound: crate::tt::Bound::Exact,
                ply: 0,
            },
        );
        assert_eq!(best_and_ponder(&job, None).0, Some(known));
        // Not when `searchmoves` leaves it out.
        job.spec.root_moves.retain(|&m| m != known);
        assert_eq!(best_and_ponder(&job, None).0, Some(first));
    }
}
