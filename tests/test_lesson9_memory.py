"""Lesson 9's memory is never weaker than lesson 6's, and it outlives the process.

The oracle is lesson 6's agent (the whole dict in every prompt): told the same facts, lesson 9's
agent answers every question as lesson 6's does, also when the store holds far more than its
budget. And facts told in one process are answered by a fresh process that gets only the memory
and queue files.
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from test_continuity import agent_at_end  # noqa: E402

FACTS = ["Hi! My name is Ada.", "I live in Berlin and I work as a nurse.", "My birthday is Jan 20th 1990",
         "I prefer green tea", "I'm allergic to peanuts", "I moved to Munich"]  # lesson 6 has no forget
QUESTIONS = ["What do you know about me?", "Hi!", "What is my name?", "Where do I live?", "What is my job?",
             "When is my birthday?", "What do I prefer?", "What am I allergic to?", "Do I like green tea?"]


def lesson(number, folder, monkeypatch):
    """Lesson `number`'s agent as the lesson ends with it, in `folder`, and a way to talk to it."""
    monkeypatch.chdir(folder)
    names = {"__name__": f"lesson{number}"}
    exec(agent_at_end(number), names)
    if number == 6:
        state = names["new_state"]()
        return names, lambda question, history: names["run_agent"](question, history, state, verbose=False)
    return names, names["guarded_agent"]


def answers(talk, questions):
    """Each question in a new conversation, as a user coming back would ask it."""
    return {question: talk(question, []) for question in questions}


def told(talk):
    history = []
    for fact in FACTS:
        talk(fact, history)


@pytest.fixture
def lessons(tmp_path, monkeypatch):
    (tmp_path / "6").mkdir()
    (tmp_path / "9").mkdir()
    six = lesson(6, tmp_path / "6", monkeypatch)
    nine = lesson(9, tmp_path / "9", monkeypatch)
    return six, nine


def test_lesson_9_answers_every_question_as_lesson_6_does(lessons, capsys):
    (six, talk6), (nine, talk9) = lessons
    told(talk6)
    told(talk9)
    expected, got = answers(talk6, QUESTIONS), answers(talk9, QUESTIONS)
    assert got == expected
    assert "Munich" in got["Where do I live?"] and "Berlin" not in json.dumps(nine["memory"])  # replaced
    nine["user_message"]["text"] = "Forget my birthday"  # the user's own words, as chat keeps them: the gate lets it
    talk9("Forget my birthday", [])  # and what lesson 6 could not do
    nine["user_message"]["text"] = ""
    assert "birthday" not in nine["memory"] and "Jan 20th" not in talk9("When is my birthday?", [])


def test_a_memory_over_the_budget_still_answers_as_lesson_6_does(lessons, capsys):
    """Three hundred memories from later chats: lesson 6 pastes them all, lesson 9 only what the budget holds, and
    the answers about the user are the same (the listing of everything is the one thing a budget cuts)."""
    (six, talk6), (nine, talk9) = lessons
    told(talk6)
    told(talk9)
    nine["NOW"] = nine["datetime"](2027, 1, 5, 9, 0)  # a year on: the facts are old, the chats since are newer
    for n in range(300):
        six["memory"][f"chat_{n}"] = f"a detail from chat {n}"
        nine["memory"][f"chat_{n}"] = {"value": f"a detail from chat {n} on a day", "scope": nine["USER"],
                                       "importance": "medium", "created": f"2026-{1 + n % 12:02d}-15T10:00", "until": None}
    nine["current"].update(scopes=(nine["USER"],), recent="Hi!")
    assert "- job: nurse" not in nine["system_prompt"]()  # the budget is spent: not even 3 tokens are left
    specific = [question for question in QUESTIONS if question != "What do you know about me?"]
    assert answers(talk9, specific) == answers(talk6, specific)
    prompt9 = nine["system_prompt"]()
    assert nine["agentloop"].count_tokens(prompt9) < nine["agentloop"].count_tokens(six["system_prompt"]()) / 5


def test_what_is_told_in_one_process_a_new_process_answers_from_the_files_alone(tmp_path):
    agent = agent_at_end(9)
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    tell = "history = []\n" + "".join(f"chat({fact!r})\n" for fact in FACTS) + "chat('Remind me to call mum tomorrow')\n"
    env = {**os.environ, "COURSE_LESSON": "09"}  # the lesson's setting, which a new process inherits
    subprocess.run([sys.executable, "-c", agent + "\n" + tell], cwd=first, check=True, capture_output=True, timeout=120,
                   env=env)
    for name in ("memory_09.json", "queue_09.json"):  # only these two files go to the new process
        shutil.copy(first / name, second / name)
    ask = ("NOW = datetime(2026, 1, 6, 9, 0)  # the next morning: the reminder is due\nimport json\n"
           "print(json.dumps({q: guarded_agent(q, []) for q in %r}))\ndrain(budget=5)\n" % QUESTIONS)
    run = subprocess.run([sys.executable, "-c", agent + "\n" + ask], cwd=second, check=True, capture_output=True,
                         text=True, timeout=120, env=env)
    got = json.loads(next(line for line in run.stdout.splitlines() if line.startswith("{")))
    assert "Ada" in got["What is my name?"] and "Ada" in got["Hi!"]
    assert "Munich" in got["Where do I live?"] and "nurse" in got["What is my job?"]
    assert "peanuts" in got["What am I allergic to?"]
    assert "call mum" in run.stdout.split(json.dumps(got), 1)[1]  # the queued task ran in the new process
    assert json.loads((second / "queue_09.json").read_text()) == []


def test_recall_reads_the_recent_conversation_not_only_the_latest_message(lessons, capsys):
    (_, _), (nine, talk9) = lessons
    told(talk9)
    for n in range(300):  # later chats, enough to push the facts out of the budget
        nine["memory"][f"chat_{n}"] = {"value": f"a detail from chat {n}", "scope": nine["USER"],
                                       "importance": "medium", "created": "2026-02-01T10:00", "until": None}
    history = []
    talk9("Where do I live?", history)
    talk9("Thanks!", history)  # shares no word with any memory
    assert "- lives_in: Munich" in nine["system_prompt"]()
    assert nine["ranked"]((nine["USER"],), nine["current"]["recent"])[0] == "lives_in"
    talk9("Thanks!", [])  # the same message in a new conversation: nothing recent to go on
    assert nine["ranked"]((nine["USER"],), nine["current"]["recent"])[0] != "lives_in"


@pytest.mark.parametrize("key, importance", [("name", "high"), ("user_name", "high"), ("first_name", "high"),
                                             ("full_name", "high"), ("nickname", "high"),
                                             ("dog_name", "medium"), ("username_hint", "medium")])
def test_the_users_name_is_high_under_any_of_its_usual_keys(lessons, key, importance):
    (_, _), (nine, _) = lessons
    nine["guarded_remember"](key, "Ada")
    assert nine["memory"][key]["importance"] == importance


def test_at_most_five_high_memories_pass_the_budget_the_rest_compete_for_it(lessons):
    """A model that marks everything important cannot put everything back into every prompt (lesson 6's problem)."""
    (_, _), (nine, _) = lessons
    for n in range(8):
        nine["memory"][f"vital_{n}"] = {"value": f"an important detail number {n} " + "word " * 30, "scope": nine["USER"],
                                        "importance": "high", "created": f"2026-01-0{1 + n % 9}T10:00", "until": None}
    chosen = nine["recalled"]((nine["USER"],), "", budget=0)
    assert len(chosen) == 5 and all(key.startswith("vital_") for key in chosen)
    everything = nine["recalled"]((nine["USER"],), "", budget=10_000)
    assert {f"vital_{n}" for n in range(8)} <= set(everything)  # within budget the rest come in as any memory does
