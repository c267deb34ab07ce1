"""Each lesson survives Run All, and its examples run again after the exercises print the same.

For every lesson, in a fresh folder and one kernel: run every cell (the exercise cells hold their
untouched stubs); then run every example cell again (not the agent's definitions, so a stub that
shadowed one would show); then put the reference solutions in the students' names and run the
examples once more. No cell may raise, and each example prints what it printed the first time,
given the same state: the examples of lessons 7-9 read back what they stored, which the examples
themselves build
up, by design: RESET puts that state back first (each entry says which state).
"""
import ast
import json
import pathlib
import re
import shutil

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = pathlib.Path(__file__).parent.parent
LESSONS = sorted((ROOT / "lessons").glob("0*.ipynb"))

# What the examples of a lesson build up and read back, by design, and how the test puts it back
# before it runs them again. Only values are reset, never a definition, so a stub that shadowed
# one of the agent's functions would still show.
RESET = {
    7: ("the memory file, the conversation, the clock moved a week on",
        "memory.clear()\nsave_json(MEMORY_FILE, memory)\nhistory.clear()\nNOW = datetime(2026, 1, 5, 9, 0)"),
    8: ("the memory file (research notes, a birthday), the queue file, the conversation and the clock",
        "memory.clear()\nsave_json(MEMORY_FILE, memory)\nqueue.clear()\nsave_json(QUEUE_FILE, queue)\n"
        "history.clear()\nNOW = datetime(2026, 1, 5, 9, 0)"),
    9: ("the memory and queue files and the clock moved a week on",
        "memory.clear()\nsave_json(MEMORY_FILE, memory)\nqueue.clear()\nsave_json(QUEUE_FILE, queue)\n"
        "NOW = datetime(2026, 1, 5, 9, 0)"),
}

# Cells whose second run differs for a reason the lesson is built on, by their first line.
DIFFERS = {
    5: ("run_agent changes in two steps (trimming, then the state), each shown by a diff; run again after the "
        "lesson, the first diff compares lesson 4's run_agent with the last one, so it shows both steps",
        {"agentloop.show_changes(old_run_agent_4, run_agent)  # without `keep`, nothing is trimmed: the demos print what they did"}),
    6: ("the agent ends the lesson with 6.2's forget as a tool, so run again the try-it cell's 'Forget my "
        "allergies' calls it instead of saying the agent has no such tool, and every request carries one more "
        "schema: the trace and 5.1's progress line (the first memory demo passes on_step=print) count more "
        "prompt tokens",
        {'for question in ["I\'m allergic to peanuts", "what am I allergic to?", "Forget my allergies"]:',
         "agentloop.show_trace()", "trace.clear()"}),
    7: ("the card and the page: the lesson shows each with lesson 6's agent and only then installs the "
        "gate, so run again the memory gate refuses the card (and the cells that show the file, the memory "
        "or forget the card, or list what is left after the cleanup, differ, and asked for the card the model no "
        "longer says back a number that was refused) and the data gate strips the page's instruction",
        {'chat("My card number is 5555 5555 5555 4444")',
         'print(redact("Card 5555 5555 5555 4444, receipt to ada.lovelace@example.com, order 1042 on 2026-01-20, "',
         "NOW = datetime(2026, 1, 13, 9, 0)  # a week on: Tuesday 13 January, for the rest of the lesson",
         'chat("Forget my card number")', "from dataclasses import replace",
         "# the attack: the page read, with the rule in the prompt", 'chat("What is my card number?")',
         "# a cleanup job: what has expired goes (lesson 8 would schedule it)"}),
    8: ("exercise 8.1 offers the model a cancel tool, so every request of the research run carries one more "
        "schema: the trace counts more prompt tokens (the model's choices and the answers stay the same)",
        {"agentloop.show_trace(research_run)"}),
}


def kind(cell) -> str:
    """'exercise', 'agent' (carried or agent-tagged definitions), 'example', or 'markdown'."""
    if cell.cell_type != "code":
        return "markdown"
    if re.search(r"# your (code|schema) here", cell.source):  # 2.1's stub is a schema, not a function
        return "exercise"
    if {"carried", "agent", "whole-thing"} & set(cell.metadata.get("tags", [])):
        return "agent"
    if re.match(r"old_\w+ = [\w()]+  # kept", cell.source):  # a definition (or lesson 9's whole agent, a dict of
        # its globals) kept for show_changes: runs with the definitions
        return "agent"
    return "example"


def text(outputs) -> str:
    parts = []
    for output in outputs:
        if output.get("output_type") == "error":
            parts.append(f"ERROR {output['ename']}: {output['evalue']}")
        parts.append("".join(output.get("text", "")) + "".join(output.get("data", {}).get("text/plain", "")))
    return re.sub(r'"model_id": "[0-9a-f]{32}"', "WIDGET", "".join(parts))


def exercise_names(cells) -> list:
    names = []
    for cell in cells:
        if kind(cell) == "exercise":
            for statement in ast.parse(cell.source).body:
                if isinstance(statement, ast.FunctionDef):
                    names.append(statement.name)
                elif isinstance(statement, ast.Assign):
                    names += [t.id for t in statement.targets if isinstance(t, ast.Name)]
    return names


# The reference solutions put in place of the exercise cells' functions. A solution reads the lesson's
# names (lesson 8's drain reads `state`, `queue` and the clock `NOW`, which the examples move), as the
# exercise cell's function does: so it runs on the kernel's globals, with the solution file's own
# helpers added where the lesson has no name of its own.
FILL_IN = """import runpy, types
_solved = runpy.run_path({path!r})
for _name, _value in _solved.items():
    if not _name.startswith("__"):
        globals().setdefault(_name, _value)
for _name in {names!r}:
    _value = _solved[_name]
    if isinstance(_value, types.FunctionType):
        _value = types.FunctionType(_value.__code__, globals(), _name, _value.__defaults__)
    globals()[_name] = _value
"""


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_examples_rerun_after_the_exercises_print_the_same(path, tmp_path):
    lesson = int(path.name[:2])
    shutil.copy(path, tmp_path / path.name)
    notebook = nbformat.read(tmp_path / path.name, as_version=4)
    client = NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}})
    with client.setup_kernel():
        for index, cell in enumerate(notebook.cells):
            client.execute_cell(cell, index)
        first = {index: text(cell.outputs) for index, cell in enumerate(notebook.cells) if kind(cell) == "example"}
        assert not [i for i, out in first.items() if out.startswith("ERROR")]
        solution = ROOT / "solutions" / f"lesson{lesson:02d}.py"
        fill_in = nbformat.v4.new_code_cell(FILL_IN.format(path=str(solution), names=exercise_names(notebook.cells)))
        lesson_cells = list(enumerate(notebook.cells))
        differ = []
        for attempt in ("the untouched stubs", "the reference solutions"):
            if attempt == "the reference solutions":
                notebook.cells.append(fill_in)
                client.execute_cell(fill_in, len(notebook.cells) - 1)
            if lesson in RESET:
                notebook.cells.append(nbformat.v4.new_code_cell(RESET[lesson][1]))
                client.execute_cell(notebook.cells[-1], len(notebook.cells) - 1)
            for index, cell in lesson_cells:
                if kind(cell) != "example":
                    continue
                client.execute_cell(cell, index)
                again = text(cell.outputs)
                assert not again.startswith("ERROR"), (attempt, cell.source, again)
                expected_to_differ = cell.source.splitlines()[0] in DIFFERS.get(lesson, ("", set()))[1]
                if again != first[index] and not expected_to_differ:
                    differ.append(f"with {attempt}: {cell.source.splitlines()[0]!r}")
    assert not differ, differ
