"""Reference solutions for lesson 2's exercises."""
import json

MULTIPLY = {"type": "function", "function": {
    "name": "multiply", "description": "Multiply two numbers.",
    "parameters": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                   "required": ["a", "b"]}}}


def run_tool_from(call, tools):
    name = call["function"]["name"]
    if name not in tools:
        return f"Error: unknown tool {name}"
    return str(tools[name](**json.loads(call["function"]["arguments"])))


def my_count_letters(word, letter):
    return word.lower().count(letter.lower())


MY_COUNT_LETTERS = {"type": "function", "function": {
    "name": "count_letters", "description": "Count how many times a letter occurs in a word.",
    "parameters": {"type": "object", "properties": {"word": {"type": "string"}, "letter": {"type": "string"}},
                   "required": ["word", "letter"]}}}
