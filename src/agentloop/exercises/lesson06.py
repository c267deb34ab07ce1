"""Lesson 6 exercises: a second memory that survives a restart, its cost in tokens, loading it safely."""
import json
import os
import tempfile

from .. import llm
from ..checks import attempt, exercise, expect
from ..storage import load_json
from ..tokens import count_tokens


REMEMBER = {"type": "function", "function": {
    "name": "remember", "description": "Remember a fact about the user for future conversations.",
    "parameters": {"type": "object", "properties": {"key": {"type": "string"}, "value": {"type": "string"}},
                   "required": ["key", "value"]}}}


def _chat(question, notes_prompt, remember_note):
    """One question through a small loop that rebuilds the system message before every call."""
    messages = [{"role": "system", "content": ""}, {"role": "user", "content": question}]
    for _ in range(4):
        messages[0] = {"role": "system", "content": str(attempt(notes_prompt))}
        message = llm.ask(messages, tools=[REMEMBER])
        messages.append(message)
        if not message.get("tool_calls"):
            return message.get("content") or ""
        for call in message["tool_calls"]:
            result = attempt(remember_note, **json.loads(call["function"]["arguments"]))
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": str(result)})
    return ""


@exercise("6.1 A second memory that survives a restart")
def check_notes(NOTES_FILE, notes, remember_note, notes_prompt):
    expect(isinstance(notes, dict), "pass the notes dict second: check_notes(NOTES_FILE, notes, remember_note, notes_prompt).")
    saved = dict(notes)
    before = open(NOTES_FILE).read() if os.path.exists(NOTES_FILE) else None
    try:
        notes.clear()
        _chat("My name is Ada, I prefer tea.", notes_prompt, remember_note)
        expect(notes.get("name") == "Ada" and notes.get("prefers") == "tea",
               f"after 'My name is Ada, I prefer tea.' the notes are {notes}.",
               fix="remember_note(key, value) sets notes[key] = value (and returns a message for the model).")
        on_disk = load_json(NOTES_FILE, default={})
        expect(on_disk == notes, f"{NOTES_FILE} holds {on_disk}, the notes dict {notes}.",
               fix="save at once: save_json(NOTES_FILE, notes) inside remember_note.")
        prompt = str(attempt(notes_prompt))
        expect("Ada" in prompt and "tea" in prompt, f"notes_prompt() returned {prompt!r}; put the notes in it.",
               fix="return SYSTEM, then one '- key: value' line per note.")
        notes.clear()  # a restart: the dict is gone...
        expect("Ada" not in str(attempt(notes_prompt)), "with the notes dict emptied, notes_prompt() still says Ada.",
               fix="render the dict each time notes_prompt() is called; don't keep a string made earlier.")
        notes.update(load_json(NOTES_FILE, default={}))  # ...and the load step brings it back
        answer = _chat("What is my name?", notes_prompt, remember_note)
        expect("Ada" in answer, f"after a restart and a new conversation the model answered {answer!r}.",
               fix="notes_prompt() renders the notes dict, which the load step filled from NOTES_FILE.")
    finally:
        notes.clear()
        notes.update(saved)
        for leftover in (NOTES_FILE, NOTES_FILE + ".bak") if before is None else ():
            if os.path.exists(leftover):
                os.remove(leftover)
        if before is not None:
            with open(NOTES_FILE, "w") as file:
                file.write(before)


@exercise("6.2 What memory costs in every prompt")
def check_memory_tokens(memory_tokens):
    small = {"name": "Ada"}
    big = {f"fact_{i}": f"value number {i}" for i in range(100)}
    for memory in (small, big, {}):
        expected = count_tokens("\n".join(f"- {k}: {v}" for k, v in memory.items()))
        got = attempt(memory_tokens, memory)
        expect(got == expected, f"for a memory of {len(memory)} fact(s) you returned {got!r}, expected {expected}: "
                                "count_tokens of the rendered lines (no lines for an empty memory).",
               fix="count_tokens('\\n'.join(f'- {k}: {v}' for k, v in memory.items())).")


@exercise("6.3 Load memory without ever crashing")
def check_load_memory(load_memory):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "memory.json")
        expect(attempt(load_memory, path) == {}, "a missing file means an empty memory: return {}.",
               fix="if not os.path.exists(path): return {}.")
        with open(path, "w") as file:
            file.write('{"name": "Ada"}')
        got = attempt(load_memory, path)
        expect(got == {"name": "Ada"}, f"a good file loads as its dict; got {got!r}.")
        with open(path, "w") as file:
            file.write('{"name": "Ad')  # a save cut off half-way
        got = attempt(load_memory, path)
        expect(got == {}, f"a truncated file must not crash the agent: return {{}} (got {got!r}).",
               fix="wrap json.load in try/except ValueError (json.JSONDecodeError is one) and return {}.")
        with open(path, "w") as file:
            file.write('["not", "a", "dict"]')
        got = attempt(load_memory, path)
        expect(got == {}, f"JSON that is not an object is not a memory: return {{}} (got {got!r}).",
               fix="return the loaded value only if isinstance(value, dict), else {}.")
