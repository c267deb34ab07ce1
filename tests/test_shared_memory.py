"""extras/shared_memory.ipynb: lesson 9's agent carried in verbatim, every change to it announced and
counted, lesson 9's pointer to it a working link, and the scope rules held by code for every agent."""
import ast
import difflib
import itertools
import json
import pathlib
import re

import pytest

from test_continuity import _bound, _functions, final_program

LESSONS = pathlib.Path(__file__).parent.parent / "lessons"
EXTRA = LESSONS / "extras" / "shared_memory.ipynb"
CHANGE_NOTE = re.compile(r"^# lesson 9 -> shared memory: (\w+): (\d+) lines? changed, (\d+) added")


def code_cells(path, *tags):
    notebook = json.loads(path.read_text())
    return ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"
            and (not tags or set(tags) & set(cell["metadata"].get("tags", [])))]


def test_the_carried_cells_are_lesson_9s_agent():
    carried = final_program(code_cells(EXTRA, "carried"))
    lesson9 = final_program(code_cells(LESSONS / "09_the_whole_thing.ipynb", "whole-thing"))
    assert ast.dump(ast.parse(carried)) == ast.dump(ast.parse(lesson9))


def test_every_change_to_lesson_9s_agent_is_announced_and_counted():
    carried = _functions(final_program(code_cells(EXTRA, "carried")))
    changed = []
    for source in code_cells(EXTRA, "agent"):
        redefined = set(carried) & set().union(*(_bound(s) for s in ast.parse(source).body))
        note = CHANGE_NOTE.match(source)
        assert bool(redefined) == bool(note), f"a change to {sorted(redefined)} needs a change note: {source[:80]!r}"
        if note:
            name, lines_changed, lines_added = note[1], int(note[2]), int(note[3])
            assert redefined == {name}
            diff = [line[0] for line in difflib.ndiff(carried[name].splitlines(), _functions(source)[name].splitlines())
                    if line[:1] in "+-"]
            assert (diff.count("-"), diff.count("+") - diff.count("-")) == (lines_changed, lines_added), name
            changed.append(name)
    assert changed == ["ask_model", "run_tool"]


def test_lesson_9_links_to_the_extra():
    text = "".join("".join(cell["source"]) for cell in json.loads((LESSONS / "09_the_whole_thing.ipynb").read_text())["cells"]
                   if cell["cell_type"] == "markdown")
    targets = re.findall(r"\]\((extras/shared_memory\.ipynb)\)", text)
    assert targets and all((LESSONS / target).is_file() for target in targets)


@pytest.fixture
def agents(tmp_path, monkeypatch):
    """The extra's agent (carried and agent cells) defined in a fresh namespace, in a scratch folder."""
    monkeypatch.chdir(tmp_path)
    namespace = {}
    for source in code_cells(EXTRA, "carried", "agent"):
        exec(compile(source, str(EXTRA), "exec"), namespace)
    return namespace


def test_nothing_of_the_old_two_agent_section_is_lost(agents):
    for name in ("web_search", "memory_write", "memory_search", "memory_list", "decide", "decisions",
                 "RESEARCHER", "SUMMARISER", "LIBRARY"):
        assert name in agents, name
    assert {"web_search", "memory_write", "memory_search", "memory_list", "decide"} <= set(agents["SCHEMAS"])


def test_code_not_the_model_keeps_each_agent_to_its_tools_and_scopes(agents):
    team = [agents["ASSISTANT"], agents["RESEARCHER"], agents["SUMMARISER"]]
    scopes = ["user:42", "user:7", "agent:researcher", "agent:summariser", "agent:assistant"]
    agents["store"].write("user:42", "The user's name is Ada")
    agents["store"].write("agent:researcher", "Tea was first drunk in China")
    for agent, scope in itertools.product(team, scopes):
        agents["acting"].clear()
        agents["acting"].update(agent)
        wrote = agents["memory_write"](scope, "a note").startswith("Stored as")
        assert wrote == (scope == f"agent:{agent['name']}"), (agent["name"], scope)
        listed = agents["memory_list"](scope)
        assert listed.startswith("[") == (scope in agent["reads"]), (agent["name"], scope, listed)
        for item in json.loads(agents["memory_search"]("note tea name", 50)):
            assert agents["store"].get(item["id"]).scope in agent["reads"]
        for name in agents["TOOLS"]:
            call = {"id": "call_1", "function": {"name": name, "arguments": "{}"}}
            refused = agents["run_tool"](call).startswith(f"Error: the {agent['name']} may not use")
            assert refused == (name not in agent["tools"]), (agent["name"], name)
