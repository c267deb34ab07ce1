"""Lesson 2 exercises: describe a tool, dispatch a call, fix the strawberry problem."""
import json

from .. import llm
from ..checks import attempt, exercise, expect


def _call(name: str, arguments) -> dict:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"id": "call_check", "type": "function", "function": {"name": name, "arguments": text}}


@exercise("2.1 Describe the multiply tool")
def check_multiply_schema(MULTIPLY):
    expect(isinstance(MULTIPLY, dict), f"MULTIPLY is {MULTIPLY!r}; a tool's schema is a dict.",
           fix="{'type': 'function', 'function': {'name': ..., 'description': ..., 'parameters': {...}}}.")
    expect(MULTIPLY.get("type") == "function", "the outer dict says what kind of tool this is.",
           fix="add 'type': 'function' beside 'function': {...}.")
    function = MULTIPLY.get("function") or {}
    expect(function.get("name") == "multiply", f"the function's name is {function.get('name')!r}.",
           fix="'name': 'multiply', inside MULTIPLY['function'].")
    expect(function.get("description"), "the model chooses a tool by its description: MULTIPLY['function'] has none.",
           fix="add a 'description', e.g. 'Multiply two numbers.'")
    parameters = function.get("parameters") or {}
    properties = parameters.get("properties") or {}
    expect(parameters.get("type") == "object", "MULTIPLY['function']['parameters'] is not the JSON schema of an object.",
           fix="'parameters': {'type': 'object', 'properties': {...}, 'required': [...]}.")
    expect(len(properties) == 2, f"multiply takes two numbers; your MULTIPLY has {len(properties)} properties.",
           fix="one entry per argument in 'properties', e.g. 'a' and 'b'.")
    expect(all(p.get("type") in ("number", "integer") for p in properties.values()),
           "what type is each parameter?", fix="give each parameter 'type': 'number'.")
    expect(sorted(parameters.get("required") or []) == sorted(properties),
           "may the model leave one of the two numbers out?", fix="list both parameters in 'required'.")
    message = llm.ask([{"role": "user", "content": "What is 6 times 7?"}], tools=[MULTIPLY])
    calls = message.get("tool_calls") or []
    expect(calls and calls[0]["function"]["name"] == "multiply", "the model did not call your tool.",
           fix="check the name ('multiply') and that the description says it multiplies.")
    expect(sorted(json.loads(calls[0]["function"]["arguments"]).values()) == [6, 7],
           f"the model called multiply with {calls[0]['function']['arguments']}.",
           fix="two parameters of 'type': 'number', so the model can place 6 and 7.")


@exercise("2.2 Dispatch a tool call")
def check_run_tool_from(run_tool_from):
    tools = {"add": lambda a, b: a + b, "shout": lambda text: text.upper()}
    got = attempt(run_tool_from, _call("add", {"a": 2, "b": 3}), tools)
    expect(isinstance(got, str), f"run_tool_from(add 2 and 3) returned {got!r}: what type is a "
                                 "tool message's content?", fix="return str(result).")
    expect(got == "5", f"run_tool_from(add 2 and 3) returned {got!r}.",
           fix="json.loads the arguments string, then call tools[name](**arguments).")
    got = attempt(run_tool_from, _call("shout", {"text": "hi"}), tools)
    expect(got == "HI", f"run_tool_from(shout 'hi') returned {got!r}.",
           fix="look the tool up by call['function']['name'], not a name you typed in.")
    got = attempt(run_tool_from, _call("fly", {}), tools)
    expect(isinstance(got, str) and "unknown" in got.lower(),
           f"for a tool you don't have, run_tool_from returned {got!r}: the model needs to read what went wrong.",
           fix="if name not in tools: return f'Error: unknown tool {name}'.")


@exercise("2.3 Count letters with a tool")
def check_count_letters(my_count_letters, MY_COUNT_LETTERS):
    name = (MY_COUNT_LETTERS.get("function") or {}).get("name") if isinstance(MY_COUNT_LETTERS, dict) else None
    expect(name, "the second argument is not a tool's schema.",
           fix="pass the schema dict MY_COUNT_LETTERS: check_count_letters(my_count_letters, MY_COUNT_LETTERS).")
    for word, letter, count in (("strawberry", "r", 3), ("mississippi", "s", 4)):
        question = [{"role": "user", "content": f"How many {letter}'s are in {word}?"}]
        message = llm.ask(question, tools=[MY_COUNT_LETTERS])
        calls = message.get("tool_calls") or []
        expect(calls, f"asked {question[0]['content']!r}, the model did not call your tool.",
               fix="describe it so its name or description mentions letters, with a word and a letter parameter.")
        arguments = json.loads(calls[0]["function"]["arguments"])
        result = str(attempt(my_count_letters, **arguments))
        expect(result == str(count), f"for {arguments}, your tool returned {result}; expected {count}.",
               fix="word.lower().count(letter.lower()): count the letter, whatever its case.")
        final = llm.ask(question + [message, {"role": "tool", "tool_call_id": calls[0]["id"], "content": result}],
                        tools=[MY_COUNT_LETTERS])
        expect(str(count) in (final.get("content") or ""), f"the final answer was {final.get('content')!r}.",
               fix="return the count (a number or its string); the model reads it back from the tool message.")
