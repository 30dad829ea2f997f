#!/usr/bin/env python3
"""Pools the games of fastchess PGNs into one result for one player.

Several matches of the same pairing (two instances side by side, a run
stopped and another started with a new seed) are summed by game pairs:
fastchess plays each opening twice with colours swapped and gives both
games the same ``Round`` tag, so a pair is a file and a round. The result
is the player's wins, draws and losses over every finished game, the
pentanomial counts over the complete pairs (0, ½, 1, 1½ or 2 points of 2),
and the Elo with its 95% margin from the pentanomial variance, as fastchess
reports it. The terminations are counted too (a time forfeit shows there).

Example::

    python3 scripts/pgn_pool.py --player gen7 /tmp/a.pgn /tmp/b.pgn

With ``--row`` it prints instead only the ``games`` and ``elo`` fields of a
row of ``results/results.tsv``, tab-separated (``1011<TAB>+18.9 ± 15.6``),
for ``scripts/results.py append --games … --elo …``. With ``--label X``
it prints a Markdown table row instead, ``| X | games | score (+w =d -l) |
Elo ± margin |``, as the README's ``UCI_Elo`` calibration table has them
(``scripts/calibrate_elo.sh``).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass

import chess.pgn

SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
# Two-sided 95% quantile of the normal distribution.
Z_95 = 1.959964


@dataclass
class Pooled:
    """The pooled result: games, pentanomial counts and terminations."""

    wins: int
    draws: int
    losses: int
    pentanomial: list[int]
    terminations: Counter


def pool(paths: list[str], player: str) -> Pooled:
    """Reads every finished game of ``player`` in ``paths``."""
    pairs: dict[tuple[str, str], list[float]] = defaultdict(list)
    terminations: Counter = Counter()
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                headers = game.headers
                if headers.get("Result") not in SCORES or player not in (
                        headers.get("White"), headers.get("Black")):
                    continue
                score = SCORES[headers["Result"]]
                if headers["Black"] == player:
                    score = 1.0 - score
                pairs[(path, headers.get("Round", "?"))].append(score)
                terminations[headers.get("Termination", "?")] += 1
    scores = [s for pair in pairs.values() for s in pair]
    pentanomial = [0] * 5
    for (path, round_), pair in pairs.items():
        if len(pair) == 2:
            pentanomial[round(2 * sum(pair))] += 1
        elif len(pair) > 2:
            print(f"pgn_pool: {path} has {len(pair)} games of round {round_} (two runs in "
                  "one file?); they count as games, not as a pair", file=sys.stderr)
    return Pooled(wins=scores.count(1.0), draws=scores.count(0.5), losses=scores.count(0.0),
                  pentanomial=pentanomial, terminations=terminations)


def elo(score: float) -> float:
    """The Elo difference of an expected score strictly between 0 and 1."""
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_and_margin(pentanomial: list[int]) -> tuple[float, float]:
    """Elo and its 95% margin (half the interval) from pentanomial counts;
    infinite where the score or an end of its interval is 0 or 1."""
    pairs = sum(pentanomial)
    if pairs == 0:
        return math.nan, math.nan
    values = [i / 4 for i in range(5)]
    mean = sum(n * v for n, v in zip(pentanomial, values)) / pairs
    variance = sum(n * (v - mean) ** 2 for n, v in zip(pentanomial, values)) / pairs
    spread = Z_95 * math.sqrt(variance / pairs)
    low, high = mean - spread, mean + spread
    if not (0.0 < low and high < 1.0):
        rating = elo(mean) if 0.0 < mean < 1.0 else math.copysign(math.inf, mean - 0.5)
        return rating, math.inf
    return elo(mean), (elo(high) - elo(low)) / 2.0


def row_fields(pooled: Pooled) -> tuple[str, str]:
    """The ``games`` and ``elo`` fields of a results.tsv row for ``pooled``:
    the finished games, and the Elo with its margin (``-`` without a
    complete pair to measure it on)."""
    games = pooled.wins + pooled.draws + pooled.losses
    rating, margin = elo_and_margin(pooled.pentanomial)
    if math.isnan(rating):
        return str(games), "-"
    return str(games), f"{rating:+.1f} ± {margin:.1f}"


def table_row(pooled: Pooled, label: str) -> str:
    """A Markdown table row for ``pooled``: label, games, score with the
    counts, and the Elo with its margin."""
    games, rating = row_fields(pooled)
    points = pooled.wins + pooled.draws / 2
    score = f"{100 * points / max(int(games), 1):.1f}%"
    return (f"| {label} | {games} | {score} (+{pooled.wins} ={pooled.draws} "
            f"−{pooled.losses}) | {rating} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--player", required=True, help="the player's name in the PGNs")
    parser.add_argument("--row", action="store_true",
                        help="print only the games and elo fields of a results.tsv row")
    parser.add_argument("--label", help="print a Markdown table row that starts with LABEL")
    args = parser.parse_args(argv)
    pooled = pool(args.pgn, args.player)
    games = pooled.wins + pooled.draws + pooled.losses
    if games == 0:
        sys.exit(f"pgn_pool: no finished game of {args.player}")
    if args.row:
        print("\t".join(row_fields(pooled)))
        return 0
    if args.label is not None:
        print(table_row(pooled, args.label))
        return 0
    points = pooled.wins + pooled.draws / 2
    rating, margin = elo_and_margin(pooled.pentanomial)
    print(f"{games} games: +{pooled.wins} ={pooled.draws} -{pooled.losses} "
          f"({100 * points / games:.1f}%), Elo {rating:+.1f} +/- {margin:.1f}, "
          f"pentanomial {pooled.pentanomial} ({sum(pooled.pentanomial)} pairs)")
    print("terminations: " + ", ".join(f"{name} {count}"
                                       for name, count in pooled.terminations.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
