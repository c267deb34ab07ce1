"""Reference solutions for lesson 2's exercises."""
import json

MULTIPLY = {"type": "function", "function": {
    "name": "multiply", "description": "Multiply two numbers.",
    "parameters": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                   "required": ["a", "b"]}}}


def run_tool_from(call, tools):
    # The model only names a tool; an unknown name becomes a message it can read, never a crash.
    # arguments arrive as a JSON string, so they are parsed before the call.
    name = call["function"]["name"]
    if name not in tools:
        return f"Error: unknown tool {name}"
    return str(tools[name](**json.loads(call["function"]["arguments"])))


def my_count_letters(word, letter):
    # lower() on both sides: "S" and "s" are the same letter to the person asking.
    return word.lower().count(letter.lower())


# The model sees only this schema: a name and description that mention letters are how it finds it.
MY_COUNT_LETTERS = {"type": "function", "function": {
    "name": "count_letters", "description": "Count how many times a letter occurs in a word.",
    "parameters": {"type": "object", "properties": {"word": {"type": "string"}, "letter": {"type": "string"}},
                   "required": ["word", "letter"]}}}
