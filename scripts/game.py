"""One game between two engine processes, as ``match.py`` and ``epd.py`` play it.

This module owns everything about a single game: how an engine is started
and configured (:class:`Player`), how a move is requested and checked, the
clocks, the faults, adjudication and the PGN record. ``match.py`` schedules
games into pairs and keeps the statistics.

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
* **Game end.** Checkmate, stalemate, insufficient material, a position
  on the board for the third time, a hundred halfmoves without a capture
  or pawn move (:func:`game_over`, as cutechess-cli and fastchess rule), a
  hard ply cap (``--max-plies``, draw), xboard resignations, and optional
  score adjudication (``--adjudicate``, off by default).
"""

from __future__ import annotations

import argparse
import datetime
import threading
import time
from dataclasses import dataclass, field
from typing import Optional

import chess
import chess.engine
import chess.pgn

FAULT_KINDS = ("illegal", "crash", "hang", "timeforfeit", "nomove")

# Score adjudication (only with --adjudicate).
RESIGN_CP = 1000        # |score| at or above this ...
RESIGN_MOVES = 5        # ... for this many consecutive moves by each side
DRAW_CP = 10            # |score| at or below this ...
DRAW_MOVES = 10         # ... for this many consecutive moves by each side
DRAW_FROM_MOVE = 40     # ... once the full-move number is past this

# Seconds allowed for engine start-up, option setting and quitting.
STARTUP_TIMEOUT = 30.0


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
    seed: int  # the opening order; written as a PGN tag so runs pooled in one file stay apart


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


def game_over(board: chess.Board) -> Optional[tuple[str, str]]:
    """Return ``(result, termination)`` if the game on ``board`` has ended.

    Threefold repetition and the fifty-move rule end a game only once they
    have happened on the board, as a tournament arbiter (cutechess-cli,
    fastchess) rules them. Not python-chess's ``outcome(claim_draw=True)``:
    that also ends the game when the side to move merely *could* reach a
    third occurrence or the hundredth halfmove with its next move (a
    claim by announcing the move), which drew won games whose winner was
    shuffling and would never have played the repeating move.
    """
    outcome = board.outcome()  # checkmate first, then the automatic draws
    if outcome is not None:
        return outcome.result(), outcome.termination.name.lower().replace("_", " ")
    if board.is_repetition(3):
        return "1/2-1/2", "threefold repetition"
    if board.halfmove_clock >= 100:
        return "1/2-1/2", "fifty moves"
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
        if ended := game_over(board):
            result, termination = ended
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
        "Seed": str(cfg.seed),
    })
    node: chess.pgn.GameNode = game
    for move, comment in zip(board.move_stack, comments):
        node = node.add_variation(move, comment=comment)
    return game
