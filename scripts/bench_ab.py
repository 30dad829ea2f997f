#!/usr/bin/env python3
"""Compare the speed of engine builds on `rookery bench`.

    python3 scripts/bench_ab.py OLD NEW [MORE...] --runs 9

Runs `ENGINE bench` for every binary in turn, `--runs` rounds, so that a
slow spell of the machine hits all of them alike, pinned to one core with
`taskset` where it exists. Prints each binary's node count (a change meant
to be speed only must keep it), median and best nodes per second, and the
change of each against the first. On a shared or virtual machine single
runs scatter by several per cent: compare medians over many rounds.
"""

import argparse
import re
import shutil
import statistics
import subprocess
import sys

SUMMARY = re.compile(r"^(\d+) nodes (\d+) nps$")


def bench(engine, core):
    command = [engine, "bench"]
    if core is not None and shutil.which("taskset"):
        command = ["taskset", "-c", str(core)] + command
    output = subprocess.run(command, capture_output=True, text=True, check=True)
    for line in reversed((output.stdout + output.stderr).splitlines()):
        match = SUMMARY.match(line.strip())
        if match:
            return int(match.group(1)), int(match.group(2))
    sys.exit(f"{engine}: no 'N nodes M nps' line in the bench output")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("engines", nargs="+", help="engine binaries; the first is the baseline")
    p.add_argument("--runs", type=int, default=9, help="rounds over all binaries")
    p.add_argument("--core", type=int, default=1, help="core to pin to (-1: do not pin)")
    args = p.parse_args()
    core = None if args.core < 0 else args.core

    nodes = {engine: set() for engine in args.engines}
    nps = {engine: [] for engine in args.engines}
    for _ in range(args.runs):
        for engine in args.engines:
            count, speed = bench(engine, core)
            nodes[engine].add(count)
            nps[engine].append(speed)

    base = statistics.median(nps[args.engines[0]])
    for engine in args.engines:
        median = statistics.median(nps[engine])
        counts = ", ".join(str(n) for n in sorted(nodes[engine]))
        print(
            f"{engine}: bench {counts} nodes, median {median:,.0f} nps, "
            f"best {max(nps[engine]):,} nps ({(median / base - 1) * 100:+.1f}% median)"
        )


if __name__ == "__main__":
    main()
