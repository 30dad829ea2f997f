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
match). Engine failures (crash, hang, illegal move) count as unsolved and
the engine is restarted; the engine process handling is shared with
``match.py`` (both use ``game.py``).

Example: ``python3 scripts/epd.py ../shared/data/epd/wac.epd --engine
target/release/rookery --movetime 1000``; use ``-`` to read the suite from
stdin (e.g. ``head -20 wac.epd | python3 scripts/epd.py - --engine ...``).
"""

from __future__ import annotations

import argparse
import logging
import os
import shlex
import sys
import time
from typing import Optional

import chess
import chess.engine

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from game import EngineSpec, GameFault, Player, parse_options, request_move  # noqa: E402


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


def build_parser() -> argparse.ArgumentParser:
    """Return the command-line parser."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("epd", help="EPD file with bm/am/dm operations, or - for stdin")
    p.add_argument("--engine", required=True, help="UCI engine command (split with shlex)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
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
    try:
        options = parse_options(args.option)
    except argparse.ArgumentTypeError as err:
        sys.exit(f"error: {err}")
    player = Player(EngineSpec("engine", shlex.split(args.engine), "uci", options))
    try:
        player.start()
    except (OSError, chess.engine.EngineError, TimeoutError) as err:
        print(f"error: cannot start {args.engine}: {err!r}", file=sys.stderr)
        return 1
    if args.movetime is not None:
        limit = chess.engine.Limit(time=args.movetime / 1000)
        timeout = args.movetime / 1000 + args.hang_timeout
    else:
        limit = chess.engine.Limit(depth=args.depth, nodes=args.nodes)
        timeout = args.hang_timeout

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
                result, elapsed = request_move(player, board, limit, object(), timeout)
            except GameFault as err:
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
        player.quit()
    print(f"solved {solved}/{scored}  ({time.monotonic() - started:.1f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
