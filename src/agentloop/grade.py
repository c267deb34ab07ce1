"""Grading a class: `python -m agentloop grade PATH... [--out results.csv]`.

PATH is a folder of notebooks or a .zip of them, named by student: `alice.ipynb`, or
`alice/04_conversation.ipynb` (the student is the folder). Each notebook runs in a fresh
interpreter (see `grade_one`) on the teaching model, with a time limit. The result is one
CSV row per student and exercise, `student,lesson,exercise,passed,detail`, and a summary.
"""
import csv
import os
import re
import selectors
import signal
import subprocess
import sys
import tempfile
import time
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import bounded_json
from .grade_collect import LESSON_IN_NAME, Submission, collect  # noqa: F401 (Submission: part of this API)
from .progress import course

COLUMNS = ["student", "lesson", "exercise", "passed", "detail"]
_LESSON_IN_CODE = re.compile(r"exercises import lesson(\d+)|exercises\.lesson(\d+)|lesson(\d+)\.check_")
STDERR_KEPT = 64 * 1024  # bytes of a run's stderr kept (the end, where the error is); the rest is read and dropped
FORMULA = ("=", "+", "-", "@", "\t", "\r")  # how a spreadsheet cell that runs as a formula starts


def lessons_of(submission: Submission) -> list:
    """The lessons a notebook is: from its check calls and imports, else from its file name."""
    text = submission.raw.decode("utf-8", "replace")
    found = {int(n) for match in _LESSON_IN_CODE.findall(text) for n in match if n}
    if not found:
        named = LESSON_IN_NAME.match(submission.name)
        found = {int(named.group(1))} if named else set()
    return sorted(found)


def readable(submission: Submission) -> str:
    """Why the submission is not a notebook we can run, or "" if it is one."""
    if submission.problem:
        return submission.problem
    try:
        notebook = bounded_json.loads(submission.raw)
    except bounded_json.TooDeep as error:
        return f"not a notebook: it {error}"
    except ValueError as error:
        return f"not a notebook: invalid JSON ({str(error)[:80]})"
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    if not (isinstance(cells, list) and all(isinstance(cell, dict) for cell in cells)):
        return "not a notebook: JSON, but not a list of cells"
    return ""


def grade_one(submission: Submission, timeout: float, cell_timeout: float) -> list:
    """The notebook's rows: run in a fresh interpreter, or why it could not be."""
    lessons = lessons_of(submission)
    exercises = [e for e in course().values() if e.lesson in lessons]
    problem = readable(submission)
    graded = {"problem": problem} if problem else _run(submission.raw, lessons, timeout, cell_timeout)
    if "problem" in graded:
        rows = [{"lesson": e.lesson, "exercise": e.id, "passed": False, "detail": graded["problem"]} for e in exercises]
        return rows or [{"lesson": "", "exercise": "", "passed": False, "detail": graded["problem"]}]
    skipped = "; ".join(f"cell {number} skipped: {why}" for number, why in graded["failed"])
    for row in graded["rows"]:
        row["detail"] = "; ".join(part for part in (row["detail"], skipped) if part)
    return graded["rows"] or [{"lesson": "", "exercise": "", "passed": False,
                               "detail": "no exercise found: not a lesson notebook?"}]


def _run(raw: bytes, lessons: list, timeout: float, cell_timeout: float) -> dict:
    # ignore_cleanup_errors: whatever the student's code left in the folder, it goes, and never stops the class
    with tempfile.TemporaryDirectory(prefix="agentloop-grade-", ignore_cleanup_errors=True) as folder:
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
            errors, finished = _stderr_tail(child, timeout)
        finally:
            _end(child)  # the student's code, and anything it started, whatever happened
        if not finished:
            return {"problem": f"timed out: the notebook ran longer than {timeout:g} s (a loop that never ends?)"}
        if child.returncode or not os.path.exists(result):
            last = (errors.decode("utf-8", "replace").strip().splitlines() or ["no message"])[-1]
            return {"problem": f"the notebook stopped the grader (exit code {child.returncode}): {last[:120]}"}
        return _result(result)


def _stderr_tail(child: subprocess.Popen, timeout: float) -> tuple:
    """(the last STDERR_KEPT bytes the child wrote to stderr, whether it ended within `timeout`): its
    output is read as it comes and dropped but for that tail, so gigabytes of it cost nothing."""
    deadline, tail = time.monotonic() + timeout, b""
    with selectors.DefaultSelector() as selector:
        selector.register(child.stderr, selectors.EVENT_READ)
        while (left := deadline - time.monotonic()) > 0:
            if not selector.select(left):
                continue
            piece = os.read(child.stderr.fileno(), 65536)
            if not piece:
                break  # the child closed its stderr: it is ending
            tail = (tail + piece)[-STDERR_KEPT:]
    try:
        child.wait(max(deadline - time.monotonic(), 0.01))
    except subprocess.TimeoutExpired:
        return tail, False
    return tail, True


def _end(child: subprocess.Popen) -> None:
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # already gone
    child.wait()
    child.stderr.close()


def _result(path: str) -> dict:
    """What the run reported, if it is what grade_one writes (a forged or broken file is a problem)."""
    try:
        with open(path, "rb") as file:
            graded = bounded_json.loads(bounded_json.read(file))
        if _well_formed(graded):
            return {"rows": graded["rows"], "failed": graded["failed"]}
    except (OSError, ValueError):
        pass
    return {"problem": "the notebook's run left no readable result"}


def _well_formed(graded) -> bool:
    rows, failed = (graded.get("rows"), graded.get("failed")) if isinstance(graded, dict) else (None, None)
    return (isinstance(rows, list) and isinstance(failed, list)
            and all(isinstance(row, dict) and {"lesson", "exercise", "passed"} <= set(row)
                    and isinstance(row.get("detail"), str) for row in rows)
            and all(isinstance(pair, list) and len(pair) == 2 for pair in failed))


def grade(submissions: list, timeout: float = 120, cell_timeout: float = 10, jobs: int = 1,
          progress=sys.stderr) -> list:
    """Grade every notebook; the CSV's rows, with a progress bar on `progress`. Names and details are
    shown with control characters escaped: a file name must not drive the teacher's terminal."""
    rows, done = [], 0
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        futures = [pool.submit(grade_one, s, timeout, cell_timeout) for s in submissions]
        for submission, future in zip(submissions, futures):
            rows += [{**row, "student": shown(submission.student), "detail": shown(row["detail"])}
                     for row in _rows(future)]
            done += 1
            _bar(progress, done, len(submissions), shown(f"{submission.student}/{submission.name}"))
    return rows


def _rows(future) -> list:
    try:
        return future.result()
    except Exception as error:  # a bug of ours costs one notebook its grade, not the class its CSV
        return [{"lesson": "", "exercise": "", "passed": False,
                 "detail": f"the grader failed on this notebook: {type(error).__name__}: {error}"}]


def shown(text: str) -> str:
    """The text with control and format characters (escapes, bidi overrides) written as escapes."""
    return "".join(ascii(c)[1:-1] if unicodedata.category(c)[0] == "C" else c for c in str(text))


def _bar(stream, done: int, total: int, label: str) -> None:
    filled = 30 * done // max(total, 1)
    end = "\n" if done == total or not stream.isatty() else "\r"
    stream.write(f"grading [{'#' * filled}{'.' * (30 - filled)}] {done}/{total} {label[:40]:<40}{end}")
    stream.flush()


def write_csv(rows: list, out) -> None:
    with open(out, "w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, COLUMNS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows({key: inert(value) for key, value in {**row, "passed": "yes" if row["passed"] else "no"}.items()}
                         for row in rows)


def inert(value):
    """A CSV cell a spreadsheet shows as text: one that would start a formula gets a leading apostrophe."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA) else value


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
