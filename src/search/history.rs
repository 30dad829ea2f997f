//! What one search thread learns about moves while it searches, for move
//! ordering and for reducing late moves.
//!
//! * **Killers**: two quiet moves per ply that caused a cutoff there.
//! * **Countermove**: the quiet move that last refuted each (piece, square)
//!   the opponent moved to.
//! * **Butterfly history**: quiet moves by side, from and to square.
//! * **Continuation history**: quiet moves by (piece, to) following the
//!   (piece, to) played one and two plies earlier, which captures how moves
//!   answer each other (a plan, a recapture pattern) better than a square
//!   pair alone.
//! * **Capture history**: captures by (piece, to, captured role), which
//!   corrects MVV ordering where a capture keeps failing.
//!
//! Every update moves an entry toward ±[`MAX_HISTORY`] with "gravity"
//! (`entry += bonus − entry·|bonus|/MAX`), so entries stay bounded and old
//! knowledge fades. On a cutoff the cutting move gets a bonus that grows
//! with depth; a quiet cutoff gives a malus (of the same shape, tuned
//! apart) to every quiet move and
//! capture tried before it, a capture cutoff to the captures. Each Lazy-SMP
//! thread owns its tables, so they need no locking.

use shakmaty::{Color, Move, MoveList, Role};

use super::tunables;
use crate::score::MAX_PLY;

/// History scores stay within ±this (history gravity); entries are `i16`.
pub(crate) const MAX_HISTORY: i32 = 1 << 14;
const _: () = assert!(MAX_HISTORY <= i16::MAX as i32);

const PIECES: usize = 12;
const SQUARES: usize = 64;
const ROLES: usize = 6;

/// A moved piece (colour and role) and where it went: the key of the
/// continuation and capture histories.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PieceTo {
    piece: usize,
    to: usize,
}

impl PieceTo {
    pub(crate) fn new(turn: Color, m: Move) -> PieceTo {
        PieceTo {
            piece: piece_index(turn, m.role()),
            to: usize::from(m.to()),
        }
    }

    /// A dense index in `0..PIECE_TOS`, for tables keyed by moves.
    pub(crate) fn index(self) -> usize {
        self.piece * SQUARES + self.to
    }
}

/// How many distinct [`PieceTo`] there are.
pub(crate) const PIECE_TOS: usize = PIECES * SQUARES;

fn piece_index(color: Color, role: Role) -> usize {
    (role as usize - 1) + ROLES * color as usize
}

/// Moves of the opponent (one ply back) and of the side to move (two plies
/// back) that the continuation history of a node is keyed by.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Context {
    pub(crate) previous: Option<PieceTo>,
    pub(crate) before_previous: Option<PieceTo>,
}

type ContinuationTable = [[[[i16; SQUARES]; PIECES]; SQUARES]; PIECES];

pub(crate) struct Histories {
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    countermoves: Box<[[Option<Move>; SQUARES]; PIECES]>,
    butterfly: Box<[[[i16; SQUARES]; SQUARES]; 2]>,
    continuation: Box<ContinuationTable>,
    capture: Box<[[[i16; ROLES]; SQUARES]; PIECES]>,
}

impl Default for Histories {
    fn default() -> Self {
        Histories {
            killers: [[None; 2]; MAX_PLY + 1],
            countermoves: Box::new([[None; SQUARES]; PIECES]),
            butterfly: Box::new([[[0; SQUARES]; SQUARES]; 2]),
            continuation: zeroed_continuation(),
            capture: Box::new([[[0; ROLES]; SQUARES]; PIECES]),
        }
    }
}

/// The 1.2 MB continuation table, built on the heap (a stack temporary of
/// that size would overflow a default thread stack).
fn zeroed_continuation() -> Box<ContinuationTable> {
    let table: Box<[[[[i16; SQUARES]; PIECES]; SQUARES]]> =
        vec![[[[0; SQUARES]; PIECES]; SQUARES]; PIECES].into_boxed_slice();
    table.try_into().expect("PIECES rows")
}

/// The bonus of the move that cut off at remaining `depth`.
pub(crate) fn bonus(depth: i32) -> i32 {
    (tunables::history_bonus_per_depth_squared() * depth * depth
        + tunables::history_bonus_per_depth() * depth)
        .min(tunables::history_max_bonus())
}

/// The malus of each move tried before the one that cut off at remaining
/// `depth` (a positive amount, taken off).
fn malus(depth: i32) -> i32 {
    (tunables::history_malus_per_depth_squared() * depth * depth
        + tunables::history_malus_per_depth() * depth)
        .min(tunables::history_max_malus())
}

/// Moves `entry` toward ±[`MAX_HISTORY`] by `bonus` (gravity): the result
/// stays within ±MAX_HISTORY, so it fits an `i16`.
fn apply(entry: &mut i16, bonus: i32) {
    let value = i32::from(*entry);
    *entry = (value + bonus - value * bonus.abs() / MAX_HISTORY) as i16;
}

impl Histories {
    /// Forgets killers (they belong to one search) but keeps the rest.
    pub(crate) fn new_search(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
    }

    pub(crate) fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }

    pub(crate) fn countermove(&self, context: &Context) -> Option<Move> {
        context
            .previous
            .and_then(|p| self.countermoves[p.piece][p.to])
    }

    /// The ordering score of quiet move `m`: butterfly plus continuation.
    pub(crate) fn quiet_score(&self, turn: Color, m: Move, context: &Context) -> i32 {
        let own = PieceTo::new(turn, m);
        let butterfly = m.from().map_or(0, |from| {
            i32::from(self.butterfly[turn as usize][usize::from(from)][usize::from(m.to())])
        });
        let continuation: i32 = [context.previous, context.before_previous]
            .into_iter()
            .flatten()
            .map(|p| i32::from(self.continuation[p.piece][p.to][own.piece][own.to]))
            .sum();
        butterfly + continuation
    }

    /// The capture-history score of capture (or promotion) `m`.
    pub(crate) fn capture_score(&self, turn: Color, m: Move) -> i32 {
        let own = PieceTo::new(turn, m);
        i32::from(self.capture[own.piece][own.to][captured_index(m)])
    }

    /// Quiet move `best` cut off at `ply`, at remaining `depth`, after the
    /// quiet moves and captures in `tried` failed.
    pub(crate) fn record_quiet_cutoff(
        &mut self,
        turn: Color,
        ply: usize,
        depth: i32,
        best: Move,
        tried: &Tried,
        context: &Context,
    ) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(best) {
            killers[1] = killers[0];
            killers[0] = Some(best);
        }
        if let Some(previous) = context.previous {
            self.countermoves[previous.piece][previous.to] = Some(best);
        }
        self.update_quiet(turn, best, bonus(depth), context);
        let malus = malus(depth);
        for &m in &tried.quiets {
            self.update_quiet(turn, m, -malus, context);
        }
        for &m in &tried.captures {
            self.update_capture(turn, m, -malus);
        }
    }

    /// Capture `best` cut off after the captures in `tried` failed.
    pub(crate) fn record_capture_cutoff(
        &mut self,
        turn: Color,
        depth: i32,
        best: Move,
        tried: &Tried,
    ) {
        self.update_capture(turn, best, bonus(depth));
        let malus = malus(depth);
        for &m in &tried.captures {
            self.update_capture(turn, m, -malus);
        }
    }

    fn update_quiet(&mut self, turn: Color, m: Move, bonus: i32, context: &Context) {
        if let Some(from) = m.from() {
            apply(
                &mut self.butterfly[turn as usize][usize::from(from)][usize::from(m.to())],
                bonus,
            );
        }
        let own = PieceTo::new(turn, m);
        for p in [context.previous, context.before_previous]
            .into_iter()
            .flatten()
        {
            apply(
                &mut self.continuation[p.piece][p.to][own.piece][own.to],
                bonus,
            );
        }
    }

    fn update_capture(&mut self, turn: Color, m: Move, bonus: i32) {
        let own = PieceTo::new(turn, m);
        apply(
            &mut self.capture[own.piece][own.to][captured_index(m)],
            bonus,
        );
    }
}

/// The captured role's index (a quiet promotion counts as capturing a pawn's
/// worth of nothing: index 0).
fn captured_index(m: Move) -> usize {
    m.capture().map_or(0, |role| role as usize - 1)
}

/// The moves a node tried before the current one, for history maluses.
/// Kept on the stack: a node that tries any move would otherwise allocate.
#[derive(Default)]
pub(crate) struct Tried {
    pub(crate) quiets: MoveList,
    pub(crate) captures: MoveList,
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn history_stays_bounded() {
        let mut histories = Histories::default();
        let m = Chess::default().legal_moves()[0];
        let context = Context::default();
        for _ in 0..10_000 {
            histories.record_quiet_cutoff(Color::White, 3, 40, m, &Tried::default(), &context);
        }
        let score = histories.quiet_score(Color::White, m, &context);
        assert!(score > 0 && score <= MAX_HISTORY, "{score}");
    }

    #[test]
    fn a_cutoff_rewards_the_move_and_its_continuation_and_punishes_the_tried() {
        let pos = Chess::default();
        let moves = pos.legal_moves();
        let (best, failed) = (moves[0], moves[1]);
        let context = Context {
            previous: Some(PieceTo { piece: 6, to: 36 }),
            before_previous: None,
        };
        let mut histories = Histories::default();
        let tried = Tried {
            quiets: [failed].into_iter().collect(),
            captures: MoveList::new(),
        };
        histories.record_quiet_cutoff(Color::White, 0, 5, best, &tried, &context);
        assert!(histories.quiet_score(Color::White, best, &context) > 0);
        assert!(histories.quiet_score(Color::White, failed, &context) < 0);
        // The continuation part is specific to the previous move.
        let other = Context::default();
        assert!(
            histories.quiet_score(Color::White, best, &context)
                > histories.quiet_score(Color::White, best, &other)
        );
        assert_eq!(histories.countermove(&context), Some(best));
        assert_eq!(histories.killers(0)[0], Some(best));
    }
}
