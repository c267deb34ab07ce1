"""`python -m agentloop grade`: student notebooks of every kind, generated from the real lessons and the
reference solutions, graded for real (one fresh interpreter each); the CSV asserted cell by cell, the
expectations drawn from the exercise registry."""
import ast
import contextlib
import copy
import csv
import io
import json
import os
import re
import socket
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from agentloop import grade
from agentloop.progress import course

# Each cell's limit when the class is graded: far above the slowest lesson cell (under 1 s), so a busy machine
# does not cut a student's right answer short, and still short enough to show an endless loop being stopped.
CELL_TIMEOUT = 6

ROOT = Path(__file__).parent.parent
PASSED = ("yes", "")
ENDLESS_LOOP_THAT_ASKS = "def {name}(*args):\n    while True:\n        agentloop.ask([{{'role': 'user', 'content': 'Hello'}}])\n"


def lesson_notebook(lesson: int) -> dict:
    return json.loads(next((ROOT / "lessons").glob(f"{lesson:02d}_*.ipynb")).read_text())


def source(cell) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def code(text: str) -> dict:
    return {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": text}


def exercises(lesson: int) -> list:
    return [entry for entry in course().values() if entry.lesson == lesson]


class Lesson:
    """A lesson's notebook and how to fill each exercise cell with the reference solution."""

    def __init__(self, lesson: int):
        self.number, self.notebook = lesson, lesson_notebook(lesson)
        tree_source = (ROOT / "solutions" / f"lesson{lesson:02d}.py").read_text()
        statements = ast.parse(tree_source).body
        self.defined = {}  # solution name -> its statement's source
        for node in statements:
            for name in self._names(node):
                self.defined[name] = ast.get_source_segment(tree_source, node)
        # A module-level call that uses a solution's name (tool(count_words, ...)) goes right after it.
        self.after = {name: [ast.get_source_segment(tree_source, node) for node in statements
                             if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                             and name in {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}]
                      for name in self.defined}
        self.agent = set()  # what the lesson's agent cells define: an exercise may be checked with its pieces
        for cell in self.notebook["cells"]:
            if {"carried", "agent"} & set(cell.get("metadata", {}).get("tags", [])):
                for node in ast.parse(source(cell)).body:  # `history, state = ...` binds two names
                    targets = [t for n in ([node] if isinstance(node, ast.Assign) else []) for t in n.targets]
                    self.agent |= set(self._names(node)) | {e.id for t in targets if isinstance(t, ast.Tuple)
                                                            for e in t.elts if isinstance(e, ast.Name)}
        self.cells, self.fills = {}, {}
        for entry in exercises(lesson):
            index = next(i for i, cell in enumerate(self.notebook["cells"])
                         if f".{entry.check.__name__}(" in source(cell))
            self.cells[entry.id] = index
            self.fills[entry.id] = self._fill(entry, source(self.notebook["cells"][index]))
        used = {name for fill in self.fills.values() if fill for name in fill[1]}
        moved = {call for name in used for call in self.after.get(name, [])}
        self.support = "\n".join(ast.get_source_segment(tree_source, node) for node in statements
                                 if not set(self._names(node)) & used and not self._docstring(node)
                                 and ast.get_source_segment(tree_source, node) not in moved)

    @staticmethod
    def _names(node) -> list:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            return [node.name]
        if isinstance(node, ast.Assign):
            return [t.id for t in node.targets if isinstance(t, ast.Name)]
        return []

    @staticmethod
    def _docstring(node) -> bool:
        return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)

    def _fill(self, entry, cell_source: str):
        """(the solution's names for the check's parameters, aliases) or None if it names them otherwise."""
        call = next(node for node in ast.walk(ast.parse(cell_source)) if isinstance(node, ast.Call)
                    and getattr(node.func, "attr", "") == entry.check.__name__)
        passed = [arg.id for arg in call.args]
        chosen = [p if p in self.defined else a if a in self.defined or a in self.agent else None
                  for p, a in zip(entry.names, passed)]
        if None in chosen:
            return None
        return passed, chosen

    def solvable(self, entry) -> bool:
        return self.fills[entry.id] is not None

    def solved_cell(self, entry, body: str | None = None) -> str:
        """The exercise cell with its starter code replaced by the reference solution (or `body`)."""
        passed, chosen = self.fills[entry.id]
        cell = source(self.notebook["cells"][self.cells[entry.id]])
        lines = cell.splitlines()
        for node in reversed(ast.parse(cell).body):  # the starter definitions go, the check call stays
            if set(self._names(node)) & set(passed):
                del lines[node.lineno - 1:node.end_lineno]
        solution = body or "\n\n".join("\n".join([self.defined[name], *self.after[name]])
                                         for name in dict.fromkeys(chosen) if name in self.defined)
        aliases = "".join(f"{a} = {c}\n" for a, c in zip(passed, chosen) if a != c)
        return "\n".join([self.support, solution, aliases] + lines)

    def reference(self) -> dict:
        notebook = copy.deepcopy(self.notebook)
        for entry in exercises(self.number):
            if self.solvable(entry):
                notebook["cells"][self.cells[entry.id]]["source"] = self.solved_cell(entry)
        return notebook

    def expected(self, student: str, result=None, note: str = "") -> list:
        """The rows: the reference passes every exercise it can fill; `result` overrides some."""
        rows = []
        for entry in exercises(self.number):
            passed, detail = PASSED if self.solvable(entry) else ("no", r"not attempted: .+ still the starter code")
            passed, detail = (result or {}).get(entry.id, (passed, detail))
            detail = "; ".join(part for part in (detail, note) if part)
            rows.append((student, str(self.number), entry.id, passed, detail))
        return rows


def write(folder: Path, name: str, notebook) -> None:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(notebook if isinstance(notebook, str) else json.dumps(notebook))


@pytest.fixture(scope="module")
def listener():
    """A real server on 127.0.0.1 that counts the connections it gets: grading must make none."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    yield server
    server.close()


def accepted(server) -> int:
    count = 0
    while True:
        try:
            server.accept()[0].close()
            count += 1
        except OSError:
            return count


@pytest.fixture(scope="module")
def graded(tmp_path_factory, listener):
    """One real grading run over a class folder and a zip, through the command line."""
    folder = tmp_path_factory.mktemp("class")
    port = listener.getsockname()[1]
    marker = folder.parent / "shell-was-here"
    expected = []
    for number in range(1, 10):
        lesson = Lesson(number)
        write(folder, f"ref{number}.ipynb", lesson.reference())
        expected += lesson.expected(f"ref{number}")
        write(folder, f"new{number}.ipynb", lesson.notebook)
        expected += lesson.expected(f"new{number}", {e.id: ("no", r"not attempted: .+ still the starter code")
                                                     for e in exercises(number)})

    four = Lesson(4)
    first, *rest = [e for e in exercises(4) if four.solvable(e)]
    partly = copy.deepcopy(four.notebook)
    partly["cells"][four.cells[first.id]]["source"] = four.solved_cell(first)
    write(folder, "partly.ipynb", partly)
    expected += four.expected("partly", {e.id: ("no", r"not attempted: .+ still the starter code") for e in rest})

    # The last exercise is answered wrongly: no later exercise builds on it (4.2 calls 4.1's trim_history).
    last = [e for e in exercises(4) if four.solvable(e)][-1]
    wrong_answer = "def {name}(*args):\n    return ['a wrong answer']\n"  # each name the check takes
    wrong = four.reference()
    wrong["cells"][four.cells[last.id]]["source"] = four.solved_cell(
        last, "".join(wrong_answer.format(name=name) for name in last.names))
    write(folder, "wrong.ipynb", wrong)
    scope = {}
    exec(wrong_answer.format(name="answer"), scope)
    with contextlib.redirect_stdout(io.StringIO()):  # the oracle: the same check, run here
        hint = last.run(*[scope["answer"]] * len(last.names)).message.removeprefix(f"❌ {last.title}: not yet. ")
    expected += four.expected("wrong", {last.id: ("no", re.escape(hint))})

    three = Lesson(3)
    solvable = [e for e in exercises(3) if three.solvable(e)]
    gone = solvable[1]
    deleted = three.reference()
    deleted["cells"] = [cell for i, cell in enumerate(deleted["cells"])
                        if cell["cell_type"] == "code" and i != three.cells[gone.id]]
    write(folder, "deleted.ipynb", deleted)
    expected += three.expected("deleted", {gone.id: ("no", "not attempted: " + re.escape(", ".join(gone.names))
                                                     + " not defined")})

    six = Lesson(6)
    shuffled = six.reference()
    exercise_cells = [shuffled["cells"][i] for i in six.cells.values()]
    others = [cell for i, cell in enumerate(shuffled["cells"]) if i not in six.cells.values()]
    shuffled["cells"] = exercise_cells[::-1] + [c for cell in others for c in (cell, copy.deepcopy(cell))]
    write(folder, "shuffled.ipynb", shuffled)
    expected += six.expected("shuffled")

    five = Lesson(5)
    spinner = five.reference()
    spinner["cells"].insert(0, code("while True:\n    pass"))
    write(folder, "spinner.ipynb", spinner)
    expected += five.expected("spinner", note=rf"cell 1 skipped: ran longer than {CELL_TIMEOUT} s \(a loop that never ends\?\)")

    looping = three.reference()
    looper = next(e for e in solvable if not any(  # one that no other solution calls
        re.search(rf"\b{name}\b", text) for name in e.names for other, text in three.defined.items()
        if other not in e.names))
    looping["cells"][three.cells[looper.id]]["source"] = "import agentloop\n" + three.solved_cell(
        looper, ENDLESS_LOOP_THAT_ASKS.format(name=looper.names[0]))
    write(folder, "looper.ipynb", looping)
    expected += three.expected("looper", {looper.id: ("no", r"Hint: your loop made more than \d+ model calls: "
                                                            r"is max_turns missing\?")})

    one = Lesson(1)
    shell = one.reference()
    shell["cells"][1:1] = [code(f"import os\nos.system('touch {marker}')"),
                           code(f"import socket\nsocket.create_connection(('127.0.0.1', {port}))")]
    write(folder, "shell.ipynb", shell)
    at = sum(cell["cell_type"] == "code" for cell in shell["cells"][:2])  # cells count as code cells
    expected += one.expected("shell", note=rf"cell {at} skipped: PermissionError: os.system is blocked while grading; "
                                           rf"cell {at + 1} skipped: PermissionError: the network is blocked while "
                                           r"grading")
    raiser = one.reference()
    raiser["cells"] += [code("raise RuntimeError('student bug')"), code("hog = bytearray(4 * 1024 ** 3)"),
                        code("import sys\nsys.exit(3)")]
    write(folder, "raiser/01_agent_function.ipynb", raiser)
    count = sum(cell["cell_type"] == "code" for cell in raiser["cells"])
    expected += one.expected("raiser", note=rf"cell {count - 2} skipped: RuntimeError: student bug; "
                                            rf"cell {count - 1} skipped: MemoryError; "
                                            rf"cell {count} skipped: called exit\(\), which ends the cell here, "
                                            r"not the grading")

    seven = Lesson(7)
    write(folder, "broken/07_policy.ipynb", json.dumps(seven.reference())[:5000])
    expected += seven.expected("broken", {e.id: ("no", r"not a notebook: invalid JSON \(.+\)") for e in exercises(7)})
    write(folder, "odd/05_state_and_tracing.ipynb", json.dumps({"cells": [1, 2]}))
    expected += five.expected("odd", {e.id: ("no", "not a notebook: JSON, but not a list of cells")
                                      for e in exercises(5)})
    write(folder, "mystery.ipynb", "{not json")
    expected.append(("mystery", "", "", "no", r"not a notebook: invalid JSON \(.+\)"))

    archive = folder.parent / "class.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("class/zoe/08_self_scheduling.ipynb", json.dumps(Lesson(8).reference()))
        zipped.writestr("class/yan/08_self_scheduling.ipynb", json.dumps(Lesson(8).notebook))
        zipped.writestr("__MACOSX/class/._zoe", "")
    expected += Lesson(8).expected("zoe")
    expected += Lesson(8).expected("yan", {e.id: ("no", r"not attempted: .+ still the starter code")
                                           for e in exercises(8)})

    out = folder.parent / "results.csv"
    env = {**os.environ, "LLM_BASE_URL": f"http://127.0.0.1:{port}/v1", "LLM_API_KEY": "sk-grade-test"}
    done = subprocess.run([sys.executable, "-m", "agentloop", "grade", str(folder), str(archive), "--out", str(out),
                           "--cell-timeout", str(CELL_TIMEOUT), "--timeout", "90", "--jobs", "2"],
                          capture_output=True, text=True, timeout=900, env=env, cwd=folder.parent)
    return {"done": done, "rows": list(csv.reader(io.StringIO(out.read_text()))), "marker": marker,
            "expected": sorted(expected, key=lambda row: row[0]), "connections": accepted(listener)}


def test_the_csv_cell_by_cell(graded):
    assert graded["done"].returncode == 0, graded["done"].stderr
    header, *rows = graded["rows"]
    assert header == ["student", "lesson", "exercise", "passed", "detail"]
    assert [row[:4] for row in rows] == [list(row[:4]) for row in graded["expected"]]
    for row, (*_, detail) in zip(rows, graded["expected"]):
        assert re.fullmatch(detail, row[4]) if detail else row[4] == "", (row, detail)


def test_the_generated_class_really_exercises_the_checks():
    """Most exercises get the reference solution filled in (so "passed" is earned, not assumed)."""
    lessons = [Lesson(number) for number in range(1, 10)]
    filled = [lesson.solvable(entry) for lesson in lessons for entry in exercises(lesson.number)]
    assert all(any(lesson.solvable(e) for e in exercises(lesson.number)) for lesson in lessons)
    assert sum(filled) >= 0.8 * len(filled)


def test_nothing_escaped_the_grader(graded):
    assert not graded["marker"].exists()  # os.system never ran
    assert graded["connections"] == 0     # no socket reached the student's LLM_BASE_URL or anything else


def test_the_summary_and_the_progress_bar(graded):
    printed, bar = graded["done"].stdout, graded["done"].stderr
    expected = graded["expected"]
    for student in {row[0] for row in expected}:
        mine = [row for row in expected if row[0] == student]
        passed = sum(row[3] == "yes" for row in mine)
        assert re.search(rf"^{student}\s+{passed} of {len(mine)}$", printed, re.M), student
    for entry in course().values():
        marks = [row[3] == "yes" for row in expected if row[2] == entry.id]
        share = f"{sum(marks)} of {len(marks)} ({100 * sum(marks) // len(marks)}%)"
        assert re.search(rf"^{re.escape(entry.title[:48])}\s+{re.escape(share)}$", printed, re.M), entry.title
    notebooks = len({(row[0], row[1]) for row in expected})
    assert f"{notebooks} notebooks graded in" in printed
    assert bar.count("grading [") == notebooks and f"] {notebooks}/{notebooks} " in bar


def test_which_lesson_a_notebook_is():
    def named(name, text):
        return grade.lessons_of(grade.Submission("s", name, text.encode()))
    assert named("anything.ipynb", '"from agentloop.exercises import lesson04\\n"') == [4]
    assert named("anything.ipynb", '"lesson07.check_redact(redact)"') == [7]
    assert named("06_memory_across_runs.ipynb", "{}") == [6]
    assert named("lesson-9.ipynb", "{}") == [9]
    assert named("alice.ipynb", "{}") == []


def test_a_notebook_that_outlasts_every_guard_is_stopped_at_its_time_limit(tmp_path):
    """A loop that swallows the cell's alarm runs until the notebook's own limit kills its interpreter."""
    one = Lesson(1)
    stubborn = one.reference()
    stubborn["cells"].append(code("while True:\n    try:\n        while True:\n            pass\n"
                                  "    except BaseException:\n        pass"))
    write(tmp_path, "stubborn.ipynb", stubborn)
    rows = grade.grade(grade.collect([tmp_path]), timeout=6, cell_timeout=1, progress=io.StringIO())
    assert [(row["exercise"], row["passed"], row["detail"]) for row in rows] == [
        (e.id, False, "timed out: the notebook ran longer than 6 s (a loop that never ends?)") for e in exercises(1)]


def test_who_each_notebook_belongs_to(tmp_path):
    """A folder or zip of students, one student's folder or zip, a wrapping folder, stray files."""
    def students(*paths):
        return [(s.student, s.name) for s in grade.collect(paths)]
    (tmp_path / "class" / "zoe").mkdir(parents=True)
    (tmp_path / "class" / "alice.ipynb").write_text("{}")
    (tmp_path / "class" / "zoe" / "03_the_loop.ipynb").write_text("{}")
    (tmp_path / "class" / ".ipynb_checkpoints").mkdir()
    (tmp_path / "class" / ".ipynb_checkpoints" / "alice-checkpoint.ipynb").write_text("{}")
    assert students(tmp_path / "class") == [("alice", "alice.ipynb"), ("zoe", "03_the_loop.ipynb")]
    assert students(tmp_path / "class" / "zoe") == [("zoe", "03_the_loop.ipynb")]
    with zipfile.ZipFile(tmp_path / "lms.zip", "w") as zipped:
        for name in ("submissions/bo/01_agent_function.ipynb", "submissions/bo/02_tools.ipynb",
                     "submissions/cy/01_agent_function.ipynb", "submissions/notes.txt", "__MACOSX/submissions/._bo"):
            zipped.writestr(name, "{}")
    assert students(tmp_path / "lms.zip") == [("bo", "01_agent_function.ipynb"), ("bo", "02_tools.ipynb"),
                                              ("cy", "01_agent_function.ipynb")]
    with zipfile.ZipFile(tmp_path / "dee.zip", "w") as zipped:
        zipped.writestr("01_agent_function.ipynb", "{}")
        zipped.writestr("04_conversation.ipynb", "{}")
    assert students(tmp_path / "dee.zip") == [("dee", "01_agent_function.ipynb"), ("dee", "04_conversation.ipynb")]
    with zipfile.ZipFile(tmp_path / "flat.zip", "w") as zipped:
        zipped.writestr("ed.ipynb", "{}")
        zipped.writestr("fay.ipynb", "{}")
    assert students(tmp_path / "flat.zip") == [("ed", "ed.ipynb"), ("fay", "fay.ipynb")]


def test_a_thread_left_running_does_not_hold_the_grade_back(tmp_path):
    notebook = Lesson(1).reference()
    notebook["cells"].append(code("import threading, time\n"
                                  "threading.Thread(target=lambda: time.sleep(3600)).start()"))
    write(tmp_path, "threads.ipynb", notebook)
    rows = grade.grade(grade.collect([tmp_path]), timeout=20, cell_timeout=5, progress=io.StringIO())
    assert [(row["exercise"], row["passed"]) for row in rows] == [
        (e.id, Lesson(1).solvable(e)) for e in exercises(1)]
