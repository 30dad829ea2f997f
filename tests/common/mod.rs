//! Helpers for black-box tests of the `rookery` binary: spawn it, talk UCI
//! over pipes, and check its answers with shakmaty.
//!
//! Every read has a timeout (a reader thread feeds an mpsc channel), so an
//! engine that hangs fails the test instead of blocking it forever. The child
//! is killed when the [`Engine`] is dropped.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

/// Path of the engine binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_rookery");

/// An empty config file: the built-in option defaults.
pub fn empty_config() -> &'static str {
    let path = concat!(env!("CARGO_TARGET_TMPDIR"), "/empty-engine.toml");
    std::fs::write(path, "").expect("the empty config file");
    path
}

/// Generous limit for anything that should take well under a second.
pub const PROMPT: Duration = Duration::from_secs(2);
/// Generous limit for short searches (a 2-core machine running tests in
/// parallel can be slow).
pub const SEARCH: Duration = Duration::from_secs(30);

/// Sends `cmd`, then `isready`; returns the lines up to `readyok`.
pub fn command(engine: &mut Engine, cmd: &str) -> Vec<String> {
    engine.send(cmd);
    engine.sync()
}

/// The deepest `info depth N` among `lines`; panics when there is none.
pub fn deepest_depth(lines: &[String]) -> i32 {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|rest| rest.split_whitespace().next()?.parse::<i32>().ok())
        .max()
        .expect("an info depth line")
}

/// The number after `field` in an `info` line (`nodes`, `tbhits`, ...).
pub fn info_number(line: &str, field: &str) -> Option<u64> {
    let mut tokens = line.split_whitespace();
    tokens.find(|&token| token == field)?;
    tokens.next()?.parse().ok()
}

/// Reads a test data file, failing with its path.
pub fn read_data(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// What the stdout reader thread passes on.
enum Output {
    Line(String),
    End,
}

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Output>,
    /// Everything read from stdout so far, for failure messages.
    transcript: Vec<String>,
    /// Everything sent, for failure messages.
    sent: Vec<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stdout_closed: bool,
}

impl Engine {
    /// Starts `rookery` in UCI mode with the built-in option defaults:
    /// an empty config file, so that an `engine.toml` copied beside the
    /// binary under test (as the README suggests for users) changes
    /// nothing here.
    pub fn start() -> Engine {
        Engine::start_with_args(&["--config", empty_config()])
    }

    /// [`Engine::start`] with the process's address space limited to
    /// `megabytes` (the shell's `ulimit -v`), so that an allocation beyond
    /// it fails on every machine, whatever its memory and overcommit rules.
    pub fn start_with_address_space_limit(megabytes: u64) -> Engine {
        Engine::start_with_address_space_limit_and_config(megabytes, empty_config())
    }

    /// [`Engine::start_with_address_space_limit`] with the option defaults
    /// of the config file at `config`.
    pub fn start_with_address_space_limit_and_config(megabytes: u64, config: &str) -> Engine {
        let script = format!("ulimit -v {} && exec \"$0\" \"$@\"", megabytes * 1024);
        Engine::spawn(
            Command::new("sh").args(["-c", &script, BIN, "--config", config]),
            &[],
        )
    }

    /// Starts `rookery` with command line arguments.
    pub fn start_with_args(args: &[&str]) -> Engine {
        Engine::start_with_env(args, &[])
    }

    /// Starts `rookery` with command line arguments and environment
    /// variables.
    pub fn start_with_env(args: &[&str], env: &[(&str, &str)]) -> Engine {
        Engine::spawn(Command::new(BIN).args(args), env)
    }

    /// Starts `command` (the engine, maybe by way of a shell) with pipes.
    fn spawn(command: &mut Command, env: &[(&str, &str)]) -> Engine {
        let mut child = command
            .env_remove("RUST_LOG")
            .env_remove("ROOKERY_SIMD")
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {BIN}: {e}"));
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match reader.read_until(b'\n', &mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&buffer);
                        let line = text.trim_end_matches(['\n', '\r']).to_string();
                        if sender.send(Output::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = sender.send(Output::End);
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut child_stderr = child.stderr.take().expect("piped stderr");
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = child_stderr.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&chunk[..n]);
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
            sent: Vec::new(),
            stderr,
            stdout_closed: false,
        }
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.sent.push(shorten(line));
        self.write(&bytes);
    }

    /// Sends raw bytes as they are (no newline added).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.sent.push(shorten(&String::from_utf8_lossy(bytes)));
        self.write(bytes);
    }

    fn write(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin already closed");
        if let Err(e) = stdin.write_all(bytes).and_then(|()| stdin.flush()) {
            panic!("cannot write to the engine: {e}\n{}", self.context());
        }
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next stdout line, or `None` when `timeout` passes first or stdout
    /// is closed.
    pub fn read_line(&mut self, timeout: Duration) -> Option<String> {
        if self.stdout_closed {
            return None;
        }
        match self.lines.recv_timeout(timeout) {
            Ok(Output::Line(line)) => {
                self.transcript.push(shorten(&line));
                Some(line)
            }
            Ok(Output::End) | Err(RecvTimeoutError::Disconnected) => {
                self.stdout_closed = true;
                None
            }
            Err(RecvTimeoutError::Timeout) => None,
        }
    }

    /// Collects lines until one starts with `prefix` (included, last);
    /// panics when `timeout` passes or stdout closes first.
    pub fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.read_line(left) {
                Some(line) => {
                    let done = line.starts_with(prefix);
                    lines.push(line);
                    if done {
                        return lines;
                    }
                }
                None => panic!(
                    "no line starting with '{prefix}' within {timeout:?} (stdout {})\n{}",
                    if self.stdout_closed { "closed" } else { "open" },
                    self.context()
                ),
            }
        }
    }

    /// Collects every line that arrives during `duration`.
    pub fn collect_for(&mut self, duration: Duration) -> Vec<String> {
        let deadline = Instant::now() + duration;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return lines;
            }
            match self.read_line(left) {
                Some(line) => lines.push(line),
                None if self.stdout_closed => return lines,
                None => {}
            }
        }
    }

    /// Sends `isready` and returns the lines before and including `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.wait_for("readyok", SEARCH)
    }

    /// `uci` handshake; returns its lines up to `uciok`.
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("uci");
        self.wait_for("uciok", PROMPT * 5)
    }

    /// Sends `go <args>` and waits for the `bestmove`; returns all lines.
    /// Checks that nothing, a second `bestmove` least of all, follows it.
    pub fn go(&mut self, args: &str) -> Vec<String> {
        self.send(&format!("go {args}"));
        let lines = self.wait_for("bestmove", SEARCH);
        let after = self.sync();
        assert_eq!(after, vec!["readyok".to_string()], "after go {args}");
        lines
    }

    /// Waits for the process to exit by itself.
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            if Instant::now() >= deadline {
                panic!("engine did not exit within {timeout:?}\n{}", self.context());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The process id, for reading its state from /proc.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Lines read so far (each cut to a sane length).
    pub fn transcript(&self) -> &[String] {
        &self.transcript
    }

    /// What was sent and received, for failure messages.
    pub fn context(&self) -> String {
        let stderr = String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned();
        format!(
            "--- sent ---\n{}\n--- received ---\n{}\n--- stderr ---\n{}",
            self.sent.join("\n"),
            self.transcript.join("\n"),
            shorten(&stderr)
        )
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Cuts very long lines in transcripts.
fn shorten(text: &str) -> String {
    const MAX: usize = 300;
    if text.len() <= MAX {
        return text.to_string();
    }
    let mut end = MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], text.len())
}

/// Runs `rookery <args>` to completion (stdin closed) with a timeout;
/// returns the exit status and the stdout lines.
pub fn run_tool(args: &[&str], timeout: Duration) -> (ExitStatus, Vec<String>) {
    run_tool_with_env(args, &[], timeout)
}

/// [`run_tool`] with environment variables.
pub fn run_tool_with_env(
    args: &[&str],
    env: &[(&str, &str)],
    timeout: Duration,
) -> (ExitStatus, Vec<String>) {
    let mut engine = Engine::start_with_env(args, env);
    engine.close_stdin();
    let mut lines = Vec::new();
    let deadline = Instant::now() + timeout;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            panic!(
                "rookery {args:?} did not finish within {timeout:?}\n{}",
                engine.context()
            );
        }
        match engine.read_line(left) {
            Some(line) => lines.push(line),
            None if engine.stdout_closed => break,
            None => {}
        }
    }
    let status = engine.wait_exit(timeout);
    (status, lines)
}

// ---------------------------------------------------------------------------
// Chess checks with shakmaty.

/// Parses a FEN (as the engine would: tokens joined by single spaces).
pub fn parse_fen(fen: &str, mode: CastlingMode) -> Result<Chess, String> {
    let text = fen.split_whitespace().collect::<Vec<_>>().join(" ");
    let fen: Fen = text.parse().map_err(|e| format!("{e}"))?;
    fen.into_position(mode).map_err(|e| format!("{e}"))
}

/// The position after `fen` (or the start position) and `moves`; panics on
/// an invalid FEN or an illegal move.
pub fn position(fen: Option<&str>, moves: &[&str], mode: CastlingMode) -> Chess {
    let mut pos = match fen {
        None => Chess::default(),
        Some(fen) => parse_fen(fen, mode).unwrap_or_else(|e| panic!("bad FEN '{fen}': {e}")),
    };
    for text in moves {
        let m = parse_move(&pos, text)
            .unwrap_or_else(|| panic!("move '{text}' is illegal after {fen:?} {moves:?}"));
        pos.play_unchecked(m);
    }
    pos
}

/// A legal move of `pos` written `text`, if any.
pub fn parse_move(pos: &Chess, text: &str) -> Option<Move> {
    UciMove::from_ascii(text.as_bytes()).ok()?.to_move(pos).ok()
}

/// The FEN the engine's `d` command shows for `pos`.
pub fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}

/// The `bestmove` line among `lines` (exactly one), as (best, ponder).
pub fn the_bestmove(lines: &[String]) -> (String, Option<String>) {
    let found: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(found.len(), 1, "expected one bestmove in {lines:#?}");
    let tokens: Vec<&str> = found[0].split_whitespace().collect();
    assert!(
        tokens.len() == 2 || (tokens.len() == 4 && tokens[2] == "ponder"),
        "malformed bestmove line '{}'",
        found[0]
    );
    (tokens[1].to_string(), tokens.get(3).map(|s| s.to_string()))
}

/// Checks that the one `bestmove` among `lines` is legal in `pos`, written
/// in the notation of `mode`, and that its ponder move (if any) is legal
/// after it. Returns the best move.
pub fn assert_legal_bestmove(lines: &[String], pos: &Chess, mode: CastlingMode) -> Move {
    let (best, ponder) = the_bestmove(lines);
    let m = parse_move(pos, &best).unwrap_or_else(|| {
        panic!(
            "bestmove '{best}' is illegal in {}\n{lines:#?}",
            fen_of(pos)
        )
    });
    assert_eq!(
        m.to_uci(mode).to_string(),
        best,
        "bestmove not in {mode:?} notation in {}",
        fen_of(pos)
    );
    if let Some(ponder) = ponder {
        let mut after = pos.clone();
        after.play_unchecked(m);
        let reply = parse_move(&after, &ponder).unwrap_or_else(|| {
            panic!(
                "ponder move '{ponder}' is illegal after {best} in {}\n{lines:#?}",
                fen_of(pos)
            )
        });
        assert_eq!(reply.to_uci(mode).to_string(), ponder);
    }
    m
}

/// Whether an `info` line is about the best line (`multipv 1`, or no
/// `multipv` at all).
fn is_first_line(tokens: &[&str]) -> bool {
    match tokens.iter().position(|&t| t == "multipv") {
        Some(at) => tokens.get(at + 1) == Some(&"1"),
        None => true,
    }
}

/// The `score …` of the last `info … score` line of the best line:
/// ("cp", n) or ("mate", n).
pub fn last_score(lines: &[String]) -> Option<(String, i32)> {
    lines.iter().rev().find_map(|line| {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.first() != Some(&"info") || !is_first_line(&tokens) {
            return None;
        }
        let at = tokens.iter().position(|&t| t == "score")?;
        let kind = tokens.get(at + 1)?.to_string();
        let value = tokens.get(at + 2)?.parse().ok()?;
        Some((kind, value))
    })
}

/// Lines that report an error.
pub fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect()
}

/// Checks every `info … pv …` line: the PV is a legal line from `pos` in
/// the notation of `mode`. The last PV of the best line (`multipv 1`)
/// starts with the `bestmove` (and its second move is the ponder move, when
/// both are given).
pub fn assert_pvs_legal(lines: &[String], pos: &Chess, mode: CastlingMode) {
    let mut last_pv: Option<Vec<String>> = None;
    for line in lines.iter().filter(|l| l.starts_with("info ")) {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(at) = tokens.iter().position(|&t| t == "pv") else {
            continue;
        };
        let pv: Vec<String> = tokens[at + 1..].iter().map(|s| s.to_string()).collect();
        assert!(!pv.is_empty(), "empty pv in '{line}'");
        let mut board = pos.clone();
        for text in &pv {
            let m = parse_move(&board, text).unwrap_or_else(|| {
                panic!(
                    "pv move '{text}' is illegal in '{line}' from {}",
                    fen_of(pos)
                )
            });
            assert_eq!(&m.to_uci(mode).to_string(), text, "notation in '{line}'");
            board.play_unchecked(m);
        }
        if is_first_line(&tokens) {
            last_pv = Some(pv);
        }
    }
    if let Some(pv) = last_pv {
        let (best, ponder) = the_bestmove(lines);
        assert_eq!(
            best, pv[0],
            "bestmove is not the last pv's first move: {lines:#?}"
        );
        if let (Some(ponder), Some(second)) = (ponder, pv.get(1)) {
            assert_eq!(
                &ponder, second,
                "ponder is not the pv's second move: {lines:#?}"
            );
        }
    }
}
