"""Tests of shared.py and shared.sh: a missing shared file is said by name,
with where to get it, and nothing is said when all are there."""

import os
import subprocess

import shared

HERE = os.path.dirname(os.path.abspath(__file__))


def test_missing_files_are_named_with_their_source(tmp_path):
    there = tmp_path / "book.epd"
    there.write_text("")
    gone = str(tmp_path / "tools" / "fastchess")
    lines = shared.missing("x.py", [str(there), gone])
    assert lines[0] == f"x.py: missing {gone} ({shared.SOURCES['fastchess']})"
    assert "ROOKERY_SHARED" in lines[-1] and len(lines) == 2
    assert shared.missing("x.py", [str(there)]) == []


def test_the_shell_check_says_the_same_and_exits_2(tmp_path):
    script = (f'. "{HERE}/shared.sh"; require_shared x.sh "$shared/tools/fastchess"; '
              'echo all-there')
    gone = subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                          env={**os.environ, "ROOKERY_SHARED": str(tmp_path)})
    assert gone.returncode == 2
    assert f"x.sh: missing {tmp_path}/tools/fastchess (fastchess" in gone.stderr
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "fastchess").write_text("")
    there = subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                           env={**os.environ, "ROOKERY_SHARED": str(tmp_path)})
    assert there.returncode == 0 and there.stdout == "all-there\n"
