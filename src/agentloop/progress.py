"""A student's progress: every exercise in the course, with what its check last recorded.

Checks record to `.agentloop_progress.json` next to the notebooks (the working directory).
In the browser site that file lives in JupyterLite's drive, the browser's own storage,
so it survives a reload. A missing or corrupt file is an empty record, never an error.
"""
import datetime
import html
import importlib
import pkgutil

from . import checks, exercises
from .storage import load_json, save_json

PROGRESS_FILE = ".agentloop_progress.json"


def record(exercise_id: str, title: str, passed: bool) -> None:
    """Keep the latest verdict of one exercise, with when it was given (UTC)."""
    saved = load_json(PROGRESS_FILE, {})
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    saved[exercise_id] = {"title": title, "passed": bool(passed), "when": when}
    save_json(PROGRESS_FILE, saved)


def recorded() -> dict:
    """Exercise id -> {"title", "passed", "when"}, as the checks recorded them."""
    saved = load_json(PROGRESS_FILE, {})
    return {key: value for key, value in saved.items() if isinstance(value, dict)}


def course() -> dict:
    """Every exercise of the course (id -> checks.Exercise), in lesson order."""
    for module in pkgutil.iter_modules(exercises.__path__):
        if module.name.startswith("lesson"):
            importlib.import_module(f"{exercises.__name__}.{module.name}")
    return {entry.id: entry for entry in sorted(checks.registry.values(), key=lambda e: _order(e.id))}


def _order(exercise_id: str) -> tuple:
    return tuple(int(part) if part.isdigit() else 0 for part in exercise_id.split("."))


class Progress:
    """The table `progress()` shows: HTML in Jupyter, plain text elsewhere (and under nbval)."""

    columns = ("lesson", "exercise", "title", "result", "when")

    def __init__(self, rows: list):
        self.rows = rows

    @property
    def passed(self) -> int:
        return sum(row["result"] == "passed" for row in self.rows)

    def summary(self) -> str:
        return f"{self.passed} of {len(self.rows)} exercises passed"

    def __repr__(self) -> str:
        table = [self.columns] + [tuple(str(row[c]) for c in self.columns) for row in self.rows]
        widths = [max(len(line[i]) for line in table) for i in range(len(self.columns))]
        lines = ["  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip() for line in table]
        return "\n".join([self.summary()] + lines)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{c}</th>" for c in self.columns)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(str(row[c]))}</td>" for c in self.columns) + "</tr>"
                       for row in self.rows)
        return f"<p>{self.summary()}</p><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def progress() -> Progress:
    """A table of every exercise in the course: passed or not yet, and when its check last ran."""
    saved = recorded()
    rows = []
    for entry in course().values():
        verdict = saved.get(entry.id, {})
        result = "passed" if verdict.get("passed") is True else "not yet"
        rows.append({"lesson": entry.lesson, "exercise": entry.id, "title": entry.title.split(" ", 1)[-1],
                     "result": result, "when": verdict.get("when", "")})
    return Progress(rows)
