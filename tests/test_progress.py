"""agentloop.progress(): every exercise of the course, with what its check recorded, across restarts."""
import html
import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import agentloop
from agentloop.progress import course

ROOT = Path(__file__).parent.parent
EXERCISES = ROOT / "src" / "agentloop" / "exercises"


@pytest.fixture(autouse=True)
def in_a_notebook_folder(tmp_path, monkeypatch, fresh_backend):
    monkeypatch.chdir(tmp_path)


def reference(entry):
    """The reference solution's definitions for an exercise, found by the check's parameter names."""
    sys.path.insert(0, str(ROOT / "solutions"))
    try:
        solution = importlib.import_module(f"lesson{entry.lesson:02d}")
    finally:
        sys.path.remove(str(ROOT / "solutions"))
    return [getattr(solution, name) for name in entry.names]


def first_exercise():
    return next(iter(course().values()))


def titles_in_the_source() -> list:
    """The oracle: every @exercise("N.M title") written in the lessons' check modules."""
    found = []
    for module in sorted(EXERCISES.glob("lesson*.py")):
        found += re.findall(r'@exercise\(\s*"([^"]+)"', module.read_text())
    return found


def test_the_table_lists_every_exercise_of_the_course_in_order():
    table = agentloop.progress()
    expected = titles_in_the_source()
    assert [f"{row['exercise']} {row['title']}" for row in table.rows] == expected
    assert all(row["result"] == "not yet" and row["when"] == "" for row in table.rows)
    assert [row["lesson"] for row in table.rows] == [int(title.split(".")[0]) for title in expected]


def test_a_check_run_shows_in_the_table_passed_then_not_yet(capsys):
    lesson = [entry for entry in course().values() if entry.lesson == 3]
    solved, missed, untried = lesson[0], lesson[-1], lesson[1]
    assert solved.run(*reference(solved))
    assert not missed.run(*[lambda *args: None for _ in missed.names])
    rows = {row["exercise"]: row for row in agentloop.progress().rows}
    assert rows[solved.id]["result"] == "passed"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", rows[solved.id]["when"])
    assert rows[missed.id]["result"] == "not yet" and rows[missed.id]["when"]
    assert rows[untried.id] == {**rows[untried.id], "result": "not yet", "when": ""}
    assert not solved.run(*[lambda *args: None for _ in solved.names])  # the latest verdict counts
    assert {row["exercise"]: row for row in agentloop.progress().rows}[solved.id]["result"] == "not yet"


def test_plain_text_for_nbval_and_html_for_jupyter():
    first = first_exercise()
    assert first.run(*reference(first))
    table = agentloop.progress()
    text, page = repr(table), table._repr_html_()
    total = len(table.rows)
    assert text.splitlines()[0] == f"1 of {total} exercises passed"
    assert len(text.splitlines()) == total + 2  # the summary, the header, one line per exercise
    title = first.title.split(" ", 1)[1]
    assert re.search(rf"^{first.lesson}\s+{re.escape(first.id)}\s+{re.escape(title)}\s+passed\s+\d{{4}}-", text, re.M)
    assert page.count("<tr>") == total + 1 and f"<td>{html.escape(title)}</td><td>passed</td>" in page


@pytest.mark.parametrize("content", ['{"1.1": {"passed": tr', "[1, 2]", '{"1.1": "passed"}', "",
                                     '{"1.1": ' + "[" * 100_000 + "]" * 100_000 + "}"])
def test_a_corrupt_progress_file_is_an_empty_record(tmp_path, content, capsys):
    (tmp_path / ".agentloop_progress.json").write_text(content)
    assert agentloop.progress().passed == 0
    first = first_exercise()
    assert first.run(*reference(first))
    assert agentloop.progress().passed == 1


def test_progress_survives_a_new_kernel(tmp_path):
    """The file is the record: a check in one interpreter, the table in the next."""
    first = first_exercise()
    run = (f"import sys; sys.path.insert(0, {str(ROOT / 'solutions')!r})\n"
           f"import lesson{first.lesson:02d} as solution\n"
           f"from agentloop.progress import course\n"
           f"entry = course()[{first.id!r}]\n"
           f"assert entry.run(*[getattr(solution, name) for name in entry.names])")
    subprocess.run([sys.executable, "-c", run], cwd=tmp_path, check=True, capture_output=True, timeout=60)
    shown = subprocess.run([sys.executable, "-c", "import agentloop; print(repr(agentloop.progress()))"],
                           cwd=tmp_path, check=True, capture_output=True, text=True, timeout=60).stdout
    assert re.search(rf"^{first.lesson}\s+{re.escape(first.id)}\s.*\spassed\s", shown, re.M)
    assert json.loads((tmp_path / ".agentloop_progress.json").read_text())[first.id]["passed"] is True


def test_course_imports_every_lesson_module():
    ids = list(course())
    assert {int(i.split(".")[0]) for i in ids} == {int(p.stem[6:]) for p in EXERCISES.glob("lesson*.py")}
