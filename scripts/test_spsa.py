"""Unit tests for scripts/spsa.py's arithmetic: ``python3 -m pytest scripts/test_spsa.py``."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spsa  # noqa: E402

LINES = [
    "reverse_futility_margin, int, 75, 30, 150, 8, 0.002",
    "not a parameter line",
    "delta_margin, int, 200, 100, 400, 20, 0.002",
]


def test_parameters_are_read_from_openbench_lines():
    params = spsa.parse_params(LINES)
    assert [p.name for p in params] == ["reverse_futility_margin", "delta_margin"]
    assert (params[0].value, params[0].minimum, params[0].maximum) == (75.0, 30, 150)


def test_the_schedules_end_at_c_end_and_r_end_times_c_end_squared():
    p = spsa.parse_params(LINES)[0]
    last = 999
    assert abs(p.c(last, 1000) - 8) < 1e-9
    assert abs(p.a(last, 1000) - 0.002 * 64) < 1e-9
    assert p.c(0, 1000) > p.c(500, 1000) > p.c(last, 1000)


def test_a_won_perturbation_moves_the_value_its_way_within_range():
    params = spsa.parse_params(LINES)
    plus = spsa.perturbed(params, [1, -1], 0, 100, +1)
    minus = spsa.perturbed(params, [1, -1], 0, 100, -1)
    assert plus["reverse_futility_margin"] > 75 > minus["reverse_futility_margin"]
    assert plus["delta_margin"] < 200 < minus["delta_margin"]
    spsa.update(params, [1, -1], 0, 100, score=2.0)
    assert params[0].value > 75 and params[1].value < 200
    params[0].value = 149.9
    spsa.update(params, [1, 1], 0, 100, score=100.0)
    assert params[0].value == 150


def test_games_are_played_at_the_clock_or_at_fixed_nodes():
    args = spsa.argparse.Namespace(tc="5+0.05", nodes=None, fastchess="/fc", book="/book.epd",
                                   pairs=2, concurrency=1, no_adjudication=False)
    command = spsa.fastchess_command("/engine", {"x": 1}, {"x": -1}, args)
    assert "tc=5+0.05" in command and not any(a.startswith("nodes=") for a in command)
    assert "option.x=1" in command and "option.x=-1" in command
    args.nodes = 20000
    command = spsa.fastchess_command("/engine", {"x": 1}, {"x": -1}, args)
    assert "tc=inf" in command and "nodes=20000" in command
    assert not any(a.startswith("tc=5") for a in command)


def test_fixed_node_games_leave_the_clock_tunables_alone():
    params = spsa.parse_params(LINES + ["time_moves_to_go, int, 22, 15, 50, 2, 0.002"])
    kept = spsa.without_clock_tunables(params)
    assert [p.name for p in kept] == ["reverse_futility_margin", "delta_margin"]


def test_one_final_learning_rate_can_replace_the_tables():
    params = spsa.with_r_end(spsa.parse_params(LINES), 0.01)
    assert [p.r_end for p in params] == [0.01, 0.01]
    assert abs(params[0].a(999, 1000) - 0.01 * 64) < 1e-9


def fake_engine(tmp_path, version: str) -> str:
    """A stand-in for a tuning build: ``--version`` and ``tunables``."""
    engine = tmp_path / "engine"
    engine.write_text("#!/bin/sh\n"
                      f'if [ "$1" = --version ]; then echo "rookery {version}"; exit 0; fi\n'
                      + "".join(f'echo "{line}"\n' for line in LINES))
    engine.chmod(0o755)
    return str(engine)


def test_a_run_resumes_only_with_its_own_settings_and_build(tmp_path, monkeypatch):
    monkeypatch.setattr(spsa, "play", lambda engine, plus, minus, args: 1.0)
    # The games are faked, so fastchess and the book need not be there (CI
    # runs the tests in a copy without ../shared).
    monkeypatch.setattr(spsa.shared, "require", lambda script, files: None)
    state = str(tmp_path / "state.json")
    engine = fake_engine(tmp_path, "0.2.0 (abc1234)")
    run = ["--engine", engine, "--state", state, "--pairs", "4", "--nodes", "20000"]
    assert spsa.main(run + ["--iterations", "3"]) == 0
    saved = spsa.json.load(open(state, encoding="utf-8"))
    assert saved["iteration"] == 3 and saved["games"] == 24
    assert saved["settings"]["engine_version"] == "rookery 0.2.0 (abc1234)"
    # The same command again: nothing left to play, the state kept.
    assert spsa.main(run + ["--iterations", "3"]) == 0
    # Another schedule, or another build, would mix two runs' steps.
    with pytest.raises(SystemExit, match="other settings"):
        spsa.main(run + ["--iterations", "5"])
    with pytest.raises(SystemExit, match="other settings"):
        spsa.main(["--engine", fake_engine(tmp_path, "0.2.0 (def5678)"), "--state", state,
                   "--pairs", "4", "--nodes", "20000", "--iterations", "3"])


def test_a_lost_build_is_replaced_only_when_asked_and_on_record(tmp_path, monkeypatch):
    played = []

    def play_two_then_stop(engine, plus, minus, args):
        if engine.endswith("lost") and len(played) == 2:
            raise KeyboardInterrupt  # the machine went, and the build with it
        played.append(engine)
        return 1.0

    monkeypatch.setattr(spsa, "play", play_two_then_stop)
    monkeypatch.setattr(spsa.shared, "require", lambda script, files: None)
    state = str(tmp_path / "state.json")
    run = ["--state", state, "--pairs", "4", "--nodes", "20000"]
    lost = fake_engine(tmp_path, "0.2.0 (abc1234)")
    os.rename(lost, lost + "-lost")
    with pytest.raises(KeyboardInterrupt):
        spsa.main(["--engine", lost + "-lost", "--iterations", "5"] + run)
    rebuilt = fake_engine(tmp_path, "0.2.0 (def5678)")
    # Another build goes on only when asked, and other settings never.
    with pytest.raises(SystemExit, match="other settings"):
        spsa.main(["--engine", rebuilt, "--iterations", "5"] + run)
    with pytest.raises(SystemExit, match="other settings"):
        spsa.main(["--engine", rebuilt, "--iterations", "6", "--rebuilt-engine"] + run)
    assert spsa.main(["--engine", rebuilt, "--iterations", "5", "--rebuilt-engine"] + run) == 0
    saved = spsa.json.load(open(state, encoding="utf-8"))
    assert saved["iteration"] == 5 and saved["games"] == 40
    assert saved["builds"] == [
        {"engine_version": "rookery 0.2.0 (abc1234)", "from_iteration": 0},
        {"engine_version": "rookery 0.2.0 (def5678)", "from_iteration": 2}]


def test_decided_games_are_adjudicated_unless_asked_not_to():
    args = spsa.argparse.Namespace(tc="5+0.05", nodes=20000, fastchess="/fc", book="/book.epd",
                                   pairs=2, concurrency=1, no_adjudication=False)
    command = spsa.fastchess_command("/engine", {"x": 1}, {"x": -1}, args)
    assert command[-len(spsa.ADJUDICATION):] == spsa.ADJUDICATION
    args.no_adjudication = True
    command = spsa.fastchess_command("/engine", {"x": 1}, {"x": -1}, args)
    assert "-draw" not in command and "-resign" not in command


TABLE = """tunables! {
    /// Reverse futility pruning ...
    reverse_futility_margin: 75, 30, 150, 8;
    lmr_capture_base_centi: 0, -100, 100, 8;
    delta_margin: 200, 100, 400, 20;
}
"""


def test_a_finished_runs_values_become_the_tables_defaults(tmp_path):
    params = [spsa.Param("reverse_futility_margin", 81.6, 30, 150, 8, 0.002),
              spsa.Param("lmr_capture_base_centi", -3.4, -100, 100, 8, 0.002),
              spsa.Param("delta_margin", 199.8, 100, 400, 20, 0.002)]
    state = tmp_path / "state.json"
    state.write_text(spsa.json.dumps({"params": [spsa.asdict(p) for p in params]}))
    table = tmp_path / "tunables.rs"
    table.write_text(TABLE)
    assert spsa.main(["--state", str(state), "--apply", str(table)]) == 0
    assert table.read_text() == (TABLE.replace("margin: 75,", "margin: 82,")
                                 .replace("centi: 0,", "centi: -3,"))
    # A tunable the table lacks is an error, not a silent skip.
    missing = [spsa.Param("no_such_tunable", 1.0, 0, 2, 1, 0.002)]
    with pytest.raises(ValueError, match="no_such_tunable"):
        spsa.apply_values(missing, TABLE)


def test_playing_needs_an_engine(tmp_path):
    with pytest.raises(SystemExit):
        spsa.main(["--state", str(tmp_path / "state.json")])
