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


CHECKS = {"rare_first": lesson09.check_rare_first, "forget_mine": lesson09.check_forget_mine,
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


SUM = "sum(weight(word) for word in about(key) & words(text))"
TIES = 'lambda key: (score(key), memory[key]["importance"] != "low", memory[key]["created"]), reverse=True'
IN_SCOPE = 'entry["scope"] in scopes and '


def rare(weight="1 / having", score=SUM, order=TIES, in_scope=IN_SCOPE, having_in="about(other)"):
    """A student's rare_first, the skeleton's holes filled in: the reference with one part changed."""
    return f'''def rare_first(scopes, text):
    import math
    today = NOW.date().isoformat()
    mine = [key for key, entry in memory.items() if {in_scope}(entry["until"] is None or entry["until"] >= today)]
    def weight(word):
        having = sum(1 for other in mine if word in {having_in})
        return {weight}
    def score(key):
        return {score}
    return sorted(mine, key={order})'''


WRONG = [  # (check, a plausible wrong answer, a phrase its hint must contain)
    # the holes filled with a count: every shared word weighs 1, as ranked's does
    ("rare_first", rare(weight='1'), 'Yours counted them the same, as ranked does'),
    # the commoner the word, the heavier: `having` itself as the weight
    ("rare_first", rare(weight='having'), 'The fewer memories have a word, the more it must weigh'),
    # BM25's raw idf, log((N - df + 0.5) / (df + 0.5)): below 0 for a word most memories have
    ("rare_first", rare(weight='math.log((len(mine) - having + 0.5) / (having + 0.5))'), 'never less than nothing'),
    # the rarest shared word alone (max), not the sum of all
    ("rare_first", rare(score='max([weight(word) for word in about(key) & words(text)], default=0)'), 'adds up the weights'),
    # every word of the question, shared or not: each memory gets the same score
    ("rare_first", rare(score='sum(weight(word) for word in words(text))'), 'Every memory scored the same'),
    # the tie-breaks dropped: among equal scores the order of memory, not the newest first
    ("rare_first", rare(order='lambda key: -score(key)'), "ranked's order decides between them"),
    # `having` counted in the values only: 'sister' is in the key, so a shared word is in no value
    ("rare_first", rare(weight="math.log(1 + len(mine) / having)", having_in="words(memory[other]['value'])"),
     "`having` was 0 for a word a memory shares"),
    # the scope filter rewritten away: the agent's own note about the sister comes back
    ("rare_first", rare(in_scope=""), 'another scope'),
    ("forget_mine", '''def forget_mine(key):
    return forget(key)''', "deleted the agent's notes"),
    ("forget_mine", '''def forget_mine(key):
    if key in memory and memory[key]["scope"] not in current["scopes"]:
        return "That memory belongs to the agent, not to you."
    return forget(key)''', "nothing leaks"),
    ("forget_mine", '''def forget_mine(key):
    if key not in memory or memory[key]["scope"] != USER:
        return f"Nothing is stored under {key}."
    return guarded_forget(key)''', "scheduled task"),
    # review 9: only the first scope read; a scheduled task's (AGENT, USER) would refuse the user's own key
    ("forget_mine", '''def forget_mine(key):
    if key not in memory or memory[key]["scope"] != current["scopes"][0]:
        return f"Nothing is stored under {key}."
    return guarded_forget(key)''', "kept the user's own memory"),
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
    # review 9: a birthday by one key only; the model may say date_of_birth (lessons 7-8 read it by meaning)
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if key == "birthday" and result.startswith("Remembered"):
        result += " Ask the user: should I remind you a week before?"
    return result''', "remember_and_ask('date_of_birth', 'March 3rd 1985')"),
    # "birth" in the key: date_of_birth passes, born_on does not
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if "birth" in key and result.startswith("Remembered"):
        result += " Ask the user: should I remind you a week before?"
    return result''', "remember_and_ask('born_on', 'March 3rd 1985')"),
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
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if about_birth(key) and not result.startswith("Not stored"):
        result = result + ". Ask them whether they would like a reminder 7 days ahead."
    return result''', "does not ask about a reminder"),
    # review 17: the question put before the result: the user would read "Should I ...? Remembered birthday: ..."
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if about_birth(key.replace("_", " ")) and result.startswith("Remembered"):
        result = "Ask the user: should I remind you a week before? " + result
    return result''', "not at its end"),
    # the question in the middle, a note after it
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if about_birth(key.replace("_", " ")) and result.startswith("Remembered"):
        result += " Should I remind you a week before? It is stored for good."
    return result''', "not at its end"),
]


@pytest.mark.parametrize("name, source, hint", WRONG, ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(WRONG)])
def test_a_wrong_answer_fails_with_a_true_hint(agent, name, source, hint, capsys):
    passed, printed = verdict(CHECKS[name], define(agent, source), capsys=capsys)
    assert not passed and hint in printed, printed


UNUSUAL = [  # right answers written another way: other names, other wording, dates parsed
    ("rare_first", rare()),
    ("rare_first", rare(weight='math.log(1 + (len(mine) - having + 0.5) / (having + 0.5))')),
    ("rare_first", '''def rare_first(allowed, said):
    from collections import Counter
    import math as m
    live = [k for k, e in memory.items() if e["scope"] in allowed and not (e["until"] and e["until"] < NOW.date().isoformat())]
    df = Counter(w for k in memory for w in about(k))
    asked = words(said)
    points = {k: sum(m.log(len(memory) / df[w]) + 1 for w in about(k) & asked) for k in live}
    return sorted(live, key=lambda k: (points[k], memory[k]["importance"] != "low", memory[k]["created"]), reverse=True)'''),
    ("forget_mine", '''def forget_mine(name):
    item = memory.get(name)
    if item is None or item["scope"] not in current["scopes"]:
        return f"There is no memory called {name}."
    result = guarded_forget(name)
    return "Done, it is gone." if result.startswith("Forgot") else result'''),
    ("remember_and_ask", '''def remember_and_ask(k, v, imp="medium"):
    said = guarded_remember(k, v, imp)
    if not said.startswith("Not stored") and re.search(r"birth|born", k, re.I):
        said = said + "\\nAsk the user: do you want a reminder one week before the day?"
    return said'''),
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if about_birth(key) and "Remembered" in result:
        result += "\\nAsk the user: would you like a reminder seven days ahead of it?"
    return result'''),
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if any(word in key.lower() for word in ("birth", "born", "dob")) and result.startswith("Remembered"):
        result += " Ask the user: shall I send a reminder 7 days in advance?"
    return result'''),
    # any wording after lesson 7's "Ask the user:", in a sentence of its own after a line break
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if about_birth(key.replace("_", " ")) and result.startswith("Remembered"):
        result = f"{result}\\nAsk the user: want me to remind you to buy a present one week earlier?"
    return result'''),    # review 16: a bare question appended with no full stop or "Ask the user:" before it (the statement's words)
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if about_birth(key.replace("_", " ")) and result.startswith("Remembered"):
        result += " Should I remind you a week before?"
    return result'''),
    # review 17: the question last, with an abbreviation inside it and a line break after it
    ("remember_and_ask", '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if about_birth(key.replace("_", " ")) and result.startswith("Remembered"):
        result = result + ". Ask the user: should I remind you 7 days in advance, i.e. a week before?\\n"
    return result'''),
    # review 17: plain log(N / having): 0 for a word every memory has, which adds the same to every score
    ("rare_first", rare(weight="math.log(len(mine) / having)")),
]


@pytest.mark.parametrize("name, source", UNUSUAL, ids=[f"{n}-{i}" for i, (n, _) in enumerate(UNUSUAL)])
def test_an_unusual_right_answer_passes(agent, name, source, capsys):
    passed, printed = verdict(CHECKS[name], define(agent, source), capsys=capsys)
    assert passed, printed


@pytest.mark.parametrize("name", CHECKS)
@pytest.mark.parametrize("solved", [True, False])
def test_a_check_puts_the_agent_back_as_it_was(agent, name, solved, capsys):
    agent["chat"]("Hi! My name is Ada.")
    ranked, budget = agent["ranked"], agent["BUDGET"]
    before = (json.dumps(agent["memory"]), dict(agent["current"]), dict(agent["TOOLS"]),
              open(agent["MEMORY_FILE"]).read())
    answer = agent[name] if solved else define(agent, f"def {name}(*args):\n    raise KeyError('x')")
    capsys.readouterr()
    passed = verdict(CHECKS[name], answer, capsys=capsys)[0]
    after = (json.dumps(agent["memory"]), dict(agent["current"]), dict(agent["TOOLS"]),
             open(agent["MEMORY_FILE"]).read())
    assert after[:2] + after[3:] == before[:2] + before[3:] and passed == solved
    assert agent["BUDGET"] == budget
    kept = {tool: function for tool, function in after[2].items() if before[2].get(tool) is not function}
    lent = {"forget_mine": "forget", "remember_and_ask": "remember"}.get(name)
    # a passing answer stays in the agent (the review: the final agent never kept the student's work): 9.1 as
    # its ranking, the others under the tool's name; a failing one leaves the agent as it was
    assert set(kept) == ({lent} if solved and lent else set())
    assert (agent["ranked"] is answer) == (solved and name == "rare_first")
    assert agent["ranked"] is ranked or name == "rare_first"
    if kept:  # the kept tool is the student's function, reached by the model's argument names
        agent["current"].update(scopes=(agent["USER"],))
        arguments = {"forget": {"key": "nothing_here"},
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


def busy_week(agent, ranking):
    """The store 9.1's text describes: the sister, and 40 newer client notes that say 'name'."""
    agent["memory"].clear()
    lesson09._busy_week(agent, agent["memory"], agent["USER"], agent["AGENT"])
    agent["ranked"] = ranking
    agent["history"].clear()
    return agent["guarded_agent"]("What is my sister's name?", [])


def test_the_lessons_ranking_loses_the_sister_as_9_1_says(agent, capsys):
    """9.1's text: with ranked, the newer notes fill the budget, recall finds five client notes, and the agent
    does not know the sister's name. With the reference rare_first it answers."""
    start = len(agent["trace"].events)
    answer = busy_week(agent, agent["ranked"])
    recalled = [event.payload["content"] for event in agent["trace"].events[start:]
                if event.kind == "tool_result" and event.payload["name"] == "recall"]
    assert "Lena" not in lesson09._first_system_prompt(start) and "Lena" not in answer
    assert "know" in answer and recalled and recalled[0].count("- client_") == 5
    assert "Lena" in busy_week(agent, agent["rare_first"])


def test_a_passing_rare_first_ranks_the_agents_recall_and_a_failing_one_does_not(agent, capsys):
    """9.1 changes the agent: once it passes, the agent's prompt and its recall tool rank with it."""
    lesson_ranked = agent["ranked"]
    wrong = define(agent, WRONG[0][1])
    assert not verdict(CHECKS["rare_first"], wrong, capsys=capsys)[0]
    assert agent["ranked"] is lesson_ranked
    unusual = define(agent, UNUSUAL[0][1])
    assert verdict(CHECKS["rare_first"], unusual, capsys=capsys)[0]
    assert agent["ranked"] is unusual
    agent["memory"].clear()
    lesson09._busy_week(agent, agent["memory"], agent["USER"], agent["AGENT"])
    agent["current"].update(scopes=(agent["USER"],))
    call = {"id": "c1", "function": {"name": "recall", "arguments": '{"query": "sister name"}'}}
    assert agent["run_tool"](call).startswith("- sister: Lena")


def test_the_oracle_agrees_with_other_weights_on_the_checks_store(agent):
    """9.1's check compares with one weight, log(1 + N/df); its store is built so that any weight that
    falls with df and never drops below 0 gives the same order (else a right answer could fail)."""
    lesson09._busy_week(agent, agent["memory"], agent["USER"], agent["AGENT"])
    expected = lesson09._by_rarity(agent, agent["memory"], (agent["USER"],), "What is my sister's name?")
    for weight in ("1 / having", "math.log(1 + len(mine) / having)", "2 ** -having", "1 + 1 / having",
                   "math.log(len(mine) / having)"):
        ranking = define(agent, rare(weight=weight))
        assert ranking((agent["USER"],), "What is my sister's name?") == expected, weight
    assert expected[0] == "sister"


def test_the_question_must_reach_the_model_through_the_agent(agent, capsys):
    """9.3 reads what the model got back from its remember call, not only what a direct call returns: an answer
    that asks for the check's own birthday but not for the one the user tells the agent fails there."""
    only_march = define(agent, '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if about_birth(key.replace("_", " ")) and result.startswith("Remembered") and "March" in value:
        result += " Should I remind you a week before?"
    return result''')
    passed, printed = verdict(lesson09.check_remember_and_ask, only_march, capsys=capsys)
    assert not passed and "read back 'Remembered birthday: Jan 20th 1990'" in printed, printed


def test_examples_rerun_after_a_passing_9_1_print_the_same(tmp_path):
    """A passing rare_first stays in the agent as its `ranked`; the lesson's examples, run again after it (from
    the state test_rerun.py resets to), print what they printed the first time."""
    import shutil
    import nbformat
    from nbclient import NotebookClient
    from test_rerun import RESET, kind, text
    shutil.copy(ROOT / "lessons" / "09_the_whole_thing.ipynb", tmp_path / "lesson.ipynb")
    notebook = nbformat.read(tmp_path / "lesson.ipynb", as_version=4)
    client = NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}})
    cells = list(enumerate(notebook.cells))
    with client.setup_kernel():
        for index, cell in cells:
            client.execute_cell(cell, index)
        first = {index: text(cell.outputs) for index, cell in cells if kind(cell) == "example"}
        for source in (SOLUTIONS + "\nlesson09.check_rare_first(rare_first)\nprint(ranked is rare_first)", RESET[9][1]):
            notebook.cells.append(nbformat.v4.new_code_cell(source))
            client.execute_cell(notebook.cells[-1], len(notebook.cells) - 1)
        assert text(notebook.cells[-2].outputs) == "✅ 9.1 Rare words weigh more: passed.\nTrue\n"
        for index, cell in cells:
            if kind(cell) == "example":
                client.execute_cell(cell, index)
                assert text(cell.outputs) == first[index], cell.source.splitlines()[0]


BARE_QUESTION = '''def remember_and_ask(key, value, importance="medium"):
    result = guarded_remember(key, value, importance)
    if about_birth(key.replace("_", " ")) and result.startswith("Remembered"):
        result += " Would you like a reminder seven days ahead?"
    return result'''


def test_a_bare_question_ending_the_result_passes_exactly_when_the_user_sees_it(agent, capsys):
    """Review 15: a question that ends the tool's result, without "Ask the user:", is a right answer when the
    model passes it on (a real model does; the teaching model is being taught to). The check must judge by the
    reply the user sees, whichever teaching model runs: pass if it asks, fail with the hint if it does not."""
    answer = define(agent, BARE_QUESTION)
    passed, printed = verdict(CHECKS["remember_and_ask"], answer, capsys=capsys)
    agent["TOOLS"]["remember"] = lambda key, value, importance="medium": answer(key, value, importance)
    seen = agent["guarded_agent"]("My birthday is Jan 20th 1990", [])
    asks = "remind" in seen.lower() and "?" in seen
    assert passed == asks, (seen, printed)
    if not passed:
        assert "the reply the user saw" in printed and "plainly for the user" in printed, printed
