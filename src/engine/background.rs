//! A debugging command (`bench`, `go perft`) run on a thread of its own.
//!
//! Either can take hours at a large depth. Run on the protocol thread, it
//! left `isready` unanswered and `quit` unheard until it was done; here the
//! loop reads on: `isready` is answered while it runs, `stop`, `quit` and a
//! new `go` end it (it reports that it stopped), and at the end of input it
//! finishes, as a finite search does. The work polls a stop flag.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crossbeam::channel::{Receiver, TryRecvError};

pub(crate) struct BackgroundTask {
    stop: Arc<AtomicBool>,
    /// Closed (or sent on) when the work is over, a panic included.
    done: Receiver<()>,
}

impl BackgroundTask {
    /// Starts `work` on a new thread named `name`; `work` should return
    /// soon after the flag it is given is set.
    pub(crate) fn spawn(
        name: &str,
        work: impl FnOnce(&AtomicBool) + Send + 'static,
    ) -> Result<BackgroundTask, String> {
        let stop = Arc::new(AtomicBool::new(false));
        let (finished, done) = crossbeam::channel::bounded(1);
        let flag = Arc::clone(&stop);
        std::thread::Builder::new()
            .name(name.to_string())
            .spawn(move || {
                work(&flag);
                let _ = finished.send(());
            })
            .map_err(|error| format!("cannot start a thread for {name}: {error}"))?;
        Ok(BackgroundTask { stop, done })
    }

    pub(crate) fn is_running(&self) -> bool {
        matches!(self.done.try_recv(), Err(TryRecvError::Empty))
    }

    /// Asks the work to end; [`BackgroundTask::wait`] waits for it.
    pub(crate) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub(crate) fn wait(self) {
        let _ = self.done.recv();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_runs_until_stopped_and_then_is_over() {
        let task = BackgroundTask::spawn("test", |stop| {
            while !stop.load(Ordering::Relaxed) {
                std::thread::yield_now();
            }
        })
        .unwrap();
        assert!(task.is_running());
        task.stop();
        let done = task.done.clone();
        task.wait();
        assert!(matches!(done.try_recv(), Err(TryRecvError::Disconnected)));
    }

    #[test]
    fn a_panicking_task_counts_as_over() {
        let task = BackgroundTask::spawn("test", |_| panic!("injected")).unwrap();
        let done = task.done.clone();
        task.wait();
        assert!(matches!(done.try_recv(), Err(TryRecvError::Disconnected)));
    }
}
