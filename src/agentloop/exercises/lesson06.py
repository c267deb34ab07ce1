"""Lesson 6 exercises: rendering memory, its cost in tokens, loading it safely."""
import os
import tempfile

from ..checks import attempt, exercise, expect
from ..tokens import count_tokens


@exercise("6.1 Render the memory for the system prompt")
def check_render_memory(render_memory):
    got = attempt(render_memory, {"name": "Ada", "prefers": "tea"})
    expect(got == "- name: Ada\n- prefers: tea",
           f"render_memory returned {got!r}; one line '- key: value' per fact, joined with newlines.")
    got = attempt(render_memory, {})
    expect(got == "", f"an empty memory renders as an empty string, got {got!r}.")


@exercise("6.2 What memory costs in every prompt")
def check_memory_tokens(memory_tokens):
    small = {"name": "Ada"}
    big = {f"fact_{i}": f"value number {i}" for i in range(100)}
    for memory in (small, big, {}):
        expected = count_tokens("\n".join(f"- {k}: {v}" for k, v in memory.items()))
        got = attempt(memory_tokens, memory)
        expect(got == expected, f"for a memory of {len(memory)} fact(s) you returned {got!r}, expected {expected}: "
                                "count_tokens of the rendered lines (no lines for an empty memory).")


@exercise("6.3 Load memory without ever crashing")
def check_load_memory(load_memory):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "memory.json")
        expect(attempt(load_memory, path) == {}, "a missing file means an empty memory: return {}.")
        with open(path, "w") as file:
            file.write('{"name": "Ada"}')
        got = attempt(load_memory, path)
        expect(got == {"name": "Ada"}, f"a good file loads as its dict; got {got!r}.")
        with open(path, "w") as file:
            file.write('{"name": "Ad')  # a save cut off half-way
        got = attempt(load_memory, path)
        expect(got == {}, f"a truncated file must not crash the agent: return {{}} (got {got!r}).")
        with open(path, "w") as file:
            file.write('["not", "a", "dict"]')
        got = attempt(load_memory, path)
        expect(got == {}, f"JSON that is not an object is not a memory: return {{}} (got {got!r}).")
