#!/usr/bin/env python3
"""Tournament runner: play a two-engine match and report Elo / SPRT.

Design
------
* **Pairs.** Each opening is played twice with colours swapped. Pair
  ``p`` consists of games ``2p+1`` (engine1 White) and ``2p+2`` (engine1
  Black). A pair is the unit of work handed to a worker thread, so the
  pentanomial statistics (and the SPRT, which is evaluated after every
  completed pair) never see half pairs. With an odd ``--games`` the last
  pair has a single game; it counts for W/D/L but not for the pentanomial.
* **Concurrency.** ``--concurrency K`` starts K worker threads; every
  worker owns its own two engine processes (:class:`Player`). Workers
  push one :class:`GameRecord` per finished game onto a queue; the main
  thread alone prints progress, writes the PGN and updates the
  :class:`Tally`, so no locking is needed. A worker takes its next pair
  only after the main thread has processed everything queued so far, so
  once the SPRT crosses a bound no new pair is started; pairs already in
  flight on other workers are finished and counted.
* **Clocks.** The runner, not the engine, is the arbiter. Each move's
  think time is measured with ``time.monotonic()`` around the engine
  request (so protocol overhead is charged to the engine), subtracted from
  the mover's clock, and then the increment is added. The clocks are sent
  to the engine as ``wtime/btime/winc/binc`` (UCI) or ``level/time/otim``
  (xboard). A clock below ``-timemargin`` (default 0 ms: strict) after a
  move loses on time, except that it is a draw when the opponent has
  insufficient mating material. With ``--movetime`` there is no clock and
  no time forfeit.
* **Faults.** Each is a loss for the offender and counted per engine:
  ``illegal`` (illegal/unparsable move), ``crash`` (process exited or
  protocol error), ``hang`` (no reply within the remaining clock plus
  ``--hang-timeout`` seconds; the process is killed), ``timeforfeit`` and
  ``nomove`` (``bestmove (none)``/``0000`` while legal moves exist). After an
  illegal move, crash or hang the engine is restarted for the next game.
* **Game end.** Checkmate, stalemate, insufficient material, claimable
  threefold repetition and fifty-move rule (``Board.outcome(claim_draw=
  True)``), a hard ply cap (``--max-plies``, draw), xboard resignations,
  and optional score adjudication (``--adjudicate``, off by default).
* **Statistics** live in :mod:`stats` (unit-tested separately).
"""

from __future__ import annotations

import argparse
import datetime
import logging
import math
import os
import queue
import random
import shlex
import sys
import threading
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Optional

import chess
import chess.engine
import chess.pgn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stats  # noqa: E402

FAULT_KINDS = ("illegal", "crash", "hang", "timeforfeit", "nomove")

# Score adjudication (only with --adjudicate).
RESIGN_CP = 1000        # |score| at or above this ...
RESIGN_MOVES = 5        # ... for this many consecutive moves by each side
DRAW_CP = 10            # |score| at or below this ...
DRAW_MOVES = 10         # ... for this many consecutive moves by each side
DRAW_FROM_MOVE = 40     # ... once the full-move number is past this

# Seconds allowed for engine start-up, option setting and quitting.
STARTUP_TIMEOUT = 30.0

# Sentinel a worker puts on the result queue when it exits.
WORKER_DONE = object()


@dataclass(frozen=True)
class EngineSpec:
    """How to start and configure one of the two engines."""

    name: str
    command: list[str]
    proto: str
    options: dict[str, str]


@dataclass(frozen=True)
class TimeControl:
    """Either a clock (``base`` + ``inc`` seconds) or a fixed ``movetime`` in seconds."""

    base: Optional[float]
    inc: float
    movetime: Optional[float]
    margin: float
    hang_grace: float

    def limit(self, clocks: dict[bool, float], game_id: object) -> chess.engine.Limit:
        """Return the search limit for the next move given the current clocks."""
        if self.movetime is not None:
            return chess.engine.Limit(time=self.movetime)
        return chess.engine.Limit(
            white_clock=max(clocks[chess.WHITE], 0.0),
            black_clock=max(clocks[chess.BLACK], 0.0),
            white_inc=self.inc,
            black_inc=self.inc,
            clock_id=game_id,  # xboard: send "level" once per game, then time/otim
        )

    def hang_timeout(self, clock: float) -> float:
        """Return how long to wait for a move before declaring the engine hung."""
        allowed = self.movetime if self.movetime is not None else max(clock, 0.0)
        return allowed + self.hang_grace

    def pgn_tag(self) -> str:
        """Return the PGN ``TimeControl`` tag value."""
        if self.movetime is not None:
            return f"{self.movetime:g}/move"
        return f"{self.base:g}+{self.inc:g}"


@dataclass(frozen=True)
class MatchConfig:
    """Settings shared by all games of a match."""

    tc: TimeControl
    max_plies: int
    adjudicate: bool
    event: str
    total_games: int


class GameFault(Exception):
    """An engine misbehaved; ``kind`` is one of :data:`FAULT_KINDS`."""

    def __init__(self, kind: str, detail: str):
        super().__init__(detail)
        self.kind = kind


class Player:
    """One engine process, owned by a single worker thread.

    The process is started lazily and discarded after a fault, so the next
    request transparently restarts it.
    """

    def __init__(self, spec: EngineSpec):
        self.spec = spec
        self.engine: Optional[chess.engine.SimpleEngine] = None
        self.hung = False

    def start(self) -> None:
        """Start and configure the engine process unless it is running."""
        if self.engine is not None:
            return
        popen = (chess.engine.SimpleEngine.popen_uci if self.spec.proto == "uci"
                 else chess.engine.SimpleEngine.popen_xboard)
        self.engine = popen(self.spec.command, timeout=STARTUP_TIMEOUT)
        self.hung = False
        if self.spec.options:
            self.engine.configure(self.spec.options)

    def _kill_hung(self) -> None:
        """Watchdog callback: mark the engine as hung and kill its process."""
        self.hung = True
        self.close()

    def play(self, board: chess.Board, limit: chess.engine.Limit, game_id: object,
             timeout: float) -> chess.engine.PlayResult:
        """Ask for a move; a watchdog kills the engine after ``timeout`` seconds."""
        engine = self.engine
        watchdog = threading.Timer(timeout, self._kill_hung)
        watchdog.daemon = True
        watchdog.start()
        try:
            return engine.play(board, limit, game=game_id,
                               info=chess.engine.INFO_BASIC | chess.engine.INFO_SCORE)
        finally:
            watchdog.cancel()

    def close(self) -> None:
        """Kill the engine process (if any) without waiting for it."""
        engine, self.engine = self.engine, None
        if engine is not None:
            engine.close()

    def quit(self) -> None:
        """Politely quit the engine, falling back to killing it."""
        engine = self.engine
        if engine is None:
            return
        try:
            engine.quit()
        except (chess.engine.EngineError, TimeoutError):
            pass
        self.close()


@dataclass
class GameRecord:
    """Outcome of one finished game."""

    number: int
    pair: int
    white: int                      # index (0/1) of the engine playing White
    result: str                     # "1-0", "0-1" or "1/2-1/2"
    termination: str
    fault: Optional[tuple[int, str]]  # (engine index, fault kind)
    pgn: chess.pgn.Game
    # Per engine: tablebase hits summed over its moves, and moves with any.
    tbhits: tuple[list[int], list[int]] = field(default_factory=lambda: ([0, 0], [0, 0]))

    def points(self, engine: int) -> float:
        """Return the points scored by engine ``engine`` (0 or 1)."""
        if self.result == "1/2-1/2":
            return 0.5
        white_won = self.result == "1-0"
        return 1.0 if white_won == (engine == self.white) else 0.0


def parse_options(pairs: list[str]) -> dict[str, str]:
    """Parse repeated ``NAME=VALUE`` arguments into a dict."""
    options = {}
    for item in pairs:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise argparse.ArgumentTypeError(f"option must be NAME=VALUE, got {item!r}")
        options[name.strip()] = value.strip()
    return options


def parse_tc(text: str) -> tuple[float, float]:
    """Parse ``BASE+INC`` (seconds) or ``BASE`` into ``(base, inc)``."""
    base, _, inc = text.partition("+")
    try:
        values = float(base), float(inc or 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"time control must be BASE+INC in seconds, got {text!r}")
    if values[0] <= 0 or values[1] < 0:
        raise argparse.ArgumentTypeError(f"invalid time control {text!r}")
    return values


def load_book(path: str, chess960: bool) -> list[chess.Board]:
    """Load opening positions from an EPD file (one FEN/EPD per line) or a PGN
    file (final position of each game). Invalid or finished positions are skipped."""
    boards: list[chess.Board] = []
    if path.lower().endswith(".pgn"):
        with open(path, encoding="utf-8", errors="replace") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                boards.append(chess.Board(game.end().board().fen(), chess960=chess960))
    else:
        with open(path, encoding="utf-8") as handle:
            for lineno, line in enumerate(handle, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                try:
                    boards.append(chess.Board.from_epd(line, chess960=chess960)[0])
                except ValueError as err:
                    print(f"warning: {path}:{lineno}: skipping bad position: {err}", file=sys.stderr)
    usable = [b for b in boards if b.is_valid() and b.outcome() is None]
    if len(usable) < len(boards):
        print(f"warning: skipped {len(boards) - len(usable)} invalid/finished book positions",
              file=sys.stderr)
    return usable


def choose_openings(args: argparse.Namespace, pairs: int, seed: int) -> list[chess.Board]:
    """Return one starting position per pair, cycling through the book if needed."""
    rng = random.Random(seed)
    if args.book:
        book = load_book(args.book, args.chess960)
        if not book:
            sys.exit(f"error: no usable positions in {args.book}")
        if args.book_random:
            rng.shuffle(book)
        return [book[i % len(book)] for i in range(pairs)]
    if args.chess960:
        return [chess.Board.from_chess960_pos(rng.randrange(960)) for _ in range(pairs)]
    return [chess.Board() for _ in range(pairs)]


def preflight(specs: list[EngineSpec], chess960: bool) -> list[EngineSpec]:
    """Start each engine once to validate its command, options and Chess960
    support (exit with an error message on failure).

    Returns the specs with final display names: ``--nameN`` if given, else
    the name the engine reports (UCI ``id name`` / xboard ``myname``),
    suffixed with ``#1``/``#2`` when both are equal.
    """
    named = []
    for spec in specs:
        player = Player(spec)
        try:
            player.start()
            engine = player.engine
            named.append(replace(spec, name=spec.name or engine.id.get("name")
                                             or os.path.basename(spec.command[0])))
            if chess960 and spec.proto == "uci" and "UCI_Chess960" not in engine.options:
                sys.exit(f"error: {shlex.join(spec.command)} has no UCI_Chess960 option")
            if chess960 and spec.proto == "xboard" and \
                    "fischerandom" not in str(engine.protocol.features.get("variants", "")):
                sys.exit(f"error: {shlex.join(spec.command)} does not announce variant fischerandom")
        except (OSError, chess.engine.EngineError, TimeoutError) as err:
            hint = ("; wrap it: --engine \"python3 scripts/xboard_setboard.py ...\""
                    if "setboard" in str(err) else "")
            sys.exit(f"error: cannot start {shlex.join(spec.command)}: {err!r}{hint}")
        finally:
            player.quit()
    if named[0].name == named[1].name:
        named = [replace(s, name=f"{s.name}#{i}") for i, s in enumerate(named, 1)]
    return named


def request_move(player: Player, board: chess.Board, limit: chess.engine.Limit,
                 game_id: object, timeout: float) -> tuple[chess.engine.PlayResult, float]:
    """Ask ``player`` for a move; return ``(result, elapsed seconds)``.

    Raises :class:`GameFault` for crashes, hangs and illegal moves (after
    which the engine process is discarded so it restarts next game).
    """
    try:
        player.start()
    except (OSError, chess.engine.EngineError, TimeoutError) as err:
        player.close()
        raise GameFault("crash", f"restart failed: {err!r}")
    start = time.monotonic()
    try:
        result = player.play(board, limit, game_id, timeout)
    except chess.engine.EngineError as err:
        hung = player.hung
        player.close()
        if hung:
            raise GameFault("hang", f"no move within {timeout:.1f}s, killed")
        if isinstance(err, chess.engine.EngineTerminatedError):
            raise GameFault("crash", f"engine terminated: {err}")
        # python-chess wraps move parse errors as EngineError(ValueError(...)).
        if err.args and isinstance(err.args[0], ValueError):
            raise GameFault("illegal", str(err))
        raise GameFault("crash", f"engine error: {err}")
    elapsed = time.monotonic() - start
    if result.move and result.move not in board.legal_moves:  # a null move (0000) is falsy
        player.close()
        raise GameFault("illegal", f"illegal move {result.move.uci()}")
    return result, elapsed


def format_comment(result: chess.engine.PlayResult, mover: chess.Color, elapsed: float) -> str:
    """Return a cutechess-style move comment: ``+0.35/12 0.250s``."""
    score = result.info.get("score")
    if score is None:
        text = "?"
    else:
        pov = score.pov(mover)
        mate = pov.mate()
        text = f"{'+' if mate > 0 else '-'}M{abs(mate)}" if mate is not None else f"{pov.score() / 100:+.2f}"
    depth = result.info.get("depth")
    return f"{text}/{depth if depth is not None else '?'} {elapsed:.3f}s"


def adjudicate(board: chess.Board, white_scores: list[Optional[int]]) -> Optional[tuple[str, str]]:
    """Return ``(result, termination)`` if score adjudication applies.

    ``white_scores`` holds White-POV centipawn scores per ply of this game
    (``None`` where the engine reported none).
    """
    recent = white_scores[-2 * RESIGN_MOVES:]
    if len(recent) == 2 * RESIGN_MOVES and None not in recent:
        if all(s >= RESIGN_CP for s in recent):
            return "1-0", "adjudication (score)"
        if all(s <= -RESIGN_CP for s in recent):
            return "0-1", "adjudication (score)"
    recent = white_scores[-2 * DRAW_MOVES:]
    if (board.fullmove_number > DRAW_FROM_MOVE and len(recent) == 2 * DRAW_MOVES
            and None not in recent and all(abs(s) <= DRAW_CP for s in recent)):
        return "1/2-1/2", "adjudication (draw score)"
    return None


def loss_for(color: chess.Color) -> str:
    """Return the result string for a loss by ``color``."""
    return "0-1" if color == chess.WHITE else "1-0"


def play_game(players: list[Player], white: int, start: chess.Board, cfg: MatchConfig,
              number: int, pair: int) -> GameRecord:
    """Play one game; ``white`` is the index of the engine playing White."""
    tc = cfg.tc
    board = start.copy(stack=False)
    game_id = object()  # a new game object makes python-chess send ucinewgame/new
    clocks = {chess.WHITE: tc.base or 0.0, chess.BLACK: tc.base or 0.0}
    white_scores: list[Optional[int]] = []
    tbhits: tuple[list[int], list[int]] = ([0, 0], [0, 0])
    comments: list[str] = []
    fault: Optional[tuple[int, str]] = None

    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result, termination = outcome.result(), outcome.termination.name.lower().replace("_", " ")
            break
        if len(board.move_stack) >= cfg.max_plies:
            result, termination = "1/2-1/2", f"ply cap ({cfg.max_plies})"
            break
        mover = board.turn
        index = white if mover == chess.WHITE else 1 - white
        try:
            played, elapsed = request_move(players[index], board, tc.limit(clocks, game_id),
                                           game_id, tc.hang_timeout(clocks[mover]))
        except GameFault as err:
            result, termination, fault = loss_for(mover), f"{err.kind}: {err}", (index, err.kind)
            break
        if tc.movetime is None:
            clocks[mover] -= elapsed
            if clocks[mover] < -tc.margin:
                fault = (index, "timeforfeit")
                termination = f"time forfeit ({-clocks[mover] * 1000:.0f} ms over)"
                if board.has_insufficient_material(not mover):
                    result, termination = "1/2-1/2", termination + ", opponent cannot mate"
                else:
                    result = loss_for(mover)
                break
            clocks[mover] += tc.inc
        if played.resigned:
            result, termination = loss_for(mover), "resign"
            break
        if not played.move:  # None ("bestmove (none)") or the null move "0000"
            result, termination, fault = loss_for(mover), "nomove: engine returned no move", (index, "nomove")
            break
        comments.append(format_comment(played, mover, elapsed))
        if hits := played.info.get("tbhits"):
            tbhits[0][index] += hits
            tbhits[1][index] += 1
        score = played.info.get("score")
        white_scores.append(score.white().score(mate_score=100000) if score is not None else None)
        board.push(played.move)
        if cfg.adjudicate and (adjudication := adjudicate(board, white_scores)):
            result, termination = adjudication
            break

    return GameRecord(number, pair, white, result, termination, fault,
                      build_pgn(board, start, comments, cfg, number, players, white, result, termination),
                      tbhits)


def build_pgn(board: chess.Board, start: chess.Board, comments: list[str], cfg: MatchConfig,
              number: int, players: list[Player], white: int, result: str,
              termination: str) -> chess.pgn.Game:
    """Return the PGN game for a finished board (moves since ``start``)."""
    game = chess.pgn.Game()
    game.setup(start)
    game.headers.update({
        "Event": cfg.event,
        "Site": "?",
        "Date": datetime.date.today().strftime("%Y.%m.%d"),
        "Round": str(number),
        "White": players[white].spec.name,
        "Black": players[1 - white].spec.name,
        "Result": result,
        "TimeControl": cfg.tc.pgn_tag(),
        "Termination": termination,
    })
    node: chess.pgn.GameNode = game
    for move, comment in zip(board.move_stack, comments):
        node = node.add_variation(move, comment=comment)
    return game


@dataclass
class Tally:
    """Running match statistics from engine1's point of view."""

    names: list[str]
    wins: int = 0
    draws: int = 0
    losses: int = 0
    faults: list[Counter] = field(default_factory=lambda: [Counter(), Counter()])
    terminations: Counter = field(default_factory=Counter)
    penta: list[int] = field(default_factory=lambda: [0] * 5)
    pending_pairs: dict[int, float] = field(default_factory=dict)
    tbhits: list[int] = field(default_factory=lambda: [0, 0])
    tb_moves: list[int] = field(default_factory=lambda: [0, 0])

    def add(self, rec: GameRecord) -> None:
        """Account for one finished game."""
        points = rec.points(0)
        self.wins += points == 1.0
        self.draws += points == 0.5
        self.losses += points == 0.0
        if rec.fault is not None:
            self.faults[rec.fault[0]][rec.fault[1]] += 1
        for engine in (0, 1):
            self.tbhits[engine] += rec.tbhits[0][engine]
            self.tb_moves[engine] += rec.tbhits[1][engine]
        self.terminations[rec.termination.split(":")[0].split(" (")[0]] += 1
        if rec.pair in self.pending_pairs:
            self.penta[stats.pentanomial_bucket(self.pending_pairs.pop(rec.pair), points)] += 1
        else:
            self.pending_pairs[rec.pair] = points

    @property
    def games(self) -> int:
        """Number of games played."""
        return self.wins + self.draws + self.losses

    def score_text(self) -> str:
        """Return ``+W =D -L (xx.x%)`` for engine1."""
        pct = 100.0 * (self.wins + 0.5 * self.draws) / self.games if self.games else 50.0
        return f"+{self.wins} ={self.draws} -{self.losses} ({pct:.1f}%)"

    def fault_line(self, engine: int) -> str:
        """Return the per-engine fault counts, listing every kind even when zero."""
        counts = " ".join(f"{kind}={self.faults[engine][kind]}" for kind in FAULT_KINDS)
        return f"engine{engine + 1} ({self.names[engine]}): {counts}"

    def summary(self, sprt: Optional[tuple[float, float, float, float]], verdict: Optional[str]) -> list[str]:
        """Return the final report lines."""
        lines = [f"{self.names[0]} vs {self.names[1]}: {self.games} games, "
                 f"{self.names[0]} {self.score_text()}"]
        elo, err = stats.elo_trinomial(self.wins, self.draws, self.losses)
        lines.append(f"Elo (trinomial):   {elo:+.1f} +/- {err:.1f} (95%)")
        pairs = sum(self.penta)
        if pairs:
            elo, err = stats.elo_pentanomial(self.penta)
            lines.append(f"Elo (pentanomial): {elo:+.1f} +/- {err:.1f} (95%, {pairs} pairs)")
        lines.append(f"Pentanomial [LL LD DD/WL WD WW]: {self.penta}")
        lines.append("Terminations: " + ", ".join(f"{k}={v}" for k, v in sorted(self.terminations.items())))
        lines.extend(self.fault_line(i) for i in (0, 1))
        lines.extend(f"engine{i + 1} ({self.names[i]}): tbhits={self.tbhits[i]} "
                     f"in {self.tb_moves[i]} moves" for i in (0, 1) if self.tb_moves[i])
        if sprt is not None:
            elo0, elo1, alpha, beta = sprt
            llr = stats.sprt_llr(self.penta, elo0, elo1)
            lower, upper = stats.sprt_bounds(alpha, beta)
            lines.append(f"SPRT elo0={elo0:g} elo1={elo1:g} alpha={alpha:g} beta={beta:g}: "
                         f"LLR {llr:.3f} [{lower:.3f}, {upper:.3f}] -> "
                         f"{verdict or stats.sprt_verdict(llr, alpha, beta)}")
        return lines


def worker(specs: list[EngineSpec], cfg: MatchConfig, tasks: queue.Queue, results: queue.Queue,
           stop: threading.Event, registry: list[Player]) -> None:
    """Play pairs from ``tasks`` with this thread's own engines until done or stopped."""
    players = [Player(spec) for spec in specs]
    registry.extend(players)
    try:
        while not stop.is_set():
            try:
                pair, opening = tasks.get_nowait()
            except queue.Empty:
                break
            for white in (0, 1):
                number = 2 * pair + white + 1
                if number <= cfg.total_games:
                    results.put(play_game(players, white, opening, cfg, number, pair))
            results.join()  # let the main thread digest the pair (SPRT stop) first
    except Exception:  # a bug in this script, not an engine fault: report and stop
        traceback.print_exc()
        stop.set()
        results.put(RuntimeError("worker failed"))
    finally:
        try:
            for player in players:
                player.quit()
        finally:
            results.put(WORKER_DONE)


def build_parser() -> argparse.ArgumentParser:
    """Return the command-line parser."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for i in (1, 2):
        p.add_argument(f"--engine{i}", required=True, help="engine command (split with shlex)")
        p.add_argument(f"--name{i}", help="display name (default: the name the engine reports)")
        p.add_argument(f"--option{i}", action="append", default=[], metavar="NAME=VALUE",
                       help="engine option (UCI setoption / xboard option); repeatable")
        p.add_argument(f"--proto{i}", choices=("uci", "xboard"), default="uci")
    p.add_argument("--book", help="opening book: .epd (FEN/EPD per line) or .pgn (final positions)")
    p.add_argument("--book-random", action="store_true", help="shuffle the book (see --seed)")
    p.add_argument("--seed", type=int, help="random seed for --book-random / Chess960 starts")
    p.add_argument("--games", type=int, default=2, help="total games; each opening is played twice (default 2)")
    time_group = p.add_mutually_exclusive_group()
    time_group.add_argument("--tc", type=parse_tc, default="8+0.08", metavar="BASE+INC",
                            help="clock in seconds (default 8+0.08)")
    time_group.add_argument("--movetime", type=float, metavar="MS",
                            help="fixed time per move in milliseconds (no clock, no forfeits)")
    p.add_argument("--timemargin", type=float, default=0.0, metavar="MS",
                   help="overstep allowed before a time forfeit (default 0: strict)")
    p.add_argument("--hang-timeout", type=float, default=10.0, metavar="S",
                   help="seconds beyond the allowed think time before an engine counts as hung "
                        "and is killed (default 10)")
    p.add_argument("--max-plies", type=int, default=600, help="draw after this many plies (default 600)")
    p.add_argument("--concurrency", type=int, default=1, help="games played in parallel, each with its own engine processes (default 1)")
    p.add_argument("--adjudicate", action="store_true",
                   help=f"score adjudication (default off): win at |cp|>={RESIGN_CP} for {RESIGN_MOVES} moves by both, "
                        f"draw at |cp|<={DRAW_CP} for {DRAW_MOVES} moves after move {DRAW_FROM_MOVE}")
    p.add_argument("--pgn", help="append games to this PGN file")
    p.add_argument("--event", default="Rookery match", help="PGN Event tag (default 'Rookery match')")
    p.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"),
                   help="run an SPRT with logistic-Elo bounds; stops early at a bound")
    p.add_argument("--alpha", type=float, default=0.05, help="SPRT false-positive rate (default 0.05)")
    p.add_argument("--beta", type=float, default=0.05, help="SPRT false-negative rate (default 0.05)")
    p.add_argument("--verbose", action="store_true",
                   help="show python-chess warnings (e.g. unexpected engine output)")
    p.add_argument("--chess960", action="store_true",
                   help="Chess960: book FENs are Chess960 positions; UCI_Chess960 is set on both engines")
    return p


def engine_specs(args: argparse.Namespace) -> list[EngineSpec]:
    """Build the two engine specs from the command line (name "" unless given)."""
    specs = []
    for i in (1, 2):
        command = shlex.split(getattr(args, f"engine{i}"))
        name = getattr(args, f"name{i}") or ""
        try:
            options = parse_options(getattr(args, f"option{i}"))
        except argparse.ArgumentTypeError as err:
            sys.exit(f"error: {err}")
        specs.append(EngineSpec(name, command, getattr(args, f"proto{i}"), options))
    return specs


def main(argv: Optional[list[str]] = None) -> int:
    """Run the match described by ``argv``; return the process exit status."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING if args.verbose else logging.ERROR,
                        format="%(levelname)s %(name)s: %(message)s")
    if args.games < 1 or args.concurrency < 1:
        sys.exit("error: --games and --concurrency must be positive")
    specs = engine_specs(args)
    base, inc = args.tc
    tc = TimeControl(base=None if args.movetime else base, inc=0.0 if args.movetime else inc,
                     movetime=args.movetime / 1000 if args.movetime else None,
                     margin=args.timemargin / 1000, hang_grace=args.hang_timeout)
    cfg = MatchConfig(tc, args.max_plies, args.adjudicate, args.event, args.games)
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    pairs = math.ceil(args.games / 2)
    openings = choose_openings(args, pairs, seed)
    specs = preflight(specs, args.chess960)

    print(f"{specs[0].name} vs {specs[1].name}: {args.games} games, tc {tc.pgn_tag()}, "
          f"concurrency {args.concurrency}, seed {seed}", flush=True)
    tasks: queue.Queue = queue.Queue()
    for pair, opening in enumerate(openings):
        tasks.put((pair, opening))
    results: queue.Queue = queue.Queue()
    stop = threading.Event()
    registry: list[Player] = []
    workers = [threading.Thread(target=worker, args=(specs, cfg, tasks, results, stop, registry), daemon=True)
               for _ in range(min(args.concurrency, pairs))]
    for thread in workers:
        thread.start()

    tally = Tally([s.name for s in specs])
    sprt = (*args.sprt, args.alpha, args.beta) if args.sprt else None
    verdict: Optional[str] = None
    status = 0
    running = len(workers)
    pgn_file = open(args.pgn, "a", encoding="utf-8") if args.pgn else None
    try:
        while running:
            item = results.get()
            if item is WORKER_DONE:
                running -= 1
                results.task_done()
                continue
            if isinstance(item, Exception):
                status = 1
                results.task_done()
                continue
            tally.add(item)
            if pgn_file:
                print(item.pgn, file=pgn_file, end="\n\n", flush=True)
            llr = None
            if sprt and item.pair not in tally.pending_pairs:  # re-evaluate after each full pair
                llr = stats.sprt_llr(tally.penta, sprt[0], sprt[1])
            names = (specs[item.white].name, specs[1 - item.white].name)
            print(f"game {item.number}/{args.games}: {item.result} ({item.termination}) "
                  f"{names[0]} vs {names[1]} | {specs[0].name} {tally.score_text()}"
                  + (f" | LLR {llr:.2f}" if llr is not None else ""), flush=True)
            if llr is not None and verdict is None:
                if (outcome := stats.sprt_verdict(llr, sprt[2], sprt[3])) != "continue":
                    verdict = outcome
                    print(f"SPRT: {verdict} (LLR {llr:.3f}); finishing games in progress", flush=True)
                    stop.set()
            results.task_done()
    except KeyboardInterrupt:
        stop.set()
        for player in list(registry):
            player.close()
        print("interrupted; games in progress are discarded", flush=True)
        status = 130
    finally:
        if pgn_file:
            pgn_file.close()

    print("\n=== Summary ===")
    for line in tally.summary(sprt, verdict):
        print(line)
    return status


if __name__ == "__main__":
    sys.exit(main())
