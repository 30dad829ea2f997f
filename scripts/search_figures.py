#!/usr/bin/env python3
"""Search figures that issue #10 asks for, timed as a GUI sees them.

    python3 scripts/search_figures.py target/release/rookery heavy
    python3 scripts/search_figures.py target/release/rookery depth --movetime 1000

`heavy`: the 18-rook position (a first iteration that once took 13 s):
the time of `go depth 5`, of `go wtime 1000 btime 1000`, and of `stop`
sent `--delays` milliseconds after `go infinite` (each a fresh engine, so
the stop lands inside the first iterations), from writing the line to
reading `bestmove`.

`depth`: the depth of the last `info` line after `go movetime N` on every
bench position (`src/tools/bench/positions.fen`), fresh `ucinewgame` each; prints
each depth and the average.
"""

import argparse
import statistics
import subprocess
import sys
import time

BENCH_FENS = "src/tools/bench/positions.fen"
EIGHTEEN_ROOKS = "rnbqkbnr/rrrrrrrr/8/8/8/8/RRRRRRRR/RNBQKBNR w KQkq - 0 1"


class Engine:
    def __init__(self, path: str):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.send("uci")
        self.read_until("uciok")

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix: str) -> list[str]:
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"engine exited while waiting for '{prefix}'")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def ready(self, fen: str) -> None:
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send("isready")
        self.read_until("readyok")

    def quit(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=10)


def last_depth(lines: list[str]) -> int:
    depths = [int(l.split()[2]) for l in lines if l.startswith("info depth")]
    return depths[-1] if depths else 0


def heavy(args) -> None:
    engine = Engine(args.engine)
    for go in ["go depth 5", "go wtime 1000 btime 1000"]:
        times = []
        for _ in range(args.tries):
            engine.ready(EIGHTEEN_ROOKS)
            start = time.perf_counter()
            engine.send(go)
            lines = engine.read_until("bestmove")
            times.append((time.perf_counter() - start) * 1000)
        print(f"{go}: median {statistics.median(times):.1f} max {max(times):.1f} ms "
              f"over {len(times)} (last depth {last_depth(lines)})")
    engine.quit()
    for delay in args.delays:
        times = []
        for _ in range(args.tries):
            engine = Engine(args.engine)
            engine.ready(EIGHTEEN_ROOKS)
            engine.send("go infinite")
            time.sleep(delay / 1000)
            start = time.perf_counter()
            engine.send("stop")
            engine.read_until("bestmove")
            times.append((time.perf_counter() - start) * 1000)
            engine.quit()
        print(f"stop {delay} ms after go infinite: median {statistics.median(times):.1f} "
              f"max {max(times):.1f} ms over {len(times)}")


def depth(args) -> None:
    with open(BENCH_FENS) as handle:
        fens = [line.strip() for line in handle if line.strip() and not line.startswith("#")]
    engine = Engine(args.engine)
    depths = []
    for index, fen in enumerate(fens):
        engine.ready(fen)
        engine.send(f"go movetime {args.movetime}")
        depths.append(last_depth(engine.read_until("bestmove")))
        print(f"position {index + 1:2}: depth {depths[-1]}", flush=True)
    engine.quit()
    print(f"average depth in {args.movetime} ms: {statistics.mean(depths):.2f} "
          f"over {len(depths)} positions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engine")
    parser.add_argument("figure", choices=["heavy", "depth"])
    parser.add_argument("--tries", type=int, default=5)
    parser.add_argument("--delays", type=int, nargs="*", default=[0, 2, 5, 10, 20])
    parser.add_argument("--movetime", type=int, default=1000)
    args = parser.parse_args()
    heavy(args) if args.figure == "heavy" else depth(args)


if __name__ == "__main__":
    main()
