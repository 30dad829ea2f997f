//! `rookery` without a subcommand: the UCI engine on stdin and stdout,
//! with its option defaults from `--config` or the `engine.toml` beside
//! the executable.

use std::path::Path;
use std::sync::Arc;

use rookery::engine::Engine;
use rookery::engine::config::Config;
use rookery::uci;

use super::{Failure, Outcome};

/// Speaks UCI until `quit` or the end of input; fails only when the
/// engine cannot be built at all.
pub(crate) fn run(config: Option<&Path>) -> Outcome {
    let config = Config::load(config);
    let engine = Engine::new(config, Arc::new(uci::Uci)).map_err(Failure::new)?;
    uci::run(engine);
    Ok(())
}
