"""Lesson 2 exercises: describe a tool, an unknown tool's error that names the real ones, a tool of your own."""
import inspect
import json
import re

from .. import llm
from ..checks import attempt, exercise, expect


def _call(name: str, arguments) -> dict:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"id": "call_check", "type": "function", "function": {"name": name, "arguments": text}}


# The tool's description is the student's to word (any a real model reads will do); the exercise is the
# parameters' descriptions, so a schema the teaching model misses is tried again under this one.
PLAIN = "Count how many times a letter occurs in a word."

TALLY_QUESTIONS = [("How many r's are in strawberry?", "r", "strawberry"),
                   ("How many times does the letter s occur in mississippi?", "s", "mississippi")]


@exercise("2.1 Describe each parameter")
def check_tally_schema(TALLY, SCHEMAS, run_tool):
    expect(isinstance(TALLY, dict), f"TALLY is {TALLY!r}; a tool's schema is a dict.",
           fix="start from COUNT_LETTERS above: {'type': 'function', 'function': {'name': 'tally', ...}}.")
    expect(TALLY.get("type") == "function", "the outer dict says what kind of tool this is.",
           fix="add 'type': 'function' beside 'function': {...}.")
    function = TALLY.get("function") or {}
    expect(function.get("name") == "tally", f"the function's name is {function.get('name')!r}; run_tool "
                                            "looks the tool up in TOOLS by that name.",
           fix="'name': 'tally', inside TALLY['function'].")
    expect(isinstance(function.get("description"), str) and function["description"].strip(),
           "the model chooses a tool by its description: TALLY['function'] has none.",
           fix="add a 'description', e.g. 'Count how many times a letter occurs in a word.'")
    parameters = function.get("parameters") or {}
    properties = parameters.get("properties") or {}
    expect(parameters.get("type") == "object" and isinstance(properties, dict),
           "TALLY['function']['parameters'] is not the JSON schema of an object.",
           fix="'parameters': {'type': 'object', 'properties': {...}, 'required': [...]}.")
    expect(sorted(properties) == ["x", "y"], f"tally's parameters are x and y; your schema has {sorted(properties)}. "
                                             "run_tool passes the model's arguments by these names.",
           fix="one entry in 'properties' for x and one for y.")
    for name, spec in properties.items():
        expect(isinstance(spec, dict) and spec.get("type") == "string", f"what type is {name}?",
               fix=f"'{name}': {{'type': 'string', 'description': ...}}.")
        said = spec.get("description")
        expect(isinstance(said, str) and said.strip(),
               f"{name} has no description: tool() could have written this schema. Each parameter says what it "
               "holds, where the model fills that argument, even when the tool's description hints at it.",
               fix=f"'{name}': {{'type': 'string', 'description': 'the ...'}}: read tally's code to see which is which.")
    expect(sorted(parameters.get("required") or []) == ["x", "y"], "may the model leave x or y out?",
           fix="list both parameters in 'required'.")
    expect(isinstance(SCHEMAS, dict) and SCHEMAS.get("tally") is TALLY,
           "your schema is not in SCHEMAS, so the agent still offers tool()'s schema, the one without descriptions.",
           fix='SCHEMAS["tally"] = TALLY, then run the check again.')
    for question, letter, word in TALLY_QUESTIONS:
        asked = [{"role": "user", "content": question}]
        message = llm.ask(asked, tools=[SCHEMAS["tally"]])
        calls = [call for call in message.get("tool_calls") or [] if call["function"]["name"] == "tally"]
        offered = SCHEMAS["tally"]
        if not calls:  # the tool's description, or the parameters'? Ask again with a plain tool description
            offered = {"type": "function", "function": {**function, "description": PLAIN}}
            message = llm.ask(asked, tools=[offered])
            calls = [call for call in message.get("tool_calls") or [] if call["function"]["name"] == "tally"]
        expect(calls, f"asked {question!r}, the model did not call tally, with your schema nor with your parameters "
                      f"under a plain tool description ({PLAIN!r}): it could not tell from x's and y's descriptions "
                      "which one is the letter and which the word. The teaching model needs plain words there (a "
                      "letter or character; a word or text); a real model may read more.",
               fix="describe x and y by what tally does with them: one is counted, the other is searched.")
        arguments = json.loads(calls[0]["function"]["arguments"])
        expect(arguments == {"x": letter, "y": word}, _misread(question, arguments, letter, word),
               fix="tally counts x in y: say plainly that x is the letter (one character) and y the word to search.")
        result = attempt(run_tool, calls[0])
        expected = word.count(letter)
        expect(str(result) == str(expected), f"your agent's run_tool ran the call and returned {result!r}; "
                                             f"{word!r} has {expected} {letter!r}s.",
               fix="run the cell that defines tally and offers it with tool(), above this one.")
        final = llm.ask(asked + [message, {"role": "tool", "tool_call_id": calls[0]["id"], "content": str(result)}],
                        tools=[offered])
        expect(str(expected) in (final.get("content") or ""), f"the final answer was {final.get('content')!r}.")


def _misread(question: str, arguments, letter: str, word: str) -> str:
    """What the model's arguments say about the descriptions, told only as far as the arguments show it."""
    asked = f"asked {question!r}, the model called tally with {arguments}"
    x, y = (arguments.get("x"), arguments.get("y")) if isinstance(arguments, dict) else (None, None)
    if (x, y) == (word, letter):
        return (f"{asked}: it read your descriptions, and they put the letter and the word the other way round "
                "from tally's code.")
    if x == y or word not in (x, y):
        seen = f"it put {x!r} in both" if x == y else f"neither holds {word!r}"
        return (f"{asked}: {seen}, so it could not tell from your descriptions which parameter is the word. "
                "Describe each parameter in plain words by what it holds, so the two cannot be mistaken for "
                "each other. (The teaching model, a rule-based stand-in, reads plain words there: a letter or "
                "character; a word or text. A real model may read more.)")
    if x != letter:
        return f"{asked}: y is the word, but x is not the letter: could x's description be plainer about what it holds?"
    return f"{asked}: x is the letter, but y is not the word: could y's description be plainer about what it holds?"


EXTRA = "extra_check_tool"
EXTRA_SCHEMA = {"type": "function", "function": {"name": EXTRA, "description": "A tool the check adds for a moment.",
                                                 "parameters": {"type": "object", "properties": {}}}}


@exercise("2.2 Tell the model which tools there are")
def check_run_tool_or_suggest(run_tool_or_suggest, TOOLS):
    expect(isinstance(TOOLS, dict) and TOOLS, f"TOOLS is {TOOLS!r}; pass the agent's TOOLS dict, which tool() fills.",
           fix="lesson02.check_run_tool_or_suggest(run_tool_or_suggest, TOOLS).")
    got = attempt(run_tool_or_suggest, _call("fly", {"to": "the moon"}))
    expect(isinstance(got, str), f"for a tool that does not exist it returned {got!r}; the model reads a string.",
           fix="return f'Error: no tool {name}; the tools are: ...' (a string).")
    expect("fly" in got, f"for a tool that does not exist it returned {got!r}, which does not say which tool was asked "
                         "for: the model learns what would work but not which of its calls failed.",
           fix="put the name the model asked for in the error too: f'Error: no tool {name}; ...'.")
    missing = [name for name in TOOLS if name not in got]
    expect(not missing, f"for a tool that does not exist it returned {got!r}, which does not name {', '.join(missing)}: "
                        "the model cannot pick a tool it is not told about.",
           fix="', '.join(TOOLS) gives the names of the tools there are.")
    dumped = re.search(r"<[^<>]* at 0x[0-9a-fA-F]+>", got)  # Python's repr of a function (or any object)
    expect(not dumped, "for a tool that does not exist it returned a text that shows the model "
                       f"{dumped.group() if dumped else ''}, Python's picture of a function object: noise the model "
                       "cannot call. Name the tools, not the objects behind them.",
           fix="', '.join(TOOLS) gives just the names; {TOOLS} prints the whole dict, functions and all.")
    # A tool added later must be listed too. It is added as tool() adds one, to TOOLS and to SCHEMAS, which hold
    # the same tools: names read from either when the error is made are right; a list made before is not.
    SCHEMAS = getattr(run_tool_or_suggest, "__globals__", {}).get("SCHEMAS")
    SCHEMAS = SCHEMAS if isinstance(SCHEMAS, dict) and SCHEMAS is not TOOLS else {}
    TOOLS[EXTRA], SCHEMAS[EXTRA] = (lambda: "ok"), EXTRA_SCHEMA
    try:
        later = attempt(run_tool_or_suggest, _call("fly", {}))
    finally:
        TOOLS.pop(EXTRA, None)
        SCHEMAS.pop(EXTRA, None)
    expect(isinstance(later, str) and EXTRA in later,
           f"with one more tool added to the agent (as tool() adds one) it still returned {later!r}: the list of "
           "names was made before that tool came. Read the names from TOOLS when the error is made.",
           fix="', '.join(TOOLS), read when the error is made.")
    for name, tool in TOOLS.items():  # a known tool still runs: try one whose arguments we can make up
        if name == "count_letters":
            got = attempt(run_tool_or_suggest, _call(name, {"word": "strawberry", "letter": "r"}))
            expect(got == str(tool("strawberry", "r")), f"count_letters(strawberry, r) came back as {got!r}; "
                                                      "a tool that exists must still run.",
                   fix="leave the rest of run_tool as it was; change only the line for an unknown name.")


def _description(schema) -> str:
    """The tool description a schema gives the model ('' when it has none)."""
    function = schema.get("function", {}) if isinstance(schema, dict) else {}
    described = function.get("description", "") if isinstance(function, dict) else ""
    return described if isinstance(described, str) else ""


def _offered(SCHEMAS) -> list:
    """The agent's schemas that can be sent: 2.1's cell, not yet done, leaves `...` in SCHEMAS["tally"]."""
    def sendable(schema):
        try:
            return isinstance(schema, dict) and bool(json.dumps(schema))
        except (TypeError, ValueError):
            return False
    return [schema for schema in SCHEMAS.values() if sendable(schema)]


PASTED = "  one  two\tthree\nfour "


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
    expect(name in SCHEMAS, f"{name} is not offered to the model yet: SCHEMAS (what the model sees) has {sorted(SCHEMAS)}.",
           fix=f"tool({name}, 'Count the words in a text.', text='string'), after the def.")
    expect(TOOLS.get(name) is count_words,
           f"SCHEMAS offers {name} to the model, but TOOLS (what run_tool runs) "
           + (f"has no {name}" if name not in TOOLS else f"holds another {name}, not this one")
           + ": the model could call it and run_tool would answer with an error. tool() puts the function in both.",
           fix=f"tool({name}, 'Count the words in a text.', text='string'), after the def.")
    # The lesson's point: the description, not the name, tells the model what a tool does. A copied one
    # (count_letters') or one that never mentions words describes another tool, even if the model calls it.
    described = _description(SCHEMAS.get(name))
    twins = sorted(other for other, schema in SCHEMAS.items() if other != name and described
                   and _description(schema).strip().lower() == described.strip().lower())
    expect(not twins, f"{name} is offered with the description {described!r}, the same as {', '.join(twins)}'s: "
                      "the model cannot tell the two apart, and the description is what it reads.",
           fix=f"tool({name}, 'Count the words in a text.', text='string')")
    expect("word" in described.lower(), f"{name} is offered with the description {described!r}: it does not say the "
                                        "tool counts words, and the description is the model's only guide.",
           fix=f"tool({name}, 'Count the words in a text.', text='string')")
    schema = SCHEMAS[name] if isinstance(SCHEMAS[name], dict) else {}
    properties = ((schema.get("function") or {}).get("parameters") or {}).get("properties") or {}
    own = list(inspect.signature(count_words).parameters)
    expect(properties or not own,
           f"{name} is offered with no parameters, so the model cannot send it the text: name the parameter in tool().",
           fix=f"tool({name}, 'Count the words in a text.', {own[0] if own else 'text'}='string')")
    for param, spec in properties.items():
        kind = spec.get("type") if isinstance(spec, dict) else None
        expect(kind in (None, "string"), f"{name}'s schema declares {param} as {kind!r}: the model then sends a "
                                         f"{kind}, not the text. A text is a \"string\".",
               fix=f"tool({name}, 'Count the words in a text.', {param}='string')")
    for text in ("the quick brown fox jumps", "to be or not to be, that is the question"):
        question = [{"role": "user", "content": f'How many words are in "{text}"?'}]
        message = llm.ask(question, tools=_offered(SCHEMAS))
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
                        tools=_offered(SCHEMAS))
        expect(str(expected) in (final.get("content") or ""), f"the final answer was {final.get('content')!r}.",
               fix="return the count; the model reads it back from the tool message.")
    # Pasted text has runs of spaces, tabs and line breaks between its words (the model's quoted texts do not).
    result = attempt(count_words, PASTED)
    expect(str(result) == str(len(PASTED.split())),
           f"{name}({PASTED!r}) returned {result!r}; the text has {len(PASTED.split())} words: words can be parted "
           "by more than one space, or by a tab or a line break, as in text a user pastes.",
           fix="len(text.split()): split() with no argument cuts at every run of spaces, tabs and line breaks.")
