//! Fuzz target: arbitrary bytes as lines of UCI input, through the command
//! parser into one long-lived engine, as the UCI loop would pass them.
//!
//! To keep each input fast and the machine safe, searches are cut to a few
//! hundred nodes and at most depth 4 (no clocks, no infinite or ponder
//! mode), perft to depth 3, `Hash` to 64 MB and `Threads` to 4; `bench` and
//! `quit` are skipped. Each search is waited for before the next line, so
//! the engine sees the same sequence a GUI could send. Output goes to
//! stdout: run with `> /dev/null`.

#![no_main]

use std::sync::{Mutex, OnceLock};

use libfuzzer_sys::fuzz_target;
use rookery::engine::config::Config;
use rookery::engine::{Command, Engine};
use rookery::uci::{self, parse};

const MAX_NODES: u64 = 300;
const MAX_DEPTH: i32 = 4;
const MAX_PERFT: u32 = 3;
const MAX_HASH_MB: i64 = 64;
const MAX_THREADS: i64 = 4;

fn engine() -> &'static Mutex<Engine> {
    static ENGINE: OnceLock<Mutex<Engine>> = OnceLock::new();
    ENGINE.get_or_init(|| Mutex::new(
        Engine::new(Config::default(), std::sync::Arc::new(uci::Uci)).expect("engine"),
    ))
}

/// The command made safe to run inside the fuzzer, or `None` to skip it.
fn tame(command: Command) -> Option<Command> {
    match command {
        Command::Quit | Command::Bench { .. } => None,
        Command::Go(mut go) => {
            let limits = &mut go.limits;
            limits.infinite = false;
            limits.ponder = false;
            limits.move_time = None;
            limits.white_time = None;
            limits.black_time = None;
            limits.nodes = Some(limits.nodes.unwrap_or(MAX_NODES).min(MAX_NODES));
            limits.depth = Some(limits.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH));
            Some(Command::Go(go))
        }
        Command::Perft { depth } => Some(Command::Perft {
            depth: depth.min(MAX_PERFT),
        }),
        Command::SetOption { name, value } => {
            let capped = |limit: i64| {
                // i128: a value beyond i64 (which the engine clamps to
                // its maximum) is capped too.
                value.as_deref().map(|v| match v.trim().parse::<i128>() {
                    Ok(n) => n.min(i128::from(limit)).to_string(),
                    Err(_) => v.to_string(),
                })
            };
            let value = match name.trim().to_ascii_lowercase().as_str() {
                "hash" => capped(MAX_HASH_MB),
                "threads" => capped(MAX_THREADS),
                _ => value,
            };
            Some(Command::SetOption { name, value })
        }
        other => Some(other),
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut engine = engine()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    for line in text.lines() {
        let Ok(Some(command)) = parse::command(line) else {
            continue;
        };
        if let Some(command) = tame(command) {
            engine.handle(command);
            // Finite by construction: this waits for the bestmove.
            engine.end_of_input();
        }
    }
});
