"""Unit tests for scripts/layers.py, and the check itself on ``src/``: run
with ``python3 -m pytest scripts/test_layers.py``."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layers  # noqa: E402

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")


def write(root, files):
    for name, text in files.items():
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)


def test_the_sources_have_no_cycles_and_keep_their_layers():
    graph = layers.import_graph(SRC)
    assert layers.cycles(graph) == []
    assert layers.violations(graph) == []


def test_the_trainer_imports_only_the_core_layer():
    graph = layers.library_imports(SRC, os.path.join(SRC, "..", "trainer"))
    assert graph, "no trainer sources found"
    assert layers.trainer_violations(graph) == []
    # It reads the games through the records, not through the tools.
    assert any("records/mod.rs" in targets for targets in graph.values())


def test_a_trainer_importing_the_tools_or_the_search_is_found(tmp_path):
    write(tmp_path, {
        "src/lib.rs": "pub mod nnue;\npub mod records;\npub mod search;\npub mod tools;\n",
        "src/nnue/mod.rs": "",
        "src/records/mod.rs": "pub mod manifest;\n",
        "src/records/manifest.rs": "",
        "src/search/mod.rs": "",
        "src/tools/mod.rs": "pub mod datagen;\n",
        "src/tools/datagen/mod.rs": "",
        "trainer/src/data.rs": "use rookery::records::{GameResult, manifest::Entry};\n"
                               "use rookery::tools::datagen::Settings;\n",
        "trainer/src/model.rs": "// rookery::search::Limits in a comment is no import\n"
                                "use rookery::{nnue::HIDDEN, search::Limits};\n",
        "trainer/tests/run.rs": "fn f() { rookery::tools::datagen::run(); }\n",
        "trainer/target/debug/build/x.rs": "use rookery::search::Limits;\n",
    })
    graph = layers.library_imports(str(tmp_path / "src"), str(tmp_path / "trainer"))
    assert graph["src/data.rs"] == {"records/mod.rs", "records/manifest.rs", "tools/datagen/mod.rs"}
    assert layers.trainer_violations(graph) == [
        ("src/data.rs", "tools/datagen/mod.rs"),
        ("src/model.rs", "search/mod.rs"),
        ("tests/run.rs", "tools/datagen/mod.rs"),
    ]


def test_a_cycle_and_a_search_file_importing_the_engine_are_found(tmp_path):
    write(tmp_path, {
        "lib.rs": "pub mod a;\npub mod b;\npub mod engine;\npub mod search;\n",
        "a.rs": "use crate::b::B;\n",
        "b.rs": "use crate::{a::A, engine};\n",
        "engine/mod.rs": "pub mod command;\n",
        "engine/command.rs": "",
        "search/mod.rs": "mod x;\npub use x::X;\n",
        "search/x.rs": "use super::Y;\nuse crate::engine::command::Command;\n",
    })
    graph = layers.import_graph(str(tmp_path))
    assert layers.cycles(graph) == [["a.rs", "b.rs"]]
    # b.rs is a core file: naming the engine is a violation too.
    assert layers.violations(graph) == [
        ("b.rs", "engine/mod.rs"),
        ("search/x.rs", "engine/command.rs"),
    ]
    # A file's paths to its own folder's mod.rs are not edges; the
    # mod.rs's re-export of its child is.
    assert graph["search/x.rs"] == {"engine/command.rs"}
    assert graph["search/mod.rs"] == {"search/x.rs"}


def test_a_tool_importing_the_engine_and_core_importing_search_are_found(tmp_path):
    write(tmp_path, {
        "lib.rs": "pub mod board;\npub mod engine;\npub mod search;\npub mod tools;\n",
        "board.rs": "use crate::search::Limits;\n",
        "engine/mod.rs": "use crate::tools::bench;\n",
        "search/mod.rs": "use crate::board::Board;\n",
        "tools/mod.rs": "pub mod bench;\n",
        "tools/bench.rs": "use crate::engine::Engine;\nuse crate::search::Limits;\n",
    })
    graph = layers.import_graph(str(tmp_path))
    assert layers.violations(graph) == [
        ("board.rs", "search/mod.rs"),
        ("tools/bench.rs", "engine/mod.rs"),
    ]


def test_every_layer_of_the_readme_map_is_checked():
    readme = open(os.path.join(SRC, "..", "README.md"), encoding="utf-8").read()
    for name, _ in layers.LAYERS:
        assert f"\n{name} " in readme, name
    assert [layers.LAYERS[layers.layer_of(f)][0] for f in
            ["main.rs", "cli/bench.rs", "uci/parse.rs", "engine/mod.rs",
             "engine/options.rs", "tools/perft.rs", "search/pool.rs",
             "board/mod.rs", "records/manifest.rs"]] == \
        ["protocol", "protocol", "protocol", "engine", "engine", "tools", "search",
         "core", "core"]
