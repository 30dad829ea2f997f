#!/usr/bin/env python3
"""SPSA tuning of the search's tunables with fastchess games.

The engine must be a `tuning` build (``cargo build --release --features
tuning``): it offers each tunable of ``src/search/tunables.rs`` as a UCI
spin option, and ``rookery tunables`` prints them as OpenBench SPSA input
lines (``name, int, default, min, max, c_end, r_end``), which this script
reads (all of them, or those named with ``--only``).

Each iteration k draws a random sign per parameter, plays ``--pairs`` game
pairs (one opening, both colours) between the values θ + c_k·Δ and
θ − c_k·Δ with ``../shared/tools/fastchess`` (or the one in the folder
``ROOKERY_SHARED`` names: ``scripts/shared.py``), and moves θ by
a_k · (wins − losses of θ+) / (c_k · Δ): the simultaneous-perturbation
gradient step, with OpenBench's schedules (α = 0.602, γ = 0.101,
A = 10% of the iterations; c_k falls to ``c_end`` and the step a_k to
``r_end · c_end²`` at the last iteration). The state (θ, the iteration,
the games played and the run's settings, with the engine's ``--version``)
is saved as JSON after every iteration, so a run stopped with Ctrl-C (a
run started in the background with ``&`` ignores SIGINT: stop it with
``kill -TERM``, then its fastchess), or cut by the end of a session,
resumes with the same command; a resume with
other settings or another build is refused, since its steps would not
belong to the same schedule. When the run's build is lost with a machine,
``--rebuilt-engine`` resumes with another build of the same tunables (the
other settings still must match): the state's ``builds`` lists each build
with the iteration from which it played, so the results log can say so.
Keep a long run's state in the repository (``results/spsa/``) and commit
it at every stop. The result is the tuned values, to be
checked by a match against the defaults before they are committed.

Example::

    cargo build --release --features tuning --target-dir target/tuning
    python3 scripts/spsa.py --engine target/tuning/release/rookery \\
        --iterations 2000 --pairs 4 --tc 5+0.05 --concurrency 2 \\
        --state /tmp/spsa.json --only futility_base_margin,delta_margin

``--nodes N`` plays each game at N nodes a move with no clock instead:
the games then do not depend on what else the machine runs, so a run
can share the cores with other work (more slowly) without bias. The time
manager's tunables (``time_*``) are then left out.

``--apply TUNABLES_RS --state FILE`` plays nothing: it writes the state's
values, rounded, as the defaults of the tunables' table in TUNABLES_RS
(``src/search/tunables.rs``) and prints each change, so a finished run's
result becomes the candidate to match against the old defaults.

Games end early by fishtest's adjudication (``ADJUDICATION``: a long
level game is a draw, a game both engines score as lost is a loss),
which saves about a sixth of the time; ``--no-adjudication`` plays them
out.

``--r-end R`` gives every tunable the final learning rate R instead of
the table's 0.002, which is OpenBench's for runs of tens of thousands of
games: in a run of a few thousand games the values would hardly move. A
larger rate moves them by as much more, signal and noise alike, so a
short run's result needs its match all the more.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, replace

import shared

ALPHA = 0.602
GAMMA = 0.101
# A, the stability constant, as a fraction of the iterations.
A_FRACTION = 0.1
FASTCHESS = shared.path("tools/fastchess")
BOOK = shared.path("data/openings/8moves_v3.epd")
# The time manager's tunables are named so (src/search/tunables.rs).
CLOCK_TUNABLE_PREFIX = "time_"
RESULT = re.compile(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)")
# fastchess's adjudication, fishtest's settings (scores in normalized
# centipawns, where 100 is an even chance to win): a draw after move 34
# once both sides have scored within 20 for 8 moves each, a loss once both
# sides have agreed on 600 or more for 3 moves each. In 32 games at 20,000
# nodes a move it cut the wall time by 17% and changed no result (session
# 47). scripts/match.sh --adjudicate passes the same.
ADJUDICATION = ["-draw", "movenumber=34", "movecount=8", "score=20",
                "-resign", "movecount=3", "score=600", "twosided=true"]


@dataclass
class Param:
    """One tunable: its range, its SPSA constants and its current value."""

    name: str
    value: float
    minimum: int
    maximum: int
    c_end: float
    r_end: float

    def c(self, k: int, iterations: int) -> float:
        """The perturbation at iteration k (0-based): c_end at the last."""
        return self.c_end * iterations ** GAMMA / (k + 1) ** GAMMA

    def a(self, k: int, iterations: int) -> float:
        """The step at iteration k: r_end · c_end² at the last."""
        big_a = A_FRACTION * iterations
        a_end = self.r_end * self.c_end ** 2
        return a_end * (big_a + iterations) ** ALPHA / (big_a + k + 1) ** ALPHA

    def clamp(self, value: float) -> float:
        return min(max(value, self.minimum), self.maximum)


def parse_params(lines: list[str]) -> list[Param]:
    """Params from OpenBench SPSA lines ``name, int, default, min, max, c_end, r_end``."""
    params = []
    for line in lines:
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != 7 or fields[1] != "int":
            continue
        name, _, default, low, high, c_end, r_end = fields
        params.append(Param(name, float(default), int(low), int(high), float(c_end), float(r_end)))
    return params


def perturbed(params: list[Param], signs: list[int], k: int, iterations: int,
              direction: int) -> dict[str, int]:
    """The integer option values θ ± c_k·Δ, clamped into range."""
    return {p.name: round(p.clamp(p.value + direction * p.c(k, iterations) * s))
            for p, s in zip(params, signs)}


def update(params: list[Param], signs: list[int], k: int, iterations: int,
           score: float) -> None:
    """One gradient step for a score (wins − losses of θ+) of the pairs."""
    for p, s in zip(params, signs):
        p.value = p.clamp(p.value + p.a(k, iterations) * score / (p.c(k, iterations) * s))


def without_clock_tunables(params: list[Param]) -> list[Param]:
    """The tunables that act without a clock: at fixed nodes the time
    manager's have no effect, and SPSA would only walk them at random."""
    return [p for p in params if not p.name.startswith(CLOCK_TUNABLE_PREFIX)]


def with_r_end(params: list[Param], r_end: float) -> list[Param]:
    """The tunables with one final learning rate for all: the table's
    0.002 is OpenBench's, for runs of tens of thousands of games."""
    return [replace(p, r_end=r_end) for p in params]


def fastchess_command(engine: str, plus: dict[str, int], minus: dict[str, int],
                      args) -> list[str]:
    """The fastchess command line of one iteration's pairs: at ``args.tc``,
    or at ``args.nodes`` a move with no clock when that is given."""
    engine = os.path.abspath(engine)

    def side(name: str, values: dict[str, int]) -> list[str]:
        return (["-engine", f"cmd={engine}", f"name={name}", "option.Hash=16", "option.Threads=1"]
                + [f"option.{n}={v}" for n, v in values.items()])
    limit = [f"tc={args.tc}"] if args.nodes is None else ["tc=inf", f"nodes={args.nodes}"]
    return ([args.fastchess] + side("plus", plus) + side("minus", minus)
            + ["-each", "proto=uci", *limit,
               "-openings", f"file={args.book}", "format=epd", "order=random",
               "-srand", str(random.getrandbits(31)),
               "-repeat", "-games", "2", "-rounds", str(args.pairs),
               "-concurrency", str(args.concurrency)]
            + ([] if args.no_adjudication else ADJUDICATION))


def play(engine: str, plus: dict[str, int], minus: dict[str, int], args) -> float:
    """Plays the iteration's pairs; returns wins − losses of θ+."""
    command = fastchess_command(engine, plus, minus, args)
    # fastchess leaves its state (config.json) in its working directory.
    with tempfile.TemporaryDirectory() as scratch:
        output = subprocess.run(command, capture_output=True, text=True, check=True,
                                cwd=scratch).stdout
    results = RESULT.findall(output)
    if not results:
        raise RuntimeError(f"no result in fastchess's output:\n{output[-2000:]}")
    _, wins, losses, _ = map(int, results[-1])
    return float(wins - losses)


def save_state(path: str, state: dict) -> None:
    """Writes the state through a temporary file, so that a run killed while
    saving leaves the previous state whole."""
    temporary = f"{path}.tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        json.dump(state, handle, indent=1)
    os.replace(temporary, path)


def settings_of(args, version: str, params: list[Param]) -> dict:
    """What a run's steps depend on: a resume must have the same."""
    return {"engine_version": version, "iterations": args.iterations, "pairs": args.pairs,
            "limit": f"nodes={args.nodes}" if args.nodes is not None else f"tc={args.tc}",
            "tunables": sorted(p.name for p in params)}


def apply_values(params: list[Param], source: str) -> tuple[str, list[str]]:
    """``source``, the tunables' table (``name: default, min, max, step;``
    lines), with each param's default replaced by its value rounded into
    range; and a line ``name: old -> new`` per change."""
    changes = []
    for p in params:
        line = re.compile(rf"^(\s*{re.escape(p.name)}: )(-?\d+),", re.MULTILINE)
        found = line.search(source)
        if found is None:
            raise ValueError(f"no tunable {p.name} in the table")
        old, new = int(found.group(2)), round(p.clamp(p.value))
        if new != old:
            changes.append(f"{p.name}: {old} -> {new}")
            source = source[:found.start(2)] + str(new) + source[found.end(2):]
    return source, changes


def engine_version(engine: str) -> str:
    """The engine's ``--version`` line: its version and commit."""
    return subprocess.run([engine, "--version"], capture_output=True, text=True,
                          check=True).stdout.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", help="a tuning build of rookery (needed to play)")
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--pairs", type=int, default=2, help="game pairs per iteration")
    parser.add_argument("--tc", default="5+0.05")
    parser.add_argument("--nodes", type=int,
                        help="play at this many nodes a move, no clock, instead of --tc: "
                             "the games do not depend on the machine's load")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--no-adjudication", action="store_true",
                        help="play every game out (by default decided games end early, "
                             "as fishtest's do: ADJUDICATION)")
    parser.add_argument("--only", help="comma-separated tunables to tune (default: all)")
    parser.add_argument("--r-end", type=float,
                        help="every tunable's final learning rate instead of the table's "
                             "(r_end; larger moves the values further in a short run, "
                             "noise with them)")
    parser.add_argument("--state", required=True, help="JSON file: saved and resumed")
    parser.add_argument("--rebuilt-engine", action="store_true",
                        help="resume with another build of the same tunables (the run's "
                             "build was lost): recorded in the state's builds")
    parser.add_argument("--fastchess", default=FASTCHESS)
    parser.add_argument("--book", default=BOOK)
    parser.add_argument("--apply", metavar="TUNABLES_RS",
                        help="play nothing: write the state's values as the defaults in this "
                             "file (src/search/tunables.rs)")
    args = parser.parse_args(argv)
    if args.apply:
        with open(args.state, encoding="utf-8") as handle:
            params = [Param(**p) for p in json.load(handle)["params"]]
        with open(args.apply, encoding="utf-8") as handle:
            source, changes = apply_values(params, handle.read())
        with open(args.apply, "w", encoding="utf-8") as handle:
            handle.write(source)
        print("\n".join(changes) or "no default changes")
        return 0
    if args.engine is None:
        parser.error("--engine is needed to play (only --apply plays nothing)")
    shared.require("spsa.py", [args.fastchess, args.book])
    # fastchess runs in a scratch directory: every path must be absolute.
    args.fastchess, args.book = os.path.abspath(args.fastchess), os.path.abspath(args.book)

    state = None
    if os.path.exists(args.state):
        with open(args.state, encoding="utf-8") as handle:
            state = json.load(handle)
        params = [Param(**p) for p in state["params"]]
        start = state["iteration"]
    else:
        lines = subprocess.run([args.engine, "tunables"], capture_output=True, text=True,
                               check=True).stdout.splitlines()
        params = parse_params(lines)
        if args.only:
            wanted = set(args.only.split(","))
            params = [p for p in params if p.name in wanted]
        start = 0
    if args.nodes is not None:
        params = without_clock_tunables(params)
    if args.r_end is not None:
        params = with_r_end(params, args.r_end)
    if not params:
        sys.exit("spsa: no tunables to tune")
    settings = settings_of(args, engine_version(args.engine), params)
    state = state or {}
    saved = state.get("settings", settings)
    if args.rebuilt_engine:
        saved = {**saved, "engine_version": settings["engine_version"]}
    if saved != settings:
        sys.exit(f"spsa: {args.state} belongs to a run with other settings or another "
                 f"build:\n  saved {state['settings']}\n  now   {settings}")
    games = state.get("games", 0)
    first_build = state.get("settings", settings)["engine_version"]
    builds = state.get("builds") or [{"engine_version": first_build, "from_iteration": 0}]
    if builds[-1]["engine_version"] != settings["engine_version"]:
        builds.append({"engine_version": settings["engine_version"], "from_iteration": start})
    for k in range(start, args.iterations):
        signs = [random.choice((-1, 1)) for _ in params]
        plus = perturbed(params, signs, k, args.iterations, +1)
        minus = perturbed(params, signs, k, args.iterations, -1)
        score = play(args.engine, plus, minus, args)
        update(params, signs, k, args.iterations, score)
        games += 2 * args.pairs
        save_state(args.state, {"iteration": k + 1, "games": games, "settings": settings,
                                "builds": builds, "params": [asdict(p) for p in params]})
        values = " ".join(f"{p.name}={p.value:.1f}" for p in params)
        print(f"iteration {k + 1}/{args.iterations} ({games} games) score {score:+.0f}  "
              f"{values}", flush=True)
    for p in params:
        print(f"{p.name} = {round(p.value)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
