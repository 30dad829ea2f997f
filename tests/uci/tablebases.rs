//! Syzygy tablebases through the protocol: bad paths, `tbhits`, the path from
//! the config file.

use super::*;

#[test]
fn a_bad_syzygy_path_is_reported_and_the_engine_plays_on() {
    let mut engine = engine();
    let out = command(
        &mut engine,
        "setoption name SyzygyPath value /nonexistent/rookery-syzygy",
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string error: SyzygyPath: ")
                && l.contains("/nonexistent/rookery-syzygy")),
        "{out:#?}"
    );
    assert!(
        out.contains(
            &"info string Syzygy: no tables found; playing without tablebases".to_string()
        ),
        "{out:#?}"
    );
    let fen = "8/8/3k4/8/8/8/6Q1/7K w - - 0 1";
    engine.send(&format!("position fen {fen}"));
    let out = engine.go("depth 6");
    assert_legal_bestmove(&out, &parse_fen(fen, STD).unwrap(), STD);
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!(!infos.is_empty());
    assert!(
        infos.iter().all(|l| info_number(l, "tbhits") == Some(0)),
        "{out:#?}"
    );

    let out = command(&mut engine, "setoption name SyzygyPath value <empty>");
    assert_eq!(
        out,
        vec!["readyok".to_string()],
        "clearing the path is silent"
    );
}

#[test]
fn syzygy_tables_are_found_and_probed() {
    let mut engine = engine();
    let out = command(
        &mut engine,
        &format!("setoption name SyzygyPath value {SYZYGY}"),
    );
    assert!(
        out.contains(&format!(
            "info string Syzygy: found 35 tables (up to 4 pieces) in {SYZYGY}"
        )),
        "{out:#?}"
    );
    assert!(errors(&out).is_empty(), "{out:#?}");
    // KRvKR with the black rook attacked: only rook moves hold the draw.
    let fen = "8/8/4k3/8/8/2r5/3K4/7R b - - 0 1";
    let pos = parse_fen(fen, STD).unwrap();
    engine.send(&format!("position fen {fen}"));
    let out = engine.go("depth 6");
    let best = assert_legal_bestmove(&out, &pos, STD);
    assert_eq!(best.from(), Some(shakmaty::Square::C3), "{out:#?}");
    assert_pvs_legal(&out, &pos, STD);
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!(!infos.is_empty());
    assert!(
        infos
            .iter()
            .all(|l| info_number(l, "tbhits").is_some_and(|n| n > 0)),
        "{out:#?}"
    );
}

#[test]
fn syzygy_path_from_the_config_file() {
    let path = config_file(
        "uci_test_syzygy.toml",
        &format!("SyzygyPath = \"{SYZYGY}\"\nSyzygyProbeDepth = 3\n"),
    );
    let mut engine = Engine::start_with_args(&["--config", &path]);
    let lines = engine.handshake();
    assert!(
        lines.contains(&format!(
            "option name SyzygyPath type string default {SYZYGY}"
        )),
        "{lines:#?}"
    );
    assert!(
        lines.contains(
            &"option name SyzygyProbeDepth type spin default 3 min 1 max 100".to_string()
        )
    );
    let after = engine.sync();
    assert_eq!(
        after,
        vec![
            format!("info string Syzygy: found 35 tables (up to 4 pieces) in {SYZYGY}"),
            "readyok".to_string()
        ]
    );
}
