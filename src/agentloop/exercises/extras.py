"""The extras' exercises: one small check each, for a student who is ahead.

They check as the lessons' checks do (one line, ✅ or a hint, never a traceback, on the in-process
teaching model, the student's own code driven where the notebook runs it), but an extra is optional:
its verdict is not recorded in the course's progress, and the grader does not grade it.
"""
import contextlib
import functools
import inspect
import io
import json

from ..checks import Exercise, Hint, Result, _verdict, attempt, expect


def extra(title: str, max_calls: int = 30, time_limit: float = 30.0):
    """Like `checks.exercise`, for an extra: the same guards and one printed line, nothing recorded."""
    def decorate(check):
        entry = Exercise(title.split(" ", 1)[0], title, 0, check, None, max_calls, time_limit)

        @functools.wraps(check)
        def run(*answer) -> Result:
            passed, message = _verdict(entry, answer)
            print(message)
            return Result(passed, message)
        return run
    return decorate


def _namespace(function, needed: tuple, run_first: str) -> dict:
    """The notebook namespace the student's function was defined in, or a hint to run the notebook first."""
    expect(callable(function), f"{function!r} is not a function: define it with def.")
    names = getattr(function, "__globals__", {})
    missing = [name for name in needed if name not in names]
    expect(not missing, f"the notebook's {run_first} is not defined where your function is ({', '.join(missing)} "
                        "missing): run the notebook's cells from the top first, then this one.")
    return names


# memory_tools: a tool for "what did I tell you this week?"

RECENT = ("Search the user's memories from the last few days (days: how many days back), such as "
          "'what did I tell you this week?'.")


@extra("memory_tools: A recent-memory tool")
def check_recall_recent(recall_recent):
    notebook = _namespace(recall_recent, ("store", "clock", "SCOPES", "found", "TOOLS", "SCHEMAS", "schema",
                                          "run_tool", "MemoryStore"), "store")
    clock, kept, started = notebook["clock"], notebook["store"], notebook["clock"].now
    tools, schemas = dict(notebook["TOOLS"]), dict(notebook["SCHEMAS"])
    passed = False
    try:
        store = notebook["store"] = notebook["MemoryStore"](clock=clock)  # the check's own store, for its duration
        clock.now = clock.now.replace(year=2026, month=3, day=2, hour=9, minute=0, second=0, microsecond=0)
        user = notebook["SCOPES"]["user"]
        store.write(user, "The user's favourite tea is green tea")      # 9 days before the questions
        clock.advance(days=6)
        store.write(user, "The user tried an oolong tea at a friend's")  # 3 days before
        store.write(notebook["SCOPES"]["agent"], "Notes on tea prices")
        store.write(notebook["SCOPES"]["session"], "The user is choosing a tea for a party")
        clock.advance(days=3)
        for days, want in ((7, ["oolong"]), (10, ["oolong", "green tea"]), (1, [])):
            got = _tried(recall_recent, "tea", days)
            expect(isinstance(got, str), f"recall_recent('tea', {days}) returned {got!r}: a tool returns text for "
                                         "the model, as recall does (found(...)).")
            contents = [item.get("content", "") for item in _json_list(got)]
            other = [text for text in contents if "prices" in text or "party" in text] or [""]
            expect(not other[0], f"recall_recent('tea', {days}) returned {other[0]!r}: that memory is in another scope "
                              "(the agent's or the session's). The tool searches the user's memories only.")
            found = sorted(word for word in ("oolong", "green tea") if any(word in text for text in contents))
            expect(found == sorted(want),
                   f"with the clock at {clock.now:%a %d %b %H:%M}, recall_recent('tea', {days}) found "
                   f"{found or 'nothing'}; the oolong was noted 3 days before, the green tea 9 days before, so "
                   f"the last {days} days hold {want or 'neither'}." + (
                       " Count back from the clock: since is its time minus the days." if not found and want else ""),
                   fix="since = clock() - timedelta(days=days)")
        # as the model reaches it: offered as a tool, called through the notebook's run_tool
        query, days = _parameters(recall_recent, "query", "days")
        notebook["SCHEMAS"]["recall_recent"] = notebook["schema"]("recall_recent", RECENT,
                                                                  **{query: "string", days: "integer"})
        notebook["TOOLS"]["recall_recent"] = recall_recent
        arguments = {query: "tea", days: 7}
        result = notebook["run_tool"]({"id": "call_recent", "type": "function", "function": {
            "name": "recall_recent", "arguments": json.dumps(arguments)}})
        expect("oolong" in result and "green tea" not in result,
               f"offered as a tool and called through run_tool with {arguments}, it returned {result!r}.")
        passed = True
    finally:
        notebook["store"], clock.now = kept, started
        notebook["TOOLS"].clear()
        notebook["TOOLS"].update(tools)
        notebook["SCHEMAS"].clear()
        notebook["SCHEMAS"].update(schemas)
        if passed:  # it stays in the notebook's tools: `ask(..., ["recall_recent"])` offers it
            notebook["TOOLS"]["recall_recent"] = recall_recent
            notebook["SCHEMAS"]["recall_recent"] = notebook["schema"]("recall_recent", RECENT,
                                                                      **{query: "string", days: "integer"})


def _parameters(function, *default) -> tuple:
    """The function's own parameter names, for the schema the model fills: other names are fine."""
    try:
        names = [name for name, parameter in inspect.signature(function).parameters.items()
                 if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        names = []
    return tuple(names[:len(default)]) if len(names) >= len(default) else default


def _tried(function, *args):
    """attempt(), with the unfilled skeleton named as such rather than by the error it raises."""
    try:
        return attempt(function, *args)
    except Hint as hint:
        if "ellipsis" in hint.hint.lower():
            raise Hint(f"{hint.hint}: the `...` holes are still there; fill each one, then run the cell again.",
                       hint.fix) from None
        raise


def _json_list(text) -> list:
    try:
        found = json.loads(text)
    except ValueError:
        expect(False, f"the tool returned {text[:80]!r}, not the JSON list found(...) makes.")
    return [item for item in found if isinstance(item, dict)] if isinstance(found, list) else []


@contextlib.contextmanager
def _quiet():
    with contextlib.redirect_stdout(io.StringIO()):
        yield
