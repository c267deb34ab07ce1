"""A student's progress: what each check recorded, as a table of every exercise in the course.

Checks record to `.agentloop_progress.json` next to the notebooks (the working directory).
In the browser site that file lives in JupyterLite's drive, the browser's own storage,
so it survives a reload. A missing or corrupt file is an empty record, never an error.
"""
import datetime
import os

from .storage import load_json, save_json

PROGRESS_FILE = ".agentloop_progress.json"


def _path() -> str:
    return os.environ.get("AGENTLOOP_PROGRESS") or PROGRESS_FILE


def record(exercise_id: str, title: str, passed: bool) -> None:
    """Keep the latest verdict of one exercise, with when it was given (UTC)."""
    saved = load_json(_path(), {})
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    saved[exercise_id] = {"title": title, "passed": bool(passed), "when": when}
    save_json(_path(), saved)


def recorded() -> dict:
    """Exercise id -> {"title", "passed", "when"}, as the checks recorded them."""
    saved = load_json(_path(), {})
    return {key: value for key, value in saved.items() if isinstance(value, dict)}
