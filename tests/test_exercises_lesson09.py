"""Lesson 9's exercise checks, driven on lesson 9's own agent: the reference solutions pass, plausible
wrong answers fail with a true hint, unusual right answers pass, and a check leaves the agent as it was."""
import json
import pathlib
import sys

import pytest

from agentloop.exercises import lesson09
from lesson_loop import lesson_definitions

ROOT = pathlib.Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from test_continuity import agent_at_end  # noqa: E402
from lesson_answers import verdict  # noqa: E402

SOLUTIONS = (ROOT / "solutions" / "lesson09.py").read_text()
NOTEBOOK = json.loads((ROOT / "lessons" / "09_the_whole_thing.ipynb").read_text())


@pytest.fixture
def agent(tmp_path, monkeypatch):
    """Lesson 9's agent, as the lesson ends with it, with the reference solutions defined beside it."""
    monkeypatch.chdir(tmp_path)
    names = {"__name__": "lesson09_agent"}
    exec(agent_at_end(9), names)
    exec(SOLUTIONS, names)
    return names


def define(agent, source):
    """Define a student's answer in the agent's namespace, as a cell in the notebook would."""
    exec(source, agent)
    return agent[source.split("def ", 1)[1].split("(", 1)[0]]


CHECKS = {"recall_since": lesson09.check_recall_since, "forget_mine": lesson09.check_forget_mine,
          "remember_and_ask": lesson09.check_remember_and_ask}


@pytest.mark.parametrize("name", CHECKS)
def test_the_reference_solution_passes(agent, name, capsys):
    passed, printed = verdict(CHECKS[name], agent[name], capsys=capsys)
    assert passed and printed.startswith("✅"), printed


@pytest.mark.parametrize("name", CHECKS)
def test_the_cell_as_shipped_fails_with_a_hint(agent, name, capsys):
    cell = next("".join(c["source"]) for c in NOTEBOOK["cells"] if f"def {name}(" in "".join(c["source"]))
    stub = define(agent, cell.split("\nlesson09.check_")[0].replace("from agentloop.exercises import lesson09", ""))
    passed, printed = verdict(CHECKS[name], stub, capsys=capsys)
    assert not passed and printed.startswith("❌ 9.") and "Hint:" in printed
    printed_in_the_notebook = "".join(next(c for c in NOTEBOOK["cells"] if c["source"] and "".join(
        c["source"]) == cell)["outputs"][0]["text"])
    assert printed_in_the_notebook == printed


WRONG = [  # (check, a plausible wrong answer, a phrase its hint must contain)
    ("recall_since", '''def recall_since(query, since):
    found = [k for k in ranked(current["scopes"], query) if about(k) & words(query)
             and memory[k]["created"][:10] > since]  # the day, then strictly after it
    return "\\n".join(f"- {k}: {memory[k]['value']}" for k in found) or "Nothing found."''', "that very day"),
    ("recall_since", '''def recall_since(query, since):
    found = [k for k in memory if about(k) & words(query) and memory[k]["created"] >= since]
    return "\\n".join(f"- {k}: {memory[k]['value']}" for k in found) or "Nothing found."''', "another scope"),
    ("recall_since", '''def recall_since(query, since):
    return [k for k in ranked(current["scopes"], query) if memory[k]["created"] >= since]''', "returns text"),
    ("recall_since", '''def recall_since(query, since):
    return recall(query)''', "before the date asked for"),
    ("forget_mine", '''def forget_mine(key):
    return forget(key)''', "deleted the agent's notes"),
    ("forget_mine", '''def forget_mine(key):
    if key in memory and memory[key]["scope"] not in current["scopes"]:
        return "That memory belongs to the agent, not to you."
    return forget(key)''', "nothing leaks"),
    ("forget_mine", '''def forget_mine(key):
    if key not in memory or memory[key]["scope"] != USER:
        return f"Nothing is stored under {key}."
    return forget_if_asked(key)''', "scheduled task"),
    # the scope right, the action gate dropped: a page could delete the user's memories again
    ("forget_mine", '''def forget_mine(key):
    if key not in memory or memory[key]["scope"] not in current["scopes"]:
        return f"Nothing is stored under {key}."
    del memory[key]
    return f"Forgot {key}."''', "asked for no deletion"),
    ("forget_mine", '''def forget_mine(key):
    if key not in memory or memory[key]["scope"] not in current["scopes"]:
        return f"Nothing is stored under {key}."
    return forget(key)''', "lesson 7's action gate must stay"),
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    return guarded_remember(key, value, importance) + " Ask the user: should I remind you a week before?"''',
     "without a year"),
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if result.startswith("Remembered"):
        result += " Ask the user: should I remind you a week before?"
    return result''', "only a birthday"),
    # the reminder announced, not asked about: the user gets no say
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if key == "birthday" and result.startswith("Remembered"):
        result += " I will remind you a week before."
    return result''', "where is the question about a reminder a week before?"),
    # the question printed for the student, not returned to the model
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if key == "birthday" and result.startswith("Remembered"):
        print("Should I remind you a week before?")
    return result''', "where is the question about a reminder a week before?"),
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    if key == "birthday":
        return "Ask the user: should I remind you a week before?"
    return guarded_remember(key, value, importance)''', "should store the birthday"),
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if key == "birthday" and result.startswith("Remembered"):
        result += " Ask the user: I will set a reminder a week after it."
    return result''', "where is the question about a reminder a week before?"),
]


@pytest.mark.parametrize("name, source, hint", WRONG, ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(WRONG)])
def test_a_wrong_answer_fails_with_a_true_hint(agent, name, source, hint, capsys):
    passed, printed = verdict(CHECKS[name], define(agent, source), capsys=capsys)
    assert not passed and hint in printed, printed


UNUSUAL = [  # right answers written another way: other names, other wording, dates parsed
    ("recall_since", '''def recall_since(q, start):
    from datetime import datetime
    hits = []
    for key in ranked(current["scopes"], q):
        if about(key) & words(q) and datetime.fromisoformat(memory[key]["created"]) >= datetime.fromisoformat(start):
            hits.append(f"{key} = {memory[key]['value']}")
    return "; ".join(hits) if hits else "I found no memory."'''),
    ("forget_mine", '''def forget_mine(name):
    item = memory.get(name)
    if item is None or item["scope"] not in current["scopes"]:
        return f"There is no memory called {name}."
    result = forget_if_asked(name)
    return "Done, it is gone." if result.startswith("Forgot") else result'''),
    ("remember_and_ask", '''def remember_and_ask(k, v, imp="medium"):
    said = guarded_remember(k, v, imp)
    if not said.startswith("Not stored") and "birthday" in k.lower():
        said = said + "\\nAsk the user: do you want a reminder one week before the day?"
    return said'''),
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if key == "birthday" and "Remembered" in result:
        result += "\\nAsk the user: would you like a reminder seven days ahead of it?"
    return result'''),
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if key == "birthday" and result.startswith("Remembered"):
        result += " Ask the user: shall I send a reminder 7 days in advance?"
    return result'''),
    # review 6: a question for the user in the result, without lesson 7's "Ask the user:" (a real model passes it on)
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if key == "birthday" and result.startswith("Remembered"):
        result += " Should I remind you a week before?"
    return result'''),
    # a request to the model to ask, in its own words and without a question mark
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if "birth" in key and not result.startswith("Not stored"):
        result = result + ". Ask them whether they would like a reminder 7 days ahead."
    return result'''),
]


@pytest.mark.parametrize("name, source", UNUSUAL, ids=[f"{n}-{i}" for i, (n, _) in enumerate(UNUSUAL)])
def test_an_unusual_right_answer_passes(agent, name, source, capsys):
    passed, printed = verdict(CHECKS[name], define(agent, source), capsys=capsys)
    assert passed, printed


@pytest.mark.parametrize("name", CHECKS)
@pytest.mark.parametrize("solved", [True, False])
def test_a_check_puts_the_agent_back_as_it_was(agent, name, solved, capsys):
    agent["chat"]("Hi! My name is Ada.")
    before = (json.dumps(agent["memory"]), dict(agent["current"]), dict(agent["TOOLS"]),
              open(agent["MEMORY_FILE"]).read())
    answer = agent[name] if solved else define(agent, f"def {name}(*args):\n    raise KeyError('x')")
    capsys.readouterr()
    passed = verdict(CHECKS[name], answer, capsys=capsys)[0]
    after = (json.dumps(agent["memory"]), dict(agent["current"]), dict(agent["TOOLS"]),
             open(agent["MEMORY_FILE"]).read())
    assert after[:2] + after[3:] == before[:2] + before[3:] and passed == solved
    kept = {tool: function for tool, function in after[2].items() if before[2].get(tool) is not function}
    lent = {"recall_since": "recall_since", "forget_mine": "forget", "remember_and_ask": "remember"}.get(name)
    # a passing answer stays in the agent under the tool's name (the review: the final agent never kept
    # the student's work); a failing one leaves the agent's tools as they were
    assert set(kept) == ({lent} if solved and lent else set())
    if kept:  # the kept tool is the student's function, reached by the model's argument names
        agent["current"].update(scopes=(agent["USER"],))
        arguments = {"forget": {"key": "nothing_here"}, "recall_since": {"query": "name", "since": "2026-01-01"},
                     "remember": {"key": "city", "value": "Rome", "importance": "low"}}[lent]
        assert kept[lent](**arguments) == answer(*arguments.values())


@pytest.mark.parametrize("name", CHECKS)
def test_a_function_defined_away_from_the_agent_gets_told_to_run_the_lesson(name, capsys):
    passed, printed = verdict(CHECKS[name], lambda *args: "Nothing found.", capsys=capsys)
    assert not passed and "run the lesson's cells from the top" in printed


def test_review_finding_the_prompt_labels_each_memory_by_whose_it_is(agent):
    """A scheduled task reads the agent's notes and the user's facts; the prompt must not call the notes
    facts about the user (it did: one heading, "What you remember about the user", over both)."""
    agent["memory"].clear()
    agent["memory"].update({
        "city": {"value": "Munich", "until": None, "scope": agent["USER"], "importance": "medium",
                 "created": "2026-01-05T09:00"},
        "notes on tea": {"value": "Lu Yu wrote The Classic of Tea", "until": None, "scope": agent["AGENT"],
                         "importance": "medium", "created": "2026-01-05T09:00"}})
    agent["current"].update(scopes=(agent["AGENT"], agent["USER"]), recent="tea")
    prompt = agent["system_prompt"]()
    inside = prompt.split("<memory>\n", 1)[1].split("\n</memory>", 1)[0].splitlines()
    assert "about the user" not in prompt.split("<memory>", 1)[0]
    assert inside == ["Your own notes:", "- notes on tea: Lu Yu wrote The Classic of Tea",
                      "The user's facts:", "- city: Munich"]
    agent["current"].update(scopes=(agent["USER"],), recent="Where do I live?")  # a user's chat: their facts only
    assert agent["system_prompt"]().split("<memory>\n", 1)[1].startswith("The user's facts:\n- city: Munich\n")
    answer = agent["agentloop"].ask([{"role": "system", "content": agent["system_prompt"]()},
                                     {"role": "user", "content": "Where do I live?"}])
    assert "Munich" in answer["content"]  # the teaching model still reads facts under a heading


def test_the_memory_budget_is_read_when_the_prompt_is_built_not_when_recalled_was_defined(tmp_path, monkeypatch):
    """The review set BUDGET = 5 to watch the budget bite and saw no change: a default bound at definition."""
    monkeypatch.chdir(tmp_path)
    lesson = lesson_definitions("09_the_whole_thing.ipynb")
    lesson["memory"].clear()
    for n in range(5):
        lesson["memory"][f"fact_{n}"] = {"value": f"detail number {n}", "scope": lesson["USER"], "until": None,
                                         "importance": "medium", "created": "2026-01-05T09:00"}
    assert len(lesson["recalled"]((lesson["USER"],), "")) == 5
    lesson["BUDGET"] = 5
    assert len(lesson["recalled"]((lesson["USER"],), "")) < 5


def test_a_passing_recall_since_is_offered_to_the_model_and_a_failing_one_is_not(agent, capsys):
    """9.1 changes the agent: once it passes, every request offers recall_since with a `since` parameter,
    and the agent's own run_tool reaches the student's function by the model's argument names."""
    wrong = define(agent, '''def recall_since(query, since):
    return recall(query)''')
    assert not verdict(CHECKS["recall_since"], wrong, capsys=capsys)[0]
    assert "recall_since" not in agent["SCHEMAS"] and "recall_since" not in agent["TOOLS"]
    unusual = define(agent, UNUSUAL[0][1])
    assert verdict(CHECKS["recall_since"], unusual, capsys=capsys)[0]
    schema = agent["SCHEMAS"]["recall_since"]["function"]
    assert set(schema["parameters"]["properties"]) == {"query", "since"} and "date" in schema["description"]
    agent["memory"]["tea"] = {"value": "green tea", "until": None, "scope": agent["USER"], "importance": "medium",
                              "created": "2026-01-06T09:00"}
    agent["current"].update(scopes=(agent["USER"],))
    call = {"id": "c1", "function": {"name": "recall_since", "arguments": '{"query": "tea", "since": "2026-01-06"}'}}
    assert "green tea" in agent["run_tool"](call)


def test_the_question_must_reach_the_model_through_the_agent(agent, capsys):
    """9.3 reads what the model got back from its remember call, not only what a direct call returns: an answer
    that asks for the check's own birthday but not for the one the user tells the agent fails there."""
    only_march = define(agent, '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if key == "birthday" and result.startswith("Remembered") and "March" in value:
        result += " Should I remind you a week before?"
    return result''')
    passed, printed = verdict(lesson09.check_remember_and_ask, only_march, capsys=capsys)
    assert not passed and "read back 'Remembered birthday: Jan 20th 1990'" in printed, printed
