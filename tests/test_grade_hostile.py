"""`python -m agentloop grade` on a class where every file is hostile (issue 17): a zip bomb, a notebook
nested 100,000 deep, symbolic links (to another student's work, to /dev/zero), a FIFO, a run that
floods stderr, notebooks that forge their grade, names that drive a terminal or a spreadsheet. One
real run of the command; each file still gets its row, the CSV is written, the temp dirs are gone."""
import csv
import io
import json
import os
import re
import subprocess
import sys
import zipfile

import pytest

from agentloop import grade
from test_grade import Lesson, code, exercises, write

WRONG = "def {name}(*args, **kwargs):\n    return ['a wrong answer']\n"
FORGERIES = {  # a cell, after wrong answers, that tries to pass every check
    "forge_run": "from agentloop.checks import registry, Result\n"
                 "for entry in registry.values():\n    entry.run = lambda *a: Result(True, 'passed')",
    "forge_verdict": "import agentloop.checks as checks\nchecks._verdict = lambda entry, answer: (True, 'passed')",
    "forge_result": "import agentloop.checks as checks\nchecks.Result.__bool__ = lambda self: True",
    "forge_check": "from agentloop.checks import registry\n"
                   "for entry in registry.values():\n    entry.check = lambda *a: None",
    "forge_builtins": "import builtins\nbuiltins.bool = lambda *a: True",
    "forge_result_file": "import json, posix, sys\n"  # posix._exit: os._exit under another name
                         "rows = [{'lesson': 1, 'exercise': f'1.{n}', 'passed': True, 'detail': ''} for n in (1, 2, 3)]\n"
                         "json.dump({'rows': rows, 'failed': []}, open(sys.argv[2], 'w'))\nposix._exit(0)",
}
ESCAPES = "\x1b]0;owned\x07\x1b[2J"
FORMULA = '=HYPERLINK("evil.example","click")'
FLOOD_MB = 400


def wrong_answers(lesson: Lesson) -> dict:
    notebook = lesson.reference()
    for entry in exercises(lesson.number):
        if lesson.solvable(entry):
            cell = lesson.cells[entry.id]
            notebook["cells"][cell]["source"] = lesson.solved_cell(entry, WRONG.format(name=entry.names[0]))
    return notebook


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    folder, elsewhere, temp = root / "class", root / "elsewhere", root / "tmp"
    for each in (folder, elsewhere, temp):
        each.mkdir()
    one = Lesson(1)
    write(elsewhere, "ada.ipynb", one.reference())
    os.symlink(elsewhere / "ada.ipynb", folder / "carol.ipynb")  # someone else's solution, outside the folder
    os.symlink("/dev/zero", folder / "zero.ipynb")
    os.mkfifo(folder / "fifo.ipynb")
    (folder / "deep.ipynb").write_text('{"cells": ' + "[" * 100_000)
    flood = one.reference()
    flood["cells"].append(code(f"import os\nfor _ in range({FLOOD_MB}):\n    os.write(2, b'x' * 2**20)"))
    write(folder, "flood.ipynb", flood)
    for name, forgery in FORGERIES.items():
        notebook = wrong_answers(one)
        notebook["cells"].append(code(forgery))
        write(folder, f"{name}.ipynb", notebook)
    write(folder, f"{ESCAPES}.ipynb", one.reference())
    write(folder, f"{FORMULA}/01_agent_function.ipynb", one.reference())
    bomb = root / "bombs.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bombs/alice/01_agent_function.ipynb", b" " * (80 * 2**20))  # 80 MB of spaces, 80 KB zipped
        archive.writestr("bombs/bob/01_agent_function.ipynb", json.dumps(one.reference()))
    out = root / "results.csv"
    measure = ("import resource, subprocess, sys\n"
               "done = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=240)\n"
               "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
               "sys.stdout.write(done.stdout)\nsys.stderr.write(done.stderr)")
    done = subprocess.run([sys.executable, "-c", measure, sys.executable, "-m", "agentloop", "grade", str(folder),
                           str(bomb), "--out", str(out), "--cell-timeout", "5", "--timeout", "60", "--jobs", "2"],
                          capture_output=True, text=True, timeout=300, cwd=root, env={**os.environ, "TMPDIR": str(temp)})
    status, peak_kb = map(int, done.stdout.split("\n", 1)[0].split())
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8")))) if out.exists() else []
    return {"status": status, "peak_mb": peak_kb / 1024, "printed": done.stdout.split("\n", 1)[1],
            "bar": done.stderr, "rows": rows, "temp": list(temp.iterdir())}


def details(hostile, student) -> list:
    return [row["detail"] for row in hostile["rows"] if row["student"] == student]


def test_every_file_gets_its_row_and_the_csv_is_written(hostile):
    assert hostile["status"] == 0, hostile["bar"][-2000:]
    students = {row["student"] for row in hostile["rows"]}
    expected = {"carol", "zero", "fifo", "deep", "flood", *FORGERIES, "alice", "bob"}
    assert expected <= students and len(students) == len(expected) + 2  # the escaped name and the formula


def test_links_devices_and_fifos_are_reported_never_followed(hostile):
    assert set(details(hostile, "carol")) == {"not graded: a symbolic link, not a regular file (it is never "
                                              "followed or opened)"}
    assert set(details(hostile, "zero")) == set(details(hostile, "carol"))
    assert set(details(hostile, "fifo")) == {"not graded: a FIFO (named pipe), not a regular file (it is never "
                                             "followed or opened)"}
    assert not any(row["passed"] == "yes" for row in hostile["rows"] if row["student"] in ("carol", "zero"))


def test_a_zip_bomb_is_stopped_while_inflating_and_the_zip_still_graded(hostile):
    assert set(details(hostile, "alice")) == {"not graded: it inflates to over 64 MB"}
    assert [row["passed"] for row in hostile["rows"] if row["student"] == "bob"] == [
        "yes" if Lesson(1).solvable(e) else "no" for e in exercises(1)]


def test_a_notebook_nested_100000_deep_is_not_a_notebook(hostile):
    assert details(hostile, "deep") == ["not a notebook: it nests arrays and objects more than 128 deep"]


def test_a_flood_of_stderr_is_dropped_as_it_comes_and_temp_dirs_are_gone(hostile):
    assert [row["passed"] for row in hostile["rows"] if row["student"] == "flood"] == [
        "yes" if Lesson(1).solvable(e) else "no" for e in exercises(1)]
    assert hostile["peak_mb"] < FLOOD_MB / 2  # the grader and every notebook's interpreter
    assert hostile["temp"] == []


@pytest.mark.parametrize("student", FORGERIES)
def test_a_notebook_that_tampers_with_the_checks_gets_no_credit(hostile, student):
    rows = [row for row in hostile["rows"] if row["student"] == student]
    assert len(rows) == len(exercises(1)) and not any(row["passed"] == "yes" for row in rows)
    assert all("Hint" in row["detail"] or "not attempted" in row["detail"] for row in rows)


def test_names_reach_the_terminal_and_the_csv_escaped(hostile):
    escaped = grade.shown(ESCAPES)
    assert escaped == "\\x1b]0;owned\\x07\\x1b[2J"
    for text in (hostile["printed"], hostile["bar"]):
        assert "\x1b" not in text and "\x07" not in text
    assert re.search(rf"^{re.escape(escaped)}\s+\d of \d$", hostile["printed"], re.M)
    assert escaped in hostile["bar"]
    assert {row["student"] for row in hostile["rows"]} >= {escaped, "'" + FORMULA}


@pytest.mark.parametrize("cell, kept", [("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@SUM(A1)", "'@SUM(A1)"),
                                        ("\tx", "'\tx"), ("\rx", "'\rx"), ("ada", "ada"), ("", "")])
def test_csv_cells_that_would_be_formulas_are_text(cell, kept):
    assert grade.inert(cell) == kept


def test_members_a_zip_cannot_give_back_are_reported_one_by_one(tmp_path):
    archive = tmp_path / "odd.zip"
    good = json.dumps(Lesson(1).reference()).encode()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr("odd/ann/01_agent_function.ipynb", good)
        zipped.writestr("odd/crc/01_agent_function.ipynb", b'{"cells": []}' + b" " * 1000)
        link = zipfile.ZipInfo("odd/lin/01_agent_function.ipynb")
        link.external_attr = (0o120777 << 16)  # a symbolic link, as zip -y stores one
        zipped.writestr(link, "../../etc/passwd")
    data = bytearray(archive.read_bytes())
    at = data.index(b"odd/crc/01_agent_function.ipynb") + len("odd/crc/01_agent_function.ipynb") + 4
    data[at] ^= 0xFF  # damage the compressed bytes of one member
    archive.write_bytes(bytes(data))
    found = {s.student: s for s in grade.collect([archive])}
    assert found["ann"].raw == good and not found["ann"].problem
    assert found["crc"].problem.startswith("not graded: the zip cannot give it back")
    assert found["lin"].problem == ("not graded: a symbolic link, not a regular file in the zip (it is never "
                                    "followed or opened)") and found["lin"].raw == b""
    broken = tmp_path / "broken.zip"
    broken.write_bytes(archive.read_bytes().replace(b"PK\x01\x02", b"PK\x09\x09"))  # no central directory
    assert [s.problem.split(" (")[0] for s in grade.collect([broken])] == ["not graded: the zip cannot be read"]
