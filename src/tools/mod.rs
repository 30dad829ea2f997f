//! The tools: programs that drive the search from outside a game, each
//! runnable from the command line (`rookery bench`, `rookery perft`,
//! `rookery datagen`) and, for the first two, from the UCI loop too.
//!
//! They sit between the engine and the search: they use the search, the
//! board and the table directly, and need neither the engine's state nor
//! the protocol (the engine and `main.rs` call them).

pub mod bench;
pub mod datagen;
pub mod perft;
