#!/usr/bin/env python3
"""Fit the win-draw-loss model behind `UCI_ShowWDL` to games' results.

    python3 scripts/fit_wdl.py games.pgn [more.pgn ...] [--player Rookery] [--normalized]

Every move comment that fastchess writes (``-0.35/12 0.250s``: score in
pawns from the mover's view, depth, time; ``0.00`` unsigned, mates as
``+M3``, which are left out) gives the mover's score in centipawns; the
game's result gives the mover's outcome. Games of the retired `match.py`
carry the same comments.
Rookery reports normalized centipawns (``cp 100`` = an even chance to win,
``100 · v / a(m)``); ``--normalized`` turns the comments' scores back into
the search's own scale with the ``a(m)`` of ``src/score/wdl.rs`` as it is now, so
refit *before* changing its constants. Without it the scores are taken as
they are (other engines, and Rookery before normalization).

The model is Stockfish's: with `v` the score and `m` the material on the
board (pawn 1, knight and bishop 3, rook 5, queen 9, clamped to 17..78),

    win  = 1 / (1 + exp((a(m) - v) / b(m)))
    loss = 1 / (1 + exp((a(m) + v) / b(m)))
    draw = 1 - win - loss

with `a` and `b` linear in `m / 58`: `a = a0 + a1 m/58`, `b = b0 + b1 m/58`.
`a` is the score at which a win is as likely as not; `b` is how quickly the
odds change around it. The fit maximises the likelihood of the observed
outcomes by coordinate search (no numpy needed). It prints the four
constants for `src/score/wdl.rs` and a calibration table: the observed and the
modelled outcome rates per score bucket.
"""

import argparse
import math
import pathlib
import re

import chess
import chess.pgn

COMMENT = re.compile(r"^([+-]?\d+\.\d+)/\d+")
MATERIAL = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
MATERIAL_MIN, MATERIAL_MAX, MATERIAL_SCALE = 17, 78, 58
#: Scores beyond this are decided games; they teach the model nothing.
MAX_SCORE = 2000
BUCKETS = [-400, -200, -100, -50, -20, 20, 50, 100, 200, 400]


WDL_RS = pathlib.Path(__file__).resolve().parent.parent / "src" / "score" / "wdl.rs"


def a_constants(source: str) -> tuple[float, float]:
    """``A_BASE`` and ``A_SLOPE`` from the text of ``src/score/wdl.rs``."""
    found = {name: float(value) for name, value in re.findall(r"const (A_BASE|A_SLOPE): f64 = (-?[\d.]+);", source)}
    return found["A_BASE"], found["A_SLOPE"]


def internal_score(normalized: int, phase: float, a: tuple[float, float]) -> int:
    """The search's score behind a normalized one, with ``phase`` = m / 58."""
    return round(normalized * (a[0] + a[1] * phase) / 100)


def material(board: chess.Board) -> int:
    count = sum(MATERIAL[p.piece_type] for p in board.piece_map().values() if p.piece_type in MATERIAL)
    return min(max(count, MATERIAL_MIN), MATERIAL_MAX)


def comment_score(comment: str) -> int | None:
    """The mover's score in centipawns from a move comment, or None
    (a mate score, a book move, no comment)."""
    match = COMMENT.match(comment)
    return round(float(match.group(1)) * 100) if match else None


def samples(paths: list[str], player: str | None, a: tuple[float, float] | None = None):
    """(score, material/58, outcome) per engine move; outcome 1, 0.5 or 0.
    With ``a`` the comments' scores are normalized ones, turned back."""
    for path in paths:
        with open(path) as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                result = game.headers.get("Result")
                if result not in ("1-0", "0-1", "1/2-1/2"):
                    continue
                white_points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
                board = game.board()
                for node in game.mainline():
                    mover = board.turn
                    name = game.headers.get("White" if mover == chess.WHITE else "Black", "")
                    score = comment_score(node.comment)
                    phase = material(board) / MATERIAL_SCALE
                    if score is not None and a is not None:
                        score = internal_score(score, phase, a)
                    if score is not None and abs(score) <= MAX_SCORE and (player is None or player in name):
                        points = white_points if mover == chess.WHITE else 1.0 - white_points
                        yield score, phase, points
                    board.push(node.move)


def sigmoid(x: float) -> float:
    if x < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def probabilities(params, score, phase):
    a0, a1, b0, b1 = params
    a, b = a0 + a1 * phase, max(b0 + b1 * phase, 1.0)
    win = sigmoid((score - a) / b)
    loss = sigmoid((-score - a) / b)
    return win, max(1.0 - win - loss, 0.0), loss


def log_likelihood(params, data) -> float:
    total = 0.0
    for score, phase, points in data:
        win, draw, loss = probabilities(params, score, phase)
        p = win if points == 1.0 else loss if points == 0.0 else draw
        total += math.log(max(p, 1e-9))
    return total


def fit(data):
    params = [200.0, 0.0, 100.0, 0.0]
    step = [64.0, 64.0, 32.0, 32.0]
    best = log_likelihood(params, data)
    while max(step) > 0.25:
        improved = False
        for i in range(len(params)):
            for direction in (1, -1):
                trial = params.copy()
                trial[i] += direction * step[i]
                if (value := log_likelihood(trial, data)) > best:
                    params, best, improved = trial, value, True
                    break
        if not improved:
            step = [s / 2 for s in step]
    return params, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--player", help="only moves by players whose name contains this")
    parser.add_argument("--normalized", action="store_true",
                        help="the scores are Rookery's normalized ones: undo src/score/wdl.rs's a(m)")
    args = parser.parse_args()

    a = a_constants(WDL_RS.read_text()) if args.normalized else None
    data = list(samples(args.pgn, args.player, a))
    params, best = fit(data)
    print(f"positions {len(data)}, mean log-likelihood {best / len(data):.4f}")
    print("a0 a1 b0 b1 = " + " ".join(f"{p:.1f}" for p in params))
    print(f"{'score':>13} {'n':>6}  observed W/D/L    model W/D/L")
    edges = [-MAX_SCORE - 1] + BUCKETS + [MAX_SCORE + 1]
    for low, high in zip(edges, edges[1:]):
        bucket = [d for d in data if low <= d[0] < high]
        if not bucket:
            continue
        n = len(bucket)
        observed = [sum(d[2] == o for d in bucket) / n for o in (1.0, 0.5, 0.0)]
        model = [sum(probabilities(params, d[0], d[1])[k] for d in bucket) / n for k in range(3)]
        print(f"[{low:5},{high:5}) {n:6}  " + "/".join(f"{x:.2f}" for x in observed)
              + "    " + "/".join(f"{x:.2f}" for x in model))


if __name__ == "__main__":
    main()
