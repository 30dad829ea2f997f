//! Rookery: a UCI chess engine on the `shakmaty` crate.
//!
//! Data flows one way: stdin line → [`uci::parse`] → [`engine::Engine`] →
//! [`search`] threads → `info`/`bestmove` lines through [`uci`]'s `output` → stdout.
//! The threads share one lockless [`tt::TranspositionTable`], and may probe
//! Syzygy endgame tables ([`tablebase`]).
//!
//! The code is layered the same way, each layer importing only those below
//! it (`scripts/layers.py` checks it; the README's "How it is built" says
//! what each file owns):
//!
//! ```text
//! protocol  main.rs and cli/ (the command line), uci/
//! engine    engine/ (with the options, engine.toml and the debug log)
//! tools     tools/ (bench, perft, datagen)
//! search    search/
//! core      records/  the game record, its versions, chunks, manifest
//!           tt/ tablebase/  the tables the search probes
//!           eval/ board/  the evaluation's front; the position (and checks)
//!           nnue/  the network and its accumulators
//!           score/  the score scale, material values, the WDL model
//!           util/  the seeded generator, nodes per second, SIMD paths
//! ```
//!
//! Every module at the root is a folder; only this crate root and the
//! binary's `main.rs` stand directly in `src/`. The README's "How it is
//! built" also says where the tests live and how a file of unit tests is
//! named.
//!
//! The documentation is written for the engine's developers: it links
//! freely to items private to the crate. Build it with `cargo doc
//! --document-private-items` (CI does, with warnings as errors).

#![allow(rustdoc::private_intra_doc_links)]

pub mod board;
pub mod engine;
mod eval;
pub mod nnue;
pub mod records;
pub mod score;
pub mod search;
pub mod tablebase;
pub mod tools;
pub mod tt;
pub mod uci;
pub mod util;
