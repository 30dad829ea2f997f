//! `rookery tunables`: the search's tunables as OpenBench SPSA input
//! lines, one a tunable.

use rookery::search::tunables::TUNABLES;

use super::Outcome;

pub(crate) fn run() -> Outcome {
    for tunable in TUNABLES {
        println!("{}", tunable.spsa_line());
    }
    Ok(())
}
