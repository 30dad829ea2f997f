//! `rookery datagen --chunk-dir` killed with SIGKILL in the middle of a
//! chunk, as a machine that vanishes or `kill -9` leaves it: the finished
//! chunks stay whole, `rookery dataclose` recovers every finished game of
//! the open chunk, and a run started again with the same seed plays that
//! chunk again from its start, the same games first, so nothing is lost
//! but the game in progress.
//!
//! The generator runs as a child process with small chunks and a small
//! node limit. The only thing timing decides is where the kill lands: the
//! test kills it once the second chunk holds a game (its first chunk
//! finished), and its assertions hold wherever in that chunk the kill
//! landed; a kill that came after the chunk finished (two games later, so
//! never seen) is tried again.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rookery::records::{GameRecord, open_game_file};

const ROOKERY: &str = env!("CARGO_BIN_EXE_rookery");
const SEED: &str = "11";
/// Games in a chunk: the kill comes after the open chunk's first game, two
/// games before it could finish.
const CHUNK_GAMES: usize = 3;
/// The node limit: small, so games take a fraction of a second.
const NODES: &str = "300";
/// How long the open chunk may take to get its first game.
const PATIENCE: Duration = Duration::from_secs(120);
const POLL: Duration = Duration::from_millis(10);
/// Runs killed before one is killed inside its second chunk.
const ATTEMPTS: usize = 3;
/// Bytes of a header's magic and version, before the notes' length.
const HEADER_FIXED_BYTES: usize = 6;
/// Bytes of the notes' length.
const NOTES_LENGTH_BYTES: usize = 2;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rookery-kill-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `rookery datagen` into the chunks of `dir`, stopping after `games`.
fn datagen(dir: &Path, games: usize) -> Command {
    let mut command = Command::new(ROOKERY);
    command
        .args(["datagen", "--chunk-dir"])
        .arg(dir)
        .args(["--chunk-games", &CHUNK_GAMES.to_string(), "--nodes", NODES])
        .args([
            "--threads",
            "1",
            "--seed",
            SEED,
            "--games",
            &games.to_string(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

fn chunk(dir: &Path, number: u32, suffix: &str) -> PathBuf {
    dir.join(format!("s{SEED}-c{number:05}{suffix}"))
}

/// Whether the part at `path` holds a game: more bytes than its header
/// (each game is one write(2) of a few hundred bytes, which a signal does
/// not split).
fn holds_a_game(path: &Path) -> bool {
    let Ok(bytes) = std::fs::read(path) else {
        return false;
    };
    let notes_at = HEADER_FIXED_BYTES;
    let Some(length) = bytes.get(notes_at..notes_at + NOTES_LENGTH_BYTES) else {
        return false;
    };
    let header =
        notes_at + NOTES_LENGTH_BYTES + usize::from(u16::from_le_bytes([length[0], length[1]]));
    bytes.len() > header
}

/// The games of a finished file, which must read to its trailer.
fn games_of(path: &Path) -> Vec<GameRecord> {
    let mut reader = open_game_file(path).unwrap();
    let mut games = Vec::new();
    while let Some(game) = reader.next_game().unwrap() {
        games.push(game);
    }
    games
}

/// The names of the files in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Kills the generator once the second chunk holds a game.
fn kill_once_the_second_chunk_holds_a_game(mut child: Child, dir: &Path) {
    let start = Instant::now();
    let part = chunk(dir, 1, ".bin.part");
    while !holds_a_game(&part) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "datagen ended before it was killed"
        );
        assert!(start.elapsed() < PATIENCE, "no game in the second chunk");
        std::thread::sleep(POLL);
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn a_killed_datagen_loses_only_the_game_in_progress() {
    let dir = scratch("run");
    let killed_inside = (0..ATTEMPTS).any(|_| {
        let _ = std::fs::remove_dir_all(&dir);
        let child = datagen(&dir, 100).spawn().unwrap();
        kill_once_the_second_chunk_holds_a_game(child, &dir);
        !chunk(&dir, 1, ".bin.xz").exists()
    });
    assert!(killed_inside, "every kill came after the chunk finished");
    let first = chunk(&dir, 0, ".bin.xz");
    let first_bytes = std::fs::read(&first).unwrap();
    assert_eq!(games_of(&first).len(), CHUNK_GAMES);
    assert!(chunk(&dir, 1, ".bin.part").exists());

    // dataclose recovers the open chunk's whole games, with a trailer.
    let closed = scratch("closed");
    for name in names(&dir) {
        std::fs::copy(dir.join(&name), closed.join(&name)).unwrap();
    }
    let status = Command::new(ROOKERY)
        .arg("dataclose")
        .arg(&closed)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let recovered = games_of(&chunk(&closed, 1, ".bin.xz"));
    assert!(
        (1..CHUNK_GAMES).contains(&recovered.len()),
        "{} games recovered",
        recovered.len()
    );
    assert_eq!(
        names(&closed),
        [
            "s11-c00000.bin.xz".to_string(),
            "s11-c00001.bin.xz".to_string()
        ]
    );

    // Run again with the seed instead: the finished chunk is kept, the
    // open one is played again from its start, the same games first.
    let status = datagen(&dir, CHUNK_GAMES).status().unwrap();
    assert!(status.success());
    assert_eq!(std::fs::read(&first).unwrap(), first_bytes);
    let replayed = games_of(&chunk(&dir, 1, ".bin.xz"));
    assert_eq!(replayed.len(), CHUNK_GAMES);
    assert_eq!(replayed[..recovered.len()], recovered[..]);
    assert_eq!(names(&dir), names(&closed));
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&closed).unwrap();
}
