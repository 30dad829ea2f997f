"""Unit tests for how scripts/epd.py judges and prints a position; run with
``python3 -m pytest scripts/test_epd.py``."""

import argparse

import chess
import chess.engine
import pytest

from epd import describe_targets, format_score, judge, option

WAC_001 = '2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";'
KAUFMAN_06 = 'r5k1/3n1ppp/1p6/3p1p2/3P1B2/r3P2P/PR3PP1/2R3K1 b - - am Rxa2; id "position 06";'
MATE_IN_2 = '8/1p3Qb1/p5pk/P1p1p1p1/1P2P1P1/2P1N2n/5P1P/4qB1K w - - dm 2; id "sunfish.mate2.001";'


def mover_score(board: chess.Board, score: chess.engine.Score) -> chess.engine.PovScore:
    """``score`` from the side to move's view, as the engine reports it."""
    return chess.engine.PovScore(score, board.turn)


def test_best_move():
    board, ops = chess.Board.from_epd(WAC_001)
    assert describe_targets(board, ops) == "bm Qg6"
    assert judge(board, ops, board.parse_san("Qg6"), None) is True
    assert judge(board, ops, board.parse_san("Qh4"), None) is False
    assert judge(board, ops, None, None) is False  # bestmove (none)


def test_avoid_move():
    board, ops = chess.Board.from_epd(KAUFMAN_06)
    assert describe_targets(board, ops) == "am Rxa2"
    assert judge(board, ops, board.parse_san("Rxa2"), None) is False
    assert judge(board, ops, board.parse_san("Nf6"), None) is True


def test_mate_at_least_as_fast():
    board, ops = chess.Board.from_epd(MATE_IN_2)
    assert describe_targets(board, ops) == "dm 2"
    move = next(iter(board.legal_moves))  # dm judges the score, not the move
    assert judge(board, ops, move, mover_score(board, chess.engine.Mate(1))) is True
    assert judge(board, ops, move, mover_score(board, chess.engine.Mate(2))) is True
    assert judge(board, ops, move, mover_score(board, chess.engine.Mate(3))) is False
    assert judge(board, ops, move, mover_score(board, chess.engine.Mate(-2))) is False
    assert judge(board, ops, move, mover_score(board, chess.engine.Cp(900))) is False
    assert judge(board, ops, move, None) is False


def test_no_targets_is_skipped():
    board, ops = chess.Board.from_epd('8/8/8/8/8/8/8/K1k5 w - - id "bare";')
    assert describe_targets(board, ops) == "-"
    assert judge(board, ops, chess.Move.from_uci("a1a2"), None) is None


def test_format_score_is_from_the_side_to_move():
    assert format_score(chess.engine.PovScore(chess.engine.Cp(123), chess.WHITE), chess.WHITE) == "+1.23"
    assert format_score(chess.engine.PovScore(chess.engine.Cp(123), chess.WHITE), chess.BLACK) == "-1.23"
    assert format_score(chess.engine.PovScore(chess.engine.Cp(0), chess.BLACK), chess.BLACK) == "+0.00"
    assert format_score(chess.engine.PovScore(chess.engine.Mate(3), chess.BLACK), chess.BLACK) == "#3"
    assert format_score(chess.engine.PovScore(chess.engine.Mate(2), chess.BLACK), chess.WHITE) == "#-2"
    assert format_score(None, chess.WHITE) == "?"


def test_option():
    assert option("Hash=64") == ("Hash", "64")
    assert option("Skill Level = 0") == ("Skill Level", "0")
    assert option("EvalFile=a=b.nnue") == ("EvalFile", "a=b.nnue")
    with pytest.raises(argparse.ArgumentTypeError):
        option("Hash")
