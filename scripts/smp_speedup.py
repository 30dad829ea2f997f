#!/usr/bin/env python3
"""Lazy-SMP speed figures from `rookery bench`: nodes per second and time to
depth with N threads against 1 thread, over the bench positions.

    python3 scripts/smp_speedup.py target/release/rookery --depth 12 --threads 2 --runs 3

For each thread count it runs the bench `--runs` times and keeps, per
position, the median time; it prints the nps ratio and the median of the
per-position time-to-depth speedups.
"""

import argparse
import re
import statistics
import subprocess

LINE = re.compile(r"position\s+(\d+) bestmove \S+\s+nodes\s+(\d+) time\s+(\d+) ms")
TOTAL = re.compile(r"^(\d+) nodes (\d+) nps$")


def bench(engine, depth, threads, hash_mb):
    """Per-position (nodes, ms) and the total nps of one bench run."""
    output = subprocess.run(
        [engine, "bench", str(depth), "--threads", str(threads), "--hash", str(hash_mb)],
        capture_output=True, text=True, check=True,
    ).stdout
    positions = {}
    nps = None
    for line in output.splitlines():
        if match := LINE.search(line):
            positions[int(match[1])] = (int(match[2]), int(match[3]))
        elif match := TOTAL.match(line.strip()):
            nps = int(match[2])
    return positions, nps


def measure(engine, depth, threads, hash_mb, runs):
    """Median per-position time and median nps over several runs."""
    results = [bench(engine, depth, threads, hash_mb) for _ in range(runs)]
    times = {
        index: statistics.median(run[0][index][1] for run in results)
        for index in results[0][0]
    }
    return times, statistics.median(run[1] for run in results)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--hash", type=int, default=64)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--min-ms", type=int, default=20,
                        help="ignore positions faster than this with 1 thread")
    args = parser.parse_args()

    single, single_nps = measure(args.engine, args.depth, 1, args.hash, args.runs)
    multi, multi_nps = measure(args.engine, args.depth, args.threads, args.hash, args.runs)
    speedups = [
        single[i] / max(multi[i], 1) for i in single if single[i] >= args.min_ms
    ]
    print(f"nps: 1 thread {single_nps}, {args.threads} threads {multi_nps}, "
          f"ratio {multi_nps / single_nps:.2f}")
    print(f"time to depth {args.depth}: total {sum(single.values())} ms vs "
          f"{sum(multi.values())} ms; median per-position speedup "
          f"{statistics.median(speedups):.2f} over {len(speedups)} positions "
          f"(those taking >= {args.min_ms} ms with 1 thread)")


if __name__ == "__main__":
    main()
