#!/usr/bin/env python3
"""Run an EPD test suite against a UCI engine and report how many positions it solves.

A position is *solved* when every target it has is met:

* ``bm``: the move played is one of the best moves,
* ``am``: the move played is none of the avoid moves,
* ``dm N``: the engine's final score is ``mate M`` with ``1 <= M <= N``
  (a mate at least as fast as required).

Positions without any of these operations are listed as ``skip`` and do not
count. Each position is searched from a fresh game (``ucinewgame``) with a
fixed ``--movetime``, ``--depth`` or ``--nodes`` (a node limit gives the
same result on any machine and under any load, so it can run beside a
match). Engine failures count as unsolved and the engine is restarted for
the next position: a crash, an illegal move, or a hang, which is no
answer within ``--hang-timeout`` seconds (beyond ``--movetime``, or in all
with ``--depth`` and ``--nodes``). python-chess's own timeout covers the
timed searches; a watchdog thread kills the engine in the others, where
python-chess would wait forever.

Example: ``python3 scripts/epd.py ../shared/data/epd/wac.epd --engine
target/release/rookery --movetime 1000``; use ``-`` to read the suite from
stdin (e.g. ``head -20 wac.epd | python3 scripts/epd.py - --engine ...``).
"""

from __future__ import annotations

import argparse
import logging
import shlex
import sys
import threading
import time
from typing import Optional

import chess
import chess.engine


class Fault(Exception):
    """The engine failed on a position; ``kind`` is ``crash``, ``hang`` or ``illegal``."""

    def __init__(self, kind: str, detail: str):
        super().__init__(detail)
        self.kind = kind


class Engine:
    """The engine under test, started when needed and killed after a fault,
    so that the next search starts it afresh."""

    def __init__(self, command: list[str], options: dict[str, str], hang_timeout: float):
        self.command = command
        self.options = options
        self.hang_timeout = hang_timeout
        self.engine: Optional[chess.engine.SimpleEngine] = None

    def start(self) -> None:
        """Start and configure the engine unless it is running."""
        if self.engine is None:
            self.engine = chess.engine.SimpleEngine.popen_uci(self.command, timeout=self.hang_timeout)
            self.engine.configure(self.options)

    def search(self, board: chess.Board,
               limit: chess.engine.Limit) -> tuple[chess.engine.PlayResult, float]:
        """Search ``board`` from a fresh game; return the result and the seconds it took.

        Raises :class:`Fault` after killing the engine.
        """
        try:
            self.start()
        except (OSError, chess.engine.EngineError, TimeoutError) as err:
            self.close()
            raise Fault("crash", f"restart failed: {err!r}")
        engine = self.engine
        hung = threading.Event()

        def kill_hung() -> None:
            hung.set()
            engine.close()

        # SimpleEngine's timeout bounds only searches with a time limit.
        watchdog = threading.Timer(self.hang_timeout, kill_hung) if limit.time is None else None
        if watchdog:
            watchdog.start()
        started = time.monotonic()
        try:
            result = engine.play(board, limit, game=object(),
                                 info=chess.engine.INFO_BASIC | chess.engine.INFO_SCORE)
        except TimeoutError:
            self.close()
            raise Fault("hang", f"no move within {self.hang_timeout:g} s beyond the movetime, killed")
        except chess.engine.EngineError as err:
            self.close()
            if hung.is_set():
                raise Fault("hang", f"no move within {self.hang_timeout:g} s, killed")
            # python-chess wraps an illegal or unparsable bestmove as EngineError(ValueError).
            if err.args and isinstance(err.args[0], ValueError):
                raise Fault("illegal", str(err))
            raise Fault("crash", f"{type(err).__name__}: {err}")
        finally:
            if watchdog:
                watchdog.cancel()
        return result, time.monotonic() - started

    def close(self) -> None:
        """Kill the engine process, if any, without waiting for it."""
        engine, self.engine = self.engine, None
        if engine is not None:
            engine.close()

    def quit(self) -> None:
        """Quit the engine politely, killing it if it does not go."""
        if self.engine is not None:
            try:
                self.engine.quit()
            except (chess.engine.EngineError, TimeoutError):
                pass
            self.close()


def judge(board: chess.Board, ops: dict, move: chess.Move,
          score: Optional[chess.engine.PovScore]) -> Optional[bool]:
    """Return whether ``move``/``score`` meet the position's targets, or
    ``None`` if it has no ``bm``/``am``/``dm`` operation."""
    checks = []
    if "bm" in ops:
        checks.append(move in ops["bm"])
    if "am" in ops:
        checks.append(move not in ops["am"])
    if "dm" in ops:
        mate = score.pov(board.turn).mate() if score is not None else None
        checks.append(mate is not None and 0 < mate <= int(ops["dm"]))
    return all(checks) if checks else None


def describe_targets(board: chess.Board, ops: dict) -> str:
    """Return the targets in SAN, e.g. ``bm Qg6`` or ``dm 2 bm Qxh7+``."""
    parts = []
    if "dm" in ops:
        parts.append(f"dm {ops['dm']}")
    for key in ("bm", "am"):
        if key in ops:
            parts.append(key + " " + " ".join(board.san(m) for m in ops[key]))
    return " ".join(parts) or "-"


def format_score(score: Optional[chess.engine.PovScore], turn: chess.Color) -> str:
    """Return the score from the side to move's view: ``+1.23`` or ``#3`` / ``#-2``."""
    if score is None:
        return "?"
    pov = score.pov(turn)
    return f"#{pov.mate()}" if pov.is_mate() else f"{pov.score() / 100:+.2f}"


def read_suite(path: str) -> list[str]:
    """Return the non-empty, non-comment lines of an EPD file (``-`` = stdin)."""
    handle = sys.stdin if path == "-" else open(path, encoding="utf-8")
    with handle:
        return [line.strip() for line in handle if line.strip() and not line.startswith("#")]


def option(text: str) -> tuple[str, str]:
    """Parse ``--option NAME=VALUE`` into ``(NAME, VALUE)``."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"option must be NAME=VALUE, got {text!r}")
    return name.strip(), value.strip()


def build_parser() -> argparse.ArgumentParser:
    """Return the command-line parser."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("epd", help="EPD file with bm/am/dm operations, or - for stdin")
    p.add_argument("--engine", required=True, help="UCI engine command (split with shlex)")
    p.add_argument("--option", action="append", default=[], type=option, metavar="NAME=VALUE",
                   help="UCI option; repeatable")
    limit = p.add_mutually_exclusive_group(required=True)
    limit.add_argument("--movetime", type=float, metavar="MS", help="search time per position")
    limit.add_argument("--depth", type=int, help="search depth per position")
    limit.add_argument("--nodes", type=int,
                       help="nodes per position: the same result on any machine and under any load")
    p.add_argument("--hang-timeout", type=float, default=60.0, metavar="S",
                   help="seconds beyond --movetime (or in total with --depth or --nodes) before "
                        "the engine counts as hung and is restarted")
    return p


def main(argv: Optional[list[str]] = None) -> int:
    """Run the suite; return 0 (1 if the engine cannot be started)."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    engine = Engine(shlex.split(args.engine), dict(args.option), args.hang_timeout)
    try:
        engine.start()
    except (OSError, chess.engine.EngineError, TimeoutError) as err:
        print(f"error: cannot start {args.engine}: {err!r}", file=sys.stderr)
        engine.close()
        return 1
    if args.movetime is not None:
        limit = chess.engine.Limit(time=args.movetime / 1000)
    else:
        limit = chess.engine.Limit(depth=args.depth, nodes=args.nodes)

    lines = read_suite(args.epd)
    solved = scored = 0
    started = time.monotonic()
    try:
        for number, line in enumerate(lines, 1):
            prefix = f"[{number:>{len(str(len(lines)))}}/{len(lines)}]"
            try:
                board, ops = chess.Board.from_epd(line)
            except ValueError as err:
                print(f"{prefix} skip  bad EPD: {err}")
                continue
            if not board.is_valid():
                print(f"{prefix} skip  invalid position: {board.fen()}")
                continue
            name = str(ops.get("id", f"#{number}"))
            targets = describe_targets(board, ops)
            try:
                result, elapsed = engine.search(board, limit)
            except Fault as err:
                print(f"{prefix} {name:<16} {targets:<16} FAIL  {err.kind}: {err}")
                scored += any(key in ops for key in ("bm", "am", "dm"))
                continue
            score = result.info.get("score")
            played = board.san(result.move) if result.move else "(none)"
            verdict = judge(board, ops, result.move, score)
            scored += verdict is not None
            solved += bool(verdict)
            status = {True: "ok  ", False: "FAIL", None: "skip"}[verdict]
            print(f"{prefix} {name:<16} {targets:<16} {status}  played {played:<8} "
                  f"score {format_score(score, board.turn):>6} depth {result.info.get('depth', '?'):>3} "
                  f"time {elapsed:.2f}s", flush=True)
    finally:
        engine.quit()
    print(f"solved {solved}/{scored}  ({time.monotonic() - started:.1f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
