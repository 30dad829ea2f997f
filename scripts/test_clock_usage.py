"""Unit tests for scripts/clock_usage.py: ``python3 -m pytest scripts/test_clock_usage.py``."""

import io
import os
import sys

import chess.pgn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import clock_usage  # noqa: E402

# Two moves each at 8+0.08: White spends 1.0 + 2.0 s, Black 0.5 + 0.5 s.
PGN = """[White "A"]
[Black "B"]
[TimeControl "8+0.08"]
[Result "*"]

1. e4 {+0.30/12 1.000s} e5 {-0.20/11 0.500s} 2. Nf3 {+0.31/13 2.000s}
Nc6 {0.00/12 0.500s, Black loses on time} *
"""


def test_the_share_is_time_spent_over_base_plus_increments():
    game = chess.pgn.read_game(io.StringIO(PGN))
    moves, share, lowest = clock_usage.usage(game, "A")
    assert moves == 2
    assert abs(share - 3.0 / 8.16) < 1e-9
    assert abs(lowest - (8 - 1.0 + 0.08 - 2.0 + 0.08)) < 1e-9
    moves, share, _ = clock_usage.usage(game, "B")
    assert (moves, round(share, 6)) == (2, round(1.0 / 8.16, 6))
    assert clock_usage.usage(game, "C") is None
