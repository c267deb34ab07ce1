"""Checks for the exercises: a clear pass, or a hint; never a traceback, never a hang.

`@exercise("3.1 A tool error is a result")` registers a check under its id ("3.1"); the
check's parameter names are the names the student defines in the notebook. Inside it,
`expect(condition, hint, fix)` stops with a nudge the first time and the fix after that.
A check always runs on the in-process teaching model, caps the model calls and the time
the student's code may take, and records its verdict for `agentloop.progress()`.
"""
import contextlib
import functools
import inspect
import os
import re
import signal
import sys
import threading
import time
from dataclasses import dataclass

from . import llm, transport

MAX_CALLS = 50     # model calls one check may make: an agent loop needs a handful
TIME_LIMIT = 30.0  # seconds one check may take (the teaching model answers in milliseconds)


class Hint(Exception):
    """Raised by `expect` when the student's answer is not right yet."""

    def __init__(self, hint: str, fix: str | None = None):
        super().__init__(hint)
        self.hint, self.fix = hint, fix


class Stopped(BaseException):
    """A guard stopped the student's code. A BaseException, so a student's `except Exception`
    cannot swallow it."""


def expect(condition, hint: str, fix: str | None = None) -> None:
    """Stop the check unless the condition holds: `hint` first, `hint` and `fix` on a later try."""
    if not condition:
        raise Hint(hint, fix)


class Result:
    """A check's verdict: true if passed. It displays as nothing: the check printed it."""

    def __init__(self, passed: bool, message: str = ""):
        self.passed, self.message = passed, message

    def __bool__(self) -> bool:
        return self.passed

    def __repr__(self) -> str:
        return "passed" if self.passed else "not yet"

    def _ipython_display_(self) -> None:
        pass


@dataclass
class Exercise:
    """One registered exercise: its id ("3.1"), title, lesson number and check."""

    id: str
    title: str
    lesson: int
    check: object      # the check as written: its parameters are the student's names
    run: object        # the check as the student calls it: prints and records a verdict
    max_calls: int
    time_limit: float

    @property
    def names(self) -> list:
        return list(inspect.signature(self.check).parameters)


registry: dict = {}  # exercise id -> Exercise, in the order the lessons define them
_failed_runs: dict = {}  # exercise id -> (its last hint, how many runs in a row got it): the same miss twice shows the fix


def exercise(title: str, max_calls: int = MAX_CALLS, time_limit: float = TIME_LIMIT):
    """Register a check under the "N.M" that starts its title; it prints ✅ or ❌ and returns a Result."""
    exercise_id = title.split(" ", 1)[0]

    def decorate(check):
        @functools.wraps(check)
        def run(*answer) -> Result:
            passed, message = _verdict(entry, answer)
            print(message)
            _record(entry, passed)
            return Result(passed, message)
        entry = Exercise(exercise_id, title, int(exercise_id.split(".")[0]), check, run, max_calls, time_limit)
        registry[exercise_id] = entry
        return run
    return decorate


def _verdict(entry: Exercise, answer: tuple) -> tuple:
    """(passed, the line to print) for one run of the check on the student's answer."""
    try:
        with _TeachingModel(entry.max_calls), TimeLimit(entry.time_limit):
            entry.check(*answer)
    except Hint as hint:
        message = f"❌ {entry.title}: not yet. Hint: {hint.hint}"
        if any(map(_has_holes, answer)):  # the cell as shipped (Run All): not an answer yet, so never the fix
            return False, message
        last, times = _failed_runs.get(entry.id, ("", 0))
        _failed_runs[entry.id] = (hint.hint, times + 1 if hint.hint == last else 1)
        if hint.fix and _failed_runs[entry.id][1] > 1:
            message += f" Fix: {hint.fix}"
        return False, message
    except Stopped as stop:
        return False, f"❌ {entry.title}: not yet. Hint: {stop}"
    except Exception as error:  # the student's code raised: say what, not where
        return False, f"❌ {entry.title}: your code raised {type(error).__name__}: {error}"
    return True, f"✅ {entry.title}: passed."


def _has_holes(answer) -> bool:
    """Whether a function still has one of its cell's `...  # your code here` holes."""
    try:
        return callable(answer) and bool(re.search(r"\.\.\.\s*:?\s*#\s*your code here", inspect.getsource(answer)))
    except (OSError, TypeError):  # no source to read (a builtin, a function made by exec)
        return False


def _record(entry: Exercise, passed: bool) -> None:
    try:  # a progress file that cannot be read or written never costs the student a verdict
        from .progress import record  # the module, not agentloop.progress(), the function it exports
        record(entry.id, entry.title, passed)
    except Exception:
        pass


class _TeachingModel:
    """For the check's duration: the in-process teaching model, and at most `cap` model calls."""

    def __init__(self, cap: int):
        self.cap, self.calls = cap, 0

    def __enter__(self):
        self.chosen, self.answer = llm._current, transport.answer
        llm._current = llm.Backend()
        transport.answer = self._counted
        return self

    def _counted(self, chosen, request):
        self.calls += 1
        if self.calls > self.cap:
            raise Stopped(f"your loop made more than {self.cap} model calls: is max_turns missing?")
        return self.answer(chosen, request)

    def __exit__(self, *exc):
        llm._current, transport.answer = self.chosen, self.answer


class TimeLimit:
    """Stop the student's code after `seconds`. An alarm signal in CPython's main thread; elsewhere
    (in Pyodide a signal cannot interrupt running Python; or a thread) a trace function watching
    the clock in the student's frames only. If a debugger or coverage already traces, there is
    no time limit (the call cap still holds)."""

    def __init__(self, seconds: float):
        self.seconds = seconds

    def _stop(self, *_):
        raise Stopped(f"your code ran for more than {self.seconds:g} s: is there a loop that never ends "
                    "(a while with no way out, or max_turns missing)?")

    def __enter__(self):
        self.started = time.monotonic()
        self.how = None
        if _ALARMS and threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGALRM, self._stop)
            self.outer = signal.setitimer(signal.ITIMER_REAL, self.seconds)[0]  # a guard around this one
            self.how = "alarm"
        elif sys.gettrace() is None:
            sys.settrace(self._on_call)
            self.how = "trace"
        return self

    def _on_call(self, frame, event, arg):
        if frame.f_code.co_filename.startswith(_PACKAGE):  # the teaching model runs untraced, at full speed
            return None
        return self._on_line

    def _on_line(self, frame, event, arg):
        if time.monotonic() - self.started > self.seconds:
            self._stop()
        return self._on_line

    def __exit__(self, *exc):
        if self.how == "alarm":
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
            if self.outer:  # give the outer guard what is left of its time
                left = self.outer - (time.monotonic() - self.started)
                signal.setitimer(signal.ITIMER_REAL, max(left, 0.001))
        elif self.how == "trace":
            sys.settrace(None)


_PACKAGE = os.path.dirname(os.path.abspath(__file__))
_ALARMS = sys.platform != "emscripten" and hasattr(signal, "setitimer")


@contextlib.contextmanager
def files_kept(*paths):
    """The files as they were (or absent), put back when the check ends, whatever the student's code wrote."""
    saved = {path: (open(path, "rb").read() if os.path.exists(path) else None) for path in paths}
    try:
        yield
    finally:
        for path, content in saved.items():
            if content is None:
                with contextlib.suppress(OSError):
                    os.remove(path)
            else:
                with open(path, "wb") as file:
                    file.write(content)


def attempt(function, *args, **kwargs):
    """Call the student's function; turn an exception into a Hint that names it."""
    try:
        return function(*args, **kwargs)
    except Hint:
        raise
    except Exception as error:
        shown = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
        call = f"{getattr(function, '__name__', 'your function')}({', '.join(shown)})"[:120]
        raise Hint(f"{call} raised {type(error).__name__}: {error}") from None
