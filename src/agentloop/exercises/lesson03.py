"""Lesson 3 exercises: a tool error is a result, a new stopping rule, counting turns."""
import json

from .. import trace
from ..checks import attempt, exercise, expect


def _call(name: str, arguments: str) -> dict:
    return {"id": "call_check", "type": "function", "function": {"name": name, "arguments": arguments}}


@exercise("3.1 A tool error is a result, not a crash")
def check_safe_run_tool(safe_run_tool):
    tools = {"divide": lambda a, b: a / b}
    got = attempt(safe_run_tool, _call("divide", json.dumps({"a": 6, "b": 3})), tools)
    expect(got == "2.0", f"dividing 6 by 3 returned {got!r}; return str(result).")
    for call, what in ((_call("divide", json.dumps({"a": 1, "b": 0})), "a tool that raises ZeroDivisionError"),
                       (_call("divide", "{not json"), "arguments that are not valid JSON"),
                       (_call("divide", json.dumps({"x": 1})), "arguments with the wrong names"),
                       (_call("teleport", "{}"), "an unknown tool")):
        got = attempt(safe_run_tool, call, tools)
        expect(isinstance(got, str) and got.startswith("Error"),
               f"for {what}, return a string starting with 'Error' (got {got!r}); wrap the call in try/except.")
    got = attempt(safe_run_tool, _call("divide", json.dumps({"a": 1, "b": 0})), tools)
    expect("ZeroDivisionError" in got, f"say which error it was, e.g. 'Error: ZeroDivisionError: ...' (got {got!r}).")


@exercise("3.2 Stop at a tool")
def check_run_agent_until(run_agent_until):
    for stop_at, expected, calls in (({"multiply"}, "35", 2), ({"add"}, "7", 1), (set(), "The answer is 35.", 3)):
        start = len(trace.events)
        got = attempt(run_agent_until, "What is (3 + 4) * 5?", stop_at)
        made = sum(event.kind == "request" for event in trace.events[start:])
        expect(got == expected, f"run_agent_until('What is (3 + 4) * 5?', stop_at={stop_at}) returned {got!r}, "
                                f"expected {expected!r}: when the model calls a tool named in stop_at, its result is the answer.",
               fix="in the loop over tool calls, right after result = run_tool(call): "
                   "if call['function']['name'] in stop_at: return result.")
        expect(made == calls, f"with stop_at={stop_at} the loop made {made} model calls, expected {calls}: "
                              "once a stop_at tool has run, the model is not asked again.",
               fix="return the tool's result inside the loop, before the next agentloop.ask.")
    got = attempt(run_agent_until, "Hello!", {"add"})
    expect(isinstance(got, str) and got.startswith("Hello"),
           f"run_agent_until('Hello!', stop_at={{'add'}}) returned {got!r}: with no tool call the model's text is the answer.",
           fix="when the reply has no tool_calls, return message['content'].")


@exercise("3.3 Count the turns")
def check_count_turns(count_turns):
    for question, max_turns, expected in (("Hello!", 5, 1), ("What is 2 + 3?", 5, 2),
                                          ("What is (3 + 4) * 5?", 5, 3), ("What is (3 + 4) * 5?", 2, 2)):
        got = attempt(count_turns, question, max_turns)
        expect(got == expected, f"count_turns({question!r}, max_turns={max_turns}) returned {got!r}, expected {expected}: "
                                "one turn per model call, including the last one that answers.",
               fix="count the model calls, not the tool calls: a loop stopped by max_turns made max_turns calls "
                   "and never got its answer.")
