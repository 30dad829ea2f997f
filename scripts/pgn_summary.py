#!/usr/bin/env python3
"""Score, Elo and pentanomial of one player from match.py PGNs.

For a match that was stopped before its end (match.py then prints no
summary), or to pool several PGNs. Games are paired as match.py pairs them:
games 2k+1 and 2k+2 (the PGN's Round tag) of one run (its Seed tag, where
the PGN has one) share an opening with colours swapped; a pair with one
game missing counts for W/D/L only.

    python3 scripts/pgn_summary.py --player nnue1 /work/matches/nnue1_vs_pst.pgn
"""

import argparse
import sys
from collections import defaultdict

import chess.pgn

import stats

POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


def player_points(paths: list[str], player: str) -> dict[tuple[str, str, int], float]:
    """Points of `player` per (file, run seed, game number), for finished games."""
    points = {}
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            while (game := chess.pgn.read_headers(handle)) is not None:
                result = POINTS.get(game.get("Result", "*"))
                if result is None or player not in (game["White"], game["Black"]):
                    continue
                side = 0 if game["White"] == player else 1
                points[(path, game.get("Seed", ""), int(game["Round"]))] = result[side]
    return points


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--player", required=True, help="name as in the White/Black tags")
    args = parser.parse_args(argv)
    points = player_points(args.pgn, args.player)
    if not points:
        print(f"no finished games of {args.player}", file=sys.stderr)
        return 1
    wins = sum(p == 1.0 for p in points.values())
    draws = sum(p == 0.5 for p in points.values())
    losses = sum(p == 0.0 for p in points.values())
    pairs = defaultdict(list)
    for (path, seed, number), value in points.items():
        pairs[(path, seed, (number - 1) // 2)].append(value)
    penta = [0] * 5
    for values in pairs.values():
        if len(values) == 2:
            penta[stats.pentanomial_bucket(*values)] += 1
    score = (wins + draws / 2) / len(points)
    print(f"{args.player}: {len(points)} games, +{wins} ={draws} -{losses} ({100 * score:.1f}%)")
    elo, err = stats.elo_trinomial(wins, draws, losses)
    print(f"Elo (trinomial):   {elo:+.1f} +/- {err:.1f} (95%)")
    if sum(penta):
        elo, err = stats.elo_pentanomial(penta)
        print(f"Elo (pentanomial): {elo:+.1f} +/- {err:.1f} (95%, {sum(penta)} pairs)")
    print(f"Pentanomial [LL LD DD/WL WD WW]: {penta}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
