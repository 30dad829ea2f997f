#!/usr/bin/env python3
"""The table of ``data/selfplay/README.md``, kept true to the manifest.

    python3 scripts/data_table.py check
    python3 scripts/data_table.py update
    python3 scripts/data_table.py update --add 'edffd99_gen12/ s52001-c*' \\
        --engine 'edffd99, gen 12 (`23091a91e0ea`)' --made '2026-11-27, …'

The README's "What is here" table has a row per run of self-play: its
first cell names a folder (`` `edffd99_gen12/` ``) and, where the folder
holds more than one run, the run's files (`` `s51001-c*` ``, `` `s4100{1..6}` ``:
a shell pattern without ``.bin.xz``, braces as the shell expands them);
the last three cells are the games, training positions and bytes of those
files. Below the table, the ``**Size**`` line gives the repository's
totals. Every figure is a sum over ``data/selfplay/manifest.tsv`` (which
``rookery datamanifest`` writes), so this script computes them rather than
anyone typing them:

- ``check`` exits 1 naming each row whose figures are not its files' sums,
  each manifest file that no row or more than one row covers, and a
  ``**Size**`` line that is not the manifest's totals;
- ``update`` rewrites every row's figures and the ``**Size**`` line, and
  refuses (exit 1, writing nothing) a row longer than 400 characters;
  ``--add 'FOLDER/ SPEC'`` with ``--engine`` and ``--made`` first appends a
  row for a new run (its figures filled in like the others').

``--readme`` and ``--manifest`` name other files (the tests use them).
Exit status 0 when all is well, 1 when ``check`` finds a fault or
``update`` cannot place a row, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import csv
import fnmatch
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data" / "selfplay"
# What every game file's name ends in.
SUFFIX = ".bin.xz"
# A table row: its first cell, the two middle ones, and the three figures.
ROW = re.compile(r"^\| (`[^`]+/`(?: `[^`]+`)?) \| (.*) \| (.*) \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \|$")
FIRST_CELL = re.compile(r"^`([^`]+)/`(?: `([^`]+)`)?$")
SIZE = re.compile(r"^\*\*Size\*\*: .*$", re.MULTILINE)
BRACE = re.compile(r"\{([^{}]*)\}")
RANGE = re.compile(r"^(\d+)\.\.(\d+)$")
# Bytes in the megabytes the Size line gives.
MEGABYTE = 1_000_000
# The longest Markdown line the project accepts: scripts/test_results.py
# holds every tracked Markdown file to it, and a longer row is refused
# here, where it is written, and not first in CI.
MAX_MARKDOWN_LINE = 400


@dataclass(frozen=True)
class Totals:
    """Games, training positions and bytes of some files."""
    games: int = 0
    positions: int = 0
    bytes: int = 0

    def __add__(self, other: Totals) -> Totals:
        return Totals(self.games + other.games, self.positions + other.positions,
                      self.bytes + other.bytes)


def read_manifest(path: Path) -> dict[str, Totals]:
    """Each file of the manifest (its path) with its figures. Lines that
    start with ``#`` (the training filter's version) are not rows."""
    with open(path, newline="", encoding="utf-8") as file:
        lines = (line for line in file if not line.startswith("#"))
        return {row["path"]: Totals(int(row["games"]), int(row["training_positions"]),
                                    int(row["bytes"]))
                for row in csv.DictReader(lines, delimiter="\t")}


def expand_braces(pattern: str) -> list[str]:
    """The patterns a shell's brace expansion makes of ``pattern``:
    ``a{1,2}`` is ``a1`` and ``a2``, ``a{1..3}`` is ``a1``, ``a2``, ``a3``."""
    match = BRACE.search(pattern)
    if not match:
        return [pattern]
    body = match.group(1)
    numbers = RANGE.match(body)
    if numbers:
        low, high = int(numbers.group(1)), int(numbers.group(2))
        choices = [str(n) for n in range(low, high + 1)]
    else:
        choices = body.split(",")
    head, tail = pattern[:match.start()], pattern[match.end():]
    return [expanded for choice in choices for expanded in expand_braces(head + choice + tail)]


def covers(first_cell: str, path: str) -> bool:
    """Whether a row whose first cell is ``first_cell`` covers the file
    ``path`` (relative to ``data/selfplay/``)."""
    match = FIRST_CELL.match(first_cell)
    if not match:
        return False
    folder, spec = match.group(1), match.group(2)
    directory, _, name = path.rpartition("/")
    if directory != folder:
        return False
    return spec is None or any(fnmatch.fnmatchcase(name, pattern + SUFFIX)
                               for pattern in expand_braces(spec))


def row_files(first_cell: str, files: dict[str, Totals]) -> list[str]:
    """The manifest's files that the row whose first cell is ``first_cell``
    covers."""
    return [path for path in files if covers(first_cell, path)]


def total_of(totals: Iterable[Totals]) -> Totals:
    """The sum of some files' totals (zero for none)."""
    return sum(totals, Totals())


def size_line(total: Totals) -> str:
    """The README's ``**Size**`` line for the manifest's totals."""
    return (f"**Size**: {total.bytes / MEGABYTE:.1f} MB of game files "
            f"({total.bytes:,} bytes) for {total.positions / 1e6:.2f} M training "
            f"positions in {total.games:,} games, "
            f"{total.bytes / total.positions:.2f} bytes a position.")


def row_text(first_cell: str, engine: str, made: str, totals: Totals) -> str:
    return (f"| {first_cell} | {engine} | {made} | {totals.games:,} | "
            f"{totals.positions:,} | {totals.bytes:,} |")


def faults(readme: str, files: dict[str, Totals]) -> list[str]:
    """What in ``readme`` disagrees with the manifest's ``files``."""
    found = []
    covered: dict[str, int] = {path: 0 for path in files}
    for number, line in enumerate(readme.splitlines(), 1):
        row = ROW.match(line)
        if not row:
            continue
        first_cell = row.group(1)
        mine = row_files(first_cell, files)
        for path in mine:
            covered[path] += 1
        want = total_of(files[path] for path in mine)
        have = Totals(*(int(row.group(k).replace(",", "")) for k in (4, 5, 6)))
        if not mine:
            found.append(f"line {number}: {first_cell} covers no file of the manifest")
        elif have != want:
            found.append(f"line {number}: {first_cell} says {have}, its files sum to {want}")
    for path, rows in covered.items():
        if rows != 1:
            found.append(f"{path}: covered by {rows} rows of the table, not 1")
    total = total_of(files.values())
    if size_line(total) not in readme:
        found.append(f"the **Size** line is not: {size_line(total)}")
    return found


def update(readme: str, files: dict[str, Totals],
           new_row: tuple[str, str, str] | None = None) -> str:
    """``readme`` with every row's figures and the Size line recomputed,
    and ``new_row`` (first cell, engine, made) appended to the table."""
    lines = readme.splitlines()
    rows = [k for k, line in enumerate(lines) if ROW.match(line)]
    if not rows:
        raise ValueError("the README has no table rows")
    if new_row is not None:
        first_cell = new_row[0]
        if any(ROW.match(lines[k]).group(1) == first_cell for k in rows):
            raise ValueError(f"the table already has a row {first_cell}")
        lines.insert(rows[-1] + 1, row_text(*new_row, Totals()))
        rows.append(rows[-1] + 1)
    for k in rows:
        row = ROW.match(lines[k])
        first_cell = row.group(1)
        totals = total_of(files[path] for path in row_files(first_cell, files))
        lines[k] = row_text(first_cell, row.group(2), row.group(3), totals)
        if len(lines[k]) > MAX_MARKDOWN_LINE:
            raise ValueError(f"the row {first_cell} would be {len(lines[k])} characters, "
                             f"more than {MAX_MARKDOWN_LINE}: shorten its engine or made text")
    text = "\n".join(lines) + ("\n" if readme.endswith("\n") else "")
    total = total_of(files.values())
    if not SIZE.search(text):
        raise ValueError("the README has no **Size** line")
    return SIZE.sub(lambda _: size_line(total), text)


def first_cell_of(argument: str) -> str:
    """``FOLDER/ SPEC`` (or ``FOLDER/``) as the table's first cell."""
    folder, _, spec = argument.partition(" ")
    if not folder.endswith("/"):
        raise ValueError(f"{argument!r}: the folder must end in '/'")
    return f"`{folder}`" + (f" `{spec.strip()}`" if spec.strip() else "")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readme", type=Path, default=DATA / "README.md")
    parser.add_argument("--manifest", type=Path, default=DATA / "manifest.tsv")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check", help="exit 1 naming each figure the manifest contradicts")
    add = commands.add_parser("update", help="recompute every figure, optionally adding a row")
    add.add_argument("--add", metavar="'FOLDER/ SPEC'", help="a new run's first cell")
    add.add_argument("--engine", help="the new row's engine and network")
    add.add_argument("--made", help="the new row's account of how it was made, "
                     "dated by day (YYYY-MM-DD) or commit, never by working session")
    args = parser.parse_args(argv)

    readme = args.readme.read_text(encoding="utf-8")
    files = read_manifest(args.manifest)
    if args.command == "check":
        found = faults(readme, files)
        for fault in found:
            print(f"{args.readme}: {fault}", file=sys.stderr)
        if not found:
            print(f"{args.readme}: every figure is the manifest's ({len(files)} files)")
        return 1 if found else 0
    new_row = None
    if args.add:
        if not (args.engine and args.made):
            parser.error("--add needs --engine and --made")
        try:
            new_row = (first_cell_of(args.add), args.engine, args.made)
        except ValueError as error:
            parser.error(str(error))
    try:
        args.readme.write_text(update(readme, files, new_row), encoding="utf-8")
    except ValueError as error:
        print(f"{args.readme}: {error}", file=sys.stderr)
        return 1
    print(f"{args.readme}: figures recomputed from {len(files)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
