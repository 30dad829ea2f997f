//! `rookery bench`: the fixed bench positions searched at a fixed depth,
//! each position's line and then `N nodes N nps`; the node count
//! identifies the search.

use std::sync::atomic::AtomicBool;

use rookery::tools::bench;

use super::{Failure, Outcome};

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Search depth.
    #[arg(default_value_t = bench::DEFAULT_DEPTH)]
    depth: i32,
    /// Transposition table size in MB (measuring only: changes the count).
    #[arg(long, default_value_t = bench::DEFAULT_HASH_MB)]
    hash: usize,
    /// Search threads (measuring only: several make the count vary).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

pub(crate) fn run(args: Args) -> Outcome {
    let settings = bench::Settings {
        depth: args.depth.max(1),
        hash_mb: args.hash.max(1),
        threads: args.threads.max(1),
    };
    let never = AtomicBool::new(false);
    let summary = bench::run(settings, &never, &mut |line| println!("{line}"))
        .map_err(|error| Failure::of("bench", error))?;
    if let Some(summary) = summary {
        println!("{}", summary.line());
    }
    Ok(())
}
