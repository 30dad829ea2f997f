//! The subcommands of `rookery`, one module each: its arguments (clap)
//! and its work, which drives the library and prints to stdout. `main.rs`
//! holds the table that names them. A subcommand that fails returns a
//! [`Failure`], and every failure leaves by one path ([`exit`]): its line
//! on stderr, `rookery: …`, and exit status 1.

pub(crate) mod bench;
pub(crate) mod dataclose;
pub(crate) mod dataconvert;
pub(crate) mod datagen;
pub(crate) mod datamanifest;
pub(crate) mod datatext;
pub(crate) mod engine;
pub(crate) mod perft;
pub(crate) mod tunables;

use std::fmt::Display;
use std::process::ExitCode;

/// Why a subcommand failed, as the line that says so.
#[derive(Debug)]
pub(crate) struct Failure(String);

impl Failure {
    /// `message`, said as it is.
    pub(crate) fn new(message: impl Into<String>) -> Failure {
        Failure(message.into())
    }

    /// An `error` of the subcommand `command`, said after its name.
    pub(crate) fn of(command: &str, error: impl Display) -> Failure {
        Failure(format!("{command}: {error}"))
    }
}

/// What a subcommand comes to.
pub(crate) type Outcome = Result<(), Failure>;

/// The process's exit for `outcome`: success, or the failure said on
/// stderr and status 1.
pub(crate) fn exit(outcome: Outcome) -> ExitCode {
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(message)) => {
            eprintln!("rookery: {message}");
            ExitCode::FAILURE
        }
    }
}
