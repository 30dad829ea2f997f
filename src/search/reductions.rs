//! Late-move reductions: how many plies a late move's null-window search
//! is cut short by, before the node's own adjustments (PV node, history,
//! killers, improving; those stay in [`alphabeta`](super::alphabeta),
//! where the node's state is).
//!
//! Quiet moves and tactical ones (captures and promotions) each take
//! `base + ln d · ln m / divisor` plies at depth `d` for the `m`-th move,
//! with their own tunables (by default the tactical formula is the
//! gentler; SPSA may move either). Moves that give check or answer one
//! are not reduced at all. The normal build computes both tables once
//! (bytes, read for every late move); a `tuning` build computes the
//! formula from the tunables' live values at every use, so an SPSA
//! driver's option changes take effect at once.

use super::tunables;

/// Depths and move numbers past the table's last row and column read it.
const LMR_TABLE_SIZE: usize = 64;
/// The unit of the reduction tunables' base and divisor (hundredths).
const LMR_TUNABLE_UNIT: f64 = 100.0;

/// Which reduction formula a late move takes: quiet moves and tactical
/// ones (captures and promotions) are reduced apart, the latter less by
/// default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ReducedKind {
    Quiet,
    Tactical,
}

#[cfg(not(feature = "tuning"))]
impl ReducedKind {
    /// Every kind, in the order of the normal build's tables.
    const ALL: [ReducedKind; 2] = [ReducedKind::Quiet, ReducedKind::Tactical];

    /// The kind's table among [`ReducedKind::ALL`]'s.
    fn table_index(self) -> usize {
        match self {
            ReducedKind::Quiet => 0,
            ReducedKind::Tactical => 1,
        }
    }
}

/// Late-move reduction in plies for `depth` and the `move_number`-th move
/// of `kind`: from a table computed once in the normal build, from the
/// tunables' live values in a `tuning` build.
pub(super) fn late_move_reduction(kind: ReducedKind, depth: i32, move_number: usize) -> i32 {
    let d = (depth.max(0) as usize).min(LMR_TABLE_SIZE - 1);
    let m = move_number.min(LMR_TABLE_SIZE - 1);
    #[cfg(feature = "tuning")]
    {
        reduction_formula(kind, d, m)
    }
    #[cfg(not(feature = "tuning"))]
    {
        type Table = [[u8; LMR_TABLE_SIZE]; LMR_TABLE_SIZE];
        static TABLES: std::sync::OnceLock<[Table; 2]> = std::sync::OnceLock::new();
        let tables = TABLES.get_or_init(|| {
            ReducedKind::ALL.map(|kind| {
                std::array::from_fn(|d| {
                    std::array::from_fn(|m| {
                        u8::try_from(reduction_formula(kind, d, m))
                            .expect("a reduction is never below zero and a few plies at most")
                    })
                })
            })
        });
        i32::from(tables[kind.table_index()][d][m])
    }
}

/// The reduction of `kind`'s formula with its tunables' values.
fn reduction_formula(kind: ReducedKind, depth: usize, move_number: usize) -> i32 {
    let (base_centi, divisor_centi) = match kind {
        ReducedKind::Quiet => (
            tunables::lmr_quiet_base_centi(),
            tunables::lmr_quiet_divisor_centi(),
        ),
        ReducedKind::Tactical => (
            tunables::lmr_capture_base_centi(),
            tunables::lmr_capture_divisor_centi(),
        ),
    };
    reduction_plies(base_centi, divisor_centi, depth, move_number)
}

/// `base + ln d · ln m / divisor` plies (base and divisor in hundredths),
/// truncated, and never below zero; none for move number 0 or at depth 0,
/// where the logarithm has no value (the search numbers moves from 1 and
/// never reduces the first).
fn reduction_plies(base_centi: i32, divisor_centi: i32, depth: usize, move_number: usize) -> i32 {
    if depth == 0 || move_number == 0 {
        return 0;
    }
    let base = f64::from(base_centi) / LMR_TUNABLE_UNIT;
    let divisor = f64::from(divisor_centi) / LMR_TUNABLE_UNIT;
    ((base + (depth as f64).ln() * (move_number as f64).ln() / divisor) as i32).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn late_captures_are_reduced_less_than_quiet_moves_by_default_and_never_below_zero() {
        for depth in 0..70 {
            for move_number in 0..70 {
                let quiet = late_move_reduction(ReducedKind::Quiet, depth, move_number);
                let tactical = late_move_reduction(ReducedKind::Tactical, depth, move_number);
                assert!((0..=quiet).contains(&tactical), "{depth} {move_number}");
            }
        }
        assert_eq!(late_move_reduction(ReducedKind::Tactical, 20, 1), 0);
        assert!(late_move_reduction(ReducedKind::Tactical, 20, 20) > 0);
    }

    #[test]
    fn a_formula_below_zero_reduces_nothing() {
        // SPSA may try a negative base: with a base of -1.00 the first
        // move's cell is exactly -1.00, which becomes no reduction (and
        // never wraps in a table's bytes, should such a base become the
        // default).
        assert_eq!(reduction_plies(-100, 300, 5, 1), 0);
        assert_eq!(reduction_plies(100, 100, 1, 5), 1);
    }
}
