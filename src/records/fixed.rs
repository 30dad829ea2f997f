//! The plies of format versions 1 and 2: a `u16` ply count, then four
//! bytes a ply, the move's 16-bit encoding and the score as an `i16`.
//! Read only: this build writes version 3 (`compact.rs`), and
//! `rookery dataconvert` turns old files into it.

use std::io::{self, Read};

use shakmaty::{Chess, Position};

use super::{Ply, decode_move, invalid, read_or_eof};

/// Bytes a ply takes: the move and the score.
const PLY_BYTES: usize = 4;
/// The stored score of a ply that has none (version 2).
const NO_SCORE: i16 = i16::MIN;

/// The plies of one game from `start`, or `None` when the input ends
/// inside them. With `unscored_marked` (version 2), [`NO_SCORE`] is a ply
/// without a score; in version 1 every ply has one.
pub(super) fn read_plies(
    input: &mut impl Read,
    start: &Chess,
    unscored_marked: bool,
) -> io::Result<Option<Vec<Ply>>> {
    let mut count = [0u8; 2];
    if !read_or_eof(input, &mut count)? {
        return Ok(None);
    }
    let ply_count = usize::from(u16::from_le_bytes(count));
    let mut body = vec![0u8; PLY_BYTES * ply_count];
    if !read_or_eof(input, &mut body)? {
        return Ok(None);
    }
    let mut pos = start.clone();
    let mut plies = Vec::with_capacity(ply_count);
    for chunk in body.chunks_exact(PLY_BYTES) {
        let best_move = decode_move(u16::from_le_bytes([chunk[0], chunk[1]]), &pos)
            .ok_or_else(|| invalid("illegal move"))?;
        pos.play_unchecked(best_move);
        let score = i16::from_le_bytes([chunk[2], chunk[3]]);
        let unscored = unscored_marked && score == NO_SCORE;
        plies.push(Ply {
            best_move,
            white_score: (!unscored).then_some(score),
        });
    }
    Ok(Some(plies))
}
