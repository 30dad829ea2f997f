#!/usr/bin/env python3
"""Checks the layering of ``src/`` and what the trainer imports of it: no
import cycles between files, and every import pointing down the layers
of the README's map ("How it is built"): protocol (``main.rs`` and its subcommands in ``cli/``, ``uci/``)
above engine (``engine/``) above tools (``tools/``) above search
(``search/``) above core (every other file).
A file may import its own layer and the layers below it, never one above:
the search never names the engine or the protocol, and the tools (bench,
perft, datagen) never name the engine.

The import graph is read from the sources, comments left out: every
``crate::…`` and ``super::…`` path (``use`` lines and paths in code,
``{…}`` groups expanded) is an edge to the file of the longest module prefix it names;
in a ``mod.rs`` or ``lib.rs`` a path through a child module (``pub use
child::Item``, ``child::f()``) is an edge to that child. A file's paths to
its own parent module (``super::Searcher`` in ``search/alphabeta.rs``) are
left out: a folder's ``mod.rs`` and its files are one module, whose shared
types the files use. ``lib.rs``, the crate's root, declares every module
and belongs to no layer. Any cycle that remains is reported, as is every
edge up the layers.

The trainer (``trainer/``, a crate of its own) is held to one rule more:
it may import from ``rookery`` only modules of the core layer, the network
(``nnue``), the game records (``records``), the generator (``util``) and
the like, never the tools, the search, the engine or the protocol. It
reads the games that the tools write through ``records``, which both
share; every ``rookery::…`` path of its sources and tests is an edge to
the file of ``src/`` it names, found as above.

Usage: ``python3 scripts/layers.py [SRC_DIR [TRAINER_DIR]]`` (default
``src`` and ``trainer``); exit status 1 when a rule is broken.
``scripts/test_layers.py`` runs it on the repository in CI.
"""

from __future__ import annotations

import os
import re
import sys

# The layers, highest first, as the README's map names them: a file's
# layer is the first whose pattern matches its path relative to src/.
LAYERS = [
    ("protocol", re.compile(r"(main\.rs$|cli/|uci/)")),
    ("engine", re.compile(r"engine/")),
    ("tools", re.compile(r"tools/")),
    ("search", re.compile(r"search/")),
    ("core", re.compile(r"")),
]
# The crate root: declares every module, in no layer.
ROOT = "lib.rs"
PATH = re.compile(r"\b(crate|super)((?:::[A-Za-z_]\w*)*)(?:::\{([^}]*)\})?")
# The library as another crate of the workspace names it.
LIBRARY = "rookery"
LIBRARY_PATH = re.compile(rf"\b{LIBRARY}((?:::[A-Za-z_]\w*)*)(?:::\{{([^}}]*)\}})?")


def layer_of(relative: str) -> int:
    """The index in LAYERS of a file's layer (0 is the highest)."""
    return next(i for i, (_, pattern) in enumerate(LAYERS) if pattern.match(relative))


def module_of(relative: str) -> tuple[str, ...]:
    """The module path of a file relative to the source root."""
    parts = relative[:-len(".rs")].split("/")
    if parts[-1] == "mod":
        parts = parts[:-1]
    return () if parts in (["lib"], ["main"]) else tuple(parts)


def rust_files(root: str) -> list[str]:
    """The ``.rs`` files under ``root``, relative to it (build output left out)."""
    return sorted(os.path.relpath(os.path.join(d, f), root)
                  for d, dirs, names in os.walk(root)
                  if not dirs.__setitem__(slice(None), [x for x in dirs if x != "target"])
                  for f in names if f.endswith(".rs"))


def code_of(path: str) -> str:
    """A file's text with its comments (doc links among them) left out:
    they name modules without importing them."""
    return re.sub(r"//[^\n]*", "", open(path, encoding="utf-8").read())


def expand(base: list[str], rest: str, items: str | None) -> list[list[str]]:
    """The module paths of one matched path, ``{…}`` group expanded."""
    head = base + [p for p in rest.split("::") if p]
    if items is None:
        return [head]
    found = []
    for item in items.split(","):
        item = item.strip().split(" as ")[0]
        if item:
            found.append(head + [p for p in item.split("::") if p != "self"])
    return found


def file_finder(src: str):
    """A function from a module path (a list of names) to the file of
    ``src`` holding its longest prefix, or None."""
    modules = {module_of(f): f for f in rust_files(src) if f != "main.rs"}

    def file_of(path: list[str]) -> str | None:
        for end in range(len(path), 0, -1):
            if tuple(path[:end]) in modules:
                return modules[tuple(path[:end])]
        return None

    return modules, file_of


def import_graph(src: str) -> dict[str, set[str]]:
    """File → files it imports, relative to ``src``."""
    files = rust_files(src)
    modules, file_of = file_finder(src)

    graph: dict[str, set[str]] = {f: set() for f in files}
    for f in files:
        if f == "main.rs":
            continue
        me = module_of(f)
        parent = me[:-1]
        text = code_of(os.path.join(src, f))
        targets = []
        for match in PATH.finditer(text):
            base = [] if match.group(1) == "crate" else list(parent)
            targets.extend(expand(base, match.group(2), match.group(3)))
        if f.endswith("mod.rs") or f == "lib.rs":
            children = {m[-1] for m in modules if m[:-1] == me and m != me}
            for child in re.findall(r"\b([a-z_]\w*)::", text):
                if child in children:
                    targets.append(list(me) + [child])
        for path in targets:
            target = file_of(path)
            if target and target != f and target != modules.get(parent):
                graph[f].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one file."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for v in graph:
        if v not in index:
            visit(v)
    return found


def violations(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Edges from a file to a file of a higher layer."""
    return sorted((a, b) for a, targets in graph.items() for b in targets
                  if ROOT not in (a, b) and layer_of(b) < layer_of(a))


def library_imports(src: str, other: str) -> dict[str, set[str]]:
    """File of another crate (relative to ``other``) → files of ``src`` it
    imports through ``rookery::…`` paths."""
    _, file_of = file_finder(src)
    graph: dict[str, set[str]] = {}
    for f in rust_files(other):
        graph[f] = set()
        for match in LIBRARY_PATH.finditer(code_of(os.path.join(other, f))):
            for path in expand([], match.group(1), match.group(2)):
                target = file_of(path)
                if target:
                    graph[f].add(target)
    return graph


def trainer_violations(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Imports of the trainer from any layer but the core."""
    core = len(LAYERS) - 1
    return sorted((a, b) for a, targets in graph.items() for b in targets
                  if layer_of(b) != core)


def main() -> int:
    src = sys.argv[1] if len(sys.argv) > 1 else "src"
    trainer = sys.argv[2] if len(sys.argv) > 2 else "trainer"
    graph = import_graph(src)
    found = cycles(graph)
    bad = violations(graph)
    trainer_graph = library_imports(src, trainer)
    trainer_bad = trainer_violations(trainer_graph)
    for component in found:
        print("cycle:", " ".join(component))
    for a, b in bad:
        print(f"layer: {a} imports {b}")
    for a, b in trainer_bad:
        print(f"trainer: {trainer}/{a} imports {b}, not of the core layer")
    edges = sum(len(t) for t in graph.values())
    trainer_edges = sum(len(t) for t in trainer_graph.values())
    print(f"{len(graph)} files, {edges} imports, {len(found)} cycles, {len(bad)} layer violations; "
          f"trainer: {len(trainer_graph)} files, {trainer_edges} imports of {LIBRARY}, "
          f"{len(trainer_bad)} outside the core")
    return 1 if found or bad or trainer_bad else 0


if __name__ == "__main__":
    sys.exit(main())
