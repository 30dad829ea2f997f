"""The shared tools and data (fastchess, the opening book) for the scripts
that play games, and a check that they are there.

The folder is ``../shared`` beside the checkout (every developer's machine
and CI have it), or the one ``ROOKERY_SHARED`` names. A script that needs
it calls :func:`require` first, so that a missing file is said by name,
with where to get it, before any game starts. ``scripts/shared.sh`` is the
same for the shell scripts.
"""

from __future__ import annotations

import os
import sys

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.environ.get("ROOKERY_SHARED") or os.path.join(REPOSITORY, "..", "shared")
# Where each kind of file can be had, by the end of its name.
SOURCES = {
    "fastchess": "fastchess 1.8.2, from https://github.com/Disservin/fastchess/releases",
    ".epd": "from https://github.com/official-stockfish/books, unzipped",
}


def path(relative: str) -> str:
    """The file at ``relative`` in the shared folder."""
    return os.path.join(FOLDER, relative)


def source(file: str) -> str:
    """Where ``file`` can be had."""
    return next((where for end, where in SOURCES.items() if file.endswith(end)),
                "the folder's README lists it")


def missing(script: str, files: list[str]) -> list[str]:
    """A line for each of ``files`` that is not there, and one on where
    they are looked for; none when all are."""
    lines = [f"{script}: missing {f} ({source(f)})" for f in files if not os.path.exists(f)]
    if lines:
        lines.append(f"{script}: the shared tools and data are looked for in "
                     f"{os.path.normpath(FOLDER)} (../shared beside the checkout); put them "
                     "there, or name their folder with ROOKERY_SHARED=DIR")
    return lines


def require(script: str, files: list[str]) -> None:
    """Exits with status 2, saying what is missing, unless every one of
    ``files`` is there."""
    lines = missing(script, files)
    if lines:
        print("\n".join(lines), file=sys.stderr)
        sys.exit(2)
