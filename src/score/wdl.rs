//! What a score means in game results: the win, draw and loss chances
//! behind `UCI_ShowWDL`.
//!
//! The model is Stockfish's logistic one. With `v` the score in centipawns
//! from the side to move and `m` the material on the board,
//!
//! ```text
//! win  = 1 / (1 + exp((a(m) − v) / b(m)))
//! loss = 1 / (1 + exp((a(m) + v) / b(m)))
//! draw = 1 − win − loss
//! ```
//!
//! `a` is the score at which a win becomes as likely as not, `b` how fast
//! the odds turn around it. Both are linear in material, since an advantage
//! converts less surely with fewer pieces left (the network's scores grow
//! large in drawish endgames). The constants are fitted to the shipped
//! network's self-play games at 8s+0.08s by `scripts/fit_wdl.py` (gen 14:
//! 1,000 games, both sides, kept in `results/games/`; the command and the
//! calibration table are in `results/notes/s54.md`, a row of
//! `results/results.tsv`). Refit them whenever a network ships.
//!
//! The same model gives the GUI its centipawns: [`normalized_cp`] rescales a
//! score by `100 / a(m)`, so that a reported `cp 100` means a 50% chance to
//! win whatever the network's own scale (as Stockfish reports since 15.1).
//! The search itself keeps its internal scale.

use shakmaty::{Chess, Position, Role};

use crate::score::material::{PAWN, classical_value};
use crate::score::{MAX_EVAL, is_decisive, is_mate};

/// `a(m) = A_BASE + A_SLOPE · m / MATERIAL_SCALE`, in centipawns.
const A_BASE: f64 = 471.5;
const A_SLOPE: f64 = -221.0;
/// `b(m) = B_BASE + B_SLOPE · m / MATERIAL_SCALE`, in centipawns.
const B_BASE: f64 = 69.8;
const B_SLOPE: f64 = 49.8;
/// Material is counted pawn 1, minor 3, rook 5, queen 9, clamped to
/// `MATERIAL_MIN..=MATERIAL_MAX` (as in the fit) and scaled by this.
const MATERIAL_SCALE: f64 = 58.0;
const MATERIAL_MIN: u32 = 17;
const MATERIAL_MAX: u32 = 78;

/// The chances are integers per mille.
const PER_MILLE: u32 = 1000;

/// Win, draw and loss chances for the side to move, per mille, summing to
/// 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Wdl {
    pub(crate) win: u32,
    pub(crate) draw: u32,
    pub(crate) loss: u32,
}

/// The model's `(a(m), b(m))` in centipawns for `material` on the board.
fn parameters(material: u32) -> (f64, f64) {
    let phase = f64::from(material.clamp(MATERIAL_MIN, MATERIAL_MAX)) / MATERIAL_SCALE;
    (A_BASE + A_SLOPE * phase, B_BASE + B_SLOPE * phase)
}

/// The centipawns a GUI is shown for `score` with `material` on the board:
/// `100 · score / a(m)`, so that 100 is where a win becomes as likely as
/// not, within the evaluations' range (`MAX_EVAL`: a fit may put a(m)
/// below 100 with much material, as gen 9's did, and an evaluation near
/// the ceiling must not be shown beyond the tablebase wins). Mates and
/// tablebase results are not evaluations and stay as they are.
pub(crate) fn normalized_cp(score: i32, material: u32) -> i32 {
    if is_decisive(score) {
        return score;
    }
    let (a, _) = parameters(material);
    let normalized = (f64::from(score) * NORMALIZED_WIN_CP / a).round() as i32;
    normalized.clamp(-MAX_EVAL, MAX_EVAL)
}

/// The reported score of an even chance to win: one pawn.
const NORMALIZED_WIN_CP: f64 = 100.0;

impl Wdl {
    /// The chances behind `score` in a position with `material` on the
    /// board (see [`material`]).
    pub(crate) fn from_score(score: i32, material: u32) -> Wdl {
        if is_mate(score) {
            let win = if score > 0 { PER_MILLE } else { 0 };
            return Wdl {
                win,
                draw: 0,
                loss: PER_MILLE - win,
            };
        }
        let (a, b) = parameters(material);
        let v = f64::from(score);
        let chance = |x: f64| (f64::from(PER_MILLE) / (1.0 + ((a - x) / b).exp())).round() as u32;
        let win = chance(v);
        // With a positive `a` the two never overlap; the cap keeps the sum
        // exact whatever the fit.
        let loss = chance(-v).min(PER_MILLE - win);
        Wdl {
            win,
            draw: PER_MILLE - win - loss,
            loss,
        }
    }
}

/// The material on the board, both sides together, in pawns: pawn 1,
/// knight and bishop 3, rook 5, queen 9 ([`classical_value`]).
pub(crate) fn material(position: &Chess) -> u32 {
    let board = position.board();
    Role::ALL
        .into_iter()
        .map(|role| board.by_role(role).count() as u32 * (classical_value(role) / PAWN) as u32)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{mate_in, mated_in, tb_loss_in, tb_win_in};

    const START_MATERIAL: u32 = 78;

    #[test]
    fn the_start_position_holds_all_the_material() {
        assert_eq!(material(&Chess::default()), START_MATERIAL);
    }

    #[test]
    fn chances_sum_to_a_thousand_and_mirror() {
        for material in [0, 17, 40, 78, 100] {
            for score in [-3000, -250, -40, 0, 1, 40, 250, 3000] {
                let wdl = Wdl::from_score(score, material);
                assert_eq!(wdl.win + wdl.draw + wdl.loss, 1000, "{score} {material}");
                let mirrored = Wdl::from_score(-score, material);
                assert_eq!((wdl.win, wdl.loss), (mirrored.loss, mirrored.win));
            }
        }
    }

    #[test]
    fn a_better_score_never_wins_less() {
        let mut last = 0;
        for score in -1000..=1000 {
            let win = Wdl::from_score(score, 40).win;
            assert!(win >= last, "{score}");
            last = win;
        }
    }

    #[test]
    fn a_normalized_pawn_is_an_even_chance_to_win() {
        for material in [0, 17, 40, 78, 100] {
            // The internal score that normalizes to 100 wins about half
            // the games.
            let internal = (1..5000)
                .find(|&score| normalized_cp(score, material) >= 100)
                .unwrap();
            let win = Wdl::from_score(internal, material).win;
            assert!(
                (495..=510).contains(&win),
                "{material}: {internal} wins {win}"
            );
            assert_eq!(
                normalized_cp(-internal, material),
                -normalized_cp(internal, material)
            );
        }
        assert_eq!(normalized_cp(0, 40), 0);
    }

    #[test]
    fn decisive_scores_are_not_rescaled() {
        for score in [mate_in(3), mated_in(6), tb_win_in(10), tb_loss_in(2)] {
            assert_eq!(normalized_cp(score, 30), score);
        }
    }

    #[test]
    fn evaluations_are_shown_below_the_proven_results() {
        // Gen 9's fit put a(m) at about 85 cp with every piece on the
        // board, so the ceiling evaluation was once shown as cp 39246,
        // past mate; whatever the constants, no evaluation may be.
        for material in 0..=100 {
            for score in [MAX_EVAL, MAX_EVAL - 1] {
                let shown = normalized_cp(score, material);
                assert!(shown <= MAX_EVAL && !is_decisive(shown), "{material}");
                assert_eq!(normalized_cp(-score, material), -shown);
            }
        }
    }

    #[test]
    fn mates_are_certain() {
        assert_eq!(Wdl::from_score(mate_in(5), 40).win, 1000);
        assert_eq!(Wdl::from_score(mated_in(4), 40).loss, 1000);
    }
}
