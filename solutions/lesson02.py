"""Reference solutions for lesson 2's exercises."""
import json

# tally(x, y) counts x in y: its names say nothing, so each parameter's description says what it holds.
# tool() writes only a type per parameter; without these the model cannot tell the letter from the word.
TALLY = {"type": "function", "function": {
    "name": "tally", "description": "Count how many times a letter occurs in a word.",
    "parameters": {"type": "object", "properties": {
        "x": {"type": "string", "description": "the letter to count"},
        "y": {"type": "string", "description": "the word to count it in"}},
        "required": ["x", "y"]}}}


# The lesson's agent as it ends, which the answers below change (2.2) and grow (2.3).
def count_letters(word, letter):
    return word.lower().count(letter.lower())


def tally(x, y):  # the lesson's library function, from the demo before 2.1
    return y.lower().count(x.lower())


# The demo offered tally with tool(); 2.1's answer (TALLY) replaces the schema, the function stays.
TOOLS = {"count_letters": count_letters, "tally": tally}
SCHEMAS = {}


def tool(function, description, **params):
    properties = {param: {"type": kind} for param, kind in params.items()}
    SCHEMAS[function.__name__] = {"type": "function", "function": {
        "name": function.__name__, "description": description,
        "parameters": {"type": "object", "properties": properties, "required": list(params)}}}
    TOOLS[function.__name__] = function


tool(count_letters, "Count how many times a letter occurs in a word.", word="string", letter="string")


def run_tool(call):
    name = call["function"]["name"]
    if name not in TOOLS:
        return f"Error: unknown tool {name}"
    arguments = json.loads(call["function"]["arguments"])
    return str(TOOLS[name](**arguments))


def run_tool_or_suggest(call):
    # The model only knows the tools it was offered; after a wrong name, the list of the real ones
    # is what lets it try again (LangGraph's ToolNode answers "try one of [...]" the same way).
    # The names come from TOOLS when the error is made, so a tool added later is listed too.
    name = call["function"]["name"]
    if name not in TOOLS:
        return f"Error: there is no tool {name}; the tools are: {', '.join(TOOLS)}"
    arguments = json.loads(call["function"]["arguments"])
    return str(TOOLS[name](**arguments))


def count_words(text):
    # split() with no argument cuts at any run of whitespace, so double spaces and newlines count right.
    return len(text.split())


# The model sees only the schema: a description that says "words" is how it finds the tool.
tool(count_words, "Count the words in a text.", text="string")
