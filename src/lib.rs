//! Rookery: a UCI chess engine on the `shakmaty` crate.
//!
//! Data flows one way: stdin line → [`uci::parse`] → [`engine::Engine`] →
//! [`search`] threads → `info`/`bestmove` lines through [`uci`]'s `output` → stdout.
//! The threads share one lockless [`tt::TranspositionTable`], and may probe
//! Syzygy endgame tables ([`tablebase`]).
//!
//! The documentation is written for the engine's developers: it links
//! freely to items private to the crate. Build it with `cargo doc
//! --document-private-items` (CI does, with warnings as errors).

#![allow(rustdoc::private_intra_doc_links)]

pub mod board;
mod check;
pub mod config;
mod debug_log;
pub mod engine;
mod eval;
mod material;
pub mod nnue;
pub mod options;
mod piece_changes;
mod rate;
pub mod rng;
pub mod score;
pub mod search;
mod simd;
pub mod tablebase;
pub mod tools;
pub mod tt;
pub mod uci;
mod wdl;
