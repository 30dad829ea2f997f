#!/usr/bin/env python3
"""Soak test: drive a UCI engine with random interleavings of commands for a
given time and check the protocol after every step.

    python3 scripts/soak.py target/release/rookery --seconds 1800 --seed 1

Commands: `position` (start position or a bench FEN, plus random legal
moves), `go` with every kind of limit (depth, nodes, movetime, clock,
mate, infinite, ponder), `stop`, `ponderhit`, `isready`, `setoption`
(Hash, Threads, MultiPV, Clear Hash, UCI_ShowWDL), `ucinewgame`, and now
and then a malformed line. Checked after every `go`: exactly one `bestmove`,
legal in the position, never before `stop`/`ponderhit` in infinite or
ponder mode; every `wdl W D L` summing to 1000;
`isready` always answered; no `info string error` except for the
malformed lines. Exits 1 on the first violation, printing the transcript
tail; prints the counts at the end.
"""

import argparse
import collections
import queue
import random
import subprocess
import sys
import threading
import time

import chess

BENCH_FENS = "src/tools/bench/positions.fen"
#: Seconds an answer may take before it counts as a hang.
ANSWER_TIMEOUT = 10.0
#: Lines the engine must reject with `info string error` (a `go` with a bad
#: argument is not among them: it still searches, by design).
MALFORMED = [
    "position fen 8/8/8/8 w - - 0 1",
    "position startpos moves e2e5",
    "setoption name Hash value lots",
    "setoption name NoSuchOption value 1",
    "frobnicate",
]


class Violation(Exception):
    """A protocol violation by the engine."""


class Engine:
    """The engine process with a reader thread, so reads can time out."""

    def __init__(self, command):
        self.proc = subprocess.Popen(
            [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines = queue.Queue()
        self.tail = collections.deque(maxlen=40)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, line):
        self.tail.append(f">> {line}")
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self, timeout):
        """The next line, or None after `timeout` seconds."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if line is None:
            raise Violation("engine closed its output")
        self.tail.append(f"<< {line}")
        return line

    def until(self, prefix, timeout=ANSWER_TIMEOUT):
        """Lines up to the first starting with `prefix` (included)."""
        deadline = time.monotonic() + timeout
        lines = []
        while True:
            line = self.read(max(0.0, deadline - time.monotonic()))
            if line is None:
                raise Violation(f"no '{prefix}' within {timeout} s")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def drain(self, seconds):
        """Lines arriving within `seconds`."""
        deadline = time.monotonic() + seconds
        lines = []
        while (left := deadline - time.monotonic()) > 0:
            line = self.read(left)
            if line is not None:
                lines.append(line)
        return lines


class Soak:
    """The random driver and its checks."""

    def __init__(self, engine, rng, fens):
        self.engine = engine
        self.rng = rng
        self.fens = fens
        self.board = chess.Board()
        self.counts = collections.Counter()

    def check_errors(self, lines, allowed=False):
        errors = [l for l in lines if l.startswith("info string error")]
        if errors and not allowed:
            raise Violation(f"unexpected error: {errors[0]}")

    def check_bestmove(self, lines):
        bestmoves = [l for l in lines if l.startswith("bestmove")]
        if len(bestmoves) != 1:
            raise Violation(f"{len(bestmoves)} bestmove lines")
        move = bestmoves[0].split()[1]
        legal = {m.uci() for m in self.board.legal_moves}
        if move == "0000" and not legal:
            return
        if move not in legal:
            raise Violation(f"illegal bestmove {move} in {self.board.fen()}")
        self.counts["searches"] += 1

    def check_wdl(self, lines):
        for line in lines:
            tokens = line.split()
            if line.startswith("info") and "wdl" in tokens:
                at = tokens.index("wdl")
                if sum(int(t) for t in tokens[at + 1:at + 4]) != 1000:
                    raise Violation(f"wdl does not sum to 1000: {line}")

    def isready(self):
        self.engine.send("isready")
        self.check_errors(self.engine.until("readyok"))
        self.counts["isready"] += 1

    def position(self):
        rng = self.rng
        if rng.random() < 0.5:
            self.board = chess.Board()
            text = "position startpos"
        else:
            fen = rng.choice(self.fens)
            self.board = chess.Board(fen)
            text = f"position fen {fen}"
        moves = []
        for _ in range(rng.randrange(0, 40)):
            legal = list(self.board.legal_moves)
            if not legal:
                break
            move = rng.choice(legal)
            self.board.push(move)
            moves.append(move.uci())
        if moves:
            text += " moves " + " ".join(moves)
        self.engine.send(text)

    def go(self):
        rng = self.rng
        kind = rng.choice(["depth", "nodes", "movetime", "clock", "mate", "infinite", "ponder"])
        limit = {
            "depth": lambda: f"depth {rng.randrange(1, 9)}",
            "nodes": lambda: f"nodes {rng.randrange(1, 50000)}",
            "movetime": lambda: f"movetime {rng.randrange(1, 200)}",
            "clock": lambda: (f"wtime {rng.randrange(0, 3000)} btime {rng.randrange(0, 3000)} "
                              f"winc {rng.randrange(0, 50)} binc {rng.randrange(0, 50)}"),
            "mate": lambda: f"mate {rng.randrange(1, 4)} movetime 300",
            "infinite": lambda: "infinite",
            "ponder": lambda: f"ponder wtime 2000 btime 2000",
        }[kind]()
        self.engine.send(f"go {limit}")
        self.counts[f"go {kind}"] += 1
        if kind in ("infinite", "ponder"):
            early = self.engine.drain(rng.random() * 0.2)
            if any(l.startswith("bestmove") for l in early):
                raise Violation(f"bestmove before stop in go {kind}")
            if rng.random() < 0.5:
                self.isready()
            ending = "ponderhit" if kind == "ponder" and rng.random() < 0.5 else "stop"
            self.engine.send(ending)
            lines = self.engine.until("bestmove")
        else:
            if rng.random() < 0.2:
                self.engine.send("stop")
            lines = self.engine.until("bestmove")
        self.check_errors(lines)
        self.check_wdl(lines)
        self.check_bestmove(lines + self.engine.drain(0.001))

    def setoption(self):
        rng = self.rng
        choice = rng.choice(["Hash", "Threads", "MultiPV", "Clear Hash", "UCI_ShowWDL"])
        value = {
            "Hash": lambda: f" value {rng.randrange(1, 65)}",
            "Threads": lambda: f" value {rng.randrange(1, 5)}",
            "MultiPV": lambda: f" value {rng.randrange(1, 5)}",
            "Clear Hash": lambda: "",
            "UCI_ShowWDL": lambda: f" value {rng.choice(['true', 'false'])}",
        }[choice]()
        self.engine.send(f"setoption name {choice}{value}")
        self.counts["setoption"] += 1

    def malformed(self):
        self.engine.send(self.rng.choice(MALFORMED))
        self.engine.send("isready")
        lines = self.engine.until("readyok")
        if not any(l.startswith("info string error") for l in lines):
            raise Violation("malformed input was not reported")
        self.counts["malformed"] += 1
        # A malformed position line may leave a legal prefix: resynchronise.
        self.board = chess.Board()
        self.engine.send("position startpos")

    def step(self):
        action = self.rng.choices(
            [self.position, self.go, self.isready, self.setoption, self.newgame, self.malformed],
            weights=[30, 35, 15, 10, 5, 5],
        )[0]
        action()
        self.counts["commands"] += 1

    def newgame(self):
        self.engine.send("ucinewgame")
        self.counts["ucinewgame"] += 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    fens = [l.strip() for l in open(BENCH_FENS) if l.strip()]
    engine = Engine(args.engine)
    soak = Soak(engine, random.Random(args.seed), fens)
    start = time.monotonic()
    try:
        engine.send("uci")
        engine.until("uciok")
        while time.monotonic() - start < args.seconds:
            soak.step()
        soak.isready()
        engine.send("quit")
        engine.proc.wait(timeout=ANSWER_TIMEOUT)
    except Violation as violation:
        print(f"VIOLATION after {soak.counts['commands']} commands: {violation}")
        print("\n".join(engine.tail))
        engine.proc.kill()
        sys.exit(1)
    elapsed = time.monotonic() - start
    print(f"soak: {elapsed:.0f} s, {soak.counts['commands']} commands, "
          f"{soak.counts['searches']} searches, 0 violations")
    print(", ".join(f"{k}={v}" for k, v in sorted(soak.counts.items())))


if __name__ == "__main__":
    main()
