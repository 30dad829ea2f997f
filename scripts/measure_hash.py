#!/usr/bin/env python3
"""Measure how the transposition table behaves from the outside.

For each Hash size: time from `setoption name Hash value N` + `isready` to
`readyok`, the resident memory (VmRSS) after a short search, and the
`hashfull` figures of a longer search followed by `ucinewgame`.

    python3 scripts/measure_hash.py target/release/rookery --sizes 16 256 1024
"""

import argparse
import subprocess
import time


def rss_mb(pid):
    """Resident set size of a process in MB, from /proc."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


class Engine:
    """A UCI engine process driven line by line."""

    def __init__(self, command):
        self.proc = subprocess.Popen(
            [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        """Lines up to and including the first that starts with prefix."""
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def hashfull_values(lines):
    """The hashfull figures of the info lines."""
    values = []
    for line in lines:
        tokens = line.split()
        if "hashfull" in tokens:
            values.append(int(tokens[tokens.index("hashfull") + 1]))
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 256, 1024])
    parser.add_argument("--movetime", type=int, default=3000, help="ms of the hashfull search")
    args = parser.parse_args()

    for size in args.sizes:
        engine = Engine(args.engine)
        engine.send("uci")
        engine.until("uciok")
        start = time.monotonic()
        engine.send(f"setoption name Hash value {size}")
        engine.send("isready")
        engine.until("readyok")
        ready_ms = (time.monotonic() - start) * 1000
        engine.send("position startpos")
        engine.send(f"go movetime {args.movetime}")
        lines = engine.until("bestmove")
        full = hashfull_values(lines)
        rss = rss_mb(engine.proc.pid)
        engine.send("ucinewgame")
        engine.send("position startpos")
        engine.send("go depth 1")
        after = hashfull_values(engine.until("bestmove"))
        print(
            f"Hash {size:>5} MB: readyok after {ready_ms:7.1f} ms, RSS after search {rss:7.1f} MB, "
            f"hashfull during search {full[0]}..{full[-1]} (per iteration: {full}), "
            f"after ucinewgame {after[-1]}"
        )
        engine.close()


if __name__ == "__main__":
    main()
