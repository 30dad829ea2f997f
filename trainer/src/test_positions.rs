//! Positions for tests, made in code: random legal games from the start
//! position, so tests need no files and see both sides to move, varied
//! material and every piece type.

use rookery::util::rng::SplitMix64;
use shakmaty::{Chess, Position};

/// Plies of one random game before starting another.
const GAME_PLIES: usize = 80;

/// `count` positions from random games, every ply kept (White and Black
/// to move alternate), reproducible from `seed`.
pub fn random_positions(count: usize, seed: u64) -> Vec<Chess> {
    let mut rng = SplitMix64::new(seed);
    let mut positions = Vec::with_capacity(count);
    let mut pos = Chess::default();
    let mut ply = 0;
    while positions.len() < count {
        let moves = pos.legal_moves();
        if moves.is_empty() || ply == GAME_PLIES {
            pos = Chess::default();
            ply = 0;
            continue;
        }
        let chosen = rng.choose(&moves);
        pos.play_unchecked(chosen);
        ply += 1;
        positions.push(pos.clone());
    }
    positions
}
