//! A debugging command (`bench`, `go perft`) run on a thread of its own.
//!
//! Either can take hours at a large depth. Run on the protocol thread, it
//! left `isready` unanswered and `stop` unheard until it was done; here the
//! loop reads on: `isready` is answered while it runs, and `stop` ends it
//! (it reports that it stopped). A new `go`, `ucinewgame` or other command
//! that needs the engine idle waits for it (`queue`), and `quit` and the
//! end of input let it finish, since its output is what was asked for (a
//! script that pipes `go perft 5` and `quit` gets its count, as from
//! Stockfish, whose loop waits for it).
//!
//! The work polls a stop flag, and says when only its closing lines are
//! left to print ([`TaskSignals::finishing`]): from then on the engine
//! counts it as done and waits for those lines, so a command sent the
//! moment they appear is not refused as "while searching".

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crossbeam::channel::{Receiver, TryRecvError};

/// What a task's work and the engine share.
#[derive(Default)]
pub(crate) struct TaskSignals {
    stop: AtomicBool,
    finishing: AtomicBool,
}

impl TaskSignals {
    /// Set when the work should end early.
    pub(crate) fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// Called by the work once only its closing lines are left to print.
    pub(crate) fn finishing(&self) {
        self.finishing.store(true, Ordering::Release);
    }
}

pub(crate) struct BackgroundTask {
    signals: Arc<TaskSignals>,
    /// Closed (or sent on) when the work is over, a panic included.
    done: Receiver<()>,
}

impl BackgroundTask {
    /// Starts `work` on a new thread named `name`; `work` should return
    /// soon after its stop flag is set.
    pub(crate) fn spawn(
        name: &str,
        work: impl FnOnce(&TaskSignals) + Send + 'static,
    ) -> Result<BackgroundTask, String> {
        let signals = Arc::new(TaskSignals::default());
        let (finished, done) = crossbeam::channel::bounded(1);
        let shared = Arc::clone(&signals);
        std::thread::Builder::new()
            .name(name.to_string())
            .spawn(move || {
                work(&shared);
                let _ = finished.send(());
            })
            .map_err(|error| format!("cannot start a thread for {name}: {error}"))?;
        Ok(BackgroundTask { signals, done })
    }

    /// Whether the work is still busy: neither over nor printing its
    /// closing lines.
    pub(crate) fn is_busy(&self) -> bool {
        !self.signals.finishing.load(Ordering::Acquire)
            && matches!(self.done.try_recv(), Err(TryRecvError::Empty))
    }

    /// Asks the work to end; [`BackgroundTask::wait`] waits for it.
    pub(crate) fn stop(&self) {
        self.signals.stop.store(true, Ordering::Relaxed);
    }

    pub(crate) fn wait(self) {
        let _ = self.done.recv();
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    #[test]
    fn a_task_runs_until_stopped_and_then_is_over() {
        let task = BackgroundTask::spawn("test", |signals| {
            while !signals.stop_flag().load(Ordering::Relaxed) {
                std::thread::yield_now();
            }
        })
        .unwrap();
        assert!(task.is_busy());
        task.stop();
        let done = task.done.clone();
        task.wait();
        assert!(matches!(done.try_recv(), Err(TryRecvError::Disconnected)));
    }

    #[test]
    fn a_task_printing_its_closing_lines_is_no_longer_busy() {
        let (go_on, wait) = crossbeam::channel::bounded::<()>(0);
        let task = BackgroundTask::spawn("test", move |signals| {
            signals.finishing();
            let _ = wait.recv();
        })
        .unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        while task.is_busy() {
            assert!(Instant::now() < deadline, "still busy while finishing");
            std::thread::yield_now();
        }
        go_on.send(()).unwrap();
        task.wait();
    }

    #[test]
    fn a_panicking_task_counts_as_over() {
        let task = BackgroundTask::spawn("test", |_| panic!("injected")).unwrap();
        let done = task.done.clone();
        task.wait();
        assert!(matches!(done.try_recv(), Err(TryRecvError::Disconnected)));
    }
}
