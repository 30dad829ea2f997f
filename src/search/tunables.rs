//! The search's tunable constants, each declared once with its default,
//! range and SPSA step, in the table at the end of this file.
//!
//! In the normal build each is a `const fn` returning its default, which
//! the compiler folds into the code exactly as a constant. In a `tuning`
//! build (`cargo build --release --features tuning`) each reads an atomic
//! that the engine offers as a UCI spin option under the tunable's name,
//! so an SPSA driver can set them game by game; `rookery tunables` prints
//! the table in OpenBench's SPSA input format (`name, int, default, min,
//! max, c_end, r_end`) in either build.
//!
//! Every range is checked when the crate compiles (a `const` assertion
//! per tunable: the default lies in the range, the step is positive), so a
//! table that SPSA cannot use does not build. Fractions are integers in
//! named units (`_centi`: hundredths, `_per_mille`, `_percent`). The
//! late-move-reduction tables (quiet moves, captures) are computed once
//! from their tunables in the normal build, and from their live values at
//! every use in a `tuning` build.

/// One tunable as the table declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunable {
    pub(crate) name: &'static str,
    pub(crate) default: i32,
    pub(crate) min: i32,
    pub(crate) max: i32,
    /// SPSA's final perturbation (`c_end`), in the tunable's units.
    pub(crate) step: i32,
}

/// SPSA's final learning rate (`r_end`), as OpenBench's examples use.
const SPSA_R_END: f64 = 0.002;

impl Tunable {
    /// The tunable's line of an OpenBench SPSA input.
    pub fn spsa_line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, {SPSA_R_END}",
            self.name, self.default, self.min, self.max, self.step
        )
    }
}

/// Declares the tunables from one table: `name: default, min, max, step;`.
macro_rules! tunables {
    ($($(#[$doc:meta])* $name:ident: $default:expr, $min:expr, $max:expr, $step:expr;)*) => {
        /// Every tunable, in the table's order.
        pub const TUNABLES: &[Tunable] = &[$(Tunable {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
            step: $step,
        },)*];

        $(
            const _: () = assert!(
                $min <= $default && $default <= $max && $step > 0,
                concat!("tunable ", stringify!($name), ": default outside its range, or no step")
            );

            $(#[$doc])*
            #[cfg(not(feature = "tuning"))]
            #[inline(always)]
            pub(crate) const fn $name() -> i32 {
                $default
            }
        )*

        #[cfg(feature = "tuning")]
        mod live {
            use std::sync::atomic::{AtomicI32, Ordering};

            /// Positions in the table, naming the atomics.
            #[allow(non_camel_case_types)]
            #[derive(Clone, Copy)]
            enum Index {
                $($name,)*
            }

            /// The current values, defaults until an option sets them.
            pub(super) static VALUES: [AtomicI32; super::TUNABLES.len()] =
                [$(AtomicI32::new($default),)*];

            $(
                $(#[$doc])*
                #[inline]
                pub(crate) fn $name() -> i32 {
                    VALUES[Index::$name as usize].load(Ordering::Relaxed)
                }
            )*
        }
        #[cfg(feature = "tuning")]
        pub(crate) use live::*;
    };
}

/// Sets the tunable called `name` (exactly) to the integer `value`,
/// clamped into its range: `None` when there is no such tunable, else the
/// value set or why the value is not an integer.
#[cfg(feature = "tuning")]
pub(crate) fn set_from_text(name: &str, value: Option<&str>) -> Option<Result<i32, String>> {
    let index = TUNABLES.iter().position(|t| t.name == name)?;
    let tunable = TUNABLES[index];
    let text = value.map(str::trim).unwrap_or("");
    let Ok(number) = text.parse::<i64>() else {
        return Some(Err(format!(
            "tunable '{name}' expects an integer, got '{text}'"
        )));
    };
    let clamped = number.clamp(i64::from(tunable.min), i64::from(tunable.max)) as i32;
    live::VALUES[index].store(clamped, std::sync::atomic::Ordering::Relaxed);
    Some(Ok(clamped))
}

tunables! {
    /// Reverse futility pruning: deepest node it applies to ...
    reverse_futility_max_depth: 8, 4, 12, 1;
    /// ... and its margin per ply of depth.
    reverse_futility_margin: 75, 30, 150, 8;
    /// Null-move pruning: shallowest node it applies to, ...
    null_move_min_depth: 3, 2, 5, 1;
    /// ... its base reduction, one ply more per this much depth, ...
    null_move_base_reduction: 3, 1, 5, 1;
    null_move_depth_divisor: 4, 2, 8, 1;
    /// ... and one ply more per this many centipawns of evaluation above
    /// beta, up to a cap.
    null_move_eval_divisor: 205, 100, 400, 20;
    null_move_max_eval_reduction: 3, 1, 6, 1;
    /// Nodes at least this deep without a table move search one ply less.
    iir_min_depth: 5, 2, 8, 1;
    /// Singular extensions: from this depth, a table move whose stored
    /// result is at most this many plies shallower is tested ...
    singular_min_depth: 7, 5, 12, 1;
    singular_table_depth_margin: 2, 1, 6, 1;
    /// ... against the table score less this per ply of depth; failing
    /// below by the double-extension margin more extends by two plies.
    singular_margin_per_depth: 1, 1, 4, 1;
    double_extension_margin: 17, 5, 50, 4;
    /// Late-move pruning: deepest node, and the quiet moves tried at
    /// depth d are this plus d².
    late_move_pruning_max_depth: 8, 4, 12, 1;
    late_move_pruning_base: 3, 1, 8, 1;
    /// Futility pruning: deepest node, margin at depth 0 and per ply.
    futility_max_depth: 7, 3, 10, 1;
    futility_base_margin: 88, 30, 200, 10;
    futility_margin_per_depth: 84, 30, 200, 10;
    /// Exchange pruning: deepest node; a quiet move may lose this much per
    /// ply, a capture this much per ply squared.
    see_pruning_max_depth: 8, 4, 12, 1;
    see_quiet_margin_per_depth: -67, -150, -20, 8;
    see_capture_margin_per_depth_squared: -22, -60, -5, 3;
    /// Late-move reductions: from this depth, a late quiet move at depth
    /// d, move number m is reduced by base + ln d · ln m / divisor plies
    /// (both in hundredths), ...
    lmr_min_depth: 3, 2, 5, 1;
    lmr_quiet_base_centi: 76, 25, 150, 8;
    lmr_quiet_divisor_centi: 221, 150, 400, 15;
    /// ... a late capture or promotion by its own base and divisor ...
    lmr_capture_base_centi: 1, -100, 100, 8;
    lmr_capture_divisor_centi: 308, 150, 500, 15;
    /// ... and one ply less per this many history points.
    lmr_history_divisor: 7894, 4096, 16384, 512;
    /// The first aspiration window's half-width, and how it grows (per
    /// cent) after each fail.
    aspiration_initial_delta: 23, 10, 60, 4;
    aspiration_growth_percent: 198, 130, 300, 10;
    /// Quiescence's delta pruning margin.
    delta_margin: 229, 100, 400, 20;
    /// Correction history (`correction.rs`): how much of each table's
    /// entry the correction adds, per mille: the pawn structure's, each
    /// side's non-pawn pieces', and the last two moves'.
    correction_pawn_per_mille: 975, 400, 1600, 60;
    correction_non_pawn_per_mille: 522, 0, 1200, 50;
    correction_continuation_per_mille: 497, 0, 1200, 50;
    /// History bonus of the move that cut off: per depth squared, per
    /// depth, and its cap ...
    history_bonus_per_depth_squared: 15, 4, 32, 2;
    history_bonus_per_depth: 34, 8, 64, 4;
    history_max_bonus: 1627, 800, 3200, 100;
    /// ... and the malus of the moves tried before it, the same shape.
    history_malus_per_depth_squared: 17, 4, 32, 2;
    history_malus_per_depth: 34, 8, 64, 4;
    history_max_malus: 1667, 800, 3200, 100;
    /// Time management (`time.rs`; `scripts/spsa.py --nodes` leaves out
    /// the `time_` names): moves assumed left in the game when the GUI does
    /// not say, and the share of the increment (per mille) the soft limit
    /// adds to the clock's even share over them.
    time_moves_to_go: 22, 15, 50, 2;
    time_increment_per_mille: 1000, 400, 1200, 40;
    /// The most of the clock (per mille) the soft limit may plan, and the
    /// hard limit may use: where a short clock settles, since once moves
    /// cost more than the increment the clock shrinks until this share of
    /// it is the increment.
    time_soft_clock_per_mille: 250, 50, 400, 15;
    time_hard_clock_per_mille: 400, 100, 600, 30;
    /// How many soft budgets the hard limit allows at most.
    time_hard_limit_factor: 4, 2, 8, 1;
    /// Search stability (`stability.rs`), factors on the soft limit per
    /// mille: right after the best move changed, less this per iteration
    /// it stays, for at most this many iterations; ...
    time_move_changed_per_mille: 1250, 1000, 1600, 25;
    time_stable_iteration_step_per_mille: 50, 10, 100, 5;
    time_max_stable_iterations: 10, 4, 16, 1;
    /// ... this much per centipawn the score dropped, within a rise and a
    /// drop cap (centipawns); ...
    time_score_drop_step_per_mille: 10, 4, 20, 1;
    time_score_rise_cap: 15, 5, 40, 3;
    time_score_drop_cap: 50, 20, 100, 5;
    /// ... and base + slope (per cent) × the share of nodes spent on other
    /// moves than the best, at least a floor.
    time_node_factor_base_per_mille: 400, 200, 700, 25;
    time_node_factor_slope_percent: 200, 100, 300, 15;
    time_min_node_factor_per_mille: 500, 300, 800, 25;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_each_reads_its_default() {
        // Ranges are checked at compile time (the const assertions of
        // `tunables!`); what is left is the table's consistency.
        for (index, tunable) in TUNABLES.iter().enumerate() {
            assert!(TUNABLES[..index].iter().all(|t| t.name != tunable.name));
        }
        let rfp = TUNABLES
            .iter()
            .find(|t| t.name == "reverse_futility_margin")
            .unwrap();
        assert_eq!(reverse_futility_margin(), rfp.default);
    }

    #[test]
    fn the_spsa_line_is_openbenchs_format() {
        // name, int, default, min, max, c_end, r_end.
        let tunable = Tunable {
            name: "example",
            default: 75,
            min: 30,
            max: 150,
            step: 8,
        };
        assert_eq!(tunable.spsa_line(), "example, int, 75, 30, 150, 8, 0.002");
    }
}
