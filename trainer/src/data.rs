//! Training positions in memory: reading self-play game files, the compact
//! form a position is kept in, mirroring, shuffling and the validation
//! split.
//!
//! A [`Sample`] holds what the network sees and what it should say, all
//! from the side to move's view: the active features of both perspectives
//! (side to move first, computed once with the library's `feature_index`
//! so the trainer cannot disagree with the engine about them), the search
//! score and the game result. That is 132 bytes, so 100 million positions
//! take 13 GB, and a batch is a contiguous slice: shuffling moves the
//! samples themselves, not indices.
//!
//! The samples are held once: every game's samples are appended to one
//! vector as its file is read (a file's own samples are dropped once
//! merged), and the validation split moves the held-out games out and
//! closes the gaps in place, so loading never holds two copies of the set
//! (it used to keep a vector per game and then concatenate them, twice
//! the set's memory at the peak).
//!
//! Files are read in parallel, a batch of them at a time, a thread each
//! (replaying the games' moves is what costs, not the reading), and merged
//! in file order, with
//! the library's
//! `open_game_file`: a file whose name ends in `.xz` (the form of the
//! repository's `data/selfplay/`) is decompressed as it is read, and a
//! file cut short is an error naming it. A data manifest among the files
//! (a network's data list) stands for the files it lists, each checked
//! against its SHA-256 before any is read ([`expand_manifests`]), and each
//! read file's games, plies and training positions against its row: a
//! list counted under another training filter than this build's is
//! refused, as is one whose counts this filter does not reproduce, so a
//! network's data is the positions it was trained on, not only the same
//! files. A file named alone must end in its trailer (or be vouched for by
//! a manifest row above it). A game whose samples repeat an earlier
//! game's is dropped before the validation split (see [`load_files`]).
//!
//! Mirroring happens in place, pass by pass ([`prepare_pass`]): an epoch
//! with mirroring is two passes over the one stored set, every position
//! once each way, so the set takes its positions' memory and no more.

use std::collections::HashSet;
use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};

use rookery::nnue::feature_index;
use rookery::records::manifest::{self, Entry, Vouch};
use rookery::records::{GameResult, TRAINING_FILTER_VERSION, open_game_file};
use rookery::util::rng::SplitMix64;
use shakmaty::{Chess, Position};

/// Most pieces a chess position can have.
pub const MAX_PIECES: usize = 32;
/// The bits of a feature index that hold its square's file.
const FILE_BITS: u16 = 0b111;

/// One training position, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sample {
    /// Active features: `[0]` the side to move's perspective, `[1]` the
    /// other's; the first `piece_count` of each are used.
    features: [[u16; MAX_PIECES]; 2],
    piece_count: u8,
    /// The search's score in centipawns.
    score: i16,
    /// The game's result in half points: 0 lost, 1 drawn, 2 won.
    half_points: u8,
}

impl Sample {
    /// The sample of `pos` with a White-view score and result; `None` for
    /// a position with more pieces than chess allows.
    pub fn new(pos: &Chess, white_score: i16, result: GameResult) -> Option<Sample> {
        let board = pos.board();
        if board.occupied().count() > MAX_PIECES {
            return None;
        }
        let us = pos.turn();
        let mut features = [[0u16; MAX_PIECES]; 2];
        let mut piece_count = 0u8;
        for (square, piece) in board {
            for (perspective, row) in [us, us.other()].into_iter().zip(&mut features) {
                let feature = feature_index(perspective, piece, square);
                row[usize::from(piece_count)] = u16::try_from(feature).ok()?;
            }
            piece_count += 1;
        }
        let white_half_points = result as u8;
        let (score, half_points) = if us.is_white() {
            (white_score, white_half_points)
        } else {
            (
                white_score.saturating_neg(),
                GameResult::WhiteWins as u8 - white_half_points,
            )
        };
        Some(Sample {
            features,
            piece_count,
            score,
            half_points,
        })
    }

    /// The same position mirrored left to right (files a↔h), which is worth
    /// the same: chess is symmetric that way but for castling, which the
    /// network does not see. A feature's low three bits are its square's
    /// file in both perspectives (the feature index is
    /// `side · 384 + role · 64 + square`, and Black's vertical flip keeps
    /// files), so mirroring flips those bits.
    pub fn mirrored(&self) -> Sample {
        let mut mirrored = *self;
        for row in &mut mirrored.features {
            for feature in &mut row[..usize::from(self.piece_count)] {
                *feature ^= FILE_BITS;
            }
        }
        mirrored
    }

    /// The active features, side to move's perspective first.
    pub fn features(&self) -> [&[u16]; 2] {
        let count = usize::from(self.piece_count);
        [&self.features[0][..count], &self.features[1][..count]]
    }

    /// The search's score in centipawns for the side to move.
    pub fn score(&self) -> f32 {
        f32::from(self.score)
    }

    /// The side to move's share of the game's point: 0, 0.5 or 1.
    pub fn result(&self) -> f32 {
        f32::from(self.half_points) / f32::from(GameResult::WhiteWins as u8)
    }
}

/// What a set of game files gave: every game's training samples, one game
/// after another, and where each game's lie.
pub struct Loaded {
    pub samples: Vec<Sample>,
    /// Each game's range in `samples`, in file order.
    pub games: Vec<Range<usize>>,
    /// Games dropped because an earlier one had the same samples.
    pub duplicates: usize,
}

/// One file's games: their samples one after another, and how many each.
struct FileGames {
    samples: Vec<Sample>,
    lengths: Vec<usize>,
}

/// Reads every game of `paths` (`threads` files at a time, a thread each)
/// and keeps their training positions, in file order. A game whose
/// samples repeat an earlier game's is dropped: a file named twice, or a
/// snapshot beside the file it was copied from, would otherwise be trained
/// on twice and sit on both sides of the validation split. Games are
/// compared by a 64-bit hash of their samples (two distinct games collide
/// with odds of about n²/2⁶⁵, negligible); games with no training position
/// are all kept.
pub fn load_files(paths: &[Source], threads: usize) -> io::Result<Loaded> {
    let mut loaded = Loaded {
        samples: Vec::new(),
        games: Vec::new(),
        duplicates: 0,
    };
    let mut seen = HashSet::new();
    // A batch of files at a time, one thread each, merged in order: at
    // most a batch of files' samples is held beside the merged set.
    for batch in paths.chunks(threads.max(1)) {
        let files: Vec<io::Result<FileGames>> = std::thread::scope(|scope| {
            let workers: Vec<_> = batch
                .iter()
                .map(|source| scope.spawn(move || load_file(source)))
                .collect();
            workers
                .into_iter()
                .map(|worker| worker.join().expect("a loader thread panicked"))
                .collect()
        });
        for file in files {
            let file = file?;
            let mut start = 0;
            for length in file.lengths {
                let game = &file.samples[start..start + length];
                start += length;
                let hash = BuildHasherDefault::<DefaultHasher>::default().hash_one(game);
                if game.is_empty() || seen.insert(hash) {
                    let at = loaded.samples.len();
                    loaded.samples.extend_from_slice(game);
                    loaded.games.push(at..at + length);
                } else {
                    loaded.duplicates += 1;
                }
            }
        }
    }
    Ok(loaded)
}

/// A game file to train on, with the row that lists it if it came from a
/// data manifest.
#[derive(Clone, Debug)]
pub struct Source {
    pub path: PathBuf,
    /// The manifest and its row for the file.
    pub row: Option<(PathBuf, Entry)>,
}

impl Source {
    /// A file named alone.
    pub fn file(path: &Path) -> Source {
        Source {
            path: path.to_path_buf(),
            row: None,
        }
    }
}

/// `paths` with every data manifest (a `.tsv` file) replaced by the files
/// it lists, in its order, once each has been checked against its row's
/// size and SHA-256: a file that differs is an error, before anything is
/// trained on, and so is a manifest whose training positions were counted
/// under another filter than this build's.
pub fn expand_manifests(paths: &[PathBuf]) -> io::Result<Vec<Source>> {
    let mut files = Vec::new();
    for path in paths {
        if path.extension().is_some_and(|e| e == "tsv") {
            let (list, verified) = manifest::verified_paths(path)?;
            if list.filter_version != TRAINING_FILTER_VERSION {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "{}: its training positions were counted under training filter version \
                         {}, this trainer's filter is version {TRAINING_FILTER_VERSION}: train on \
                         it with a build whose TRAINING_FILTER_VERSION is {} \
                         (src/records/mod.rs), or the positions are not the ones it names",
                        path.display(),
                        list.filter_version,
                        list.filter_version
                    ),
                ));
            }
            files.extend(
                verified
                    .into_iter()
                    .zip(list.entries)
                    .map(|(file, entry)| Source {
                        path: file,
                        row: Some((path.clone(), entry)),
                    }),
            );
        } else {
            files.push(Source::file(path));
        }
    }
    Ok(files)
}

/// The file's games' training samples, in file order; an error when the
/// file does not read to its end, when it has no trailer and nothing else
/// vouches for its end, or when what it holds is not its row's.
fn load_file(source: &Source) -> io::Result<FileGames> {
    let path = &source.path;
    let mut reader = open_game_file(path)?;
    if source.row.is_none() && manifest::vouch_for_end(path, &reader)? == Vouch::Nothing {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{}: format version {} has no trailer and no manifest row vouches for it, so \
                 nothing shows it was not cut at a game's end (name the manifest that lists it, \
                 or convert it with `rookery dataconvert`)",
                path.display(),
                reader.version()
            ),
        ));
    }
    let mut file = FileGames {
        samples: Vec::new(),
        lengths: Vec::new(),
    };
    let (mut games, mut plies, mut positions) = (0u64, 0u64, 0u64);
    while let Some(game) = reader.next_game()? {
        let before = file.samples.len();
        let kept = game.training_positions();
        games += 1;
        plies += game.ply_count() as u64;
        positions += kept.len() as u64;
        file.samples.extend(
            kept.iter()
                .filter_map(|p| Sample::new(&p.pos, p.white_score, p.result)),
        );
        file.lengths.push(file.samples.len() - before);
    }
    if let Some((list, row)) = &source.row
        && (games, plies, positions) != (row.games, row.plies, row.training_positions)
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{}: holds {games} games, {plies} plies and {positions} training positions under \
                 training filter version {TRAINING_FILTER_VERSION}, where its row in {} says {}, \
                 {} and {}: this filter does not reproduce the list's counts (a filter changed \
                 without a new version?)",
                path.display(),
                list.display(),
                row.games,
                row.plies,
                row.training_positions
            ),
        ));
    }
    Ok(file)
}

/// Puts `samples` in a uniformly random order (Fisher–Yates).
pub fn shuffle(samples: &mut [Sample], rng: &mut SplitMix64) {
    for last in (1..samples.len()).rev() {
        samples.swap(last, rng.below(last + 1));
    }
}

/// Passes over the stored training set that make an epoch with mirroring:
/// one each way.
const MIRRORED_PASSES: usize = 2;

/// Passes over the stored training set that make an epoch: with
/// `mirror`, every position is used once as played and once mirrored.
pub fn passes_per_epoch(mirror: bool) -> usize {
    if mirror { MIRRORED_PASSES } else { 1 }
}

/// Readies `samples` for pass `pass` (counted from 0) of an epoch: turns
/// them (with `mirror`) and shuffles them. Without mirroring it only
/// shuffles. With it, the first pass mirrors each sample in place with
/// probability ½ and the second mirrors every one, so each is then the
/// other way round from the first pass: the epoch sees every position both
/// ways, in batches that mix the two, like a shuffled set of twice the
/// size but without the second copy. Mirroring is its own inverse, so
/// which way round a sample is stored between epochs does not matter.
pub fn prepare_pass(samples: &mut [Sample], pass: usize, mirror: bool, rng: &mut SplitMix64) {
    if mirror {
        let first_pass = pass.is_multiple_of(MIRRORED_PASSES);
        for sample in samples.iter_mut() {
            if !first_pass || rng.next_u64() & 1 == 1 {
                *sample = sample.mirrored();
            }
        }
    }
    shuffle(samples, rng);
}

/// Holds out a random `fraction` of the games (at least one when the
/// fraction is positive) as the validation set: `(training, validation)`.
/// Whole games, not positions: the positions of one game are alike and
/// share its result, so splitting a game would let validation see what
/// training learnt, and hide overfitting.
pub fn split_validation(
    loaded: Loaded,
    fraction: f64,
    rng: &mut SplitMix64,
) -> (Vec<Sample>, Vec<Sample>) {
    let Loaded {
        mut samples, games, ..
    } = loaded;
    let mut order: Vec<usize> = (0..games.len()).collect();
    for last in (1..order.len()).rev() {
        order.swap(last, rng.below(last + 1));
    }
    let held_out_count = ((games.len() as f64 * fraction).ceil() as usize).min(games.len());
    let mut held_out = vec![false; games.len()];
    let mut validation = Vec::new();
    for &game in &order[..held_out_count] {
        held_out[game] = true;
        validation.extend_from_slice(&samples[games[game].clone()]);
    }
    // The training games close up in place, in their order.
    let mut end = 0;
    for (game, range) in games.into_iter().enumerate() {
        if !held_out[game] {
            let length = range.len();
            samples.copy_within(range, end);
            end += length;
        }
    }
    samples.truncate(end);
    (samples, validation)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_positions::random_positions;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Color};

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn samples_take_the_side_to_moves_view() {
        let black_to_move = position("4k3/8/8/8/8/8/8/R3K3 b - - 0 1");
        let sample = Sample::new(&black_to_move, 500, GameResult::WhiteWins).unwrap();
        assert_eq!(sample.score(), -500.0);
        assert_eq!(sample.result(), 0.0);
        let [ours, theirs] = sample.features();
        assert_eq!(ours.len(), 3);
        let white_rook = shakmaty::Piece {
            color: Color::White,
            role: shakmaty::Role::Rook,
        };
        let rook = feature_index(Color::Black, white_rook, shakmaty::Square::A1);
        assert!(ours.contains(&(rook as u16)));
        assert!(!theirs.contains(&(rook as u16)));

        let white = Sample::new(&Chess::default(), 30, GameResult::Draw).unwrap();
        assert_eq!((white.score(), white.result()), (30.0, 0.5));
        assert_eq!(white.features()[0].len(), MAX_PIECES);
        let mut mirrored = white.features()[1].to_vec();
        let mut direct = white.features()[0].to_vec();
        mirrored.sort_unstable();
        direct.sort_unstable();
        assert_eq!(mirrored, direct, "the start position is symmetric");
    }

    #[test]
    fn a_mirrored_sample_is_the_sample_of_the_mirrored_position() {
        for fen in [
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b - - 0 9",
            "8/5pk1/6p1/3Pp3/2p1P3/2P3P1/5PK1/8 w - e6 0 40",
        ] {
            let pos = position(fen);
            let mut setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
            setup.board.flip_horizontal();
            setup.ep_square = None;
            let flipped: Chess = setup.position(CastlingMode::Standard).unwrap();
            let expected = Sample::new(&flipped, 40, GameResult::Draw).unwrap();
            let mirrored = Sample::new(&pos, 40, GameResult::Draw).unwrap().mirrored();
            for (a, b) in mirrored.features().into_iter().zip(expected.features()) {
                let (mut a, mut b) = (a.to_vec(), b.to_vec());
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "{fen}");
            }
            let outcome = |s: &Sample| (s.score(), s.result());
            assert_eq!(outcome(&mirrored), outcome(&expected));
        }
    }

    /// The archive's first games (a headerless version-1 file).
    const ARCHIVE_GAMES: &[u8] =
        include_bytes!("../../tests/data/selfplay/a1153ef_s30001_first5.bin");

    /// A scratch folder holding `games.bin`, the archive's games converted
    /// to the current format (with its trailer), and those bytes.
    fn current_games(name: &str) -> (PathBuf, Vec<u8>) {
        let dir =
            std::env::temp_dir().join(format!("rookery-trainer-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let archive = dir.join("archive.bin");
        std::fs::write(&archive, ARCHIVE_GAMES).unwrap();
        let file = dir.join("games.bin");
        rookery::records::convert::convert(&[archive], &file, "seed=30001").unwrap();
        let bytes = std::fs::read(&file).unwrap();
        (dir, bytes)
    }

    #[test]
    fn an_xz_file_loads_as_its_plain_form_every_stream_of_it() {
        use std::io::Write;
        const COMPRESSION_LEVEL: u32 = 6;
        let (dir, games) = current_games("xz");
        let plain = dir.join("joined.bin");
        let compressed = dir.join("joined.bin.xz");
        // Two copies, compressed as two xz streams one after the other (as
        // `cat a.xz b.xz` makes): the second must not be cut off.
        std::fs::write(&plain, games.repeat(2)).unwrap();
        let mut streams = Vec::new();
        for _ in 0..2 {
            let mut encoder = liblzma::write::XzEncoder::new(Vec::new(), COMPRESSION_LEVEL);
            encoder.write_all(&games).unwrap();
            streams.extend(encoder.finish().unwrap());
        }
        std::fs::write(&compressed, &streams).unwrap();

        // `load_file`, not `load_files`, which would drop the second copy.
        let from_plain = load_file(&Source::file(&plain)).unwrap();
        let from_xz = load_file(&Source::file(&compressed)).unwrap();
        assert_eq!(from_plain.lengths.len(), 10);
        assert!(from_plain.samples.len() > 200);
        assert_eq!(from_xz.lengths, from_plain.lengths);
        assert_eq!(from_xz.samples, from_plain.samples);

        // Cut anywhere, in the xz bytes or in the records before
        // compression, the file is refused, with its name.
        let cut_xz = dir.join("cut.bin.xz");
        std::fs::write(&cut_xz, &streams[..streams.len() * 3 / 4]).unwrap();
        let mut encoder = liblzma::write::XzEncoder::new(Vec::new(), COMPRESSION_LEVEL);
        encoder.write_all(&games[..games.len() - 1]).unwrap();
        let cut_records = dir.join("cut-records.bin.xz");
        std::fs::write(&cut_records, encoder.finish().unwrap()).unwrap();
        for cut in [cut_xz, cut_records] {
            let error = load_files(&[Source::file(&cut)], 1)
                .err()
                .unwrap()
                .to_string();
            assert!(error.contains(&*cut.to_string_lossy()), "{error}");
        }
        // A headerless archive file that no manifest vouches for is refused.
        let archive = Source::file(&dir.join("archive.bin"));
        let error = load_file(&archive).err().unwrap().to_string();
        assert!(error.contains("no trailer"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_game_loaded_twice_is_kept_once() {
        let (dir, games) = current_games("dup");
        let file = Source::file(&dir.join("games.bin"));
        let copy = dir.join("snapshot.bin");
        std::fs::write(&copy, games).unwrap();
        let once = load_files(std::slice::from_ref(&file), 1).unwrap();
        // Two threads: the first batch is two files, the second one.
        let twice = load_files(&[file.clone(), Source::file(&copy), file], 2).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(once.duplicates, 0);
        assert_eq!((&twice.games, &twice.samples), (&once.games, &once.samples));
        assert_eq!(twice.duplicates, 2 * once.games.len());
    }

    #[test]
    fn shuffling_permutes_and_the_split_holds_out_whole_games() {
        let samples: Vec<Sample> = (0..100)
            .map(|i| Sample::new(&Chess::default(), i, GameResult::Draw).unwrap())
            .collect();
        let mut shuffled = samples.clone();
        shuffle(&mut shuffled, &mut SplitMix64::new(5));
        assert_ne!(shuffled, samples);
        let mut scores: Vec<i32> = shuffled.iter().map(|s| s.score() as i32).collect();
        scores.sort_unstable();
        assert_eq!(scores, (0..100).collect::<Vec<_>>());

        // 20 games of 5 positions; 10% of the games are held out whole,
        // and the training games keep their order.
        let loaded = || Loaded {
            samples: samples.clone(),
            games: (0..20).map(|game| 5 * game..5 * game + 5).collect(),
            duplicates: 0,
        };
        let (training, validation) = split_validation(loaded(), 0.1, &mut SplitMix64::new(1));
        assert_eq!((training.len(), validation.len()), (90, 10));
        let games: Vec<&[Sample]> = samples.chunks(5).collect();
        for game in validation.chunks(5).chain(training.chunks(5)) {
            assert!(games.contains(&game), "a game was split");
        }
        let training_scores: Vec<f32> = training.iter().map(Sample::score).collect();
        assert!(training_scores.is_sorted());
        let (all, none) = split_validation(loaded(), 0.0, &mut SplitMix64::new(1));
        assert_eq!((all, none.len()), (samples, 0));
    }

    /// A total order on samples, for comparing sets of them.
    fn key(sample: &Sample) -> (i16, u8, u8, [[u16; MAX_PIECES]; 2]) {
        (
            sample.score,
            sample.half_points,
            sample.piece_count,
            sample.features,
        )
    }

    fn sorted(mut samples: Vec<Sample>) -> Vec<Sample> {
        samples.sort_unstable_by_key(key);
        samples
    }

    #[test]
    fn a_mirrored_epoch_uses_every_sample_once_each_way_in_place() {
        const POSITIONS: usize = 400;
        let originals: Vec<Sample> = random_positions(POSITIONS, 8)
            .iter()
            .zip(1..)
            .map(|(pos, score)| Sample::new(pos, score, GameResult::Draw).unwrap())
            .collect();
        let mut samples = originals.clone();
        let mut rng = SplitMix64::new(3);
        let mut epoch = Vec::new();
        let mut first_pass_mirrored = 0;
        for pass in 0..passes_per_epoch(true) {
            prepare_pass(&mut samples, pass, true, &mut rng);
            assert_eq!(samples.len(), POSITIONS, "no copies");
            if pass == 0 {
                let as_played = sorted(originals.clone());
                first_pass_mirrored = samples
                    .iter()
                    .filter(|s| as_played.binary_search_by_key(&key(s), key).is_err())
                    .count();
            }
            epoch.extend_from_slice(&samples);
        }
        let both_ways = originals.iter().flat_map(|s| [*s, s.mirrored()]).collect();
        assert_eq!(sorted(epoch), sorted(both_ways));
        assert!(
            (POSITIONS * 2 / 5..=POSITIONS * 3 / 5).contains(&first_pass_mirrored),
            "a pass mixes both ways: {first_pass_mirrored} of {POSITIONS} mirrored"
        );

        assert_eq!(passes_per_epoch(false), 1);
        let mut plain = originals.clone();
        prepare_pass(&mut plain, 0, false, &mut rng);
        assert_ne!(plain, originals, "shuffled");
        assert_eq!(sorted(plain), sorted(originals), "and nothing else");
    }
}
