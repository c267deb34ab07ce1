"""The extras' exercises: each check passes the reference answer, fails plausible wrong answers with a true
hint, passes an unusual right answer, and leaves the notebook as it was (a passing answer stays in it)."""
import json
import pathlib

import pytest

from agentloop.exercises import extras
from lesson_answers import verdict

ROOT = pathlib.Path(__file__).parent.parent
EXTRAS = ROOT / "lessons" / "extras"


def notebook_up_to_its_exercise(name: str, tmp_path, monkeypatch) -> dict:
    """The extra's code cells run in order, in a fresh folder, up to its exercise cell (not run)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COURSE_LESSON", "09")  # as its first cell sets it, and put back afterwards
    names = {"__name__": f"extra_{name}"}
    for cell in json.loads((EXTRAS / f"{name}.ipynb").read_text())["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] != "code" or "inspect.getsource" in source:  # a diff of two cells' source: display only
            continue
        if "extras.check_" in source:
            break
        exec(source, names)
    exec("from datetime import timedelta\nfrom agentloop.exercises import extras", names)
    return names


def define(names, source):
    exec(source, names)
    return names[source.split("def ", 1)[1].split("(", 1)[0]]


def exercise_cell(name: str) -> tuple:
    """(the exercise cell's source, what the notebook shows it printed)."""
    cell = next(c for c in json.loads((EXTRAS / f"{name}.ipynb").read_text())["cells"]
                if "extras.check_" in "".join(c["source"]))
    return "".join(cell["source"]), "".join(cell["outputs"][0]["text"])


# memory_tools: recall_recent
@pytest.fixture
def tools_notebook(tmp_path, monkeypatch):
    return notebook_up_to_its_exercise("memory_tools", tmp_path, monkeypatch)


RECENT = '''def recall_recent(query, days):
    since = clock() - timedelta(days=days)
    return found(store.search(query, 5, scope=SCOPES["user"], since=since))'''

RECENT_WRONG = [
    # counted forward from the clock: nothing is that new
    (RECENT.replace("clock() - timedelta", "clock() + timedelta"), "Count back from the clock"),
    # every scope this agent may read, as memory_search does: the session's and the agent's notes come too
    (RECENT.replace('scope=SCOPES["user"]', "scope=list(SCOPES.values())"), "another scope"),
    # hours, not days: the 3-day-old oolong is missed
    (RECENT.replace("timedelta(days=days)", "timedelta(hours=days)"), "the last 7 days hold ['oolong']"),
    # no time window at all: the 9-day-old green tea comes back for "the last 7 days"
    (RECENT.replace(", since=since", ""), "the last 7 days hold ['oolong']"),
]

RECENT_UNUSUAL = [
    # other parameter names, the window as an ISO date string, a plain scan of the user's list
    '''def recall_recent(words, last):
    start = (clock() - timedelta(days=int(last))).isoformat()
    hits = [m for m in store.list(SCOPES["user"], since=start) if words.lower() in m.content.lower()]
    return found(hits)''',
]


def test_recall_recent_reference_passes_and_stays_a_tool(tools_notebook, capsys):
    store, clock_now, tools = tools_notebook["store"], tools_notebook["clock"].now, set(tools_notebook["TOOLS"])
    answer = define(tools_notebook, RECENT)
    passed, printed = verdict(extras.check_recall_recent, answer, capsys=capsys)
    assert passed and printed.startswith("✅"), printed
    assert tools_notebook["store"] is store and tools_notebook["clock"].now == clock_now
    assert set(tools_notebook["TOOLS"]) == tools | {"recall_recent"} and tools_notebook["TOOLS"]["recall_recent"] is answer
    schema = tools_notebook["SCHEMAS"]["recall_recent"]["function"]
    assert set(schema["parameters"]["properties"]) == {"query", "days"}


@pytest.mark.parametrize("source, hint", RECENT_WRONG)
def test_recall_recent_wrong_answers_fail_with_a_true_hint(tools_notebook, source, hint, capsys):
    tools = dict(tools_notebook["TOOLS"])
    passed, printed = verdict(extras.check_recall_recent, define(tools_notebook, source), capsys=capsys)
    assert not passed and hint in printed, printed
    assert tools_notebook["TOOLS"] == tools  # a failing answer is not left in the tools


@pytest.mark.parametrize("source", RECENT_UNUSUAL)
def test_recall_recent_unusual_right_answers_pass(tools_notebook, source, capsys):
    passed, printed = verdict(extras.check_recall_recent, define(tools_notebook, source), capsys=capsys)
    assert passed, printed
    assert set(tools_notebook["SCHEMAS"]["recall_recent"]["function"]["parameters"]["properties"]) == {"words", "last"}


def test_recall_recent_cell_as_shipped_fails_with_a_nudge(tools_notebook, capsys):
    source, shown = exercise_cell("memory_tools")
    stub = define(tools_notebook, source.split("\nextras.check_")[0])
    passed, printed = verdict(extras.check_recall_recent, stub, capsys=capsys)
    assert not passed and "holes are still there" in printed and printed == shown


# shared_memory: CHECKER
@pytest.fixture
def team(tmp_path, monkeypatch):
    return notebook_up_to_its_exercise("shared_memory", tmp_path, monkeypatch)


def checker(tools, scopes, **more) -> dict:
    return {"name": "checker", "system": "You are the fact-checker, with a memory.", "tools": tools,
            "scopes": scopes, **more}


CHECKER_RIGHT = checker(["recall", "decide"], ("agent:checker", "agent:researcher"))

CHECKER_WRONG = [
    # every tool, as the assistant has: a page could make it search or forget
    (lambda team: checker(list(team["SCHEMAS"]), ("agent:checker", "agent:researcher")), "was run"),
    # the user's scope too: the user's name in a checker's prompt
    (lambda team: checker(["recall", "decide"], ("agent:checker", "agent:researcher", team["USER"])),
     "holds the user's name"),
    # the researcher's scope first: it would write among the findings
    (lambda team: checker(["recall", "decide"], ("agent:researcher",)), "must be the checker's own"),
    # its own scope only: it never sees the findings
    (lambda team: checker(["recall", "decide"], ("agent:checker",)), "does not hold the researcher's finding"),
    # no decide: it cannot log a verdict
    (lambda team: checker(["recall"], ("agent:checker", "agent:researcher")), "to log its verdicts"),
    # a tool name that is not one
    (lambda team: checker(["recall", "log_decision"], ("agent:checker", "agent:researcher")), "which is no tool here"),
]


def test_checker_reference_passes_and_the_team_is_put_back(team, capsys):
    before = (json.dumps(team["memory"]), dict(team["acting"]), list(team["decisions"]),
              open(team["MEMORY_FILE"]).read(), open(team["DECISIONS_FILE"]).read())
    passed, printed = verdict(extras.check_checker, CHECKER_RIGHT, team["run_as"], capsys=capsys)
    assert passed and printed.startswith("✅"), printed
    after = (json.dumps(team["memory"]), dict(team["acting"]), list(team["decisions"]),
             open(team["MEMORY_FILE"]).read(), open(team["DECISIONS_FILE"]).read())
    assert after == before


@pytest.mark.parametrize("make, hint", CHECKER_WRONG)
def test_checker_wrong_answers_fail_with_a_true_hint(team, make, hint, capsys):
    passed, printed = verdict(extras.check_checker, make(team), team["run_as"], capsys=capsys)
    assert not passed and hint in printed, printed


def test_checker_unusual_right_answer_passes(team, capsys):
    """Another name and wording, tools as a tuple in another order, scopes as a list."""
    unusual = {"name": "verifier", "system": "You verify findings before anyone relies on them.",
               "tools": ("decide", "recall"), "scopes": ["agent:verifier", "agent:researcher"]}
    passed, printed = verdict(extras.check_checker, unusual, team["run_as"], capsys=capsys)
    assert passed, printed


def test_checker_cell_as_shipped_fails_with_a_nudge(team, capsys):
    source, shown = exercise_cell("shared_memory")
    exec(source.split("\nextras.check_")[0], team)
    passed, printed = verdict(extras.check_checker, team["CHECKER"], team["run_as"], capsys=capsys)
    assert not passed and "a list of tool names" in printed and printed == shown


# real_models: answer_or_explain
@pytest.fixture
def models_notebook(tmp_path, monkeypatch):
    names = notebook_up_to_its_exercise("real_models", tmp_path, monkeypatch)
    yield names
    names["agentloop"].use()


EXPLAIN = '''def answer_or_explain(question):
    try:
        return run_agent(question)
    except agentloop.LLMError as error:
        return f"The model could not answer: {error}"'''

EXPLAIN_WRONG = [
    # not caught: the provider's failure is a traceback
    ('''def answer_or_explain(question):
    return run_agent(question)''', "the user would see a traceback"),
    # caught, but the user learns nothing
    ('''def answer_or_explain(question):
    try:
        return run_agent(question)
    except agentloop.LLMError:
        return "Sorry, something went wrong."''', "Say what went wrong"),
    # every exception: our own bug reaches the user as the provider's failure
    ('''def answer_or_explain(question):
    try:
        return run_agent(question)
    except Exception as error:
        return f"The model could not answer: {error}"''', "our own bug went to the user"),
    # one kind only: a server that is not running still raises
    ('''def answer_or_explain(question):
    try:
        return run_agent(question)
    except agentloop.errors.NotFound as error:
        return f"The model could not answer: {error}"''', "with a server that is not running"),
]

EXPLAIN_UNUSUAL = [
    # the class imported by name, another parameter name, the kind only, in a sentence of its own
    '''def answer_or_explain(q):
    from agentloop.errors import LLMError
    try:
        reply = run_agent(q)
    except LLMError as problem:
        reply = "I could not reach the model (" + problem.__class__.__name__ + "). Check the settings."
    return reply''',
    # the HTTP status only, where there is one, else the message
    '''def answer_or_explain(question):
    try:
        return run_agent(question)
    except agentloop.LLMError as e:
        return f"Error {e.status}, try another model name." if getattr(e, "status", None) else f"No answer: {e}"''',
]


def test_answer_or_explain_reference_passes_and_the_backend_is_put_back(models_notebook, capsys):
    passed, printed = verdict(extras.check_answer_or_explain, define(models_notebook, EXPLAIN), capsys=capsys)
    assert passed and printed.startswith("✅"), printed
    assert "teaching-model' at in-process" in models_notebook["agentloop"].backend().describe()


@pytest.mark.parametrize("source, hint", EXPLAIN_WRONG)
def test_answer_or_explain_wrong_answers_fail_with_a_true_hint(models_notebook, source, hint, capsys):
    passed, printed = verdict(extras.check_answer_or_explain, define(models_notebook, source), capsys=capsys)
    assert not passed and hint in printed, printed
    assert "teaching-model' at in-process" in models_notebook["agentloop"].backend().describe()


@pytest.mark.parametrize("source", EXPLAIN_UNUSUAL)
def test_answer_or_explain_unusual_right_answers_pass(models_notebook, source, capsys):
    passed, printed = verdict(extras.check_answer_or_explain, define(models_notebook, source), capsys=capsys)
    assert passed, printed


def test_answer_or_explain_cell_as_shipped_fails_with_a_nudge(models_notebook, capsys):
    source, shown = exercise_cell("real_models")
    stub = define(models_notebook, source.split("\nextras.check_")[0])
    passed, printed = verdict(extras.check_answer_or_explain, stub, capsys=capsys)
    assert not passed and "Catch the one error" in printed and printed == shown


# openai_sdk: ask_sdk_counted
@pytest.fixture
def sdk_notebook(tmp_path, monkeypatch):
    pytest.importorskip("openai")
    names = notebook_up_to_its_exercise("openai_sdk", tmp_path, monkeypatch)
    exec('spent = {"tokens": 0}', names)
    return names


COUNTED = '''def ask_sdk_counted(messages, tools):
    response = client.chat.completions.create(model=MODEL, messages=messages, tools=tools)
    spent["tokens"] += response.usage.total_tokens
    return response.choices[0].message.to_dict()'''

COUNTED_WRONG = [
    # the typed message handed to a loop that reads dicts
    (COUNTED.replace(".message.to_dict()", ".message"), "the SDK's message is a typed object"),
    # the prompt only
    (COUNTED.replace("usage.total_tokens", "usage.prompt_tokens"), "the prompts' tokens only"),
    # = for +=: the last call only
    (COUNTED.replace('spent["tokens"] +=', 'spent["tokens"] ='), "the last call's tokens only"),
    # the typed usage read as a dict
    (COUNTED.replace("response.usage.total_tokens", 'response.usage["total_tokens"]'), "raised TypeError"),
]

COUNTED_UNUSUAL = [
    # the whole response as a dict first, other parameter names, the two parts added
    '''def ask_sdk_counted(msgs, offered):
    raw = client.chat.completions.create(model=MODEL, messages=msgs, tools=offered).model_dump()
    spent["tokens"] = spent["tokens"] + raw["usage"]["prompt_tokens"] + raw["usage"]["completion_tokens"]
    return raw["choices"][0]["message"]''',
]


def test_ask_counted_reference_passes_and_memory_is_put_back(sdk_notebook, capsys):
    sdk_notebook["memory"].update(city="Lisbon")
    before = (dict(sdk_notebook["memory"]), open(sdk_notebook["MEMORY_FILE"]).read())
    passed, printed = verdict(extras.check_ask_counted, define(sdk_notebook, COUNTED), sdk_notebook["spent"],
                              capsys=capsys)
    assert passed and printed.startswith("✅"), printed
    assert (dict(sdk_notebook["memory"]), open(sdk_notebook["MEMORY_FILE"]).read()) == before
    assert sdk_notebook["spent"] == {"tokens": 0}


@pytest.mark.parametrize("source, hint", COUNTED_WRONG)
def test_ask_counted_wrong_answers_fail_with_a_true_hint(sdk_notebook, source, hint, capsys):
    passed, printed = verdict(extras.check_ask_counted, define(sdk_notebook, source), sdk_notebook["spent"],
                              capsys=capsys)
    assert not passed and hint in printed, printed


@pytest.mark.parametrize("source", COUNTED_UNUSUAL)
def test_ask_counted_unusual_right_answers_pass(sdk_notebook, source, capsys):
    passed, printed = verdict(extras.check_ask_counted, define(sdk_notebook, source), sdk_notebook["spent"],
                              capsys=capsys)
    assert passed, printed


def test_ask_counted_cell_as_shipped_fails_with_a_nudge(sdk_notebook, capsys):
    source, shown = exercise_cell("openai_sdk")
    stub = define(sdk_notebook, source.split("\nextras.check_")[0])
    passed, printed = verdict(extras.check_ask_counted, stub, sdk_notebook["spent"], capsys=capsys)
    assert not passed and "holes are still there" in printed and printed == shown


def test_ask_counted_without_the_sdk_says_where_to_run_it(sdk_notebook, capsys):
    answer = define(sdk_notebook, COUNTED)
    sdk_notebook["client"] = None  # as in the browser site
    passed, printed = verdict(extras.check_ask_counted, answer, sdk_notebook["spent"], capsys=capsys)
    assert not passed and "local Jupyter" in printed
