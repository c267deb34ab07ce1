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

from .. import trace
from ..checks import Exercise, Hint, Result, _verdict, attempt, expect, files_kept


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


# shared_memory: a third agent, as data

def _requests(start: int) -> list:
    return [event.payload for event in trace.events[start:] if event.kind == "request"]


@extra("shared_memory: A fact-checker agent")
def check_checker(CHECKER, run_as):
    notebook = _namespace(run_as, ("memory", "MEMORY_FILE", "acting", "current", "run_tool", "decisions",
                                   "DECISIONS_FILE", "SCHEMAS", "USER", "save_json", "RESEARCHER"), "team")
    expect(isinstance(CHECKER, dict), f"CHECKER is {CHECKER!r}: an agent here is a dict, as RESEARCHER is.")
    missing = [key for key in ("name", "system", "tools", "scopes") if key not in CHECKER]
    expect(not missing, f"CHECKER has no {', '.join(missing)}: give it the four keys RESEARCHER has.")
    tools, scopes = CHECKER["tools"], CHECKER["scopes"]
    expect(isinstance(tools, (list, tuple)) and all(isinstance(name, str) for name in tools),
           f"CHECKER['tools'] is {tools!r}: a list of tool names, as RESEARCHER's is.")
    expect(isinstance(scopes, (list, tuple)) and scopes and all(isinstance(name, str) for name in scopes),
           f"CHECKER['scopes'] is {scopes!r}: a tuple of scope names, its own first, as the summariser's is.")
    unknown = [name for name in tools if name not in notebook["SCHEMAS"]] or [""]
    expect(not unknown[0], f"CHECKER['tools'] names {unknown[0]!r}, which is no tool here: the names are "
                           f"{sorted(notebook['SCHEMAS'])}.")
    user, findings = notebook["USER"], notebook["RESEARCHER"]["scopes"][0]
    expect(scopes[0] not in (user, findings, "agent:summariser", "agent:assistant"),
           f"CHECKER's first scope is {scopes[0]!r}: the first scope is where an agent writes, so it must be the "
           "checker's own (such as 'agent:checker'), not one another agent or the user owns.")
    memory, path = notebook["memory"], notebook["MEMORY_FILE"]
    saved = (dict(memory), dict(notebook["acting"]), dict(notebook["current"]), list(notebook["decisions"]))
    with files_kept(path, notebook["DECISIONS_FILE"]):
        try:
            memory.clear()
            memory.update({
                "name": _fact("Ada", user), "prefers": _fact("green tea", user),
                "the history of tea": _fact("Finding: tea was first drunk in China, as a medicine", findings)})
            start = len(trace.events)
            with contextlib.redirect_stdout(io.StringIO()):  # a check prints one line
                answer = attempt(run_as, CHECKER, "Check what we know about tea")
            requests = _requests(start)
            expect(requests, f"run_as(CHECKER, ...) answered {answer!r} without asking the model.")
            offered = sorted(t.get("function", {}).get("name") for t in requests[0].get("tools") or [])
            prompt = next((m.get("content") or "" for m in requests[0].get("messages", []) if m.get("role") == "system"), "")
            expect("China" in prompt, f"the checker's prompt does not hold the researcher's finding: it reads the "
                                      f"scopes {list(scopes)}, and the finding is in {findings!r}.",
                   fix=f"scopes = ('agent:checker', {findings!r})")
            expect("Ada" not in prompt, f"the checker's prompt holds the user's name: it reads {user!r}, and a checker "
                                        "has no reason to see the user's memories (what it cannot read cannot leak).")
            for needed, why in (("recall", "search the findings its prompt left out"), ("decide", "log its verdicts")):
                expect(needed in offered, f"the checker was offered {offered}: it needs {needed!r} to {why}.")
            notebook["acting"].update(CHECKER)  # as a model that names any tool would reach the dispatch
            notebook["current"].update(scopes=tuple(scopes))
            for name, arguments in (("web_search", {"query": "tea"}), ("remember", {"key": "k", "value": "v"}),
                                    ("forget", {"key": "the history of tea"})):
                result = notebook["run_tool"]({"id": f"call_{name}", "type": "function",
                                               "function": {"name": name, "arguments": json.dumps(arguments)}})
                expect(str(result).startswith("Error"), f"the checker's {name} call was run ({result!r}): a checker "
                                                        "only reads and logs; give it no tool that searches the web or "
                                                        "changes memory.")
            found = notebook["run_tool"]({"id": "call_recall", "type": "function",
                                          "function": {"name": "recall", "arguments": json.dumps({"query": "tea"})}})
            expect("China" in str(found), f"the checker's recall('tea') returned {found!r}, without the finding.")
        finally:
            memory.clear()
            memory.update(saved[0])
            for target, value in ((notebook["acting"], saved[1]), (notebook["current"], saved[2])):
                target.clear()
                target.update(value)
            notebook["decisions"][:] = saved[3]


def _fact(value, scope):
    return {"value": value, "until": None, "scope": scope, "importance": "medium", "created": "2026-01-05T09:00"}


# real_models: a provider's failure said to the user, a bug in our own code not hidden

QUESTION = "What is (3 + 4) * 5?"


def _said_what(answer, error) -> bool:
    """The answer names what went wrong: the error's kind, its status, or a few words of its message."""
    text, status = str(answer).lower(), getattr(error, "status", None)
    return (type(error).__name__.lower() in text or (status is not None and str(status) in text)
            or str(error)[:30].lower() in text)


@extra("real_models: Say what went wrong")
def check_answer_or_explain(answer_or_explain):
    from .. import llm
    from ..errors import LLMError
    notebook = _namespace(answer_or_explain, ("run_agent", "agentloop"), "loop")
    with contextlib.redirect_stdout(io.StringIO()):  # a check prints one line
        got = _tried(answer_or_explain, QUESTION)
    expect(got == "The answer is 35.", f"answer_or_explain({QUESTION!r}) returned {got!r} on the working teaching "
                                       "model: when nothing fails it returns run_agent's answer.")
    broken = {"a model name the server does not have": dict(model="teaching-model+no-such-quirk"),
              "a server that is not running": dict(base_url="http://127.0.0.1:9/v1", model="any", retries=0)}
    for what, settings in broken.items():
        try:
            llm.use(**settings)
            with contextlib.redirect_stdout(io.StringIO()):  # a check prints one line
                got = attempt(answer_or_explain, QUESTION)
        except Hint as hint:
            raise Hint(f"with {what}, {hint.hint}: the user would see a traceback. Catch the one error every "
                       "provider failure is.", "except agentloop.LLMError as error:") from None
        finally:
            llm.use()
        try:
            llm.use(**settings)
            notebook["agentloop"].ask([{"role": "user", "content": "Hello!"}])
            expect(False, f"the check expected {what} to fail, and it did not.")
        except LLMError as error:
            expected = error
        finally:
            llm.use()
        expect(isinstance(got, str) and got.strip(), f"with {what}, answer_or_explain returned {got!r}: return a "
                                                     "sentence for the user.")
        expect(_said_what(got, expected), f"with {what}, answer_or_explain returned {got!r}; the error was "
                                          f"{type(expected).__name__}: {str(expected)[:90]}... Say what went wrong "
                                          "(its kind or its message), so the user knows whether to fix the key, the "
                                          "model name or the URL.", fix='return f"The model could not answer: {error}"')
    # A bug in our own code is not the provider's failure: it must not be dressed up as one.
    loop = notebook["run_agent"]
    def buggy(*args, **kwargs):
        raise KeyError("choices")
    notebook["run_agent"] = buggy
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # a check prints one line
            got = answer_or_explain(QUESTION)
    except KeyError:
        got = None
    finally:
        notebook["run_agent"] = loop
    expect(got is None, f"when run_agent itself has a bug (it raised KeyError), answer_or_explain returned {got!r}: "
                        "our own bug went to the user as if the provider had failed, and out of our sight. Catch "
                        "only agentloop.LLMError, the error a provider's failure becomes.")


# openai_sdk: the SDK's typed answer read for its tokens, and handed to the loop as a plain dict

TOLD = "Hi! My name is Ada, I prefer tea."


@extra("openai_sdk: Count the SDK's tokens")
def check_ask_counted(ask_sdk_counted, spent):
    notebook = _namespace(ask_sdk_counted, ("client", "memory_agent", "memory", "MEMORY_FILE"), "SDK client")
    expect(notebook["client"] is not None, "there is no openai SDK here (the browser site cannot install it): run "
                                           "this notebook in local Jupyter for this exercise.")
    expect(isinstance(spent, dict) and isinstance(spent.get("tokens"), (int, float)),
           f"spent is {spent!r}: pass the dict your function adds to, {{'tokens': 0}} to start.")
    memory, path, before = notebook["memory"], notebook["MEMORY_FILE"], spent["tokens"]
    kept = dict(memory)
    with files_kept(path):
        try:
            memory.clear()
            spent["tokens"] = 0
            start = len(trace.events)
            try:
                with contextlib.redirect_stdout(io.StringIO()):  # a check prints one line
                    answer = notebook["memory_agent"](TOLD, ask_sdk_counted)
            except Exception as error:  # said without the function's repr, whose address changes every run
                said = f"memory_agent({TOLD!r}, ask_sdk_counted) raised {type(error).__name__}: {error}"
                if "ellipsis" in str(error):
                    said += ": the `...` holes are still there; fill each one, then run the cell again."
                elif "ChatCompletionMessage" in str(error):
                    said += ": the loop reads a plain dict, and the SDK's message is a typed object."
                raise Hint(said, "return response.choices[0].message.to_dict()") from None
            usage = [event.payload.get("usage") or {} for event in trace.events[start:] if event.kind == "response"]
            expect(memory.get("name") == "Ada" and isinstance(answer, str),
                   f"memory_agent({TOLD!r}, ask_sdk_counted) answered {answer!r} and remembered {memory}: the loop "
                   "works only if your function returns the message as a plain dict.")
            total = sum(part.get("total_tokens", 0) for part in usage)
            counted = spent["tokens"]
            kind = {sum(part.get("prompt_tokens", 0) for part in usage): "the prompts' tokens only",
                    sum(part.get("completion_tokens", 0) for part in usage): "the answers' tokens only",
                    (usage[-1].get("total_tokens") if usage else -1): "the last call's tokens only"}.get(counted)
            expect(counted == total, f"the {len(usage)} calls of that run used {total} tokens in all, by the responses' "
                                     f"usage; spent['tokens'] says {counted!r}" + (f": {kind}." if kind else ".")
                                     + " Each call adds its total (prompt and answer) to what came before.",
                   fix='spent["tokens"] += response.usage.total_tokens')
        finally:
            memory.clear()
            memory.update(kept)
            spent["tokens"] = before
