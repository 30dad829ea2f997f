#!/usr/bin/env python3
"""Write an EPD book of balanced endgame starts from self-play positions.

    python3 scripts/endgame_book.py ../shared/data/selfplay/gen0_pst_6000n.txt.gz \\
        --pieces 6 7 --max-score 150 --count 500 --seed 1 > /tmp/endgames.epd

Reads `FEN | score | result` lines (gzip or plain), keeps positions with a
piece count (kings included) in `--pieces`, no castling rights, not in
check and |score| <= `--max-score`, one per distinct material signature
and side to move at most `--per-material` times, and prints a random
`--count` of them as EPD. Used for tablebase matches, where the 3- and
4-piece tables must be reached within a few captures.
"""

import argparse
import collections
import gzip
import random

import chess


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("positions")
    parser.add_argument("--pieces", type=int, nargs=2, default=[6, 7], metavar=("MIN", "MAX"))
    parser.add_argument("--max-score", type=int, default=150)
    parser.add_argument("--per-material", type=int, default=20)
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    opener = gzip.open if args.positions.endswith(".gz") else open
    seen: collections.Counter = collections.Counter()
    chosen = []
    with opener(args.positions, "rt") as handle:
        for line in handle:
            fen, score, _ = (field.strip() for field in line.split("|"))
            board = chess.Board(fen)
            pieces = chess.popcount(board.occupied)
            if not args.pieces[0] <= pieces <= args.pieces[1] or abs(int(score)) > args.max_score:
                continue
            if board.castling_rights or board.is_check():
                continue
            signature = (board.board_fen().lower().count("p"), str(sorted(board.piece_map().values(), key=str)))
            if seen[signature] >= args.per_material:
                continue
            seen[signature] += 1
            chosen.append(board.epd())
    random.Random(args.seed).shuffle(chosen)
    for epd in chosen[:args.count]:
        print(epd)


if __name__ == "__main__":
    main()
