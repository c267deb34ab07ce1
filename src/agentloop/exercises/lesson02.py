"""Lesson 2 exercises: describe a tool, an unknown tool's error that names the real ones, a tool of your own."""
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


@exercise("2.2 Tell the model which tools there are")
def check_run_tool_or_suggest(run_tool_or_suggest, TOOLS):
    expect(isinstance(TOOLS, dict) and TOOLS, f"TOOLS is {TOOLS!r}; pass the agent's TOOLS dict, which tool() fills.",
           fix="lesson02.check_run_tool_or_suggest(run_tool_or_suggest, TOOLS).")
    got = attempt(run_tool_or_suggest, _call("fly", {"to": "the moon"}))
    expect(isinstance(got, str), f"for a tool that does not exist it returned {got!r}; the model reads a string.",
           fix="return f'Error: no tool {name}; the tools are: ...' (a string).")
    missing = [name for name in TOOLS if name not in got]
    expect(not missing, f"for a tool that does not exist it returned {got!r}, which does not name {', '.join(missing)}: "
                        "the model cannot pick a tool it is not told about.",
           fix="', '.join(TOOLS) gives the names of the tools there are.")
    TOOLS["extra_check_tool"] = lambda: "ok"  # a tool added later must be listed too: the list comes from TOOLS
    try:
        later = attempt(run_tool_or_suggest, _call("fly", {}))
    finally:
        del TOOLS["extra_check_tool"]
    expect(isinstance(later, str) and "extra_check_tool" in later,
           f"with one more tool in TOOLS it still returned {later!r}: write the names out of TOOLS, not by hand.",
           fix="', '.join(TOOLS), read when the error is made.")
    for name, tool in TOOLS.items():  # a known tool still runs: try one whose arguments we can make up
        if name == "count_letters":
            got = attempt(run_tool_or_suggest, _call(name, {"word": "strawberry", "letter": "r"}))
            expect(got == str(tool("strawberry", "r")), f"count_letters(strawberry, r) came back as {got!r}; "
                                                      "a tool that exists must still run.",
                   fix="leave the rest of run_tool as it was; change only the line for an unknown name.")


@exercise("2.3 A tool of your own, through tool()")
def check_count_words(count_words):
    expect(callable(count_words), f"count_words is {count_words!r}; a tool is a function.",
           fix="def count_words(text): return len(text.split()).")
    # The agent's SCHEMAS, TOOLS and run_tool: the ones beside the function, where tool() put it.
    home = getattr(count_words, "__globals__", {})
    SCHEMAS, TOOLS, name = home.get("SCHEMAS"), home.get("TOOLS"), count_words.__name__
    expect(isinstance(SCHEMAS, dict) and isinstance(TOOLS, dict),
           "there is no SCHEMAS and TOOLS beside count_words: define it in the notebook, after tool().",
           fix="run the cells above first (they define SCHEMAS, TOOLS and tool()).")
    expect(name in SCHEMAS and TOOLS.get(name) is count_words,
           f"{name} is not offered to the model yet: SCHEMAS (what the model sees) has {sorted(SCHEMAS)}.",
           fix=f"tool({name}, 'Count the words in a text.', text='string'), after the def.")
    for text in ("the quick brown fox jumps", "to be or not to be, that is the question"):
        question = [{"role": "user", "content": f'How many words are in "{text}"?'}]
        message = llm.ask(question, tools=list(SCHEMAS.values()))
        calls = [call for call in message.get("tool_calls") or [] if call["function"]["name"] == name]
        expect(calls, f"asked {question[0]['content']!r} with your tools offered, the model did not call {name}: "
                      "it picks a tool by its description.",
               fix="describe it as counting the words in a text, with one string parameter.")
        arguments = json.loads(calls[0]["function"]["arguments"])
        dispatch = home.get("run_tool")  # the agent's own dispatch, when it is there to use
        result = attempt(dispatch, calls[0]) if callable(dispatch) else attempt(TOOLS[name], **arguments)
        expected = len(text.split())
        expect(str(result) == str(expected), f"the model called {name}({calls[0]['function']['arguments']}) and it "
                                             f"returned {result!r}; the text has {expected} words.",
               fix="len(text.split()): split() cuts at every run of spaces.")
        final = llm.ask(question + [message, {"role": "tool", "tool_call_id": calls[0]["id"], "content": str(result)}],
                        tools=list(SCHEMAS.values()))
        expect(str(expected) in (final.get("content") or ""), f"the final answer was {final.get('content')!r}.",
               fix="return the count; the model reads it back from the tool message.")
