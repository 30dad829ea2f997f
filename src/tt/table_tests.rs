//! Unit tests of the transposition table: packing, store/probe,
//! replacement, aging, the lockless torn-write check and concurrency.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Position, Role, Square};

use super::*;
use crate::score::{TB_WIN_BOUND, is_mate, mate_in, mated_in};

fn result(score: i32, depth: i32, bound: Bound) -> TtStore {
    TtStore {
        best_move: None,
        score,
        static_eval: 0,
        depth,
        bound,
        ply: 0,
    }
}

/// [`result`] with a best move.
fn result_with_move(m: Move, score: i32, depth: i32, bound: Bound) -> TtStore {
    TtStore {
        best_move: Some(m),
        ..result(score, depth, bound)
    }
}

fn small_table() -> TranspositionTable {
    TranspositionTable::new(1).unwrap()
}

/// Keys that all land in cluster `index` of `table`.
fn keys_of_cluster(table: &TranspositionTable, index: usize, count: usize) -> Vec<u64> {
    (1..u64::MAX / 2)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .filter(|&key| std::ptr::eq(table.cluster(key), &table.clusters[index]))
        .take(count)
        .collect()
}

/// Keys that all land in cluster 0 of `table`.
fn colliding_keys(table: &TranspositionTable, count: usize) -> Vec<u64> {
    keys_of_cluster(table, 0, count)
}

#[test]
fn data_word_round_trips_over_full_ranges() {
    let moves = [
        PackedMove::NONE,
        PackedMove::new(Move::Normal {
            role: Role::Pawn,
            from: Square::A7,
            capture: Some(Role::Rook),
            to: Square::B8,
            promotion: Some(Role::Knight),
        }),
        PackedMove::new(Move::Castle {
            king: Square::E1,
            rook: Square::H1,
        }),
    ];
    for best_move in moves {
        for score in [i16::MIN, -32_000, -1, 0, 1, 31_999, i16::MAX] {
            for depth in [0, 1, 127, 255] {
                for bound in [
                    None,
                    Some(Bound::Upper),
                    Some(Bound::Lower),
                    Some(Bound::Exact),
                ] {
                    for generation in [0, 1, 63] {
                        let data = Data {
                            best_move,
                            score,
                            static_eval: score.wrapping_neg(),
                            depth,
                            bound,
                            generation,
                        };
                        assert_eq!(Data::unpack(data.pack()), data);
                    }
                }
            }
        }
    }
}

#[test]
fn packed_moves_tell_every_promotion_apart() {
    let promotions = [
        None,
        Some(Role::Knight),
        Some(Role::Bishop),
        Some(Role::Rook),
        Some(Role::Queen),
    ];
    for promotion in promotions {
        let m = Move::Normal {
            role: Role::Pawn,
            from: Square::H7,
            capture: None,
            to: Square::H8,
            promotion,
        };
        let packed = PackedMove::new(m);
        assert!(!packed.is_none());
        for other in promotions {
            let other_move = Move::Normal {
                role: Role::Pawn,
                from: Square::H7,
                capture: None,
                to: Square::H8,
                promotion: other,
            };
            assert_eq!(packed.matches(other_move), other == promotion);
        }
    }
    // Every legal move of the start position packs to a distinct value.
    let moves = Chess::default().legal_moves();
    let mut packed: Vec<_> = moves.iter().map(|&m| PackedMove::new(m).0).collect();
    packed.sort_unstable();
    packed.dedup();
    assert_eq!(packed.len(), moves.len());
}

#[test]
fn store_then_probe_returns_the_stored_result() {
    let table = small_table();
    let m = Chess::default().legal_moves()[0];
    table.store(
        42,
        TtStore {
            best_move: Some(m),
            score: -123,
            static_eval: 45,
            depth: 7,
            bound: Bound::Lower,
            ply: 3,
        },
    );
    let hit = table.probe(42, 3, 0).expect("stored entry");
    assert!(hit.best_move.matches(m));
    assert_eq!(
        (hit.score, hit.static_eval, hit.depth, hit.bound),
        (-123, 45, 7, Bound::Lower)
    );
    assert_eq!(table.probe(43, 3, 0), None);
}

#[test]
fn a_zeroed_table_holds_nothing_even_for_key_zero() {
    assert_eq!(small_table().probe(0, 0, 0), None);
}

/// What a fresh table holds for one key after `first`, then `second`.
fn after_two_stores(first: TtStore, second: TtStore) -> TtHit {
    let table = small_table();
    table.store(9, first);
    table.store(9, second);
    table.probe(9, 0, 0).unwrap()
}

#[test]
fn same_key_update_keeps_the_old_move_when_the_new_store_has_none() {
    let m = Chess::default().legal_moves()[3];
    let hit = after_two_stores(
        result_with_move(m, 10, 4, Bound::Lower),
        result(20, 6, Bound::Upper),
    );
    assert_eq!((hit.score, hit.depth, hit.bound), (20, 6, Bound::Upper));
    assert!(hit.best_move.matches(m));
}

#[test]
fn a_same_key_store_not_taken_still_gives_its_move_to_an_entry_without_one() {
    let m = Chess::default().legal_moves()[5];
    let hit = after_two_stores(
        result(30, 12, Bound::Upper),
        result_with_move(m, 10, 2, Bound::Lower),
    );
    assert_eq!((hit.score, hit.depth, hit.bound), (30, 12, Bound::Upper));
    assert!(hit.best_move.matches(m));
}

#[test]
fn a_probe_hit_moves_an_old_entry_to_the_current_search() {
    // A whole sampled cluster, so that hashfull (per mille of the sample)
    // sees the four entries.
    let table = small_table();
    let keys = keys_of_cluster(&table, 0, ENTRIES_PER_CLUSTER);
    for &key in &keys {
        table.store(key, result(30, 12, Bound::Exact));
    }
    table.new_search();
    assert_eq!(table.hashfull(), 0);
    for &key in &keys {
        table.probe(key, 0, 0).unwrap();
    }
    assert!(table.hashfull() > 0, "the entries are this search's now");
}

#[test]
fn same_key_store_much_shallower_keeps_the_deep_result() {
    let table = small_table();
    table.store(9, result(10, 12, Bound::Lower));
    table.store(9, result(99, 2, Bound::Upper));
    assert_eq!(table.probe(9, 0, 0).unwrap().depth, 12);
    // An exact result always replaces.
    table.store(9, result(55, 2, Bound::Exact));
    assert_eq!(table.probe(9, 0, 0).unwrap().score, 55);
}

#[test]
fn replacement_evicts_the_shallowest_entry_of_a_full_cluster() {
    let table = small_table();
    let keys = colliding_keys(&table, 5);
    for (i, &key) in keys[..4].iter().enumerate() {
        table.store(key, result(0, 10 + i as i32, Bound::Lower));
    }
    table.store(keys[4], result(0, 1, Bound::Lower));
    assert!(
        table.probe(keys[0], 0, 0).is_none(),
        "depth 10 was the shallowest"
    );
    for &key in &keys[1..] {
        assert!(table.probe(key, 0, 0).is_some());
    }
}

#[test]
fn aging_lets_new_searches_replace_old_deep_entries() {
    let table = small_table();
    let keys = colliding_keys(&table, 6);
    // Four deep entries from an old search fill the cluster...
    for &key in &keys[..4] {
        table.store(key, result(0, 20, Bound::Exact));
    }
    for _ in 0..3 {
        table.new_search();
    }
    // ...then two shallow stores of the new search each evict an old one,
    // and the second spares the first.
    table.store(keys[4], result(0, 5, Bound::Lower));
    table.store(keys[5], result(0, 1, Bound::Lower));
    assert!(table.probe(keys[4], 0, 0).is_some(), "fresh entry kept");
    assert!(table.probe(keys[5], 0, 0).is_some(), "new entry stored");
    let old_left = keys[..4]
        .iter()
        .filter(|&&k| table.probe(k, 0, 0).is_some())
        .count();
    assert_eq!(old_left, 2);
}

#[test]
fn torn_write_is_rejected() {
    let table = small_table();
    let (a, b) = (0x1111_2222_3333_4444, 0x5555_6666_7777_8888);
    table.store(a, result(100, 5, Bound::Exact));
    let entry = &table.cluster(a).entries[0];
    let words_a = (
        entry.key_xor_data.load(Ordering::Relaxed),
        entry.data.load(Ordering::Relaxed),
    );
    let data_b = Data {
        best_move: PackedMove::NONE,
        score: -7,
        static_eval: 0,
        depth: 9,
        bound: Some(Bound::Upper),
        generation: 0,
    }
    .pack();
    // Word 0 from the store of `a`, word 1 from a store of `b`.
    entry.key_xor_data.store(words_a.0, Ordering::Relaxed);
    entry.data.store(data_b, Ordering::Relaxed);
    assert_eq!(table.probe(a, 0, 0), None);
    assert_eq!(table.probe(b, 0, 0), None);
    // The whole pair of `a` is accepted again.
    entry.data.store(words_a.1, Ordering::Relaxed);
    assert_eq!(table.probe(a, 0, 0).unwrap().score, 100);
}

#[test]
fn concurrent_stores_never_leak_data_across_keys() {
    // Every thread stores and probes the same 16 keys of two clusters, so
    // stores race on the very same entries and torn pairs do occur.
    let table = Arc::new(small_table());
    let keys: Arc<Vec<u64>> = Arc::new(
        [0, 1]
            .iter()
            .flat_map(|&cluster| keys_of_cluster(&table, cluster, 8))
            .collect(),
    );
    let stop = Arc::new(AtomicBool::new(false));
    let deadline = Instant::now() + Duration::from_millis(1000);
    // Data derived from the key: score, eval and depth are all functions of it.
    fn derived(key: u64) -> (i32, i32, i32) {
        let h = key.wrapping_mul(0x2545_f491_4f6c_dd1d);
        (
            (h % 20_000) as i32 - 10_000,
            ((h >> 20) % 20_000) as i32 - 10_000,
            ((h >> 40) % 100) as i32,
        )
    }
    let handles: Vec<_> = (0..8u64)
        .map(|thread| {
            let table = Arc::clone(&table);
            let keys = Arc::clone(&keys);
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut accepted = 0u64;
                let mut i = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    let key = keys[((i * 3 + thread) % keys.len() as u64) as usize];
                    let (score, static_eval, depth) = derived(key);
                    table.store(
                        key,
                        TtStore {
                            best_move: None,
                            score,
                            static_eval,
                            depth,
                            bound: Bound::Exact,
                            ply: 0,
                        },
                    );
                    let probe_key = keys[((i * 7 + thread * 5) % keys.len() as u64) as usize];
                    if let Some(hit) = table.probe(probe_key, 0, 0) {
                        let (score, static_eval, depth) = derived(probe_key);
                        assert_eq!(
                            (hit.score, hit.static_eval, hit.depth),
                            (score, static_eval, depth),
                            "probe of {probe_key:#x} returned foreign data"
                        );
                        accepted += 1;
                    }
                    i += 1;
                }
                accepted
            })
        })
        .collect();
    while Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    stop.store(true, Ordering::Relaxed);
    let accepted: u64 = handles.into_iter().map(|h| h.join().unwrap()).sum();
    assert!(
        accepted > 1000,
        "the stress test exercised hits ({accepted})"
    );
}

#[test]
fn mate_found_at_one_ply_reads_right_at_another() {
    let table = small_table();
    // At ply 4 the side to move mates in 3 plies: mate_in(7) from the root.
    table.store(
        78,
        TtStore {
            ply: 4,
            ..result(mate_in(7), 5, Bound::Exact)
        },
    );
    // Met at ply 2 in another line: mate in 3 plies from there = ply 5.
    assert_eq!(table.probe(78, 2, 0).unwrap().score, mate_in(5));
    table.store(
        79,
        TtStore {
            ply: 6,
            ..result(mated_in(9), 5, Bound::Exact)
        },
    );
    assert_eq!(table.probe(79, 1, 0).unwrap().score, mated_in(4));
}

#[test]
fn a_mate_beyond_the_fifty_move_rule_reads_as_no_proven_win() {
    // Mate 3 plies beyond a node: it stands with 97 half-moves on the
    // clock (the mate comes on the hundredth), not with 98.
    let table = small_table();
    table.store(
        78,
        TtStore {
            ply: 4,
            ..result(mate_in(7), 5, Bound::Exact)
        },
    );
    assert_eq!(table.probe(78, 2, 97).unwrap().score, mate_in(5));
    let spoilt = table.probe(78, 2, 98).unwrap().score;
    assert!(
        !is_mate(spoilt) && spoilt > 0 && spoilt < TB_WIN_BOUND,
        "{spoilt}"
    );
}

#[test]
fn hashfull_is_the_per_mille_of_sampled_entries_in_use() {
    let table = small_table();
    // Filling 10 of the 1000 sampled clusters uses 40 of 4000 entries.
    for cluster in 0..10 {
        for key in keys_of_cluster(&table, cluster, ENTRIES_PER_CLUSTER) {
            table.store(key, result(1, 1, Bound::Exact));
        }
    }
    assert_eq!(table.hashfull(), 10);
    // Entries beyond the sample are not counted.
    for key in keys_of_cluster(&table, HASHFULL_SAMPLE_CLUSTERS + 1, 4) {
        table.store(key, result(1, 1, Bound::Exact));
    }
    assert_eq!(table.hashfull(), 10);
}

#[test]
fn clear_empties_and_new_search_ages() {
    let table = small_table();
    table.store(5, result(1, 1, Bound::Exact));
    assert!(table.probe(5, 0, 0).is_some());
    table.new_search();
    table.clear();
    assert_eq!(table.probe(5, 0, 0), None);
    assert_eq!(table.hashfull(), 0);
}

#[test]
fn hashfull_counts_only_the_current_search() {
    let table = small_table();
    for key in 0..200_000u64 {
        table.store(
            key.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            result(0, 1, Bound::Exact),
        );
    }
    let full = table.hashfull();
    assert!(full > 900, "hashfull {full}");
    table.new_search();
    assert_eq!(table.hashfull(), 0);
}

#[test]
fn size_follows_megabytes_and_impossible_sizes_fail_cleanly() {
    let table = TranspositionTable::new(2).unwrap();
    assert_eq!(table.cluster_count() * CLUSTER_BYTES, 2 << 20);
    assert!(TranspositionTable::new(usize::MAX).is_err());
    assert!(TranspositionTable::new(1 << 40).is_err());
}

#[test]
fn bound_follows_the_window() {
    assert_eq!(Bound::for_window(50, 10, 50), Bound::Lower);
    assert_eq!(Bound::for_window(30, 10, 50), Bound::Exact);
    assert_eq!(Bound::for_window(10, 10, 50), Bound::Upper);
}

#[test]
fn packed_moves_unpack_to_the_same_legal_move() {
    use crate::board::parse_fen;
    use shakmaty::CastlingMode;
    for (fen, mode) in [
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            CastlingMode::Standard,
        ),
        (
            "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 4",
            CastlingMode::Standard,
        ),
        (
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            CastlingMode::Standard,
        ),
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            CastlingMode::Chess960,
        ),
    ] {
        let pos = parse_fen(fen, mode).unwrap();
        for m in pos.legal_moves() {
            assert_eq!(PackedMove::new(m).to_move(&pos), Some(m), "{fen}: {m:?}");
        }
        // A packed move of another position is refused, not misread: it
        // unpacks exactly where a legal move packs the same.
        for other in Chess::default().legal_moves() {
            let foreign = PackedMove::new(other);
            let packs_alike = pos.legal_moves().into_iter().find(|&m| foreign.matches(m));
            assert_eq!(foreign.to_move(&pos), packs_alike, "{fen}: {other:?}");
        }
    }
    assert_eq!(PackedMove::NONE.to_move(&Chess::default()), None);
}
