"""Unit tests for scripts/results.py, the check of the repository's own
``results/results.tsv``, and the 400-character limit on the lines of every
Markdown file: ``python3 -m pytest scripts/test_results.py``."""

import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results  # noqa: E402
from data_table import MAX_MARKDOWN_LINE  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HEADER = "\t".join(results.COLUMNS) + "\n"
ROW = ["2026-11-26", "35", "network gen 9", "fba0fc1", "SPRT[0,10] 25k nodes", "1011",
       "+18.9 ± 15.6", "2.38, 0.08 (stopped)", "shipped as gen 9", "results/notes/gen9.md"]


def log(tmp_path: Path, *rows: list[str], header: str = HEADER) -> Path:
    """A log at ``tmp_path/results/results.tsv`` with a note for ``ROW``."""
    (tmp_path / "results" / "notes").mkdir(parents=True)
    (tmp_path / "results" / "notes" / "gen9.md").write_text("# Network gen 9\n")
    path = tmp_path / "results" / "results.tsv"
    path.write_text(header + "".join("\t".join(row) + "\n" for row in rows), encoding="utf-8")
    return path


def test_the_repositorys_results_log_passes_its_check():
    assert results.check(ROOT / "results" / "results.tsv") == []


def test_a_good_log_passes_and_a_row_is_appended(tmp_path):
    path = log(tmp_path, ROW)
    assert results.check(path) == []
    new = ["s36", "36", "ProbCut again", "-", "ladder", "-", "-", "-", "measurement", "-"]
    assert results.append(path, new) == []
    assert path.read_text(encoding="utf-8").splitlines()[-1] == "\t".join(new)
    assert results.check(path) == []


def test_the_header_must_be_exact(tmp_path):
    path = log(tmp_path, ROW, header=HEADER.replace("llr", "LLR"))
    errors = results.check(path)
    assert len(errors) == 1 and ":1: the header is not exactly" in errors[0]


def test_a_row_with_a_field_too_few_or_too_many_is_named_by_its_line(tmp_path):
    path = log(tmp_path, ROW, ROW[:-1], ROW + ["extra"])
    errors = results.check(path)
    assert errors == [f"{path}:3: 9 fields, not 10", f"{path}:4: 11 fields, not 10"]


def test_games_is_a_whole_number_or_a_dash(tmp_path):
    for games, good in [("1011", True), ("-", True), ("about 1,000", False), ("10.5", False)]:
        path = log(tmp_path / games.replace(" ", "_"), ROW[:5] + [games] + ROW[6:])
        assert (results.check(path) == []) == good, games


def test_date_elo_and_notes_are_checked(tmp_path):
    bad = ROW[:]
    bad[0], bad[6], bad[9] = "26/11/2026", "+18.9 +/- 15.6", "results/notes/missing.md"
    errors = results.check(log(tmp_path, bad))
    assert len(errors) == 3
    assert "date" in errors[0] and "elo" in errors[1] and "does not exist" in errors[2]


def test_empty_fields_and_a_missing_last_line_break_are_errors(tmp_path):
    path = log(tmp_path, ROW[:3] + [""] + ROW[4:])
    assert "commit is empty" in results.check(path)[0]
    path.write_text(HEADER + "\t".join(ROW), encoding="utf-8")
    assert results.check(path) == [f"{path}: no line break after the last row"]


def test_append_refuses_a_tab_or_a_line_break_and_leaves_the_log_alone(tmp_path):
    path = log(tmp_path, ROW)
    before = path.read_text(encoding="utf-8")
    for bad in ["two\tfields", "two\nlines"]:
        errors = results.append(path, ROW[:2] + [bad] + ROW[3:])
        assert errors == ["the new row: change holds a tab or a line break"]
    assert results.append(path, ROW[:5] + ["many"] + ROW[6:])
    assert path.read_text(encoding="utf-8") == before


def test_append_refuses_a_log_that_fails_its_check(tmp_path):
    path = log(tmp_path, ROW[:-1])
    errors = results.append(path, ROW)
    assert errors[-1].endswith("not appended to a log that does not pass its check")
    assert len(path.read_text(encoding="utf-8").splitlines()) == 2


def test_the_command_line(tmp_path, capsys):
    path = log(tmp_path, ROW)
    assert results.main(["--file", str(path), "check"]) == 0
    assert results.main(["--file", str(path), "append", "--date", "2026-11-27",
                         "--session", "36", "--change", "a change", "--test", "fixed 10 games",
                         "--games", "10", "--elo", "-5.0 ± 80.1", "--verdict", "measurement"]) == 0
    assert path.read_text(encoding="utf-8").splitlines()[-1].split("\t") == [
        "2026-11-27", "36", "a change", "-", "fixed 10 games", "10", "-5.0 ± 80.1", "-",
        "measurement", "-"]
    capsys.readouterr()
    assert results.main(["--file", str(path), "append", "--session", "36", "--change", "x",
                         "--test", "t", "--games", "ten", "--elo", "-", "--verdict", "v"]) == 1
    assert "games 'ten' is neither a whole number nor -" in capsys.readouterr().err


def markdown_files() -> list[Path]:
    """The repository's Markdown files: tracked or about to be (``git
    ls-files``), or, in a copy without git (``.ci/run`` tests one), every
    ``.md`` file outside hidden folders and ``target``."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "*.md"],
            cwd=ROOT, capture_output=True, check=True).stdout.decode("utf-8")
        paths = [ROOT / name for name in listed.split("\0") if name]
    except (OSError, subprocess.CalledProcessError):
        paths = []
        for folder, subfolders, files in os.walk(ROOT):
            subfolders[:] = [d for d in subfolders if not d.startswith(".") and d != "target"]
            paths += [Path(folder) / name for name in files if name.endswith(".md")]
    return sorted(path for path in paths if path.is_file())


def test_no_markdown_line_is_longer_than_400_characters():
    files = markdown_files()
    assert ROOT / "README.md" in files
    long_lines = [f"{path.relative_to(ROOT)}:{number}: {len(line)} characters"
                  for path in files
                  for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                  if len(line) > MAX_MARKDOWN_LINE]
    assert long_lines == []


def test_the_repositorys_index_by_subject_cites_rows_notes_and_patches_rightly():
    log_lines = len((ROOT / "results" / "results.tsv").read_text(encoding="utf-8").splitlines())
    assert results.index_errors(ROOT / "results" / "README.md", log_lines) == []


def test_the_index_must_cite_real_rows_every_note_and_every_patch(tmp_path):
    for folder, names in [("notes", ["s9.md", "s10.md", "s11.md", "gen5b.md"]),
                          ("patches", ["s10-idea.patch"])]:
        (tmp_path / folder).mkdir()
        for name in names:
            (tmp_path / folder / name).write_text("x\n")
    readme = tmp_path / "README.md"
    readme.write_text("# Results\n\n## Index by subject\n\n"
                      "- An idea: rows 2–3, 5. `s9`–`s11`, `gen5b`. `s10-idea.patch`.\n\n"
                      "## Columns\n\n- rows 99, `gone.patch` outside the index\n",
                      encoding="utf-8")
    assert results.index_errors(readme, 5) == []
    assert results.index_errors(readme, 4) == [
        f"{readme}: the index cites row 5, not a row of the log"]
    readme.write_text("## Index by subject\n\n- Rows 2. `s9`, `s11`. `other.patch`\n",
                      encoding="utf-8")
    assert results.index_errors(readme, 5) == [
        f"{readme}: the index cites no note gen5b.md",
        f"{readme}: the index cites no note s10.md",
        f"{readme}: the index names no patch s10-idea.patch",
        f"{readme}: the index names other.patch, which patches/ lacks"]
