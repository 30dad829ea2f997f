//! The command-line tools (`bench`, `perft`, also inside the UCI loop) and
//! the `engine.toml` config file.

use sha2::{Digest, Sha256};

use super::*;

/// The network shipped in the binary, as a file.
const SHIPPED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/networks/default.nnue");

/// The node count of `rookery bench <depth>`, checking the output format.
fn bench_nodes(depth: &str) -> u64 {
    bench_lines(depth, &[]).1
}

/// The output of `rookery bench <depth>` run with `env`, and its node
/// count, checking the output format.
fn bench_lines(depth: &str, env: &[(&str, &str)]) -> (Vec<String>, u64) {
    bench_run(&["bench", depth], env)
}

/// The output of `rookery <args>` (a bench) run with `env`, and its node
/// count, checking the output format. Without `--config` in `args` it
/// reads an empty one, so that an `engine.toml` beside the binary under
/// test changes nothing.
fn bench_run(args: &[&str], env: &[(&str, &str)]) -> (Vec<String>, u64) {
    let mut args = args.to_vec();
    if !args.contains(&"--config") {
        args.splice(0..0, ["--config", empty_config()]);
    }
    let (status, lines) = run_tool_with_env(&args, env, SEARCH);
    assert!(status.success(), "bench exit {status:?}: {lines:#?}");
    let last = lines.last().expect("bench prints lines");
    let tokens: Vec<&str> = last.split(' ').collect();
    let ok = tokens.len() == 4
        && tokens[1] == "nodes"
        && tokens[3] == "nps"
        && [tokens[0], tokens[2]]
            .iter()
            .all(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()));
    assert!(ok, "last bench line '{last}' is not 'N nodes N nps'");
    let nodes = tokens[0].parse().unwrap();
    (lines, nodes)
}

#[test]
fn bench_from_the_command_line_is_deterministic() {
    let first = bench_nodes("5");
    let second = bench_nodes("5");
    assert!(first > 0);
    assert_eq!(first, second, "bench node counts differ between runs");
}

/// The network's SIMD path is chosen at start-up; `ROOKERY_SIMD=plain`
/// asks for the plain loops, which must search the same tree.
#[test]
fn bench_names_its_simd_path_and_the_plain_path_searches_the_same_tree() {
    let (lines, nodes) = bench_lines("5", &[]);
    let (plain_lines, plain_nodes) = bench_lines("5", &[("ROOKERY_SIMD", "plain")]);
    assert!(
        ["avx512", "avx2", "plain"]
            .iter()
            .any(|path| lines[0].ends_with(&format!(", simd {path}"))),
        "{lines:#?}"
    );
    assert!(plain_lines[0].ends_with(", simd plain"), "{plain_lines:#?}");
    assert_eq!(nodes, plain_nodes);
}

/// A network file of other weights than the shipped one (its output bias
/// at the least), in the test scratch folder, and its name.
fn other_network(name: &str) -> (String, String) {
    let mut bytes = std::fs::read(SHIPPED).unwrap();
    let bias = bytes.len() - 2;
    bytes[bias..].copy_from_slice(&(-3000i16).to_le_bytes());
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, &bytes).unwrap();
    let digest = Sha256::digest(&bytes);
    let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
    (path.to_str().unwrap().to_string(), hex[..12].to_string())
}

/// The network a bench's first line names.
fn benched_network(lines: &[String]) -> &str {
    lines[0]
        .strip_prefix("network ")
        .and_then(|rest| rest.split(',').next())
        .unwrap_or_else(|| panic!("no network in the first line: {lines:#?}"))
}

/// The exit status and stderr of `rookery <args>`, a run that ends at once.
fn failed_run(args: &[&str]) -> String {
    let output = std::process::Command::new(common::BIN)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!output.status.success(), "rookery {args:?} succeeded");
    String::from_utf8(output.stderr).unwrap()
}

#[test]
fn bench_evaluates_with_the_network_file_asked_for_and_names_it() {
    let (lines, embedded_nodes) = bench_run(&["bench", "4"], &[]);
    assert_eq!(benched_network(&lines), "a37d2c5ff891");
    let (other, other_name) = other_network("bench-other.nnue");

    let (lines, nodes) = bench_run(&["bench", "4", "--eval-file", &other], &[]);
    assert_eq!(benched_network(&lines), other_name, "{lines:#?}");
    assert_ne!(nodes, embedded_nodes, "the other network searched alike");

    // A config's EvalFile is the network the engine starts with, and so
    // the one bench runs; --eval-file takes precedence over it.
    let config = config_file("bench-other.toml", &format!("EvalFile = \"{other}\"\n"));
    let (lines, config_nodes) = bench_run(&["--config", &config, "bench", "4"], &[]);
    assert_eq!(benched_network(&lines), other_name, "{lines:#?}");
    assert_eq!(config_nodes, nodes);
    let (lines, _) = bench_run(
        &["--config", &config, "bench", "1", "--eval-file", SHIPPED],
        &[],
    );
    assert_eq!(benched_network(&lines), "a37d2c5ff891");
}

#[test]
fn bench_refuses_a_network_file_it_cannot_use_naming_it() {
    let cut = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-cut.nnue");
    std::fs::write(&cut, &std::fs::read(SHIPPED).unwrap()[..1000]).unwrap();
    let cut = cut.to_str().unwrap();
    let stderr = failed_run(&["bench", "1", "--eval-file", cut]);
    assert!(
        stderr.starts_with("rookery: bench: --eval-file: ") && stderr.contains(cut),
        "{stderr}"
    );
    // A network of another width: refused as that width.
    let wide = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-wide.nnue");
    let mut bytes = std::fs::read(SHIPPED).unwrap();
    bytes[4..8].copy_from_slice(&1024u32.to_le_bytes());
    std::fs::write(&wide, &bytes).unwrap();
    let wide = wide.to_str().unwrap();
    let stderr = failed_run(&["bench", "1", "--eval-file", wide]);
    assert!(
        stderr.contains(wide)
            && stderr.contains("network is 1024 wide")
            && stderr.contains("this build evaluates only"),
        "{stderr}"
    );
    let config = config_file("bench-cut.toml", &format!("EvalFile = \"{cut}\"\n"));
    let stderr = failed_run(&["--config", &config, "bench", "1"]);
    assert!(
        stderr.contains("the config's EvalFile") && stderr.contains(cut),
        "{stderr}"
    );
    // A config that cannot be read might have named a network: no bench.
    let broken = config_file("bench-broken.toml", "EvalFile = = 3\n");
    let stderr = failed_run(&["--config", &broken, "bench", "1"]);
    assert!(stderr.contains(&broken), "{stderr}");
}

#[test]
fn perft_from_the_command_line() {
    let (status, lines) = run_tool(&["perft", "4"], SEARCH);
    assert!(status.success());
    assert_eq!(lines.last().unwrap(), "Nodes searched: 197281");

    let (status, lines) = run_tool(
        &[
            "perft",
            "3",
            "--chess960",
            "--fen",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ],
        SEARCH,
    );
    assert!(status.success());
    assert_eq!(lines.last().unwrap(), "Nodes searched: 12189");

    let (status, lines) = run_tool(
        &[
            "perft",
            "2",
            "--divide",
            "--fen",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ],
        SEARCH,
    );
    assert!(status.success());
    assert_eq!(lines.last().unwrap(), "Nodes searched: 2039");
    assert!(lines.iter().any(|l| l == "e1g1: 43"), "{lines:#?}");

    // A bad FEN fails cleanly.
    let (status, _) = run_tool(&["perft", "2", "--fen", "not a fen"], SEARCH);
    assert!(!status.success());
}

#[test]
fn perft_and_bench_inside_the_uci_loop() {
    let mut engine = engine();
    engine.send("position startpos moves e2e4");
    engine.send("go perft 3");
    let out = engine.wait_for("info string Nodes searched:", SEARCH);
    assert_eq!(
        out.last().unwrap(),
        "info string Nodes searched: 13160",
        "{out:#?}"
    );
    assert_no_bestmove(&out, "after go perft");
    engine.send("bench 2");
    let mut out: Vec<String> = Vec::new();
    while !out.last().is_some_and(|line| line.ends_with(" nps")) {
        out.extend(engine.wait_for("info string ", SEARCH));
    }
    assert_no_bestmove(&out, "after bench");
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string network a37d2c5ff891, simd ")),
        "{out:#?}"
    );
    // Neither changed the position.
    assert_eq!(
        engine_fen(&mut engine),
        fen_of(&position(None, &["e2e4"], STD))
    );
}

#[test]
fn bench_inside_the_uci_loop_evaluates_with_the_active_network() {
    let (other, other_name) = other_network("uci-bench-other.nnue");
    let mut engine = engine();
    let out = command(
        &mut engine,
        &format!("setoption name EvalFile value {other}"),
    );
    assert!(errors(&out).is_empty(), "{out:#?}");
    for (depth, network) in [("2", other_name.as_str()), ("1", "a37d2c5ff891")] {
        engine.send(&format!("bench {depth}"));
        let mut out: Vec<String> = Vec::new();
        while !out.last().is_some_and(|line| line.ends_with(" nps")) {
            out.extend(engine.wait_for("info string ", SEARCH));
        }
        let named = format!("info string network {network}, simd ");
        assert!(out.iter().any(|l| l.starts_with(&named)), "{out:#?}");
        command(&mut engine, "setoption name EvalFile value <empty>");
    }
}

#[test]
fn a_long_perft_or_bench_leaves_the_engine_responsive_and_stops() {
    let mut engine = engine();
    engine.send("position startpos");
    // Each root move of perft 9 takes minutes: nothing is printed before
    // the answer to isready, which used to wait for the whole count.
    engine.send("go perft 9");
    assert_eq!(engine.sync(), vec!["readyok".to_string()]);
    engine.send("stop");
    engine.wait_for("info string perft stopped", PROMPT * 5);
    // A new go waits for a bench; stop ends the bench, and the go as it
    // starts, which still answers.
    engine.send("bench 40");
    engine.send("go depth 1");
    let out = engine.sync();
    assert!(
        !out.iter()
            .any(|l| l.ends_with(" nps") || l.starts_with("bestmove")),
        "{out:#?}"
    );
    engine.send("stop");
    let out = engine.wait_for("bestmove", PROMPT * 5);
    assert!(
        out.contains(&"info string bench stopped".to_string()),
        "{out:#?}"
    );
    assert_legal_bestmove(&out, &Chess::default(), STD);
    // quit lets a count finish, as for a script that pipes both.
    engine.send("go perft 3");
    engine.send("quit");
    assert!(engine.wait_exit(SEARCH).success());
    engine.collect_for(PROMPT);
    let transcript = engine.transcript();
    assert_eq!(
        transcript.last().unwrap(),
        "info string Nodes searched: 8902"
    );
}

#[test]
fn a_command_sent_as_a_count_ends_is_not_refused() {
    // The closing line is printed just before the task is over: a command
    // sent the moment it appears must find the engine idle, not "searching".
    let mut engine = engine();
    engine.send("position startpos");
    for _ in 0..50 {
        engine.send("go perft 2");
        engine.wait_for("info string Nodes searched: 400", SEARCH);
        let out = command(&mut engine, "setoption name Clear Hash");
        assert!(errors(&out).is_empty(), "{out:#?}");
    }
}

#[test]
fn config_file_sets_defaults_and_reports_errors() {
    let good = config_file(
        "uci_test_good.toml",
        "Hash = 32\n\"Move Overhead\" = 50\nponder = true\n",
    );
    let mut engine = Engine::start_with_args(&["--config", &good]);
    let lines = engine.handshake();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Hash type spin default 32 ")),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Move Overhead type spin default 50 "))
    );
    assert!(lines.contains(&"option name Ponder type check default true".to_string()));
    let after = engine.sync();
    assert_eq!(
        after,
        vec!["readyok".to_string()],
        "no errors for a good file"
    );

    for (name, text) in [
        ("uci_test_bad_value.toml", "Hash = \"big\"\nThreads = 1\n"),
        ("uci_test_bad_name.toml", "Contempt = 3\n"),
        ("uci_test_bad_toml.toml", "Hash = = 3\n"),
    ] {
        let path = config_file(name, text);
        let mut engine = Engine::start_with_args(&["--config", &path]);
        let lines = engine.handshake();
        assert!(
            errors(&lines).is_empty(),
            "errors come after uciok: {lines:#?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("option name Hash type spin default 16 ")),
            "{name}: {lines:#?}"
        );
        let after = engine.sync();
        let label = format!("info string error: {path}: ");
        assert!(
            after.iter().any(|l| l.starts_with(&label)),
            "{name}: {after:#?}"
        );
        engine.send("position startpos");
        let out = engine.go("depth 3");
        assert_legal_bestmove(&out, &Chess::default(), STD);
    }

    // A missing file is reported the same way, and so is a named pipe,
    // which reading would wait on for ever.
    let pipe = format!("{}/rookery-config-pipe", env!("CARGO_TARGET_TMPDIR"));
    let _ = std::fs::remove_file(&pipe);
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .unwrap();
    assert!(made.success(), "mkfifo {pipe}");
    for path in ["/nonexistent/rookery-test.toml", &pipe] {
        let mut engine = Engine::start_with_args(&["--config", path]);
        engine.handshake();
        let after = engine.sync();
        let label = format!("info string error: {path}: ");
        assert!(
            after.iter().any(|l| l.starts_with(&label)),
            "{path}: {after:#?}"
        );
    }
    let _ = std::fs::remove_file(&pipe);
}
