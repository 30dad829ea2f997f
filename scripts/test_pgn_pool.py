"""Unit tests for scripts/pgn_pool.py: ``python3 -m pytest scripts/test_pgn_pool.py``."""

import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pgn_pool  # noqa: E402


def game(round_: str, white: str, black: str, result: str, termination: str = "normal") -> str:
    return (f'[Round "{round_}"]\n[White "{white}"]\n[Black "{black}"]\n'
            f'[Result "{result}"]\n[Termination "{termination}"]\n\n1. e4 e5 {result}\n\n')


def test_games_pair_by_file_and_round_and_score_for_the_player(tmp_path):
    first = tmp_path / "a.pgn"
    first.write_text(
        game("1", "new", "old", "1-0") + game("1", "old", "new", "1/2-1/2")  # 1.5 of 2
        + game("2", "new", "old", "0-1") + game("2", "old", "new", "1-0", "time forfeit")  # 0
        + game("3", "new", "old", "1-0")  # a pair cut short: counted as a game only
        + game("4", "new", "old", "*"))  # unfinished: left out
    second = tmp_path / "b.pgn"
    # Round 1 again, but of another file: another pair.
    second.write_text(game("1", "new", "old", "1/2-1/2") + game("1", "old", "new", "0-1"))
    pooled = pgn_pool.pool([str(first), str(second)], "new")
    assert (pooled.wins, pooled.draws, pooled.losses) == (3, 2, 2)
    assert pooled.pentanomial == [1, 0, 0, 2, 0]
    assert pooled.terminations["time forfeit"] == 1


def test_elo_and_margin_from_pentanomial_counts():
    rating, margin = pgn_pool.elo_and_margin([0, 0, 10, 0, 0])
    assert rating == 0.0 and margin == 0.0
    rating, margin = pgn_pool.elo_and_margin([10, 20, 40, 20, 10])
    assert abs(rating) < 1e-9 and 0.0 < margin < 100.0
    rating, margin = pgn_pool.elo_and_margin([0, 10, 40, 30, 20])
    assert rating > 0.0
    rating, margin = pgn_pool.elo_and_margin([0, 0, 0, 0, 5])
    assert rating == math.inf and margin == math.inf


def test_a_round_with_more_than_two_games_is_no_pair(tmp_path, capsys):
    # Two runs appended to one file number their rounds alike.
    path = tmp_path / "twice.pgn"
    path.write_text(game("1", "new", "old", "1-0") + game("1", "old", "new", "0-1")
                    + game("1", "new", "old", "1-0"))
    pooled = pgn_pool.pool([str(path)], "new")
    assert pooled.pentanomial == [0, 0, 0, 0, 0] and pooled.wins == 3
    assert "3 games of round 1" in capsys.readouterr().err


def test_row_prints_the_games_and_elo_fields_of_a_results_row(tmp_path, capsys):
    path = tmp_path / "a.pgn"
    path.write_text(game("1", "new", "old", "1-0") + game("1", "old", "new", "1/2-1/2")
                    + game("2", "new", "old", "1/2-1/2") + game("2", "old", "new", "1-0"))
    assert pgn_pool.main(["--player", "new", "--row", str(path)]) == 0
    games, elo = capsys.readouterr().out.rstrip("\n").split("\t")
    rating, margin = pgn_pool.elo_and_margin([0, 1, 0, 1, 0])
    assert games == "4" and elo == f"{rating:+.1f} ± {margin:.1f}"
    # Without a complete pair there is no margin to give.
    path.write_text(game("1", "new", "old", "1-0"))
    assert pgn_pool.row_fields(pgn_pool.pool([str(path)], "new")) == ("1", "-")


def test_label_prints_a_calibration_table_row(tmp_path, capsys):
    path = tmp_path / "calib.pgn"
    path.write_text(game("1", "rookery1500", "sf", "1-0") + game("1", "sf", "rookery1500", "1/2-1/2")
                    + game("2", "rookery1500", "sf", "0-1") + game("2", "sf", "rookery1500", "0-1"))
    assert pgn_pool.main(["--player", "rookery1500", "--label", "1500", str(path)]) == 0
    row = capsys.readouterr().out.strip()
    assert row.startswith("| 1500 | 4 | 62.5% (+2 =1 −1) | ")
    assert row.endswith(" |")
