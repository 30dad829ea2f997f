"""Unit tests for the game rules of scripts/game.py; run with ``python3 -m pytest scripts/test_game.py``."""

import os
import sys

import chess

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from game import game_over  # noqa: E402


def play(fen: str, moves: str) -> chess.Board:
    board = chess.Board(fen)
    for move in moves.split():
        board.push_uci(move)
    return board


# King and queen against king: the knight-like shuffle Qd3-a3-d3 repeats.
KQK = "8/k7/5K2/8/8/3Q4/8/8 w - - 0 1"


def test_a_repetition_the_side_to_move_could_play_does_not_end_the_game():
    # The start position has occurred twice; Black to move could bring it
    # about a third time with Kb7-a7, but need not.
    board = play(KQK, "d3a3 a7b7 a3d3 b7a7 d3a3 a7b7 a3d3")
    assert not board.is_repetition(3)
    assert board.can_claim_threefold_repetition()
    assert game_over(board) is None


def test_the_third_occurrence_on_the_board_is_a_draw():
    board = play(KQK, "d3a3 a7b7 a3d3 b7a7 d3a3 a7b7 a3d3 b7a7")
    assert game_over(board) == ("1/2-1/2", "threefold repetition")


def test_fifty_moves_end_the_game_at_the_hundredth_halfmove_only():
    board = chess.Board("8/k7/5K2/8/8/3Q4/8/8 w - - 99 1")
    assert game_over(board) is None
    board.push_uci("d3d4")
    assert game_over(board) == ("1/2-1/2", "fifty moves")


def test_mate_on_the_hundredth_halfmove_wins():
    board = chess.Board("k7/8/1K6/8/8/8/8/7Q w - - 99 1")
    board.push_uci("h1h8")
    assert game_over(board) == ("1-0", "checkmate")
