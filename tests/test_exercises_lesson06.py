"""Lesson 6's checks, driven through the lesson's own agent: the per-call injection in the student's
loop (6.1), forget as a tool (6.2), a loader that never crashes (6.3); and the restart cell, which
must know the name from the memory file alone."""
import inspect
import json
import shutil
import sys
from pathlib import Path

import pytest
from lesson_answers import answer, notebook, verdict

import agentloop
from agentloop import checks
from agentloop.exercises import lesson06

LESSON = Path(__file__).parent.parent / "lessons" / "06_memory_across_runs.ipynb"
INJECTION = '        messages[0] = {"role": "system", "content": system_prompt()}  # noqa: F821\n'


@pytest.fixture
def ns(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the memory file is written here, not in the repository
    monkeypatch.setattr(checks, "_failed_runs", {})  # each test is a first try: the nudge, not the fix
    return notebook(6)


CALL = "        response = agentloop.complete("


def injected(ns, replacement: str, where: str = CALL):
    """6.1's reference loop with the injection line removed and `replacement` put before `where`."""
    source = inspect.getsource(ns["my_run_agent"]).replace(INJECTION, "")
    assert where in source
    return answer(ns, source.replace(where, replacement + where, 1))


def test_the_reference_solutions_pass_and_leave_memory_and_its_file_as_they_were(ns, capsys):
    offered, agents_forget = dict(ns["SCHEMAS"]), ns["TOOLS"]["forget"]  # the lesson ends with forget as a tool
    ns["memory"]["prefers"] = "coffee"
    ns["save_json"](ns["MEMORY_FILE"], ns["memory"])
    for check, args in ((lesson06.check_memory_injection, (ns["my_run_agent"], ns["memory"], ns["MEMORY_FILE"])),
                        (lesson06.check_forget_tool, (ns["forget_fact"],)),
                        (lesson06.check_load_memory, (ns["load_memory"],))):
        passed, printed = verdict(check, *args, capsys=capsys)
        assert passed and printed.startswith("✅"), printed
    assert ns["memory"] == {"prefers": "coffee"} == json.loads(Path(ns["MEMORY_FILE"]).read_text())
    # the check took its tool away and put back the agent's own
    assert ns["SCHEMAS"] == offered and ns["TOOLS"]["forget"] is agents_forget


WRONG_INJECTIONS = [
    ("        ...\n", "request 2 of the same question did not carry it", CALL),  # the starter
    # once per question, before the loop: stale within the question
    ('    messages[0] = {"role": "system", "content": system_prompt()}\n', "request 2 of the same question",
     "    for turn in range"),
    ('        messages.append({"role": "system", "content": system_prompt()})\n', "holds 2 system messages", CALL),
    # after the call: the new chat's first request goes out without the memory
    ('        messages[0] = {"role": "system", "content": system_prompt()}\n', "did not carry it",
     '        message = response["choices"]'),
    # review 16: the memory put into a user message; the tool calls are untouched, the hint must not blame them
    ('        messages.append({"role": "user", "content": "Memory: " + json.dumps(memory)})\n',
     "The memory goes in the system message", CALL),
]


@pytest.mark.parametrize("line, hint, where", WRONG_INJECTIONS)
def test_wrong_injections_fail_with_a_true_reason(ns, line, hint, where, capsys):
    loop = injected(ns, line, where)
    passed, printed = verdict(lesson06.check_memory_injection, loop, ns["memory"], ns["MEMORY_FILE"], capsys=capsys)
    assert not passed and hint in printed, printed


@pytest.mark.parametrize("line", [
    '        messages[0]["content"] = system_prompt()\n',  # the same dict, changed in place
    '        messages = [{"role": "system", "content": system_prompt()}] + messages[1:]\n',  # a new list each call
    # the review's "k=v" rendering, written by hand: the teaching model reads it
    '        messages[0] = {"role": "system", "content": SYSTEM + " " + ", ".join(f"{k}={v}" for k, v in memory.items())}\n',
    # review 12's: the dict printed as Python writes it; a real model reads it, and so does the teaching model
    '        messages[0] = {"role": "system", "content": f"{SYSTEM}\\nMemory: {memory}"}\n',
])
def test_unusual_right_injections_pass(ns, line, capsys):
    loop = injected(ns, line)
    passed, printed = verdict(lesson06.check_memory_injection, loop, ns["memory"], ns["MEMORY_FILE"], capsys=capsys)
    assert passed, printed


WRONG_FORGETS = [
    ("def forget_fact(key):\n    ...", "the name is still there"),  # the starter
    ("def forget_fact(key):\n    memory.pop(key, None)\n    return 'Forgot it.'", "a restart would bring the name back"),
    ("def forget_fact(key):\n    del memory[key]\n    save_json(MEMORY_FILE, memory)\n    return 'Forgot it.'",
     "raised KeyError"),  # a key never stored crashes instead of answering
    ("def forget_fact(key):\n    memory.clear()\n    save_json(MEMORY_FILE, memory)\n    return 'Forgot it.'", "only the name goes"),
    # review 16: the dict rebound, not changed; the hint names the rebinding and the student's function
    ("def forget_fact(key):\n    global memory\n    memory = {k: v for k, v in memory.items() if k != key}\n"
     "    save_json(MEMORY_FILE, memory)\n    return 'Forgot it.'", "`memory = ...` inside forget_fact (with `global memory`)"),
]


@pytest.mark.parametrize("code, hint", WRONG_FORGETS)
def test_wrong_forgets_fail_with_a_true_reason(ns, code, hint, capsys):
    offered, agents_forget = dict(ns["SCHEMAS"]), ns["TOOLS"]["forget"]
    passed, printed = verdict(lesson06.check_forget_tool, answer(ns, code), capsys=capsys)
    assert not passed and hint in printed, printed
    assert ns["SCHEMAS"] == offered and ns["TOOLS"]["forget"] is agents_forget, \
        "the check takes its tool away even when it fails"


@pytest.mark.parametrize("code", [
    "def drop_fact(key):\n    if memory.pop(key, None) is None:\n        return f'I had nothing about {key}.'\n"
    "    save_json(MEMORY_FILE, memory)\n    return f'{key} is gone from my memory.'",
    "def forget_fact(what):\n    if memory.pop(what, None) is None:\n        return 'I had nothing under that.'\n"
    "    save_json(MEMORY_FILE, memory)\n    return 'Forgot it.'",  # another name
])
def test_an_unusual_right_forget_passes(ns, code, capsys):
    passed, printed = verdict(lesson06.check_forget_tool, answer(ns, code), capsys=capsys)
    assert passed, printed


def test_a_passing_forget_stays_in_the_agent_and_a_failing_one_does_not(ns, capsys):
    agents_forget = ns["TOOLS"]["forget"]
    mine = answer(ns, WRONG_FORGETS[1][0].replace("def forget_fact", "def my_forget"))
    verdict(lesson06.check_forget_tool, mine, capsys=capsys)
    lesson06.keep_passing_forget(ns["TOOLS"])
    assert ns["TOOLS"]["forget"] is agents_forget and "reference forget" in capsys.readouterr().out
    right = answer(ns, "def drop(what):\n    if memory.pop(what, None) is None:\n        return 'Nothing under that.'\n"
                       "    save_json(MEMORY_FILE, memory)\n    return 'Gone.'")
    assert verdict(lesson06.check_forget_tool, right, capsys=capsys)[0]
    lesson06.keep_passing_forget(ns["TOOLS"])
    assert "drop" in capsys.readouterr().out
    ns["memory"]["shoe_size"] = "38"  # the model calls it with the schema's `key`, whatever the parameter's name
    assert ns["TOOLS"]["forget"](key="shoe_size") == "Gone." and "shoe_size" not in ns["memory"]
    ns["TOOLS"]["forget"] = agents_forget
    verdict(lesson06.check_forget_tool, mine, capsys=capsys)  # a later failing try takes the pass back
    lesson06.keep_passing_forget(ns["TOOLS"])
    assert "reference forget" in capsys.readouterr().out


def load_if_present(path):
    """Handles a missing file, but trusts that a present one is valid."""
    return json.load(open(path)) if Path(path).exists() else {}


def load_any_json(path):
    """Survives a missing or truncated file, but trusts that valid JSON is a dict."""
    try:
        return load_if_present(path)
    except ValueError:
        return {}


@pytest.mark.parametrize("loader, hint", [(lambda path: json.load(open(path)), "FileNotFoundError"),
                                          (load_if_present, "JSONDecodeError"), (load_any_json, "not an object")])
def test_wrong_loaders_fail_with_a_true_reason(ns, loader, hint, capsys):
    passed, printed = verdict(lesson06.check_load_memory, loader, capsys=capsys)
    assert not passed and hint in printed, printed


def test_an_unusual_right_loader_passes(ns, capsys):
    code = ("def read_memory(p):\n    import os\n    if not os.path.isfile(p):\n        return {}\n    try:\n"
            "        value = json.loads(open(p).read())\n    except Exception:\n        return {}\n"
            "    return value if type(value) is dict else {}")
    ns["json"] = json
    passed, printed = verdict(lesson06.check_load_memory, answer(ns, code), capsys=capsys)
    assert passed, printed


def restart_cell() -> str:
    cells = json.loads(LESSON.read_text())["cells"]
    return "import agentloop\n" + next("".join(c["source"]) for c in cells if "in_a_new_process(" in "".join(c["source"]))


@pytest.mark.parametrize("memory_file, knows", [({"name": "Ada"}, True), (None, False)])
def test_the_restart_knows_the_name_from_the_memory_file_alone(tmp_path, monkeypatch, capsys, memory_file, knows):
    """The cell starts a new process with the agent's code: it answers from memory.json, or not at all."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(LESSON, tmp_path / LESSON.name)
    if memory_file is not None:
        (tmp_path / "memory.json").write_text(json.dumps(memory_file))
    monkeypatch.setenv("PYTHONPATH", str(Path(checks.__file__).parent.parent))  # this tree's agentloop
    exec(restart_cell(), {"json": json, "sys": sys})
    cells, answered = listed_then_answered(capsys.readouterr().out)
    assert cells[0] == "# Carried from lesson 5, unchanged." and "def remember(key, value):" in cells
    assert answered.startswith("a new Python process answered:"), answered
    assert ("Your name is Ada." in answered) == knows, answered


def listed_then_answered(printed: str) -> tuple:
    """The restart cell's output: the first line of each cell it runs (as many as it says), then the answer."""
    head, *rest = printed.splitlines()
    count = int(head.split(": ")[1].split()[0])  # "the agent's code: 6 cells, which begin"
    return [line.strip() for line in rest[:count]], "\n".join(rest[count:])


def test_without_processes_the_restart_runs_the_code_in_a_fresh_namespace(tmp_path, monkeypatch, capsys):
    """Pyodide's subprocess raises OSError: the same code then runs in an empty namespace."""
    import subprocess
    monkeypatch.chdir(tmp_path)
    shutil.copy(LESSON, tmp_path / LESSON.name)
    (tmp_path / "memory.json").write_text(json.dumps({"name": "Ada"}))

    def no_processes(*args, **kwargs):
        raise OSError(52, "Function not implemented")
    monkeypatch.setattr(subprocess, "run", no_processes)
    exec(restart_cell(), {"json": json, "sys": sys, "memory": {"name": "Bob"}})  # the kernel's own memory is not used
    cells, answered = listed_then_answered(capsys.readouterr().out)
    # the agent as far as the student has built it: exercise 6.2's forget, further down, is not run
    assert len(cells) == 5 and not any("forget" in line for line in cells), cells
    assert answered == "a fresh namespace answered: Your name is Ada."


def test_a_forget_written_outside_the_notebook_is_told_where_it_belongs(ns, capsys):
    passed, printed = verdict(lesson06.check_forget_tool, lambda key: "Forgot it.", capsys=capsys)
    assert not passed and "in the lesson's notebook" in printed, printed


def test_a_forget_that_claims_to_forget_a_key_never_stored_fails(ns, capsys):
    code = "def forget_fact(key):\n    memory.pop(key, None)\n    save_json(MEMORY_FILE, memory)\n    return f'Forgot {key}.'"
    passed, printed = verdict(lesson06.check_forget_tool, answer(ns, code), capsys=capsys)
    assert not passed and "never stored" in printed, printed


@pytest.mark.parametrize("line", [  # in the right place, unreadable to the teaching model: values with no key to say what they are
    '        messages[0] = {"role": "system", "content": SYSTEM + " " + " / ".join(map(str, memory.values()))}\n',
])
def test_a_rendering_the_teaching_model_cannot_read_is_told_so_and_pointed_to_system_prompt(ns, line, capsys):
    loop = injected(ns, line)
    passed, printed = verdict(lesson06.check_memory_injection, loop, ns["memory"], ns["MEMORY_FILE"], capsys=capsys)
    assert not passed and "right place" in printed and "system_prompt()" in printed, printed


def test_a_rebound_memory_is_put_back_and_the_fix_names_the_student_s_function(ns, capsys):
    """Review 16: after the rebinding hint the notebook's name `memory` is the agent's dict again, and a second
    identical miss gets a fix that names forget_fact, not a forget the student never wrote."""
    agents_memory = ns["memory"]
    code = ("def forget_fact(key):\n    global memory\n    memory = {k: v for k, v in memory.items() if k != key}\n"
            "    return 'Forgot it.'")
    for attempt in range(2):
        passed, printed = verdict(lesson06.check_forget_tool, answer(ns, code), capsys=capsys)
        assert not passed and ns["memory"] is agents_memory, printed
    assert "inside forget_fact, with no `global` line" in printed and "forget(" not in printed, printed


def test_a_user_message_with_the_memory_is_not_blamed_on_the_tool_calls(ns, capsys):
    loop = injected(ns, '        messages.append({"role": "user", "content": "Memory: " + json.dumps(memory)})\n')
    passed, printed = verdict(lesson06.check_memory_injection, loop, ns["memory"], ns["MEMORY_FILE"], capsys=capsys)
    assert not passed and "remember call did not run" not in printed and "user message" in printed, printed


def test_the_restart_of_a_notebook_saved_under_another_name_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no 06_memory_across_runs.ipynb here: a student's copy has another name
    said = agentloop.in_a_new_process(LESSON.name, before="## 4. It survives", then="print('never run')")
    assert said == f"{LESSON.name} is not in this folder: give in_a_new_process this notebook's file name."
