//! The transposition table, shared by every search thread without locks.
//!
//! # Lockless entries (Hyatt & Mann, 2002)
//! An entry is two `AtomicU64` words: `key ^ data` and `data`. Threads read
//! and write the two words separately with relaxed atomics, so another thread
//! can interleave its own store between them (a torn write). A probe accepts
//! an entry only when `word0 ^ word1 == key`: a torn pair fails that check
//! (but for a 2^-64 accident) instead of handing foreign data to the search.
//! Whatever survives the check is still only a hint: the search checks every
//! table move for legality before playing it.
//!
//! # Data word
//! ```text
//!  63      58 57 56 55      48 47             32 31             16 15              0
//! +----------+-----+----------+-----------------+-----------------+-----------------+
//! |generation|bound|  depth   | static eval i16 |    score i16    |   packed move   |
//! +----------+-----+----------+-----------------+-----------------+-----------------+
//!    6 bits   2 b     8 bits       16 bits           16 bits            16 bits
//! ```
//! The packed move is `from | to << 6 | promotion << 12` (promotion as the
//! shakmaty role number, 0 for none; castling is stored king-takes-rook);
//! zero means "no move". Bound 0 marks an empty entry, so a zeroed table is
//! empty. Mate scores are stored relative to the node (`score::to_table`)
//! and read back for the probing node's ply and fifty-move counter
//! (`score::from_table`).
//!
//! # Clusters and indexing
//! Four entries make a 64-byte cluster aligned to a cache line, so a probe
//! touches one line. The cluster of a key is the high half of
//! `key * cluster_count` (128-bit product): uniform for any table size
//! without a modulo.
//!
//! # Replacement
//! The generation advances once per `go`, and a probe that finds an entry
//! of an earlier search moves it to the current one (it is in use again,
//! so it should age from now). A store goes to, in order:
//! 1. the entry holding the same key, which it overwrites when the new
//!    result is exact, not much shallower (`SAME_KEY_DEPTH_MARGIN`), or the
//!    old one is from an earlier search (as a node probes its key before it
//!    stores, that is an entry no probe of this search has found, as in
//!    Stockfish); a store without a move keeps the
//!    old move, and a store not taken still gives its move to an entry
//!    without one;
//! 2. otherwise the least valuable entry of the cluster: empty entries first,
//!    then the lowest `depth - AGE_WEIGHT * age + exact bonus`, so deep and
//!    exact results survive while stale ones from old searches make room.
//!
//! `hashfull` samples the first 1000 clusters and counts the entries of the
//! current search (written, or found by a probe, in it).

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Role, Square};

use crate::board::FIFTY_MOVE_HALFMOVES;
use crate::score;

/// Which side of the true score a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the stored one (no move reached alpha).
    Upper = 1,
    /// The true score is at least the stored one (a beta cutoff).
    Lower = 2,
    Exact = 3,
}

impl Bound {
    /// The bound that `best_score` is when a node was searched with the
    /// window `(alpha, beta)`.
    pub(crate) fn for_window(best_score: i32, alpha: i32, beta: i32) -> Bound {
        if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// A move reduced to 16 bits; 0 is no move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PackedMove(u16);

impl PackedMove {
    pub(crate) const NONE: PackedMove = PackedMove(0);

    pub fn new(m: Move) -> PackedMove {
        let (from, to) = match m {
            Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
            Move::Castle { king, rook } => (king, rook),
            Move::Put { to, .. } => (to, to),
        };
        let promotion = m.promotion().map_or(0, |role| role as u16);
        PackedMove(u16::from(from) | (u16::from(to) << 6) | (promotion << 12))
    }

    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Whether `m` is the move this packs.
    pub fn matches(self, m: Move) -> bool {
        !self.is_none() && PackedMove::new(m) == self
    }

    /// The legal move of `pos` that this packs, found without generating
    /// moves; `None` when it packs no move or one that is not legal there
    /// (a 64-bit key collision, or a torn entry that passed the check).
    pub(crate) fn to_move(self, pos: &Chess) -> Option<Move> {
        if self.is_none() {
            return None;
        }
        let from = Square::new(u32::from(self.0 & 0x3f));
        let to = Square::new(u32::from((self.0 >> 6) & 0x3f));
        let promotion = match self.0 >> 12 {
            0 => None,
            number => Some(*Role::ALL.get(usize::from(number) - 1)?),
        };
        let m = UciMove::Normal {
            from,
            to,
            promotion,
        }
        .to_move(pos)
        .ok()?;
        // King-takes-rook is castling only where the rook may be taken
        // that way; a move that packs differently is some other move.
        (PackedMove::new(m) == self).then_some(m)
    }
}

/// What a probe returns, with the score already relative to the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    pub best_move: PackedMove,
    pub score: i32,
    pub static_eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

impl TtHit {
    /// Whether the stored bound settles the score for the window
    /// `(alpha, beta)`, whatever the true score beyond the bound.
    pub(crate) fn cuts(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

/// What the search gives to [`TranspositionTable::store`].
#[derive(Clone, Copy, Debug)]
pub struct TtStore {
    pub best_move: Option<Move>,
    /// Score relative to the root; converted to node-relative here.
    pub score: i32,
    pub static_eval: i32,
    pub depth: i32,
    pub bound: Bound,
    pub ply: usize,
}

const MOVE_SHIFT: u32 = 0;
const SCORE_SHIFT: u32 = 16;
const EVAL_SHIFT: u32 = 32;
const DEPTH_SHIFT: u32 = 48;
const BOUND_SHIFT: u32 = 56;
const GENERATION_SHIFT: u32 = 58;
const GENERATION_COUNT: u8 = 64;
/// `hashfull`'s unit, as UCI defines it.
const PER_MILLE: usize = 1000;
const MAX_STORED_DEPTH: i32 = u8::MAX as i32;

/// A same-key store replaces the old result unless it is this much shallower.
const SAME_KEY_DEPTH_MARGIN: i32 = 3;
/// Plies of depth that one search of age is worth when choosing a victim.
const AGE_WEIGHT: i32 = 8;
/// Value of an exact bound when choosing a victim, in plies of depth.
const EXACT_BONUS: i32 = 2;

const ENTRIES_PER_CLUSTER: usize = 4;
const HASHFULL_SAMPLE_CLUSTERS: usize = 1000;
/// Tables at least this large are cleared by several threads.
const PARALLEL_CLEAR_BYTES: usize = 64 << 20;

/// The unpacked contents of a data word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Data {
    best_move: PackedMove,
    score: i16,
    static_eval: i16,
    depth: u8,
    bound: Option<Bound>,
    generation: u8,
}

impl Data {
    fn pack(self) -> u64 {
        let bound = self.bound.map_or(0, |b| b as u64);
        (u64::from(self.best_move.0) << MOVE_SHIFT)
            | (u64::from(self.score as u16) << SCORE_SHIFT)
            | (u64::from(self.static_eval as u16) << EVAL_SHIFT)
            | (u64::from(self.depth) << DEPTH_SHIFT)
            | (bound << BOUND_SHIFT)
            | (u64::from(self.generation) << GENERATION_SHIFT)
    }

    fn unpack(word: u64) -> Data {
        Data {
            best_move: PackedMove((word >> MOVE_SHIFT) as u16),
            score: (word >> SCORE_SHIFT) as u16 as i16,
            static_eval: (word >> EVAL_SHIFT) as u16 as i16,
            depth: (word >> DEPTH_SHIFT) as u8,
            bound: match (word >> BOUND_SHIFT) & 0b11 {
                1 => Some(Bound::Upper),
                2 => Some(Bound::Lower),
                3 => Some(Bound::Exact),
                _ => None,
            },
            generation: (word >> GENERATION_SHIFT) as u8,
        }
    }
}

#[derive(Default)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

impl Entry {
    fn load(&self) -> (u64, u64) {
        let data = self.data.load(Ordering::Relaxed);
        let key = self.key_xor_data.load(Ordering::Relaxed) ^ data;
        (key, data)
    }

    fn save(&self, key: u64, data: u64) {
        self.key_xor_data.store(key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }

    fn clear(&self) {
        self.save(0, 0);
    }
}

#[derive(Default)]
#[repr(align(64))]
struct Cluster {
    entries: [Entry; ENTRIES_PER_CLUSTER],
}

const _: () = assert!(std::mem::size_of::<Cluster>() == 64);
const _: () = assert!(std::mem::align_of::<Cluster>() == 64);

/// Bytes per cluster, for sizing the table in megabytes.
pub(crate) const CLUSTER_BYTES: usize = std::mem::size_of::<Cluster>();

/// Why the table could not be given the requested size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllocationError {
    pub(crate) megabytes: usize,
}

impl std::fmt::Display for AllocationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot allocate a {} MB hash table", self.megabytes)
    }
}

pub struct TranspositionTable {
    clusters: Vec<Cluster>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A zeroed table of `megabytes` MB (at least one cluster), or an error
    /// when the memory cannot be had.
    pub fn new(megabytes: usize) -> Result<TranspositionTable, AllocationError> {
        let error = AllocationError { megabytes };
        let bytes = megabytes.checked_mul(1 << 20).ok_or(error.clone())?;
        let count = (bytes / CLUSTER_BYTES).max(1);
        let mut clusters = Vec::new();
        clusters.try_reserve_exact(count).map_err(|_| error)?;
        advise_huge_pages(&clusters);
        clusters.resize_with(count, Cluster::default);
        Ok(TranspositionTable {
            clusters,
            generation: AtomicU8::new(0),
        })
    }

    #[cfg(test)]
    pub(crate) fn cluster_count(&self) -> usize {
        self.clusters.len()
    }

    /// Starts a new search: entries of earlier searches age by one.
    pub(crate) fn new_search(&self) {
        let next = (self.generation() + 1) % GENERATION_COUNT;
        self.generation.store(next, Ordering::Relaxed);
    }

    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed)
    }

    /// Empties every entry, with a thread per core for a large table.
    pub(crate) fn clear(&self) {
        let threads = if self.clusters.len() * CLUSTER_BYTES >= PARALLEL_CLEAR_BYTES {
            std::thread::available_parallelism().map_or(1, usize::from)
        } else {
            1
        };
        let chunk = self.clusters.len().div_ceil(threads);
        std::thread::scope(|scope| {
            for part in self.clusters.chunks(chunk) {
                scope.spawn(move || {
                    for entry in part.iter().flat_map(|c| &c.entries) {
                        entry.clear();
                    }
                });
            }
        });
        self.generation.store(0, Ordering::Relaxed);
    }

    fn cluster(&self, key: u64) -> &Cluster {
        let index = ((u128::from(key) * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[index]
    }

    /// Asks the CPU to start loading `key`'s cluster into the cache, so a
    /// probe soon after finds it there instead of waiting on memory.
    pub(crate) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let cluster: *const Cluster = self.cluster(key);
            // SAFETY: the intrinsic's only requirement is SSE, which every
            // x86-64 processor has; `unsafe` is needed only because this
            // function does not itself enable the feature. A prefetch cannot
            // fault whatever the address, and this one points into the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(cluster.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up, for a node at `ply` whose fifty-move counter is
    /// `halfmoves`: mate scores come back relative to the root, and a mate
    /// or tablebase win too far away for the fifty-move rule, or too far
    /// from the root for its band, as a win short of a proven one
    /// (`score::from_table`).
    pub fn probe(&self, key: u64, ply: usize, halfmoves: u32) -> Option<TtHit> {
        let fifty_move_plies_left = FIFTY_MOVE_HALFMOVES.saturating_sub(halfmoves);
        let generation = self.generation();
        self.cluster(key).entries.iter().find_map(|entry| {
            let (stored_key, word) = entry.load();
            let mut data = Data::unpack(word);
            let bound = data.bound?;
            if stored_key != key {
                return None;
            }
            // An entry this search uses is this search's: it ages from now.
            // Another thread's store to this entry between the load and
            // this save is lost (the entry then holds the older result,
            // whole): a hint missed, never a wrong key or score.
            if data.generation != generation {
                data.generation = generation;
                entry.save(key, data.pack());
            }
            Some(TtHit {
                best_move: data.best_move,
                score: score::from_table(i32::from(data.score), ply, fifty_move_plies_left),
                static_eval: i32::from(data.static_eval),
                depth: i32::from(data.depth),
                bound,
            })
        })
    }

    /// Stores a search result under `key` (see the module header for where
    /// it goes).
    pub fn store(&self, key: u64, result: TtStore) {
        let generation = self.generation();
        let mut new = Data {
            best_move: result.best_move.map_or(PackedMove::NONE, PackedMove::new),
            score: clamp_i16(score::to_table(result.score, result.ply)),
            static_eval: clamp_i16(result.static_eval),
            depth: result.depth.clamp(0, MAX_STORED_DEPTH) as u8,
            bound: Some(result.bound),
            generation,
        };
        let cluster = self.cluster(key);

        for entry in &cluster.entries {
            let (stored_key, word) = entry.load();
            let old = Data::unpack(word);
            if old.bound.is_none() || stored_key != key {
                continue;
            }
            if new.best_move.is_none() {
                new.best_move = old.best_move;
            }
            let replace = result.bound == Bound::Exact
                || i32::from(new.depth) + SAME_KEY_DEPTH_MARGIN >= i32::from(old.depth)
                || old.generation != generation;
            if replace {
                entry.save(key, new.pack());
            } else if old.best_move.is_none() && !new.best_move.is_none() {
                // The deeper result stays, and learns the move it lacked.
                entry.save(
                    key,
                    Data {
                        best_move: new.best_move,
                        ..old
                    }
                    .pack(),
                );
            }
            return;
        }

        let victim = cluster
            .entries
            .iter()
            .min_by_key(|entry| replacement_value(Data::unpack(entry.load().1), generation))
            .expect("a cluster has entries");
        victim.save(key, new.pack());
    }

    /// Per mille of sampled entries of the current search (written or
    /// probed in it).
    pub(crate) fn hashfull(&self) -> usize {
        let generation = self.generation();
        let sample = &self.clusters[..self.clusters.len().min(HASHFULL_SAMPLE_CLUSTERS)];
        let used = sample
            .iter()
            .flat_map(|c| &c.entries)
            .filter(|entry| {
                let data = Data::unpack(entry.load().1);
                data.bound.is_some() && data.generation == generation
            })
            .count();
        used * PER_MILLE / (sample.len() * ENTRIES_PER_CLUSTER)
    }
}

/// Asks Linux to back the table's reserved memory with transparent huge
/// pages, so that filling a large table takes hundreds of page faults rather
/// than hundreds of thousands: measured on this project's 2-core machine,
/// `setoption name Hash value 1024` went from 2.2 s to well under a second.
/// Elsewhere, or if the kernel declines, nothing changes.
fn advise_huge_pages(clusters: &Vec<Cluster>) {
    #[cfg(target_os = "linux")]
    {
        // madvise wants a page-aligned range: use the huge pages that lie
        // wholly inside the allocation.
        const HUGE_PAGE: usize = 2 << 20;
        let start = clusters.as_ptr() as usize;
        let end = start + clusters.capacity() * CLUSTER_BYTES;
        let aligned_start = start.next_multiple_of(HUGE_PAGE);
        let aligned_end = end - end % HUGE_PAGE;
        if aligned_end <= aligned_start {
            return;
        }
        // SAFETY: the range lies inside the allocation that `clusters` owns
        // and keeps alive for this call; MADV_HUGEPAGE only changes how the
        // kernel backs those pages, never their contents or validity.
        let status = unsafe {
            libc::madvise(
                aligned_start as *mut libc::c_void,
                aligned_end - aligned_start,
                libc::MADV_HUGEPAGE,
            )
        };
        if status != 0 {
            log::debug!("madvise(MADV_HUGEPAGE) declined for the hash table");
        }
    }
}

/// How much an entry is worth keeping; the lowest is replaced.
fn replacement_value(data: Data, generation: u8) -> i32 {
    let Some(bound) = data.bound else {
        return i32::MIN;
    };
    let age = i32::from(generation.wrapping_sub(data.generation) % GENERATION_COUNT);
    let exact = if bound == Bound::Exact {
        EXACT_BONUS
    } else {
        0
    };
    i32::from(data.depth) - AGE_WEIGHT * age + exact
}

fn clamp_i16(value: i32) -> i16 {
    value.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
}

#[cfg(test)]
mod table_tests;
