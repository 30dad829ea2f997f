#!/usr/bin/env python3
"""Wrap an xboard engine without ``setboard`` (e.g. Fairy-Max) so python-chess can drive it.

python-chess refuses xboard engines that announce ``feature setboard=0``,
and it sets up every non-standard start position with ``setboard FEN``.
This wrapper runs the real engine as a child process, passes all traffic
through unchanged except that it

* rewrites the engine's ``setboard=0`` feature to ``setboard=1``, and
* translates each ``setboard FEN`` into the classic edit-mode sequence
  (``new``, ``force``, ``a2a3`` when Black is to move, ``edit``, ``#``,
  piece placements, ``c``, ``.``).

Edit mode cannot express everything a FEN can: the engine infers castling
rights from kings and rooks standing on their original squares, the en
passant square and the move counters are dropped. Standard chess only.

Usage: ``python3 scripts/xboard_setboard.py /usr/games/fairymax [ARGS...]``
"""

from __future__ import annotations

import ctypes
import os
import re
import signal
import subprocess
import sys
import threading

import chess

FEATURE_SETBOARD_OFF = re.compile(r"\bsetboard=0\b")


def edit_commands(fen: str) -> list[str]:
    """Return the edit-mode commands that set up ``fen`` on a protocol-v1 engine."""
    board = chess.Board(fen)
    commands = ["new", "force"]
    if board.turn == chess.BLACK:
        commands.append("a2a3")  # the documented way to hand the move to Black
    commands += ["edit", "#"]
    for color in (chess.WHITE, chess.BLACK):
        if color == chess.BLACK:
            commands.append("c")
        for square, piece in board.piece_map().items():
            if piece.color == color:
                commands.append(piece.symbol().upper() + chess.square_name(square))
    commands.append(".")
    return commands


def die_with_parent() -> None:
    """Ask Linux to SIGKILL the engine if this wrapper dies (e.g. killed by a runner)."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def pump_output(child: subprocess.Popen) -> None:
    """Copy the engine's output to our stdout, enabling the setboard feature."""
    for line in child.stdout:
        if line.startswith("feature"):
            line = FEATURE_SETBOARD_OFF.sub("setboard=1", line)
        sys.stdout.write(line)
        sys.stdout.flush()


def pump_input(child: subprocess.Popen) -> None:
    """Copy our stdin to the engine, translating ``setboard`` into edit mode."""
    try:
        for line in sys.stdin:
            if line.startswith("setboard "):
                line = "".join(cmd + "\n" for cmd in edit_commands(line[len("setboard "):].strip()))
            child.stdin.write(line)
            child.stdin.flush()
        child.stdin.close()
    except (BrokenPipeError, ValueError):
        pass  # the engine exited; main() notices via its stdout


def main() -> None:
    """Run the wrapped engine until it exits, then exit with its status.

    The wrapper lives exactly as long as the engine: input is forwarded by a
    daemon thread, and the process ends as soon as the engine's output ends
    (``os._exit``, because that thread may still be blocked reading stdin).
    """
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    child = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, bufsize=1, preexec_fn=die_with_parent)
    threading.Thread(target=pump_input, args=(child,), daemon=True).start()
    pump_output(child)
    status = child.wait()
    sys.stdout.flush()
    os._exit(status)


if __name__ == "__main__":
    main()
