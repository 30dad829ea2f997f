//! What a search thread comes back with: its last iteration's line, and
//! how results of several threads rank against each other.

use shakmaty::Move;

/// The outcome of one thread's last iteration: a completed one, or one cut
/// short after it had proved a best root move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadResult {
    pub(crate) depth: i32,
    pub(crate) seldepth: usize,
    pub score: i32,
    /// Never empty: the first move is the best move.
    pub pv: Vec<Move>,
    /// False for an iteration cut short: then `depth` is the depth it was
    /// searching, the best move is the best of the root moves searched so
    /// far at that depth, and `score` a lower bound of the root's score.
    pub(crate) complete: bool,
}

impl ThreadResult {
    /// Orders results for playing: by the depth completed (a cut iteration
    /// completed the one before it), a completed iteration before a cut
    /// one of the same completed depth (its unsearched root moves might
    /// have been better), then the better score.
    pub(crate) fn rank(&self) -> (i32, bool, i32) {
        (
            self.depth - i32::from(!self.complete),
            self.complete,
            self.score,
        )
    }
}
