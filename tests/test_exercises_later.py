"""Lesson 9: every exercise check both ways (the reference solution passes; wrong answers fail
with a hint, never a traceback; lessons 7 and 8 have their own files), and what lessons 7-9 promise about themselves."""
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "solutions"))
import lesson09 as s09  # noqa: E402

from agentloop.exercises import lesson09  # noqa: E402
from agentloop.tokens import count_tokens  # noqa: E402
from lesson_answers import boom, verdict  # noqa: E402


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    """Solutions save memory files: keep them out of the repository."""
    monkeypatch.chdir(tmp_path)


REFERENCE = [
    (lesson09.check_fit_to_budget, lambda: (s09.fit_to_budget,)),
    (lesson09.check_rank, lambda: (s09.rank,)),
    (lesson09.check_forget_memory, lambda: (s09.forget_memory,)),
]


@pytest.mark.parametrize("check, answer", REFERENCE, ids=[c.__name__ for c, _ in REFERENCE])
def test_reference_solution_passes(check, answer, capsys):
    passed, printed = verdict(check, *answer(), capsys=capsys)
    assert passed and printed.startswith("✅"), printed


def fit_stops(texts, budget):  # stops at the first text that does not fit
    chosen, left = [], budget
    for text in texts:
        if count_tokens(text) > left:
            break
        chosen.append(text)
        left -= count_tokens(text)
    return chosen


def fit_characters(texts, budget):  # counts characters, not tokens
    chosen, left = [], budget
    for text in texts:
        if len(text) <= left:
            chosen.append(text)
            left -= len(text)
    return chosen


def rank_by_importance(items, query):
    return sorted(items, key=lambda i: (i["importance"], i["created"]), reverse=True)


def rank_oldest_first(items, query):
    return sorted(s09.rank(items, query), key=lambda i: (-_score(i, query), i["created"]))


def rank_case_sensitive(items, query):
    wanted = set(query.split())
    return sorted(items, key=lambda i: (len(wanted & set(re.findall(r"\w+", i["content"]))) / len(wanted)
                                        + i["importance"], i["created"]), reverse=True)


def rank_counts_words(items, query):
    wanted = set(query.lower().split())
    return sorted(items, key=lambda i: (len(wanted & set(re.findall(r"\w+", i["content"].lower())))
                                        + i["importance"], i["created"]), reverse=True)


def _score(item, query):
    wanted = set(query.lower().split())
    return len(wanted & set(re.findall(r"\w+", item["content"].lower()))) / len(wanted) + item["importance"]


def forget_any_scope(store, scope, memory_id):
    return f"Deleted {memory_id}." if store.delete(memory_id) else f"No memory {memory_id}."


def forget_trusts_the_id(store, scope, memory_id):  # a missing id raises
    if store.items[memory_id].scope != scope:
        return f"No memory {memory_id}."
    store.delete(memory_id)
    return f"Deleted {memory_id}."


def forget_tells(store, scope, memory_id):
    item = store.get(memory_id)
    if item is None:
        return f"No memory {memory_id}."
    if item.scope != scope:
        return f"{memory_id} belongs to {item.scope}."
    store.delete(memory_id)
    return f"Deleted {memory_id}."


WRONG = [  # (check, wrong answer, a phrase the hint must contain)
    (lesson09.check_fit_to_budget, (lambda texts, budget: texts,), "never go over"),
    (lesson09.check_fit_to_budget, (fit_stops,), "keep trying the next ones"),
    (lesson09.check_fit_to_budget, (fit_characters,), "with a budget of"),
    (lesson09.check_fit_to_budget, (lambda texts, budget: s09.fit_to_budget(texts, budget - 1),), "expected"),
    (lesson09.check_fit_to_budget, (lambda texts, budget: None,), "list"),
    (lesson09.check_rank, (rank_by_importance,), "come first"),
    (lesson09.check_rank, (rank_oldest_first,), "the newest first on ties"),
    (lesson09.check_rank, (rank_case_sensitive,), "lower case"),
    (lesson09.check_rank, (rank_counts_words,), "a share"),
    (lesson09.check_rank, (lambda items, query: None,), "return all the items"),
    (lesson09.check_forget_memory, (forget_any_scope,), "another user's memory"),
    (lesson09.check_forget_memory, (forget_tells,), "nothing leaks"),
    (lesson09.check_forget_memory, (forget_trusts_the_id,), "raised KeyError"),
]


@pytest.mark.parametrize("check, answer, hint", WRONG, ids=[f"{c.__name__}-{i}" for i, (c, _, _) in enumerate(WRONG)])
def test_wrong_answer_fails_with_a_hint(check, answer, hint, capsys):
    passed, printed = verdict(check, *answer, capsys=capsys)
    assert not passed and printed.startswith("❌"), printed
    assert hint in printed
    assert "Traceback" not in printed


@pytest.mark.parametrize("check", [c for c, _ in REFERENCE], ids=[c.__name__ for c, _ in REFERENCE])
def test_the_unfinished_placeholder_fails_politely(check, capsys):
    placeholder = lambda *args: ...  # noqa: E731 (what the notebook ships: a function body of `...`)
    passed, printed = verdict(check, placeholder, capsys=capsys)
    assert not passed and printed.startswith("❌") and "Traceback" not in printed


# What the lessons promise about themselves.
LESSONS = {7: "07_policy.ipynb", 8: "08_self_scheduling.ipynb", 9: "09_the_whole_thing.ipynb"}


def cells(number):
    return json.loads((ROOT / "lessons" / LESSONS[number]).read_text())["cells"]


def code_lines(cell):
    return [line for line in "".join(cell["source"]).splitlines() if line.strip() and not line.strip().startswith("#")]


@pytest.mark.parametrize("number", LESSONS)
def test_lessons_7_to_9_never_touch_lesson_6s_memory_file(number):
    """Only the carried agent names lesson 6's file, and the lesson's next cell points elsewhere."""
    code = [c for c in cells(number) if c["cell_type"] == "code"]
    carried = [i for i, c in enumerate(code) if "carried" in c["metadata"].get("tags", [])]
    own = "".join(code[carried[-1] + 1]["source"]) if carried else ""
    source = "\n".join("".join(c["source"]) for i, c in enumerate(code) if i not in carried)
    assert '"memory.json"' not in source and "'memory.json'" not in source
    assert not carried or f'MEMORY_FILE = "memory_0{number}.json"' in own


@pytest.mark.parametrize("number", LESSONS)
def test_exercises_ship_unsolved_and_their_output_is_the_hint(number):
    exercises = [c for c in cells(number) if c["cell_type"] == "code" and "# your code here" in "".join(c["source"])]
    assert len(exercises) == 3
    for cell in exercises:
        printed = "".join(cell["outputs"][0]["text"])
        assert printed.startswith(f"❌ {number}.") and "Traceback" not in printed


@pytest.mark.parametrize("number", LESSONS)
def test_each_lesson_has_the_course_sections(number):
    text = "\n".join("".join(c["source"]) for c in cells(number) if c["cell_type"] == "markdown")
    for section in ("**You've seen it as:**", "## Exercises", "## In production", "## What happened"):
        assert section in text
