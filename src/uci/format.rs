//! How search results are written as UCI lines.
//!
//! Scores are from the side to move: `cp N`, or `mate N` counting full moves
//! (negative when the side to move is mated), then `lowerbound` for a first
//! iteration cut short (its other root moves are unsearched), then under
//! `UCI_ShowWDL` `wdl W D L`, the per-mille chances of [`crate::wdl`]. A win
//! the Syzygy tables prove is a `cp` score above 31,700
//! ([`crate::score::TB_WIN_BOUND`]); `tbhits` counts their probes that
//! answered. Moves are
//! written in UCI notation, castling as king-takes-rook only under
//! `UCI_Chess960`.

use shakmaty::{CastlingMode, Move};

use crate::score::{is_mate, mate_moves};
use crate::search::{SearchJob, ThreadResult};
use crate::wdl::{self, Wdl};

/// `cp N` or `mate N`.
pub fn score(score: i32) -> String {
    if is_mate(score) {
        format!("mate {}", mate_moves(score))
    } else {
        format!("cp {score}")
    }
}

pub fn move_text(m: Move, mode: CastlingMode) -> String {
    m.to_uci(mode).to_string()
}

/// The `info` line of line `multipv` (1 = best) of a completed iteration.
pub fn iteration(job: &SearchJob, result: &ThreadResult, multipv: usize) -> String {
    let millis = job.control.elapsed().as_millis() as u64;
    let nodes = job.control.total_nodes();
    let nps = nodes * 1000 / millis.max(1);
    let pv: Vec<String> = result
        .pv
        .iter()
        .map(|&m| move_text(m, job.castling_mode))
        .collect();
    let mut score_text = score(result.score);
    if !result.complete {
        score_text += " lowerbound";
    }
    if job.show_wdl {
        let chances = Wdl::from_score(result.score, wdl::material(job.root.pos()));
        score_text += &format!(" wdl {} {} {}", chances.win, chances.draw, chances.loss);
    }
    format!(
        "info depth {} seldepth {} multipv {multipv} score {} nodes {} nps {} hashfull {} tbhits {} time {} pv {}",
        result.depth,
        result.seldepth,
        score_text,
        nodes,
        nps,
        job.tt.hashfull(),
        job.control.total_tb_hits(),
        millis,
        pv.join(" ")
    )
}

/// `bestmove <m> [ponder <m>]`.
pub fn bestmove(best: Move, ponder: Option<Move>, mode: CastlingMode) -> String {
    match ponder {
        Some(reply) => format!(
            "bestmove {} ponder {}",
            move_text(best, mode),
            move_text(reply, mode)
        ),
        None => format!("bestmove {}", move_text(best, mode)),
    }
}
