#!/usr/bin/env python3
"""Checks the layering of ``src/``: no import cycles between files, and
every import pointing down the layers of the README's map ("How it is
built"): protocol (``main.rs`` and its subcommands in ``cli/``, ``uci/``)
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

Usage: ``python3 scripts/layers.py [SRC_DIR]`` (default ``src``); exit
status 1 when a rule is broken. ``scripts/test_layers.py`` runs it on the
repository in CI.
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


def layer_of(relative: str) -> int:
    """The index in LAYERS of a file's layer (0 is the highest)."""
    return next(i for i, (_, pattern) in enumerate(LAYERS) if pattern.match(relative))


def module_of(relative: str) -> tuple[str, ...]:
    """The module path of a file relative to the source root."""
    parts = relative[:-len(".rs")].split("/")
    if parts[-1] == "mod":
        parts = parts[:-1]
    return () if parts in (["lib"], ["main"]) else tuple(parts)


def import_graph(src: str) -> dict[str, set[str]]:
    """File → files it imports, relative to ``src``."""
    files = sorted(os.path.relpath(os.path.join(d, f), src)
                   for d, _, names in os.walk(src) for f in names if f.endswith(".rs"))
    modules = {module_of(f): f for f in files if f != "main.rs"}

    def file_of(path: list[str]) -> str | None:
        for end in range(len(path), 0, -1):
            if tuple(path[:end]) in modules:
                return modules[tuple(path[:end])]
        return None

    graph: dict[str, set[str]] = {f: set() for f in files}
    for f in files:
        if f == "main.rs":
            continue
        me = module_of(f)
        parent = me[:-1]
        # Comments (doc links among them) name modules without importing.
        text = re.sub(r"//[^\n]*", "", open(os.path.join(src, f), encoding="utf-8").read())
        targets = []
        for match in PATH.finditer(text):
            base = [] if match.group(1) == "crate" else list(parent)
            rest = [p for p in match.group(2).split("::") if p]
            items = match.group(3)
            if items is None:
                targets.append(base + rest)
            for item in (items or "").split(","):
                item = item.strip().split(" as ")[0]
                if item:
                    targets.append(base + rest + [p for p in item.split("::") if p != "self"])
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


def main() -> int:
    src = sys.argv[1] if len(sys.argv) > 1 else "src"
    graph = import_graph(src)
    found = cycles(graph)
    bad = violations(graph)
    for component in found:
        print("cycle:", " ".join(component))
    for a, b in bad:
        print(f"layer: {a} imports {b}")
    edges = sum(len(t) for t in graph.values())
    print(f"{len(graph)} files, {edges} imports, {len(found)} cycles, {len(bad)} layer violations")
    return 1 if found or bad else 0


if __name__ == "__main__":
    sys.exit(main())
