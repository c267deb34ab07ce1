"""extras/shared_memory.ipynb: lesson 9's agent carried in verbatim, every change to it announced and
counted, lesson 9's pointer to it a working link, and the scope rules held by code for every agent."""
import ast
import difflib
import itertools
import json
import pathlib
import re

import pytest

from test_continuity import _bound, _functions, agent_at_end, final_program

LESSONS = pathlib.Path(__file__).parent.parent / "lessons"
EXTRA = LESSONS / "extras" / "shared_memory.ipynb"
CHANGE_NOTE = re.compile(r"^# lesson 9 -> shared memory: (\w+): (\d+) lines? changed, (\d+) added")


def code_cells(path, *tags):
    notebook = json.loads(path.read_text())
    return ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"
            and (not tags or set(tags) & set(cell["metadata"].get("tags", [])))]


def test_the_carried_cells_are_lesson_9s_agent():
    carried = final_program(code_cells(EXTRA, "carried"))
    assert ast.dump(ast.parse(carried)) == ast.dump(ast.parse(agent_at_end(9)))


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
    assert changed == ["system_prompt", "run_agent", "run_tool"]


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


def test_the_team_and_its_decision_log_are_there(agents):
    for name in ("ASSISTANT", "RESEARCHER", "SUMMARISER", "acting", "run_as", "decide", "decisions", "LIBRARY"):
        assert name in agents, name
    assert "decide" in agents["SCHEMAS"] and "decide" in agents["RESEARCHER"]["tools"]


def entry(scope):
    return {"value": f"tea, noted in {scope}", "until": None, "scope": scope, "importance": "medium",
            "created": "2026-01-05T09:00"}


def test_code_not_the_model_keeps_each_agent_to_its_tools_and_scopes(agents):
    team = [agents["ASSISTANT"], agents["RESEARCHER"], agents["SUMMARISER"]]
    scopes = ["user:42", "user:7", "agent:researcher", "agent:summariser", "agent:assistant"]
    for agent in team:
        agents["memory"].clear()
        agents["memory"].update({f"note in {scope}": entry(scope) for scope in scopes})
        agents["acting"].clear()
        agents["acting"].update(agent)
        agents["current"].update(scopes=agent["scopes"], recent="tea")  # what guarded_agent sets
        recalled = [line.split(": ")[0][2:] for line in agents["recall"]("tea").splitlines()]
        assert sorted(recalled) == sorted(f"note in {scope}" for scope in agent["scopes"]), agent["name"]
        prompt = agents["system_prompt"]()
        assert prompt.startswith(agent["system"])
        assert all((f"note in {scope}:" in prompt) == (scope in agent["scopes"]) for scope in scopes), prompt
        for name in agents["TOOLS"]:
            call = {"id": "call_1", "function": {"name": name, "arguments": "{}"}}
            refused = agents["run_tool"](call).startswith(f"Error: the {agent['name']} may not use")
            assert refused == (name not in agent["tools"]), (agent["name"], name)
        if "remember" in agent["tools"]:  # the model names no scope: the write lands in the agent's first
            call = {"id": "call_2", "function": {"name": "remember", "arguments": '{"key": "k", "value": "v"}'}}
            agents["run_tool"](call)
            assert agents["memory"]["k"]["scope"] == agent["scopes"][0], agent["name"]


def test_each_agent_is_offered_only_its_tools(agents, monkeypatch):
    offered = []
    reply = {"choices": [{"message": {"role": "assistant", "content": "ok"}}],
             "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
    monkeypatch.setattr(agents["agentloop"], "complete", lambda messages, tools: offered.append(
        ([tool["function"]["name"] for tool in tools], messages[0]["content"])) or reply)
    for agent in (agents["RESEARCHER"], agents["SUMMARISER"]):
        agents["run_as"](agent, "hello")
        assert offered[-1][0] == agent["tools"] and offered[-1][1].startswith(agent["system"])
