//! The plies of format version 3: a varint ply count, then every move as
//! one byte, then every score as a varint (see the module notes of
//! `record.rs` for the layout).
//!
//! A move is its index among the position's legal moves sorted by their
//! 16-bit encoding: the order depends on the position and the format
//! alone, so a change to shakmaty's move generator cannot change what a
//! file means. A chess position has at most 218 legal moves, so an index
//! fits a byte. Moves and scores are kept apart, each in a run of its
//! own, because xz finds more repetition in runs of like values.
//!
//! A score is stored as its difference from the last scored ply's (the
//! first against zero), zigzag-mapped so small differences of either sign
//! are small numbers, plus one, so that zero can mean "not scored".
//! Neighbouring plies of a game usually score within ±63 cp of each other
//! (White's view on both), so most scores take one byte.

use std::io::{self, Read};

use shakmaty::{Chess, Move, Position};

use super::{Ply, encode_move, invalid, read_or_eof};

/// The stored score value of a ply without a score.
const UNSCORED: u32 = 0;
/// Bits of a value each varint byte carries; the byte's top bit says that
/// another byte follows.
const VARINT_BITS: u32 = 7;
const VARINT_CONTINUES: u8 = 1 << VARINT_BITS;
/// Most plies a game may have: the fixed-width versions' `u16` count, far
/// beyond any game datagen plays. A larger count is a corrupt file, not a
/// reason to allocate gigabytes.
const MAX_PLIES: u32 = u16::MAX as u32;
/// Most bytes a `u32` varint takes.
const MAX_VARINT_BYTES: usize = 5;

/// `pos`'s legal moves in the format's order: by their 16-bit encoding.
fn canonical_moves(pos: &Chess) -> Vec<Move> {
    let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    moves.sort_unstable_by_key(|&m| encode_move(m));
    moves
}

/// Appends the plies of a game from `start` to `out`; an error for a move
/// that is not legal where it is played.
pub(super) fn write_plies(out: &mut Vec<u8>, start: &Chess, plies: &[Ply]) -> io::Result<()> {
    let count = u32::try_from(plies.len())
        .ok()
        .filter(|&count| count <= MAX_PLIES)
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "too many plies"))?;
    write_varint(out, count);
    let mut pos = start.clone();
    for ply in plies {
        let index = canonical_moves(&pos)
            .iter()
            .position(|&m| m == ply.best_move)
            .and_then(|index| u8::try_from(index).ok())
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "a move is not legal in its game",
                )
            })?;
        out.push(index);
        pos.play_unchecked(ply.best_move);
    }
    let mut last_score = 0i32;
    for ply in plies {
        let stored = match ply.white_score {
            None => UNSCORED,
            Some(score) => {
                let difference = i32::from(score) - last_score;
                last_score = i32::from(score);
                zigzag(difference) + 1
            }
        };
        write_varint(out, stored);
    }
    Ok(())
}

/// The plies of one game from `start`, or `None` when the input ends
/// inside them.
pub(super) fn read_plies(input: &mut impl Read, start: &Chess) -> io::Result<Option<Vec<Ply>>> {
    let Some(count) = read_varint(input)? else {
        return Ok(None);
    };
    if count > MAX_PLIES {
        return Err(invalid("more plies than a game record holds"));
    }
    let mut indices = vec![0u8; count as usize];
    if !read_or_eof(input, &mut indices)? {
        return Ok(None);
    }
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(indices.len());
    for &index in &indices {
        let m = *canonical_moves(&pos)
            .get(usize::from(index))
            .ok_or_else(|| invalid("move index past the legal moves"))?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    let mut plies = Vec::with_capacity(moves.len());
    let mut last_score = 0i32;
    for best_move in moves {
        let Some(stored) = read_varint(input)? else {
            return Ok(None);
        };
        let white_score = if stored == UNSCORED {
            None
        } else {
            let score = i64::from(last_score) + i64::from(unzigzag(stored - 1));
            let score = i16::try_from(score).map_err(|_| invalid("score out of range"))?;
            last_score = i32::from(score);
            Some(score)
        };
        plies.push(Ply {
            best_move,
            white_score,
        });
    }
    Ok(Some(plies))
}

/// Small numbers of either sign to small unsigned ones: 0, −1, 1, −2 …
/// become 0, 1, 2, 3 …
fn zigzag(value: i32) -> u32 {
    ((value << 1) ^ (value >> 31)) as u32
}

fn unzigzag(value: u32) -> i32 {
    (value >> 1) as i32 ^ -((value & 1) as i32)
}

/// LEB128: seven bits a byte, lowest first.
fn write_varint(out: &mut Vec<u8>, mut value: u32) {
    while value >= u32::from(VARINT_CONTINUES) {
        out.push(value as u8 | VARINT_CONTINUES);
        value >>= VARINT_BITS;
    }
    out.push(value as u8);
}

/// The next varint, or `None` when the input ends inside or before it.
fn read_varint(input: &mut impl Read) -> io::Result<Option<u32>> {
    let mut value = 0u32;
    for byte_index in 0..MAX_VARINT_BYTES {
        let mut byte = [0u8; 1];
        if !read_or_eof(input, &mut byte)? {
            return Ok(None);
        }
        let bits = u32::from(byte[0] & !VARINT_CONTINUES);
        value |= bits
            .checked_shl(VARINT_BITS * byte_index as u32)
            .filter(|shifted| shifted >> (VARINT_BITS * byte_index as u32) == bits)
            .ok_or_else(|| invalid("varint overflows 32 bits"))?;
        if byte[0] & VARINT_CONTINUES == 0 {
            return Ok(Some(value));
        }
    }
    Err(invalid("varint longer than 5 bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zigzag_maps_small_values_of_either_sign_to_small_values() {
        let mapped: Vec<u32> = [0, -1, 1, -2, 2].into_iter().map(zigzag).collect();
        assert_eq!(mapped, vec![0, 1, 2, 3, 4]);
        for value in [i32::from(i16::MIN) * 2, -1000, 0, 63, 65_534] {
            assert_eq!(unzigzag(zigzag(value)), value);
        }
    }

    #[test]
    fn varints_round_trip_and_a_cut_one_is_the_end() {
        for value in [0, 1, 127, 128, 16_383, 16_384, u32::MAX] {
            let mut bytes = Vec::new();
            write_varint(&mut bytes, value);
            assert_eq!(read_varint(&mut &bytes[..]).unwrap(), Some(value));
            assert_eq!(read_varint(&mut &bytes[..bytes.len() - 1]).unwrap(), None);
        }
        let mut one_byte = Vec::new();
        write_varint(&mut one_byte, 127);
        assert_eq!(one_byte, vec![127]);
        assert!(read_varint(&mut &[0xFF; 6][..]).is_err());
    }
}
