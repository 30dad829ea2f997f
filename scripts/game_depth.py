#!/usr/bin/env python3
"""The depth an engine reaches on a fixed node budget, in positions of real
games, searched one after the other as in a match.

A match shows the depth each side reached at the clock, but mixes the
search's tree with the machine's load and the clock's share. This replays
games from a PGN instead: for every second ply from ``--from-ply`` on, the
engine gets ``position … moves …`` and ``go nodes N``, with no
``ucinewgame`` between the moves of one game, so its table, histories and
correction keep what the earlier moves left, as they do in a match. The
depth of the last ``info`` line before each ``bestmove`` (what fastchess
writes into a PGN) is the figure. Node counts make it deterministic on one
thread: the same engine gives the same depths on any machine, under any
load, so two builds compare exactly, and a bisection by commits finds
which change grew the tree in play (issue #87's lost ply).

Example (gen 9 for both, as the match that lost the ply had it)::

    python3 scripts/game_depth.py --evalfile gen9.nnue --games 12 \\
        --nodes 300000 results/games/s57_accept_tc8.pgn.xz \\
        bins/rookery-257e666 bins/rookery-1c07c6b

prints each engine's mean depth over the same positions, and with
``--tsv DIR`` writes each engine's ``game ply depth`` lines there.
"""

from __future__ import annotations

import argparse
import lzma
import os
import sys

import chess.pgn

from search_figures import Engine, last_depth

# Games shorter than this many plies are skipped: too few middlegame moves.
MIN_GAME_PLIES = 60
# The last ply searched in a game: the endgame's depths say little of the
# middlegame tree.
MAX_PLY = 100


def read_games(pgn: str, count: int) -> list[chess.pgn.Game]:
    """The first ``count`` games of ``pgn`` (xz or plain) long enough."""
    opener = lzma.open if pgn.endswith(".xz") else open
    games = []
    with opener(pgn, "rt") as handle:
        while len(games) < count:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            if len(list(game.mainline_moves())) >= MIN_GAME_PLIES:
                games.append(game)
    return games


def depths(engine_path: str, options: dict[str, str], games: list[chess.pgn.Game],
           nodes: int, from_ply: int) -> list[tuple[int, int, int]]:
    """``(game, ply, depth)`` for every second ply of every game."""
    engine = Engine(engine_path)
    for name, value in options.items():
        engine.send(f"setoption name {name} value {value}")
    engine.send("isready")
    engine.read_until("readyok")
    found = []
    for index, game in enumerate(games):
        fen = game.headers.get("FEN", chess.STARTING_FEN)
        moves = [move.uci() for move in game.mainline_moves()]
        engine.send("ucinewgame")
        for ply in range(from_ply, min(len(moves), MAX_PLY), 2):
            engine.send(f"position fen {fen} moves {' '.join(moves[:ply])}")
            engine.send(f"go nodes {nodes}")
            found.append((index, ply, last_depth(engine.read_until("bestmove"))))
    engine.quit()
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", help="games to replay (.pgn or .pgn.xz)")
    parser.add_argument("engines", nargs="+", help="engine binaries")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--nodes", type=int, default=300_000,
                        help="node budget a move (300,000: about 0.16 s at 1.85 M nps)")
    parser.add_argument("--from-ply", type=int, default=16)
    parser.add_argument("--hash", default="16")
    parser.add_argument("--evalfile", help="a network every engine loads (EvalFile)")
    parser.add_argument("--tsv", help="a folder for each engine's 'game ply depth' lines")
    args = parser.parse_args()

    options = {"Hash": args.hash}
    if args.evalfile:
        options["EvalFile"] = os.path.abspath(args.evalfile)
    games = read_games(args.pgn, args.games)
    if not games:
        print(f"game_depth.py: no game of {MIN_GAME_PLIES}+ plies in {args.pgn}", file=sys.stderr)
        return 1
    for engine_path in args.engines:
        found = depths(engine_path, options, games, args.nodes, args.from_ply)
        mean = sum(depth for _, _, depth in found) / len(found)
        print(f"{engine_path}\t{len(found)} positions\tmean depth {mean:.2f}")
        if args.tsv:
            name = os.path.basename(engine_path)
            with open(os.path.join(args.tsv, f"{name}.tsv"), "w") as out:
                out.writelines(f"{g}\t{p}\t{d}\n" for g, p, d in found)
    return 0


if __name__ == "__main__":
    sys.exit(main())
