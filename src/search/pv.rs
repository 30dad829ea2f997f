//! The principal variation, kept in a triangular table: each ply holds the
//! best line found from that ply, and a new best move at ply `p` copies the
//! line of ply `p + 1` behind it. Lines are built only from moves that were
//! searched and played, so they are always legal from the root, unlike a PV
//! walked out of the transposition table, which collisions and overwrites
//! can cut short or corrupt.

use shakmaty::Move;

use crate::score::MAX_PLY;

pub(crate) struct PvTable {
    lines: Vec<Vec<Move>>,
}

impl Default for PvTable {
    fn default() -> Self {
        PvTable {
            lines: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
        }
    }
}

impl PvTable {
    /// Forgets the line from `ply` (a node starts with no best move).
    pub(crate) fn clear(&mut self, ply: usize) {
        self.lines[ply].clear();
    }

    /// `m` is the new best move at `ply`: the line becomes `m` and then the
    /// line found from the next ply.
    pub(crate) fn update(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        if let Some(next) = tail.first() {
            line.extend_from_slice(next);
        }
    }

    pub(crate) fn line(&self, ply: usize) -> &[Move] {
        &self.lines[ply]
    }
}
