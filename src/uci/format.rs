//! How search results are written as UCI lines.
//!
//! Scores are from the side to move: `cp N`, normalized by the win-draw-loss
//! model so that `cp 100` is an even chance to win
//! ([`crate::score::wdl::normalized_cp`]), or `mate N` counting full moves
//! (negative when the side to move is mated), then `lowerbound` for an
//! iteration cut short in its first line after a root move beat alpha (the
//! root moves after it are unsearched, as the search's driver explains),
//! then under `UCI_ShowWDL` `wdl W D L`, the per-mille chances of
//! [`crate::score::wdl`]. A win the Syzygy tables prove is a `cp` score above
//! 31,700 ([`crate::score::TB_WIN_BOUND`]), not rescaled; `tbhits` counts
//! their probes that answered. Moves are written in UCI notation, castling
//! as king-takes-rook only under `UCI_Chess960`.

use shakmaty::{CastlingMode, Move};

use super::output;
use crate::engine::ReportStyle;
use crate::score::wdl::{Wdl, normalized_cp};
use crate::score::{is_mate, mate_moves};
use crate::search::{Iteration, Reporter};
use crate::util::rate::nodes_per_second;

/// `cp N` (normalized for `material` on the board) or `mate N`.
pub(crate) fn score(score: i32, material: u32) -> String {
    if is_mate(score) {
        format!("mate {}", mate_moves(score))
    } else {
        format!("cp {}", normalized_cp(score, material))
    }
}

pub(crate) fn move_text(m: Move, mode: CastlingMode) -> String {
    m.to_uci(mode).to_string()
}

/// Writes a search's reports as UCI lines on stdout, in the engine's
/// [`ReportStyle`] (castling notation, `wdl W D L` after scores).
pub(crate) struct UciReporter(pub(crate) ReportStyle);

impl Reporter for UciReporter {
    fn iteration(&self, iteration: &Iteration) {
        output::send(&self.info_line(iteration));
    }

    fn best_move(&self, best: Option<Move>, ponder: Option<Move>) {
        let line = match best {
            Some(best) => bestmove(best, ponder, self.0.castling_mode),
            None => "bestmove 0000".to_string(),
        };
        output::send(&line);
    }

    fn error(&self, message: &str) {
        output::error(message);
    }
}

impl UciReporter {
    /// The `info` line of one line of an iteration.
    pub(crate) fn info_line(&self, iteration: &Iteration) -> String {
        let line = iteration.line;
        let millis = iteration.elapsed.as_millis() as u64;
        let nps = nodes_per_second(iteration.nodes, iteration.elapsed);
        let pv: Vec<String> = line
            .pv
            .iter()
            .map(|&m| move_text(m, self.0.castling_mode))
            .collect();
        let mut score_text = score(line.score, self.0.material);
        if !line.complete {
            score_text += " lowerbound";
        }
        if self.0.show_wdl {
            let chances = Wdl::from_score(line.score, self.0.material);
            score_text += &format!(" wdl {} {} {}", chances.win, chances.draw, chances.loss);
        }
        format!(
            "info depth {} seldepth {} multipv {} score {score_text} nodes {} nps {nps} hashfull {} tbhits {} time {millis} pv {}",
            line.depth,
            line.seldepth,
            iteration.multipv,
            iteration.nodes,
            iteration.hashfull,
            iteration.tb_hits,
            pv.join(" ")
        )
    }
}

/// `bestmove <m> [ponder <m>]`.
pub(crate) fn bestmove(best: Move, ponder: Option<Move>, mode: CastlingMode) -> String {
    match ponder {
        Some(reply) => format!(
            "bestmove {} ponder {}",
            move_text(best, mode),
            move_text(reply, mode)
        ),
        None => format!("bestmove {}", move_text(best, mode)),
    }
}
