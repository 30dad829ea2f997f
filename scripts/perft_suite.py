#!/usr/bin/env python3
"""Check `rookery perft` against a perft suite (`FEN ;D1 n ;D2 n ...`).

    python3 scripts/perft_suite.py target/release/rookery ../shared/data/perft/standard.epd
    python3 scripts/perft_suite.py target/release/rookery ../shared/data/perft/chess960.epd \
        --chess960 --max-depth 5

By default only each position's deepest listed depth is run (the test suite
already checks every shallower depth up to 5M nodes); `--all-depths` runs
them all. Prints mismatches, then the totals and the speed.
"""

import argparse
import re
import subprocess
import sys
import time

COUNT = re.compile(r"D(\d+)\s+(\d+)")
RESULT = re.compile(r"Nodes searched: (\d+)")


def cases(path, max_depth, all_depths):
    """(fen, depth, expected) for the chosen depths of each suite line."""
    for line in open(path):
        fen, *fields = line.strip().split(";")
        counts = sorted(
            (int(m[1]), int(m[2])) for f in fields if (m := COUNT.search(f))
        )
        counts = [(d, n) for d, n in counts if d <= max_depth]
        if fen.strip() and counts:
            yield from ((fen.strip(), d, n) for d, n in (counts if all_depths else counts[-1:]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("suite")
    parser.add_argument("--chess960", action="store_true")
    parser.add_argument("--max-depth", type=int, default=99)
    parser.add_argument("--all-depths", action="store_true")
    args = parser.parse_args()

    checked = failed = nodes = 0
    start = time.monotonic()
    for fen, depth, expected in cases(args.suite, args.max_depth, args.all_depths):
        command = [args.engine, "perft", str(depth), "--fen", fen]
        if args.chess960:
            command.append("--chess960")
        output = subprocess.run(command, capture_output=True, text=True).stdout
        found = RESULT.search(output)
        got = int(found[1]) if found else None
        checked += 1
        nodes += expected
        if got != expected:
            failed += 1
            print(f"MISMATCH depth {depth}: expected {expected}, got {got}: {fen}", flush=True)
    elapsed = time.monotonic() - start
    print(f"{checked} perft runs, {failed} mismatches, {nodes} nodes in {elapsed:.1f} s "
          f"({nodes / elapsed / 1e6:.1f} M nodes/s including process start-up)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
