#!/usr/bin/env python3
"""The results log, ``results/results.tsv``: check it, or append a row.

    python3 scripts/results.py check
    python3 scripts/results.py append --session 35 --change "network gen 9" \\
        --commit fba0fc1 --test "SPRT[0,10] 25k nodes" --games 1011 \\
        --elo "+18.9 ± 15.6" --llr "2.38 (stopped)" --verdict "shipped as gen 9" \\
        [--date 2026-11-26] [--notes results/notes/gen9.md]

The log is tab-separated: a header row, exactly ``COLUMNS``, then one row
per experiment (``results/README.md`` says what each column holds).
``check`` reads the whole file and exits 1 naming every line that breaks a
rule: one field per column, none empty (``-`` stands for nothing), none
holding a tab, a carriage return or a line break; ``date`` is YYYY-MM-DD or
a session (``s35``); ``games`` is a whole number or ``-``; ``elo`` is ``-``
or a figure and its margin (``+13.9 ± 14.7``); ``notes`` is ``-`` or a file
``results/notes/<slug>.md`` that exists (relative to the repository, the
folder above the log's). ``append`` checks the file, then the new row by
the same rules, and only then adds it; ``--date`` defaults to today and
``--commit``, ``--llr`` and ``--notes`` to ``-``.

``check`` also holds ``results/README.md``'s index by subject (the
README beside the log, when there is one) against the files: every row it
cites (``rows 35–36``: lines of the log) is a line of the log, every note
of ``results/notes/`` is cited (```s41```, or a range ```s36```–```s41```),
and every patch of ``results/patches/`` is named, and only those.

``--file`` names another log (the tests use it). Exit status 0 when all is
well, 1 when a rule is broken, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import datetime
import re
import sys
from pathlib import Path

COLUMNS = ["date", "session", "change", "commit", "test", "games", "elo", "llr",
           "verdict", "notes"]
LOG = Path(__file__).resolve().parent.parent / "results" / "results.tsv"

DATE = re.compile(r"\d{4}-\d{2}-\d{2}|s\d+")
GAMES = re.compile(r"\d+")
NUMBER = r"(?:\d+(?:\.\d+)?|inf)"
ELO = re.compile(rf"[+-]?{NUMBER} ± {NUMBER}")
NOTES = re.compile(r"results/notes/[A-Za-z0-9._-]+\.md")


def field_errors(fields: list[str], root: Path) -> list[str]:
    """What is wrong with one row's fields (empty when nothing is)."""
    if len(fields) != len(COLUMNS):
        return [f"{len(fields)} fields, not {len(COLUMNS)}"]
    errors = []
    for name, value in zip(COLUMNS, fields):
        if value == "":
            errors.append(f"{name} is empty (write - for nothing)")
        elif any(c in value for c in "\t\r\n"):
            errors.append(f"{name} holds a tab or a line break")
        elif value != value.strip():
            errors.append(f"{name} has spaces at an end")
    row = dict(zip(COLUMNS, fields))
    if row["date"] and not DATE.fullmatch(row["date"]):
        errors.append(f"date {row['date']!r} is neither YYYY-MM-DD nor a session (s35)")
    if row["games"] not in ("", "-") and not GAMES.fullmatch(row["games"]):
        errors.append(f"games {row['games']!r} is neither a whole number nor -")
    if row["elo"] not in ("", "-") and not ELO.fullmatch(row["elo"]):
        errors.append(f"elo {row['elo']!r} is neither - nor a figure and margin (+13.9 ± 14.7)")
    notes = row["notes"]
    if notes not in ("", "-"):
        if not NOTES.fullmatch(notes):
            errors.append(f"notes {notes!r} is not results/notes/<slug>.md")
        elif not (root / notes).is_file():
            errors.append(f"notes {notes} does not exist")
    return errors


def check(path: Path) -> list[str]:
    """Every broken rule of the log at ``path``, as ``path:line: what`` lines."""
    root = path.resolve().parent.parent
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        return [f"{path}: cannot be read: {err}"]
    if text == "":
        return [f"{path}: empty, not even the header"]
    errors = []
    if not text.endswith("\n"):
        errors.append(f"{path}: no line break after the last row")
    lines = text[:-1].split("\n") if text.endswith("\n") else text.split("\n")
    if lines[0].split("\t") != COLUMNS:
        errors.append(f"{path}:1: the header is not exactly: {' '.join(COLUMNS)} "
                      "(separated by tabs)")
    for number, line in enumerate(lines[1:], start=2):
        errors += [f"{path}:{number}: {error}" for error in field_errors(line.split("\t"), root)]
    return errors


INDEX = "## Index by subject"
CITED_ROWS = re.compile(r"\b[Rr]ows? (\d+(?:–\d+)?(?:, \d+(?:–\d+)?)*)")
CITED_NOTES = re.compile(r"`([A-Za-z0-9-]+)`(?:–`([A-Za-z0-9-]+)`)?")
CITED_PATCH = re.compile(r"`([A-Za-z0-9._-]+\.patch)`")
NOTE_NAME = re.compile(r"([a-z-]*)(\d*)(.*)")


def note_order(stem: str) -> tuple[str, int, str]:
    """Where a note's name sorts in a cited range: ``s9`` before ``s10``,
    ``gen5`` before ``gen5b`` before ``gen6``."""
    prefix, number, suffix = NOTE_NAME.fullmatch(stem).groups()
    return prefix, int(number or 0), suffix


def index_errors(readme: Path, log_lines: int) -> list[str]:
    """What the index by subject of ``readme`` cites wrongly or leaves out,
    for a log of ``log_lines`` lines beside it."""
    text = readme.read_text(encoding="utf-8")
    if INDEX not in text:
        return [f"{readme}: no '{INDEX}' section"]
    index = text.split(INDEX, 1)[1].split("\n## ", 1)[0]
    errors = []
    for match in CITED_ROWS.finditer(index):
        for cited in match.group(1).split(", "):
            first, _, last = cited.partition("–")
            if not 2 <= int(first) <= int(last or first) <= log_lines:
                errors.append(f"{readme}: the index cites row {cited}, not a row of the log")
    notes = {p.stem for p in (readme.parent / "notes").glob("*.md")}
    cited_notes = set()
    for first, last in CITED_NOTES.findall(index):
        if last and first in notes and last in notes:
            low, high = note_order(first), note_order(last)
            cited_notes |= {n for n in notes
                            if note_order(n)[0] == low[0] and low <= note_order(n) <= high}
        cited_notes |= {first, last} & notes
    errors += [f"{readme}: the index cites no note {n}.md" for n in sorted(notes - cited_notes)]
    patches = {p.name for p in (readme.parent / "patches").glob("*.patch")}
    named = set(CITED_PATCH.findall(index))
    errors += [f"{readme}: the index names no patch {p}" for p in sorted(patches - named)]
    errors += [f"{readme}: the index names {p}, which patches/ lacks"
               for p in sorted(named - patches)]
    return errors


def append(path: Path, fields: list[str]) -> list[str]:
    """Adds ``fields`` as the log's last row, once the log and the row pass;
    otherwise changes nothing and returns what is wrong."""
    errors = check(path)
    if errors:
        return errors + [f"{path}: not appended to a log that does not pass its check"]
    row_errors = field_errors(fields, path.resolve().parent.parent)
    if row_errors:
        return [f"the new row: {error}" for error in row_errors]
    with path.open("a", encoding="utf-8") as out:
        out.write("\t".join(fields) + "\n")
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--file", type=Path, default=LOG, help=f"the log (default {LOG})")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check", help="check the log's header and every row")
    add = commands.add_parser("append", help="append one row, checked")
    add.add_argument("--date", default=datetime.date.today().isoformat(),
                     help="YYYY-MM-DD, or the session (s35) if the day is unknown (default today)")
    add.add_argument("--session", required=True, help="the session's number")
    add.add_argument("--change", required=True, help="what was tested, short")
    add.add_argument("--commit", default="-", help="commit or branch tested (default -)")
    add.add_argument("--test", required=True,
                     help="test kind and bounds: 'SPRT[0,10] 25k nodes', 'fixed 600 games 8s+0.08s'")
    add.add_argument("--games", required=True, help="games behind the figure, or -")
    add.add_argument("--elo", required=True, help="'+13.9 ± 14.7', or -")
    add.add_argument("--llr", default="-", help="'2.38 (stopped)', '2.98 (H1)', or - (default)")
    add.add_argument("--verdict", required=True,
                     help="'accepted H1', 'rejected', 'stopped by hand, not a result', ...")
    add.add_argument("--notes", default="-", help="results/notes/<slug>.md, or - (default)")
    args = parser.parse_args(argv)
    if args.command == "check":
        errors = check(args.file)
        rows = len(args.file.read_text(encoding="utf-8").splitlines()) - 1 if not errors else 0
        done = f"{args.file}: {rows} rows, every one passes"
        readme = args.file.parent / "README.md"
        if not errors and readme.exists():
            errors = index_errors(readme, rows + 1)
            done += "; its index by subject cites only rows it has, every note and every patch"
    else:
        errors = append(args.file, [getattr(args, name) for name in COLUMNS])
        done = f"{args.file}: row appended"
    for error in errors:
        print(f"results.py: {error}", file=sys.stderr)
    if errors:
        return 1
    print(done)
    return 0


if __name__ == "__main__":
    sys.exit(main())
