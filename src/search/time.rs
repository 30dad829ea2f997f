//! Time management: turns the clock into a soft and a hard limit.
//!
//! * The **soft** limit is checked between iterations: past it, no new
//!   iteration starts (one would rarely finish).
//! * The **hard** limit is checked inside the search and aborts it.
//!
//! For a clock, the soft budget is an even share of the remaining time over
//! the moves still to play (`movestogo`, or the `time_moves_to_go` tunable)
//! plus a tunable share of the increment (all of it by default), but never
//! more than a fixed share of the clock; the hard limit allows a few soft
//! budgets but never more than a larger share of the clock. When
//! `movestogo` says the clock refills within a few moves, either share may
//! grow to twice the even share, up to half the clock (by default the soft
//! share grows below 8 moves to go, the hard one below 5). The constants
//! are tunables ([`super::tunables`]), so a tuning build can set them per
//! game.
//! `Move Overhead` is taken off every budget first, covering the GUI's and
//! the operating system's latency, and without an increment that pays for
//! it, once more for every move still to play (see [`overhead_reserve`]).
//!
//! A `go` that gives only the other side's clock (`go wtime …` with Black to
//! move) is read as a game with equal clocks: the side to move gets the
//! same time and increment, rather than no limit at all.
//!
//! `go movetime` asks for that time exactly, as Stockfish and Ethereal read
//! it: both limits are the move time, less at most [`MOVETIME_MARGIN`] of the
//! overhead, and the search's stability may not shorten it. A clock that
//! comes with it still binds: each limit is the smaller of the two, as
//! Stockfish stops at whichever comes first.

use std::time::Duration;

use shakmaty::Color;

use super::limits::Limits;
use super::tunables;

const PER_MILLE: u32 = 1000;
/// With `movestogo` the clock refills soon, so a move may use up to this
/// many times its even share, within [`MAX_MOVESTOGO_FRACTION_PER_MILLE`],
/// when that is more than the usual ceilings.
const MOVESTOGO_SHARE_FACTOR: u32 = 2;
const MAX_MOVESTOGO_FRACTION_PER_MILLE: u32 = 500;
/// What `go movetime` keeps back of `Move Overhead`: enough for the answer
/// to reach a GUI that enforces the move time to the millisecond (cutechess
/// `st`), little enough to answer within a few milliseconds of the request.
const MOVETIME_MARGIN: Duration = Duration::from_millis(5);
/// The most moves to go a `go movestogo` is read as, as Stockfish caps it:
/// one overhead is kept back for each (without increment), and a
/// `movestogo 1000` would keep 10 s of any clock at the default overhead.
const MAX_MOVES_TO_GO: u32 = 50;
/// Never plan below this, so even a flagging engine returns a real move.
const MIN_BUDGET: Duration = Duration::from_millis(1);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    pub(crate) soft: Duration,
    pub(crate) hard: Duration,
    /// Whether the search's stability may move the soft limit; not for
    /// `go movetime`, which asks for exactly its time.
    pub(crate) adjustable: bool,
}

/// The budget for `limits` with `turn` to move, or `None` for a search with
/// no time limit (`go infinite` has none, whatever clocks come with it).
pub(crate) fn budget(limits: &Limits, turn: Color, move_overhead: Duration) -> Option<TimeBudget> {
    if !limits.uses_clock() {
        return None;
    }
    let for_clock = clock_budget(limits, turn, move_overhead);
    let Some(move_time) = limits.move_time else {
        return for_clock;
    };
    let margin = move_overhead.min(MOVETIME_MARGIN);
    let time = move_time.saturating_sub(margin).max(MIN_BUDGET);
    let (soft, hard) = match for_clock {
        Some(clock) => (time.min(clock.soft), time.min(clock.hard)),
        None => (time, time),
    };
    Some(TimeBudget {
        soft,
        hard,
        adjustable: false,
    })
}

/// The budget the clock alone allows, or `None` when `go` gives no clock.
fn clock_budget(limits: &Limits, turn: Color, move_overhead: Duration) -> Option<TimeBudget> {
    let (own, other) = match turn {
        Color::White => (
            (limits.white_time, limits.white_increment),
            (limits.black_time, limits.black_increment),
        ),
        Color::Black => (
            (limits.black_time, limits.black_increment),
            (limits.white_time, limits.white_increment),
        ),
    };
    let (clock, increment) = match own {
        (Some(clock), increment) => (clock, increment),
        (None, _) => other.0.map(|clock| (clock, other.1))?,
    };
    let increment = increment.unwrap_or_default();
    // `movestogo 0` (or a negative one, read as 0) says nothing, as for
    // Stockfish: not "this move ends the period".
    let given_moves_to_go = limits
        .moves_to_go
        .filter(|&moves| moves > 0)
        .map(|moves| moves.min(MAX_MOVES_TO_GO));
    let default_moves_to_go = tunables::time_moves_to_go() as u32;
    let moves_to_go = given_moves_to_go.unwrap_or(default_moves_to_go);
    let available = clock
        .saturating_sub(overhead_reserve(move_overhead, increment, moves_to_go))
        .max(MIN_BUDGET);

    let soft_fraction = tunables::time_soft_clock_per_mille() as u32;
    let hard_fraction = tunables::time_hard_clock_per_mille() as u32;
    let (soft_fraction, hard_fraction) = match given_moves_to_go {
        // The clock refills soon: a move may take a larger share of it.
        Some(_) => {
            let refill = (PER_MILLE * MOVESTOGO_SHARE_FACTOR / moves_to_go)
                .min(MAX_MOVESTOGO_FRACTION_PER_MILLE);
            (soft_fraction.max(refill), hard_fraction.max(refill))
        }
        None => (soft_fraction, hard_fraction),
    };
    let soft_ceiling = (available * soft_fraction / PER_MILLE).max(MIN_BUDGET);
    let hard_ceiling = (available * hard_fraction / PER_MILLE).max(soft_ceiling);
    let increment_share = tunables::time_increment_per_mille() as u32;
    let share = available / moves_to_go + increment * increment_share / PER_MILLE;
    let soft = share.min(soft_ceiling).max(MIN_BUDGET);
    let hard_factor = tunables::time_hard_limit_factor() as u32;
    let hard = (soft * hard_factor).min(hard_ceiling).max(soft);
    Some(TimeBudget {
        soft,
        hard,
        adjustable: true,
    })
}

/// What the clock must keep back for the latency of this move and of
/// `moves_to_go` more (one more than a `movestogo` counts, which includes
/// this move: on the safe side): `Move Overhead` once, and again for every
/// move to come whose increment does not pay for it. An increment game so keeps
/// one overhead; a game without increment keeps one per move to come, and
/// once its clock is down to that it plays its moves at once instead of
/// running the clock out over a long endgame (a 6 s game flagged in 8 of 50
/// games without this reserve).
fn overhead_reserve(move_overhead: Duration, increment: Duration, moves_to_go: u32) -> Duration {
    move_overhead + move_overhead.saturating_sub(increment) * moves_to_go
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(value: u64) -> Duration {
        Duration::from_millis(value)
    }

    fn clock(white: u64, black: u64, inc: u64) -> Limits {
        Limits {
            white_time: Some(ms(white)),
            black_time: Some(ms(black)),
            white_increment: Some(ms(inc)),
            black_increment: Some(ms(inc)),
            ..Limits::default()
        }
    }

    #[test]
    fn movetime_less_a_small_margin_is_both_fixed_limits() {
        let limits = Limits {
            move_time: Some(ms(1000)),
            ..Limits::default()
        };
        let b = budget(&limits, Color::White, ms(10)).unwrap();
        assert_eq!((b.soft, b.hard, b.adjustable), (ms(995), ms(995), false));
        let b = budget(&limits, Color::White, ms(0)).unwrap();
        assert_eq!((b.soft, b.hard), (ms(1000), ms(1000)));
    }

    #[test]
    fn a_clock_shorter_than_the_movetime_still_binds() {
        // `go wtime 300 btime 300 movetime 3000` used to search for the
        // whole 3 s with 0.3 s on the clock.
        let limits = Limits {
            move_time: Some(ms(3000)),
            ..clock(300, 300, 0)
        };
        let b = budget(&limits, Color::White, ms(10)).unwrap();
        let clock_only = budget(&clock(300, 300, 0), Color::White, ms(10)).unwrap();
        assert_eq!((b.soft, b.hard), (clock_only.soft, clock_only.hard));
        assert!(!b.adjustable);
        // A long clock leaves the move time exact.
        let limits = Limits {
            move_time: Some(ms(1000)),
            ..clock(600_000, 600_000, 0)
        };
        let b = budget(&limits, Color::White, ms(10)).unwrap();
        assert_eq!((b.soft, b.hard), (ms(995), ms(995)));
    }

    #[test]
    fn uses_the_clock_of_the_side_to_move() {
        let limits = clock(60_000, 1_000, 0);
        let white = budget(&limits, Color::White, ms(10)).unwrap();
        let black = budget(&limits, Color::Black, ms(10)).unwrap();
        assert!(white.soft > black.soft * 10);
    }

    #[test]
    fn never_plans_past_the_clock() {
        for (time, inc, mtg) in [
            (1, 0, None),
            (50, 10, Some(1)),
            (2000, 20, None),
            (10, 5000, None),
        ] {
            let limits = Limits {
                moves_to_go: mtg,
                ..clock(time, time, inc)
            };
            let b = budget(&limits, Color::White, ms(10)).unwrap();
            assert!(b.soft <= b.hard);
            assert!(b.hard <= ms(time).max(MIN_BUDGET), "{time} {inc}: {b:?}");
        }
    }

    /// The share of `available` a tunable per-mille fraction allows.
    fn share(available: u64, per_mille: i32) -> Duration {
        ms(available) * per_mille as u32 / PER_MILLE
    }

    #[test]
    fn a_move_on_a_short_clock_keeps_most_of_it() {
        // Where a 2s+0.02s game's clock settles (a tenth of a second or
        // so), even a move cut by the hard limit must leave most of the
        // clock: the hard ceiling, not the soft budget, is what keeps a
        // loaded machine from flagging.
        for clock_ms in (20..=500).step_by(10) {
            let b = budget(&clock(clock_ms, clock_ms, 20), Color::White, ms(10)).unwrap();
            let available = clock_ms - 10;
            let hard_ceiling = share(available, tunables::time_hard_clock_per_mille());
            let soft_ceiling = share(available, tunables::time_soft_clock_per_mille());
            assert!(b.hard <= hard_ceiling.max(MIN_BUDGET), "{clock_ms}: {b:?}");
            assert!(b.soft <= soft_ceiling.max(MIN_BUDGET), "{clock_ms}: {b:?}");
            assert!(b.hard <= ms(clock_ms) / 2, "{clock_ms}: {b:?}");
        }
    }

    #[test]
    fn sudden_death_lasts_a_long_game() {
        // A 6 s game without increment, 150 moves, each costing its soft
        // budget plus a millisecond of latency: the clock never runs out.
        let overhead = ms(10);
        let latency = ms(1);
        let mut left = ms(6000);
        for played in 0..150 {
            let limits = Limits {
                white_time: Some(left),
                black_time: Some(left),
                ..Limits::default()
            };
            let b = budget(&limits, Color::White, overhead).unwrap();
            let spent = b.soft + latency;
            assert!(spent < left, "move {played}: {left:?} left, {b:?}");
            left -= spent;
        }
    }

    #[test]
    fn an_increment_that_pays_the_overhead_keeps_one_overhead() {
        assert_eq!(overhead_reserve(ms(10), ms(80), 22), ms(10));
        assert_eq!(overhead_reserve(ms(10), ms(10), 22), ms(10));
        assert_eq!(overhead_reserve(ms(10), ms(0), 22), ms(230));
        assert_eq!(overhead_reserve(ms(10), ms(4), 2), ms(22));
    }

    #[test]
    fn movestogo_one_may_use_half_the_clock() {
        let limits = Limits {
            moves_to_go: Some(1),
            ..clock(10_000, 10_000, 0)
        };
        let b = budget(&limits, Color::White, ms(10)).unwrap();
        assert!(b.hard >= ms(4000) && b.hard <= ms(5000), "{b:?}");
    }

    #[test]
    fn movestogo_zero_says_nothing_and_a_huge_one_is_capped() {
        let without = budget(&clock(8000, 8000, 0), Color::White, ms(10)).unwrap();
        let zero = Limits {
            moves_to_go: Some(0),
            ..clock(8000, 8000, 0)
        };
        assert_eq!(budget(&zero, Color::White, ms(10)), Some(without));
        let capped = |moves| {
            let limits = Limits {
                moves_to_go: Some(moves),
                ..clock(8000, 8000, 0)
            };
            budget(&limits, Color::White, ms(10)).unwrap()
        };
        assert_eq!(capped(1000), capped(MAX_MOVES_TO_GO));
        // 8 s less 51 overheads over 50 moves, not 1 ms moves.
        assert!(capped(1000).soft >= ms(100), "{:?}", capped(1000));
    }

    #[test]
    fn only_the_other_sides_clock_is_read_as_equal_clocks() {
        let white_only = Limits {
            white_time: Some(ms(1000)),
            white_increment: Some(ms(10)),
            ..Limits::default()
        };
        let black = budget(&white_only, Color::Black, ms(10)).unwrap();
        let white = budget(&white_only, Color::White, ms(10)).unwrap();
        assert_eq!(black, white);
        let hard_ceiling = share(990, tunables::time_hard_clock_per_mille());
        assert!(black.hard <= hard_ceiling, "{black:?}");
        let black_only = Limits {
            black_time: Some(ms(5000)),
            ..Limits::default()
        };
        let white = budget(&black_only, Color::White, ms(10)).unwrap();
        let hard_ceiling = share(4990, tunables::time_hard_clock_per_mille());
        assert!(white.hard <= hard_ceiling, "{white:?}");
    }

    #[test]
    fn no_clock_means_no_budget() {
        assert_eq!(budget(&Limits::depth(5), Color::White, ms(10)), None);
    }
}
