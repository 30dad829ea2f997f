#!/usr/bin/env python3
"""How much of its clock an engine used, from fastchess PGNs.

For every game of at least ``--min-moves`` full moves, the share of the
time the engine had that it spent: the sum of its move times (fastchess's
move comments, ``+0.35/12 0.250s``) over the game's base time plus one
increment per move it made (the ``TimeControl`` header, ``8+0.08``). Prints
the median and quartiles over those games, and the lowest clock any move
left (time losses show as a share above 1).

Example: ``python3 scripts/clock_usage.py --player Rookery games.pgn``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys

import chess.pgn

MOVE_TIME = re.compile(r"(\d+(?:\.\d+)?)s\b")


def usage(game: chess.pgn.Game, player: str) -> tuple[int, float, float] | None:
    """(moves made, share of the clock used, lowest clock left in seconds)
    of ``player`` in ``game``, or ``None`` when it did not play or the game
    has no clock."""
    headers = game.headers
    colour = {headers.get("White"): chess.WHITE, headers.get("Black"): chess.BLACK}.get(player)
    control = headers.get("TimeControl", "")
    if colour is None or "+" not in control:
        return None
    base, increment = (float(part) for part in control.split("+"))
    spent = 0.0
    moves = 0
    clock = base
    lowest = base
    node = game
    while node.variations:
        node = node.variation(0)
        if node.turn() == colour:  # the move was made by the other side
            continue
        match = MOVE_TIME.search(node.comment)
        if not match:
            continue
        seconds = float(match.group(1))
        spent += seconds
        moves += 1
        clock = clock - seconds + increment
        lowest = min(lowest, clock)
    if moves == 0:
        return None
    return moves, spent / (base + increment * moves), lowest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--player", required=True, help="the player's name in the PGN")
    parser.add_argument("--min-moves", type=int, default=60)
    args = parser.parse_args(argv)
    shares, lowest = [], float("inf")
    for path in args.pgn:
        with open(path, encoding="utf-8") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                result = usage(game, args.player)
                if result is None:
                    continue
                moves, share, low = result
                lowest = min(lowest, low)
                if moves >= args.min_moves:
                    shares.append(share)
    if not shares:
        print("no game long enough")
        return 1
    quartiles = statistics.quantiles(shares, n=4) if len(shares) > 1 else shares * 3
    print(f"{len(shares)} games of {args.min_moves}+ moves: median share of the clock used "
          f"{statistics.median(shares):.1%} (quartiles {quartiles[0]:.1%}, {quartiles[2]:.1%}); "
          f"lowest clock after a move {lowest:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
