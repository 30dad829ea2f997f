#!/usr/bin/env python3
"""Measure how precisely an engine honours `go movetime`.

    python3 scripts/movetime.py target/release/rookery --movetime 1000 --tries 20

Each try sets up one of the bench positions (in turn), sends `isready`,
waits for `readyok`, then times `go movetime N` from writing the line to
reading `bestmove` — what a GUI sees. Prints every time, then the minimum,
median and maximum in milliseconds, and exits 1 when any falls outside
`[--low, --high]` (990..1030 ms for `--movetime 1000`, the #6 target).
"""

import argparse
import statistics
import subprocess
import sys
import time

BENCH_FENS = "src/tools/bench/positions.fen"


def read_until(proc: subprocess.Popen, prefix: str) -> str:
    while True:
        line = proc.stdout.readline()
        if not line:
            sys.exit(f"engine exited while waiting for '{prefix}'")
        if line.startswith(prefix):
            return line.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engine")
    parser.add_argument("--movetime", type=int, default=1000, help="milliseconds (default 1000)")
    parser.add_argument("--tries", type=int, default=20)
    parser.add_argument("--low", type=float, help="lowest acceptable time, ms (default movetime - 10)")
    parser.add_argument("--high", type=float, help="highest acceptable time, ms (default movetime + 30)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    low = args.low if args.low is not None else args.movetime - 10
    high = args.high if args.high is not None else args.movetime + 30

    with open(BENCH_FENS) as handle:
        fens = [line.strip() for line in handle if line.strip() and not line.startswith("#")]
    proc = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line: str) -> None:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    send("uci")
    read_until(proc, "uciok")
    for pair in args.option:
        name, value = pair.split("=", 1)
        send(f"setoption name {name} value {value}")
    times = []
    for attempt in range(args.tries):
        send("ucinewgame")
        send(f"position fen {fens[attempt % len(fens)]}")
        send("isready")
        read_until(proc, "readyok")
        start = time.perf_counter()
        send(f"go movetime {args.movetime}")
        read_until(proc, "bestmove")
        times.append((time.perf_counter() - start) * 1000)
        print(f"try {attempt + 1:2}: {times[-1]:7.1f} ms", flush=True)
    send("quit")
    proc.wait(timeout=10)

    print(f"movetime {args.movetime}: min {min(times):.1f} median {statistics.median(times):.1f} "
          f"max {max(times):.1f} ms over {len(times)} tries")
    outside = [t for t in times if not low <= t <= high]
    if outside:
        print(f"{len(outside)} outside [{low:.0f}, {high:.0f}] ms")
        sys.exit(1)


if __name__ == "__main__":
    main()
