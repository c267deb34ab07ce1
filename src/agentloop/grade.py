"""Grading a class: `python -m agentloop grade PATH... [--out results.csv]`.

PATH is a folder of notebooks or a .zip of them, named by student: `alice.ipynb`, or
`alice/04_conversation.ipynb` (the student is the folder). Each notebook runs in a fresh
interpreter (see `grade_one`) on the teaching model, with a time limit. The result is one
CSV row per student and exercise, `student,lesson,exercise,passed,detail`, and a summary.
"""
import csv
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .progress import course

COLUMNS = ["student", "lesson", "exercise", "passed", "detail"]
_LESSON_IN_CODE = re.compile(r"exercises import lesson(\d+)|exercises\.lesson(\d+)|lesson(\d+)\.check_")
_LESSON_IN_NAME = re.compile(r"(?:lesson[ _-]?)?(\d{1,2})(?:[ _-]|\.ipynb)", re.I)


@dataclass
class Submission:
    student: str
    name: str  # the notebook's file name
    raw: bytes


def _named(parts: list, raw: bytes, top: int, folder: str) -> Submission:
    """Student = the folder under the root; for a notebook named like a lesson at the root, the root's
    own name (`alice/` or `alice.zip` holding `03_the_loop.ipynb`); else the file's stem."""
    if len(parts) > top + 1:
        student = parts[top]
    elif folder and _LESSON_IN_NAME.match(parts[-1]):
        student = folder
    else:
        student = PurePosixPath(parts[-1]).stem
    return Submission(student, parts[-1], raw)


def _wanted(parts) -> bool:
    return parts[-1].endswith(".ipynb") and not any(p.startswith((".", "__MACOSX")) for p in parts)


def collect(paths: list) -> list:
    """Every notebook in the folders, zips and files given, with its student's name."""
    found = []
    for path in map(Path, paths):
        if path.is_dir():
            files = [f.relative_to(path).parts for f in sorted(path.rglob("*.ipynb"))]
            found += [_named(list(p), path.joinpath(*p).read_bytes(), 0, path.resolve().name)
                      for p in files if _wanted(p)]
        elif zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                names = [n for n in archive.namelist() if _wanted(PurePosixPath(n).parts)]
                parts = [PurePosixPath(n).parts for n in names]
                shared = os.path.commonprefix([p[:-1] for p in parts])  # e.g. the "submissions/" around it all
                folder = shared[-1] if shared else path.stem
                found += [_named(list(p), archive.read(n), len(shared), folder) for n, p in zip(names, parts)]
        elif path.is_file():
            found.append(_named([path.name], path.read_bytes(), 0, path.resolve().parent.name))
        else:
            raise SystemExit(f"{path}: no such folder, zip or notebook")
    return sorted(found, key=lambda s: (s.student, s.name))


def lessons_of(submission: Submission) -> list:
    """The lessons a notebook is: from its check calls and imports, else from its file name."""
    text = submission.raw.decode("utf-8", "replace")
    found = {int(n) for match in _LESSON_IN_CODE.findall(text) for n in match if n}
    if not found:
        named = _LESSON_IN_NAME.match(submission.name)
        found = {int(named.group(1))} if named else set()
    return sorted(found)


def grade_one(submission: Submission, timeout: float, cell_timeout: float) -> list:
    """The notebook's rows: run in a fresh interpreter, or why it could not be."""
    lessons = lessons_of(submission)
    exercises = [e for e in course().values() if e.lesson in lessons]
    try:
        notebook = json.loads(submission.raw)
    except ValueError as error:
        graded = {"problem": f"not a notebook: invalid JSON ({str(error)[:80]})"}
    else:
        cells = notebook.get("cells") if isinstance(notebook, dict) else None
        if isinstance(cells, list) and all(isinstance(cell, dict) for cell in cells):
            graded = _run(submission.raw, lessons, timeout, cell_timeout)
        else:
            graded = {"problem": "not a notebook: JSON, but not a list of cells"}
    if "problem" in graded:
        rows = [{"lesson": e.lesson, "exercise": e.id, "passed": False, "detail": graded["problem"]} for e in exercises]
        return rows or [{"lesson": "", "exercise": "", "passed": False, "detail": graded["problem"]}]
    skipped = "; ".join(f"cell {number} skipped: {why}" for number, why in graded["failed"])
    for row in graded["rows"]:
        row["detail"] = "; ".join(part for part in (row["detail"], skipped) if part)
    return graded["rows"] or [{"lesson": "", "exercise": "", "passed": False,
                               "detail": "no exercise found: not a lesson notebook?"}]


def _run(raw: bytes, lessons: list, timeout: float, cell_timeout: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="agentloop-grade-") as folder:
        notebook, result, work = (os.path.join(folder, name) for name in ("notebook.ipynb", "result.json", "work"))
        Path(notebook).write_bytes(raw)
        os.mkdir(work)
        package_root = str(Path(__file__).resolve().parent.parent)
        env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
        command = [sys.executable, "-m", "agentloop.grade_one", notebook, result, str(cell_timeout),
                   *map(str, lessons)]
        child = subprocess.Popen(command, cwd=work, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, start_new_session=True)
        try:
            _, errors = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)  # the student's code, and anything it started
            child.communicate()
            return {"problem": f"timed out: the notebook ran longer than {timeout:g} s (a loop that never ends?)"}
        if child.returncode or not os.path.exists(result):
            last = (errors.decode("utf-8", "replace").strip().splitlines() or ["no message"])[-1]
            return {"problem": f"the notebook stopped the grader (exit code {child.returncode}): {last[:120]}"}
        return json.loads(Path(result).read_text(encoding="utf-8"))


def grade(submissions: list, timeout: float = 120, cell_timeout: float = 10, jobs: int = 1,
          progress=sys.stderr) -> list:
    """Grade every notebook; the CSV's rows, with a progress bar on `progress`."""
    rows, done = [], 0
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        futures = [pool.submit(grade_one, s, timeout, cell_timeout) for s in submissions]
        for submission, future in zip(submissions, futures):
            rows += [{"student": submission.student, **row} for row in future.result()]
            done += 1
            _bar(progress, done, len(submissions), f"{submission.student}/{submission.name}")
    return rows


def _bar(stream, done: int, total: int, label: str) -> None:
    filled = 30 * done // max(total, 1)
    end = "\n" if done == total or not stream.isatty() else "\r"
    stream.write(f"grading [{'#' * filled}{'.' * (30 - filled)}] {done}/{total} {label[:40]:<40}{end}")
    stream.flush()


def write_csv(rows: list, out) -> None:
    with open(out, "w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, COLUMNS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows({**row, "passed": "yes" if row["passed"] else "no"} for row in rows)


def summary(rows: list) -> str:
    """Per student: passed of total; per exercise: the share of the class that passed it."""
    graded = [row for row in rows if row["exercise"]]
    students = {}
    for row in rows:
        students.setdefault(row["student"], []).append(row["passed"])
    titles = {e.id: e.title for e in course().values()}
    exercises = {}
    for row in graded:
        exercises.setdefault(row["exercise"], []).append(row["passed"])
    width = max([len(s) for s in students] + [7])
    lines = [f"{'student':<{width}}  passed"]
    lines += [f"{name:<{width}}  {sum(marks)} of {len(marks)}" for name, marks in students.items()]
    lines += ["", f"{'exercise':<48}  passed by"]
    for key in sorted(exercises, key=lambda k: tuple(map(int, k.split(".")))):
        marks = exercises[key]
        lines.append(f"{titles.get(key, key)[:48]:<48}  {sum(marks)} of {len(marks)} ({100 * sum(marks) // len(marks)}%)")
    return "\n".join(lines)


def main(paths: list, out: str, timeout: float, cell_timeout: float, jobs: int) -> None:
    started = time.monotonic()
    submissions = collect(paths)
    rows = grade(submissions, timeout, cell_timeout, jobs)
    write_csv(rows, out)
    print(summary(rows))
    print(f"\n{len(submissions)} notebooks graded in {time.monotonic() - started:.1f} s; "
          f"one row per student and exercise in {out}")
