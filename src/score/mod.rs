//! Score conventions shared by the search, the transposition table and the
//! UCI output. Two scales read on them live here too: what a piece is
//! worth in centipawns ([`material`]) and what a score means as win, draw
//! and loss chances ([`wdl`], the `UCI_ShowWDL` model).
//!
//! Scores are centipawns from the side to move's point of view. A mate is
//! `MATE - ply` (mating) or `-MATE + ply` (being mated), where `ply` counts
//! half-moves from the root, so shorter mates score higher. Everything at or
//! beyond `MATE_BOUND` in magnitude is a mate score.
//!
//! Just below the mates lies the band of tablebase wins: a win the Syzygy
//! tables prove, first seen at `ply`, is `TB_WIN - ply` (a loss
//! `-TB_WIN + ply`), so it beats every evaluation, loses to every mate, and
//! a nearer one is preferred. The band is `MAX_PLY` wide, down to
//! `TB_WIN_BOUND`. All scores fit an `i16`, which the transposition table
//! relies on.
//!
//! The table keeps mates and tablebase wins as distances from the node
//! ([`to_table`], [`from_table`]); read back where the fifty-move counter
//! leaves too few plies to reach them, or so deep that their distance from
//! the root passes the band, they are only "winning", the best score short
//! of a proven win.

pub(crate) mod material;
pub(crate) mod wdl;

/// Deepest ply the search can reach; bounds the per-ply tables.
pub const MAX_PLY: usize = 128;
/// Plies below [`MAX_PLY`] kept free by the deepest iteration, for the
/// checks and captures its horizon nodes still search.
const DEPTH_HEADROOM: i32 = 8;
/// The largest depth a `go depth` can ask for (clamped to it).
pub const MAX_DEPTH: i32 = MAX_PLY as i32 - DEPTH_HEADROOM;

pub(crate) const DRAW: i32 = 0;
pub const MATE: i32 = 32_000;
/// Scores beyond this magnitude are mates within `MAX_PLY`.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// The best tablebase win: one at the root.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores from this magnitude up to `TB_WIN` are tablebase wins (losses).
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// The largest static evaluation, raw or corrected: just below the
/// tablebase wins, so that no evaluation passes for one.
pub(crate) const MAX_EVAL: i32 = TB_WIN_BOUND - 1;
/// A mate or tablebase win from the table that the fifty-move rule may
/// spoil: as good as the best evaluation, short of every proven win.
const UNPROVEN_WIN: i32 = MAX_EVAL;
/// Larger than any real score: the initial alpha-beta window.
pub(crate) const INFINITY: i32 = MATE + 1;

/// Score of the side to move when it is checkmated at `ply`.
pub(crate) const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Score of the side to move when it mates at `ply`.
pub(crate) const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

pub(crate) const fn is_mate(score: i32) -> bool {
    score >= MATE_BOUND || score <= -MATE_BOUND
}

/// Whether `score` is a proven result, a mate or a tablebase win or loss,
/// rather than an evaluation.
pub(crate) const fn is_decisive(score: i32) -> bool {
    score >= TB_WIN_BOUND || score <= -TB_WIN_BOUND
}

/// Whether `score` says the game is decided rather than how good the
/// position is: a proven result, or a win from the table that the
/// fifty-move rule may spoil ([`UNPROVEN_WIN`], the largest evaluation).
/// Neither measures an evaluation: correction history does not learn from
/// them and the training data does not keep them.
pub(crate) const fn is_decided(score: i32) -> bool {
    score >= UNPROVEN_WIN || score <= -UNPROVEN_WIN
}

/// Whether `score` is a proven loss, mated or lost by the tablebases:
/// the move loop stops pruning until a move escapes it.
pub(crate) const fn is_loss(score: i32) -> bool {
    score <= -TB_WIN_BOUND
}

/// Score of the side to move when the tables say it wins, at `ply`.
pub(crate) const fn tb_win_in(ply: usize) -> i32 {
    TB_WIN - ply as i32
}

/// Score of the side to move when the tables say it loses, at `ply`.
pub(crate) const fn tb_loss_in(ply: usize) -> i32 {
    -TB_WIN + ply as i32
}

/// Full moves to the mate for a mate score: positive when the side to move
/// mates, negative when it is mated (UCI `score mate N`).
pub(crate) const fn mate_moves(score: i32) -> i32 {
    if score > 0 {
        (MATE - score + 1) / 2
    } else {
        -(MATE + score) / 2
    }
}

/// Converts a score relative to the root into one relative to the node at
/// `ply`, for storing in the table: a mate or a tablebase win is stored as
/// its distance from that node, so it stays true wherever the node is met
/// again.
pub(crate) const fn to_table(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_table`] for a node at `ply` with
/// `fifty_move_plies_left` half-moves before the fifty-move rule draws.
///
/// A mate or tablebase win farther from the node than those plies was
/// found with a younger fifty-move counter and may be a draw now: it comes
/// back as [`UNPROVEN_WIN`] (a loss as its negation), as Stockfish does.
/// A mate is spoilt only past them, since a mate on the hundredth
/// half-move still counts; so is a tablebase win, which is reached by a
/// capture or pawn move.
///
/// A proven result met so deep that its distance from the root passes
/// `MAX_PLY` has no score in its band. It comes back as [`UNPROVEN_WIN`]
/// too: read as the band's farthest score instead, it would pass for a
/// result of a lesser kind (a mate for a tablebase win) or, stored again
/// from a node nearer the root, for a shorter mate than there is.
pub(crate) const fn from_table(score: i32, ply: usize, fifty_move_plies_left: u32) -> i32 {
    if score >= TB_WIN_BOUND {
        win_from_table(score, ply, fifty_move_plies_left)
    } else if score <= -TB_WIN_BOUND {
        -win_from_table(-score, ply, fifty_move_plies_left)
    } else {
        score
    }
}

/// [`from_table`] for a mate or tablebase win of the side to move.
const fn win_from_table(score: i32, ply: usize, fifty_move_plies_left: u32) -> i32 {
    let (best, band_floor) = if score >= MATE_BOUND {
        (MATE, MATE_BOUND)
    } else {
        (TB_WIN, TB_WIN_BOUND)
    };
    let plies_from_node = (best - score).unsigned_abs();
    let score = score - ply as i32;
    if plies_from_node > fifty_move_plies_left || score < band_floor {
        UNPROVEN_WIN
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plies left before the fifty-move rule at a node: more than any
    /// distance to a mate or tablebase win in these tests.
    const CLOCK_FAR_FROM_FIFTY: u32 = u32::MAX;

    #[test]
    fn mate_moves_counts_full_moves() {
        assert_eq!(mate_moves(mate_in(1)), 1);
        assert_eq!(mate_moves(mate_in(3)), 2);
        assert_eq!(mate_moves(mated_in(2)), -1);
        assert_eq!(mate_moves(mated_in(0)), 0);
    }

    #[test]
    fn table_conversion_round_trips_and_moves_mates() {
        for score in [0, 57, -300, mate_in(5), mated_in(8)] {
            assert_eq!(
                from_table(to_table(score, 9), 9, CLOCK_FAR_FROM_FIFTY),
                score
            );
        }
        // Mate in 5 plies found at ply 3 is a mate 2 plies from that node;
        // met again at ply 7 it is a mate 9 plies from the root.
        let stored = to_table(mate_in(5), 3);
        assert_eq!(stored, mate_in(2));
        assert_eq!(from_table(stored, 7, CLOCK_FAR_FROM_FIFTY), mate_in(9));
    }

    #[test]
    fn tablebase_wins_lie_between_evaluations_and_mates() {
        assert!(tb_win_in(0) < mate_in(MAX_PLY));
        assert!(tb_win_in(MAX_PLY) == TB_WIN_BOUND);
        assert!(tb_loss_in(3) == -tb_win_in(3));
        assert!(!is_decisive(MAX_EVAL) && !is_decisive(-MAX_EVAL));
        for ply in 0..=MAX_PLY {
            assert!(!is_mate(tb_win_in(ply)) && !is_mate(tb_loss_in(ply)));
            assert!(is_decisive(tb_win_in(ply)) && is_decisive(tb_loss_in(ply)));
            assert!(is_decisive(mate_in(ply)) && is_decisive(mated_in(ply)));
            assert!(tb_win_in(ply) > tb_win_in(ply + 1));
        }
    }

    #[test]
    fn losses_are_mates_and_tablebase_losses_only() {
        for ply in 0..=MAX_PLY {
            assert!(is_loss(mated_in(ply)) && is_loss(tb_loss_in(ply)));
            assert!(!is_loss(mate_in(ply)) && !is_loss(tb_win_in(ply)));
        }
        assert!(!is_loss(-MAX_EVAL) && !is_loss(DRAW));
    }

    #[test]
    fn tablebase_wins_survive_the_table() {
        // A win proven 4 plies below a node at ply 6, met again at ply 2.
        let stored = to_table(tb_win_in(10), 6);
        assert_eq!(stored, tb_win_in(4));
        assert_eq!(from_table(stored, 6, CLOCK_FAR_FROM_FIFTY), tb_win_in(10));
        assert_eq!(from_table(stored, 2, CLOCK_FAR_FROM_FIFTY), tb_win_in(6));
        assert_eq!(
            from_table(to_table(tb_loss_in(9), 9), 9, CLOCK_FAR_FROM_FIFTY),
            tb_loss_in(9)
        );
        assert!(i16::try_from(to_table(tb_win_in(0), MAX_PLY)).is_ok());
        // Met too deep to count the distance, it is only winning.
        assert_eq!(
            from_table(tb_win_in(100), 100, CLOCK_FAR_FROM_FIFTY),
            UNPROVEN_WIN
        );
        assert_eq!(
            from_table(tb_loss_in(100), 100, CLOCK_FAR_FROM_FIFTY),
            -UNPROVEN_WIN
        );
    }

    #[test]
    fn mates_up_to_the_maximum_ply_stay_mates_through_the_table() {
        // A mate `distance` plies beyond a node at `ply`, anywhere within
        // MAX_PLY of the root, is stored and read back as the same mate.
        for ply in 0..MAX_PLY {
            for distance in 0..=MAX_PLY - ply {
                let plies = ply + distance;
                // Mating takes an odd number of plies, being mated an even.
                for (score, moves) in [
                    (mate_in(plies), plies.div_ceil(2) as i32),
                    (mated_in(plies), -((plies / 2) as i32)),
                ] {
                    assert!(is_mate(score), "{ply} {distance}");
                    let stored = to_table(score, ply);
                    assert!(i16::try_from(stored).is_ok(), "{ply} {distance}");
                    assert_eq!(from_table(stored, ply, CLOCK_FAR_FROM_FIFTY), score);
                    assert_eq!(mate_moves(score), moves);
                }
            }
        }
    }

    #[test]
    fn a_proven_result_too_far_from_the_root_to_count_is_only_winning() {
        // Mate 80 plies beyond a node, met again at ply 60: 140 plies from
        // the root, more than the mate band holds. Read back, it is the
        // best score short of a proven win, not the farthest mate: stored
        // again from that node, the farthest mate would claim a mate 68
        // plies away, 12 shorter than the one there is.
        let stored = to_table(mate_in(90), 10);
        assert_eq!(stored, mate_in(80));
        for (stored, read) in [(stored, UNPROVEN_WIN), (-stored, -UNPROVEN_WIN)] {
            assert_eq!(from_table(stored, 60, CLOCK_FAR_FROM_FIFTY), read);
            let stored_again = to_table(read, 60);
            assert!(!is_decisive(stored_again), "{stored_again}");
        }
        // The same for a tablebase win 80 plies beyond the node.
        let stored = to_table(tb_win_in(90), 10);
        assert_eq!(from_table(stored, 60, CLOCK_FAR_FROM_FIFTY), UNPROVEN_WIN);
        assert_eq!(from_table(-stored, 60, CLOCK_FAR_FROM_FIFTY), -UNPROVEN_WIN);
    }

    #[test]
    fn a_win_the_fifty_move_rule_may_spoil_is_no_proven_win() {
        // Mate 10 plies beyond a node at ply 3 stands with 10 plies left
        // before the fifty-move rule (mate on the hundredth half-move
        // counts), not with 9.
        let mate = mate_in(10);
        assert_eq!(from_table(mate, 3, 10), mate_in(13));
        assert_eq!(from_table(-mate, 3, 10), mated_in(13));
        // A tablebase win 7 plies away is reached by a capture or pawn
        // move on the seventh ply, which must come before the rule draws.
        let tb_win = tb_win_in(7);
        assert_eq!(from_table(tb_win, 2, 7), tb_win_in(9));
        assert_eq!(from_table(-tb_win, 2, 7), tb_loss_in(9));
        for (stored, plies_left) in [(mate, 9), (tb_win, 6), (mate, 0)] {
            assert_eq!(
                from_table(stored, 3, plies_left),
                UNPROVEN_WIN,
                "{stored} {plies_left}"
            );
            assert_eq!(from_table(-stored, 3, plies_left), -UNPROVEN_WIN);
        }
    }
}
