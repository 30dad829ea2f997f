#!/usr/bin/env python3
"""Compare the speed of engine builds, or networks, on `rookery bench`.

    python3 scripts/bench_ab.py OLD NEW [MORE...] --runs 9
    python3 scripts/bench_ab.py ENGINE 'ENGINE --eval-file DIR/final.nnue' --cpu-time

Runs `ENGINE bench` for every entry in turn, `--runs` rounds, so that a
slow spell of the machine hits all of them alike, pinned to one core with
`taskset` where it exists. An entry is a binary, with bench's own
arguments after it in the same quoted word where it has any (a network
file: `--eval-file`). Prints each entry's node count (a change meant to
be speed only must keep it), median and best nodes per second, the change
of its median against the first's, and the median of its ratios to the
first run by run (each round a pair: the figure to quote for a network's
cost in speed). On a shared or virtual machine single runs scatter by
several per cent: compare medians over many rounds.

With `--cpu-time` the speed is nodes per second of the process's own CPU
time (user + system, from the operating system's accounting of the child)
instead of the engine's wall-clock figure, and nothing is pinned: time spent
waiting for a core then does not count, so a comparison beside running
matches stays fair (`bench` searches on one thread).
"""

import argparse
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys

SUMMARY = re.compile(r"^(\d+) nodes (\d+) nps$")


def children_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def bench_command(entry):
    """The command line of an entry: its binary, `bench`, its arguments."""
    binary, *arguments = shlex.split(entry)
    return [binary, "bench", *arguments]


def bench(engine, core, cpu_time):
    """The node count and nodes per second of one `bench` run."""
    command = bench_command(engine)
    if core is not None and shutil.which("taskset"):
        command = ["taskset", "-c", str(core)] + command
    cpu_before = children_cpu_seconds()
    output = subprocess.run(command, capture_output=True, text=True, check=True)
    cpu_seconds = children_cpu_seconds() - cpu_before
    for line in reversed((output.stdout + output.stderr).splitlines()):
        match = SUMMARY.match(line.strip())
        if match:
            nodes, wall_nps = int(match.group(1)), int(match.group(2))
            return nodes, round(nodes / cpu_seconds) if cpu_time else wall_nps
    sys.exit(f"{engine}: no 'N nodes M nps' line in the bench output")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "engines",
        nargs="+",
        help="engine binaries, each with bench arguments if any; the first is the baseline",
    )
    p.add_argument("--runs", type=int, default=9, help="rounds over all binaries")
    p.add_argument("--core", type=int, default=1, help="core to pin to (-1: do not pin)")
    p.add_argument(
        "--cpu-time",
        action="store_true",
        help="nodes per second of CPU time, unpinned (for a machine running other jobs)",
    )
    args = p.parse_args()
    core = None if args.core < 0 or args.cpu_time else args.core

    nodes = {engine: set() for engine in args.engines}
    nps = {engine: [] for engine in args.engines}
    ratios = {engine: [] for engine in args.engines}
    for _ in range(args.runs):
        for engine in args.engines:
            count, speed = bench(engine, core, args.cpu_time)
            nodes[engine].add(count)
            nps[engine].append(speed)
            ratios[engine].append(speed / nps[args.engines[0]][-1])

    base = statistics.median(nps[args.engines[0]])
    for engine in args.engines:
        median = statistics.median(nps[engine])
        counts = ", ".join(str(n) for n in sorted(nodes[engine]))
        print(
            f"{engine}: bench {counts} nodes, median {median:,.0f} nps, "
            f"best {max(nps[engine]):,} nps ({(median / base - 1) * 100:+.1f}% median, "
            f"median paired ratio {statistics.median(ratios[engine]):.3f})"
        )


if __name__ == "__main__":
    main()
