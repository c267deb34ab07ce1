"""Lesson 3 exercises: a tool error is a result, reading the loop's steps, counting turns."""
import json

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


@exercise("3.2 Which tools did the agent use?")
def check_tools_used(tools_used):
    for question, expected in (("What is (3 + 4) * 5?", ["add", "multiply"]),
                               ("What is (2 + 3) * (4 + 1)?", ["add", "add", "multiply"]),
                               ("Hello!", [])):
        got = attempt(tools_used, question)
        expect(got == expected, f"tools_used({question!r}) returned {got!r}, expected {expected}; "
                                "collect call['function']['name'] for every tool call in the loop.")


@exercise("3.3 Count the turns")
def check_count_turns(count_turns):
    for question, max_turns, expected in (("Hello!", 5, 1), ("What is 2 + 3?", 5, 2),
                                          ("What is (3 + 4) * 5?", 5, 3), ("What is (3 + 4) * 5?", 2, 2)):
        got = attempt(count_turns, question, max_turns)
        expect(got == expected, f"count_turns({question!r}, max_turns={max_turns}) returned {got!r}, expected {expected}: "
                                "one turn per model call, including the last one that answers.",
               fix="count the model calls, not the tool calls: a loop stopped by max_turns made max_turns calls "
                   "and never got its answer.")
