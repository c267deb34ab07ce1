"""Lesson 2 exercises: describe a tool, dispatch a call, fix the strawberry problem."""
import json

from .. import llm
from ..checks import attempt, exercise, expect


def _call(name: str, arguments) -> dict:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"id": "call_check", "type": "function", "function": {"name": name, "arguments": text}}


@exercise("2.1 Describe the multiply tool")
def check_multiply_schema(MULTIPLY):
    expect(isinstance(MULTIPLY, dict), "MULTIPLY, the schema, is a dict: {'type': 'function', 'function': {...}}.")
    expect(MULTIPLY.get("type") == "function", "the outer dict needs 'type': 'function'.")
    function = MULTIPLY.get("function") or {}
    expect(function.get("name") == "multiply", "name the function 'multiply'.")
    expect(function.get("description"), "add a 'description': the model reads it to decide when to call the tool.")
    parameters = function.get("parameters") or {}
    properties = parameters.get("properties") or {}
    expect(parameters.get("type") == "object", "'parameters' is a JSON schema with 'type': 'object'.")
    expect(len(properties) == 2, f"multiply takes two numbers; your MULTIPLY has {len(properties)} properties.")
    expect(all(p.get("type") in ("number", "integer") for p in properties.values()),
           "give each parameter 'type': 'number'.")
    expect(sorted(parameters.get("required") or []) == sorted(properties), "list both parameters in 'required'.")
    message = llm.ask([{"role": "user", "content": "What is 6 times 7?"}], tools=[MULTIPLY])
    calls = message.get("tool_calls") or []
    expect(calls and calls[0]["function"]["name"] == "multiply", "the model did not call your tool; check the name.")
    expect(sorted(json.loads(calls[0]["function"]["arguments"]).values()) == [6, 7],
           f"the model called multiply with {calls[0]['function']['arguments']}.")


@exercise("2.2 Dispatch a tool call")
def check_run_tool_from(run_tool_from):
    tools = {"add": lambda a, b: a + b, "shout": lambda text: text.upper()}
    got = attempt(run_tool_from, _call("add", {"a": 2, "b": 3}), tools)
    expect(isinstance(got, str), f"return the result as a string (a tool message's content), not {type(got).__name__}.")
    expect(got == "5", f"run_tool_from(add 2 and 3) returned {got!r}; parse the JSON arguments and call tools[name](**args).")
    got = attempt(run_tool_from, _call("shout", {"text": "hi"}), tools)
    expect(got == "HI", f"run_tool_from(shout 'hi') returned {got!r}.")
    got = attempt(run_tool_from, _call("fly", {}), tools)
    expect(isinstance(got, str) and "unknown" in got.lower(),
           "for a tool you don't have, return a message such as 'Error: unknown tool fly', don't raise.")


@exercise("2.3 Count letters with a tool")
def check_count_letters(my_count_letters, MY_COUNT_LETTERS):
    name = (MY_COUNT_LETTERS.get("function") or {}).get("name") if isinstance(MY_COUNT_LETTERS, dict) else None
    expect(name, "pass the tool's schema, MY_COUNT_LETTERS, as the second argument.")
    for word, letter, count in (("strawberry", "r", 3), ("mississippi", "s", 4)):
        question = [{"role": "user", "content": f"How many {letter}'s are in {word}?"}]
        message = llm.ask(question, tools=[MY_COUNT_LETTERS])
        calls = message.get("tool_calls") or []
        expect(calls, "the model did not call your tool; describe it so its name or description mentions letters.")
        arguments = json.loads(calls[0]["function"]["arguments"])
        result = str(attempt(my_count_letters, **arguments))
        expect(result == str(count), f"for {arguments}, your tool returned {result}; expected {count}.")
        final = llm.ask(question + [message, {"role": "tool", "tool_call_id": calls[0]["id"], "content": result}],
                        tools=[MY_COUNT_LETTERS])
        expect(str(count) in (final.get("content") or ""), f"the final answer was {final.get('content')!r}.")
