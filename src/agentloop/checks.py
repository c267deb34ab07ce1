"""Checks for the exercises: a clear pass, or a hint; never a traceback.

An exercise check is a function decorated with `@exercise("2.1 Describe a tool")` that
runs the student's code and calls `expect(condition, hint)`. Whatever goes wrong in
the student's code (an exception, a wrong type, a wrong value) becomes one line
that says what to look at.
"""
import functools


class Hint(Exception):
    """Raised by `expect` when the student's answer is not right yet."""


def expect(condition, hint: str) -> None:
    """Stop the check with this hint unless the condition holds."""
    if not condition:
        raise Hint(hint)


class Result:
    """A check's verdict: true if passed. It displays as nothing: the check printed it."""

    def __init__(self, passed: bool):
        self.passed = passed

    def __bool__(self) -> bool:
        return self.passed

    def __repr__(self) -> str:
        return "passed" if self.passed else "not yet"

    def _ipython_display_(self) -> None:
        pass


def exercise(title: str):
    """Turn a check function into one that prints ✅ or ❌ and returns a Result."""
    def decorate(check):
        @functools.wraps(check)
        def run(*answer) -> Result:
            try:
                check(*answer)
            except Hint as hint:
                print(f"❌ {title}: not yet. Hint: {hint}")
                return Result(False)
            except Exception as error:  # the student's code raised: say what, not where
                print(f"❌ {title}: your code raised {type(error).__name__}: {error}")
                return Result(False)
            print(f"✅ {title}: passed.")
            return Result(True)
        return run
    return decorate


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
