"""Unit tests for scripts/data_table.py, and the check that the
repository's ``data/selfplay/README.md`` agrees with its manifest:
``python3 -m pytest scripts/test_data_table.py``."""

import os
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data_table  # noqa: E402
from data_table import Totals  # noqa: E402

FILES = {
    "old_gen5/s1.bin.xz": Totals(10, 100, 1000),
    "new_gen9/s40001.bin.xz": Totals(1, 10, 100),
    "new_gen9/s40002.bin.xz": Totals(2, 20, 200),
    "new_gen9/s42001-c00000.bin.xz": Totals(3, 30, 300),
    "new_gen9/s42001-c00001.bin.xz": Totals(4, 40, 400),
}
TOTAL = Totals(20, 200, 2000)


def readme(*rows: str, size: str = "**Size**: stale.") -> str:
    return ("# data\n\n| folder | engine | made | games | positions | bytes |\n"
            "|---|---|---|---|---|---|\n" + "".join(row + "\n" for row in rows)
            + "\nText between.\n\n" + size + "\n")


GOOD = readme("| `old_gen5/` | e5 | session 1 | 10 | 100 | 1,000 |",
              "| `new_gen9/` `s4000{1,2}` | e9 | session 2 | 3 | 30 | 300 |",
              "| `new_gen9/` `s42001-c*` | e9 | session 3 | 7 | 70 | 700 |",
              size=data_table.size_line(TOTAL))


def test_the_repositorys_table_is_its_manifests_sums():
    text = data_table.DATA.joinpath("README.md").read_text(encoding="utf-8")
    files = data_table.read_manifest(data_table.DATA / "manifest.tsv")
    assert data_table.faults(text, files) == []


def test_braces_expand_as_the_shells_do():
    assert data_table.expand_braces("s4000{1,2}") == ["s40001", "s40002"]
    assert data_table.expand_braces("s4100{1..3}") == ["s41001", "s41002", "s41003"]
    assert data_table.expand_braces("s42001-c*") == ["s42001-c*"]


def test_a_row_covers_its_folder_or_its_files_only():
    assert data_table.covers("`old_gen5/`", "old_gen5/s1.bin.xz")
    assert not data_table.covers("`old_gen5/`", "new_gen9/s40001.bin.xz")
    assert data_table.covers("`new_gen9/` `s4000{1,2}`", "new_gen9/s40002.bin.xz")
    assert not data_table.covers("`new_gen9/` `s4000{1,2}`", "new_gen9/s42001-c00000.bin.xz")
    assert data_table.covers("`new_gen9/` `s42001-c*`", "new_gen9/s42001-c00001.bin.xz")


def test_a_true_table_passes():
    assert data_table.faults(GOOD, FILES) == []


def test_a_wrong_figure_a_file_left_out_or_covered_twice_and_a_stale_size_are_named():
    wrong = GOOD.replace("| 7 | 70 | 700 |", "| 7 | 71 | 700 |")
    assert [f for f in data_table.faults(wrong, FILES) if "s42001-c*" in f and "sum" in f]
    left_out = GOOD.replace("| `new_gen9/` `s4000{1,2}` | e9 | session 2 | 3 | 30 | 300 |\n", "")
    assert [f for f in data_table.faults(left_out, FILES) if f.startswith("new_gen9/s40001")]
    twice = GOOD.replace("`s42001-c*`", "`s4*`")
    assert [f for f in data_table.faults(twice, FILES) if "covered by 2 rows" in f]
    stale = GOOD.replace(data_table.size_line(TOTAL), "**Size**: stale.")
    assert [f for f in data_table.faults(stale, FILES) if "Size" in f]


def test_update_recomputes_every_figure_and_adds_a_row():
    files = dict(FILES)
    files["new_gen9/s42001-c00002.bin.xz"] = Totals(5, 50, 500)
    files["gen12/s52001-c00000.bin.xz"] = Totals(6, 60, 600)
    text = data_table.update(GOOD, files, ("`gen12/` `s52001-c*`", "e12", "session 4"))
    assert data_table.faults(text, files) == []
    assert "| `new_gen9/` `s42001-c*` | e9 | session 3 | 12 | 120 | 1,200 |" in text
    assert "| `gen12/` `s52001-c*` | e12 | session 4 | 6 | 60 | 600 |\n\nText between." in text
    assert data_table.size_line(Totals(31, 310, 3100)) in text


def test_update_refuses_a_row_that_is_there():
    try:
        data_table.update(GOOD, FILES, ("`old_gen5/`", "e", "again"))
    except ValueError as error:
        assert "already" in str(error)
    else:
        raise AssertionError("a second row for old_gen5/ was added")


def test_update_refuses_a_row_longer_than_the_markdown_limit():
    made = "x" * data_table.MAX_MARKDOWN_LINE
    try:
        data_table.update(GOOD, FILES, ("`old_gen6/`", "e", made))
    except ValueError as error:
        assert "`old_gen6/`" in str(error) and "characters" in str(error)
    else:
        raise AssertionError("a row over the limit was written")


def test_the_command_line_adds_a_row_and_checks(tmp_path: Path):
    manifest = tmp_path / "manifest.tsv"
    manifest.write_text("path\tgames\ttraining_positions\tbytes\n"
                        + "".join(f"{p}\t{t.games}\t{t.positions}\t{t.bytes}\n"
                                  for p, t in FILES.items()), encoding="utf-8")
    path = tmp_path / "README.md"
    path.write_text(GOOD.replace("| 7 | 70 | 700 |", "| 0 | 0 | 0 |"), encoding="utf-8")
    common = ["--readme", str(path), "--manifest", str(manifest)]
    assert data_table.main(common + ["check"]) == 1
    assert data_table.main(common + ["update"]) == 0
    assert data_table.main(common + ["check"]) == 0
    assert path.read_text(encoding="utf-8") == GOOD
