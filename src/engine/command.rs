//! What the engine can be asked to do: one [`Command`] per line of input,
//! as the protocol layer (`uci::parse`) parses it. The engine's own
//! vocabulary, so the engine names no protocol module.

use crate::search::Limits;

/// One request to the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register,
    UciNewGame,
    /// `fen` is `None` for `startpos`.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(Go),
    Stop,
    PonderHit,
    Quit,
    /// Non-standard: the fixed-depth benchmark.
    Bench {
        depth: Option<i32>,
    },
    /// Non-standard (`go perft N`): count leaf nodes, per root move.
    Perft {
        depth: u32,
    },
    /// Non-standard (`d`): show the board, FEN and key.
    Display,
    /// Non-standard: show the static evaluation.
    Eval,
}

/// The arguments of `go`: the limits, and the `searchmoves` still as text
/// (they need the position to be read).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub limits: Limits,
    pub(crate) search_moves: Vec<String>,
    /// Arguments that could not be understood, to be reported.
    pub(crate) errors: Vec<String>,
}
