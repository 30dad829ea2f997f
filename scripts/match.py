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
  worker owns its own two engine processes (:class:`game.Player`). Workers
  push one :class:`game.GameRecord` per finished game onto a queue; the main
  thread alone prints progress, writes the PGN and updates the
  :class:`Tally`, so no locking is needed. A worker takes its next pair
  only after the main thread has processed everything queued so far, so
  once the SPRT crosses a bound no new pair is started; pairs already in
  flight on other workers are finished and counted.
* **Games** (clocks, faults, how a game ends, adjudication) live in
  :mod:`game`.
* **Statistics** live in :mod:`stats` (unit-tested separately).
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import queue
import random
import shlex
import sys
import threading
import traceback
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Optional

import chess
import chess.engine
import chess.pgn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stats  # noqa: E402
from game import (  # noqa: E402
    DRAW_CP, DRAW_FROM_MOVE, DRAW_MOVES, FAULT_KINDS, RESIGN_CP, RESIGN_MOVES,
    EngineSpec, GameRecord, MatchConfig, Player, TimeControl, parse_options, play_game,
)

# Sentinel a worker puts on the result queue when it exits.
WORKER_DONE = object()


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
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    cfg = MatchConfig(tc, args.max_plies, args.adjudicate, args.event, args.games, seed)
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
