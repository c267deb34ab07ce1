"""Lessons 7-8 (lesson 9's are in test_exercises_lesson09.py): every exercise check both ways (the
reference solution passes; wrong answers fail with a hint, never a traceback), and what lessons 7-9
promise about themselves."""
import json
import re
import sys
from collections import deque
from datetime import date
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "solutions"))
import lesson07 as s07  # noqa: E402
import lesson08 as s08  # noqa: E402

from agentloop.exercises import lesson07, lesson08  # noqa: E402


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    """Solutions save memory files: keep them out of the repository."""
    monkeypatch.chdir(tmp_path)
    s07.memory.clear()


def verdict(check, *answer, capsys):
    """Run a check; return (passed, what it printed). A check must never raise."""
    result = check(*answer)
    printed = capsys.readouterr().out
    assert printed.count("\n") == 1, f"a check prints exactly one line, got {printed!r}"
    return bool(result), printed


def drain_due_drops_waiting(queue, run, today, budget):
    ran = [task for task in list(queue) if date.fromisoformat(task["when"]) <= today][:budget]
    queue.clear()  # bug: the tasks not due yet are lost
    for task in ran:
        run(task)
    return ran


def drain_due_stops_at_first_waiting(queue, run, today, budget):
    ran = []
    while queue and len(ran) < budget and date.fromisoformat(queue[0]["when"]) <= today:
        ran.append(queue.popleft())  # bug: a task not due blocks the ones behind it
        run(ran[-1])
    return ran


def s08_without_feb_29(text, today):
    month = next(i for i, name in enumerate(s08.MONTHS, 1) if re.search(rf"\b{name}", text, re.IGNORECASE))
    day = int(re.search(r"\b(\d{1,2})(?:st|nd|rd|th)?\b", text).group(1))
    this_year = date(today.year, month, day)  # the old reference solution: ValueError on Feb 29 2026
    return this_year if this_year >= today else date(today.year + 1, month, day)


def boom(*args, **kwargs):
    raise RuntimeError("student bug")


REFERENCE = [
    (lesson07.check_redact_phones, lambda: (s07.redact_phones,)),
    (lesson07.check_memory_gate, lambda: (s07.my_memory_gate,)),
    (lesson07.check_forget, lambda: (s07.forget_fact, s07.memory)),
    (lesson08.check_drain_due, lambda: (s08.drain_due,)),
    (lesson08.check_drain_queue, lambda: (s08.drain_queue,)),
    (lesson08.check_next_birthday, lambda: (s08.next_birthday,)),
]


@pytest.mark.parametrize("check, answer", REFERENCE, ids=[c.__name__ for c, _ in REFERENCE])
def test_reference_solution_passes(check, answer, capsys):
    passed, printed = verdict(check, *answer(), capsys=capsys)
    assert passed and printed.startswith("✅"), printed


# Wrong answers. The memory dict and the queue the forget and schedule tools work on:
MEMORY, QUEUE = {}, deque()


def forget_raises(key):
    del MEMORY[key]
    return f"Forgot {key}."


def forget_keeps(key):
    return f"Forgot {key}." if key in MEMORY else f"Nothing is stored under {key}."


def drain_lifo(queue, run, budget):
    ran = []
    while queue and len(ran) < budget:
        ran.append(queue.pop())
        run(ran[-1])
    return ran


def drain_no_budget(queue, run, budget):
    ran = []
    while queue:
        ran.append(queue.popleft())
        run(ran[-1])
    return ran


def drain_snapshot(queue, run, budget):  # misses what is added while draining
    ran = list(queue)[:budget]
    queue.clear()
    for task in ran:
        run(task)
    return ran


def birthday_this_year(text, today):
    return s08.next_birthday(text, date(today.year, 1, 1)).replace(year=today.year)


def birthday_jan_only(text, today):  # knows one month
    return s08.next_birthday("Jan " + re.search(r"\d+", text).group(), today)


def birthday_not_today(text, today):
    found = s08.next_birthday(text, today)
    return found.replace(year=found.year + 1) if found == today else found


WRONG = [  # (check, wrong answer, a phrase the hint must contain)
    (lesson07.check_redact_phones, (lambda text: text,), "expected 'Call [phone] at 9.'"),
    (lesson07.check_redact_phones, (lambda text: re.sub(r"\d", "#", text),), "expected"),
    (lesson07.check_redact_phones, (lambda text: re.sub(r"\+?\(?\d[\d ().-]{5,}\d", "[phone]", text),), "only phone numbers"),
    (lesson07.check_redact_phones, (lambda text: re.sub(r"\d{3}-\d{3}-\d{4}", "[phone]", text),), "+44 20"),
    (lesson07.check_redact_phones, (lambda text: None,), "string"),
    (lesson07.check_redact_phones, (boom,), "RuntimeError: student bug"),
    (lesson07.check_memory_gate, (lambda key, value: None,), "a card number"),
    (lesson07.check_memory_gate, (lambda key, value: "Refused" if key in ("card_number", "password") else None,),
     "starting 'Not stored'"),
    (lesson07.check_memory_gate, (lambda key, value: "Not stored: secret" if key in ("card_number", "password")
                                  else None,), "mentions a password"),
    (lesson07.check_memory_gate, (lambda key, value: s07.my_memory_gate(key, value) if key != "birthday"
                                  else "Not stored: no year.",), "Ask the user"),
    (lesson07.check_memory_gate, (lambda key, value: s07.my_memory_gate(key, value) or
                                  ("Not stored: birthdays are private." if key == "birthday" else None),),
     "ordinary, complete fact"),
    (lesson07.check_memory_gate, (boom,), "RuntimeError"),
    (lesson07.check_forget, (forget_raises, MEMORY), "KeyError"),
    (lesson07.check_forget, (forget_keeps, MEMORY), "still in memory"),
    (lesson07.check_forget, (lambda key: MEMORY.pop(key, None) and None, MEMORY), "return a message"),
    (lesson07.check_forget, (lambda key: MEMORY.pop(key, None) and "Forgot." or "Not there.", MEMORY),
     "Nothing is stored under"),
    (lesson07.check_forget, (forget_keeps, "not a dict"), "memory dict"),
    (lesson08.check_drain_due, (lambda queue, run, today, budget: s08.drain_queue(queue, run, budget),), "due by then"),
    (lesson08.check_drain_due, (drain_due_drops_waiting,), "stay queued"),
    (lesson08.check_drain_due, (lambda queue, run, today, budget: s08.drain_due(queue, run, today, 99),), "budget of 2"),
    (lesson08.check_drain_due, (drain_due_stops_at_first_waiting,), "only tasks due by then"),
    (lesson08.check_drain_due, (boom,), "RuntimeError"),
    (lesson08.check_next_birthday, (s08_without_feb_29,), "raised ValueError"),
    (lesson08.check_drain_queue, (drain_lifo,), "front first"),
    (lesson08.check_drain_queue, (drain_no_budget,), "stop once"),
    (lesson08.check_drain_queue, (drain_snapshot,), "added to the queue while draining"),
    (lesson08.check_drain_queue, (lambda queue, run, budget: [run(t) for t in queue] and None,), "return the tasks"),
    (lesson08.check_next_birthday, (birthday_this_year,), "next year"),
    (lesson08.check_next_birthday, (birthday_not_today,), "today itself counts"),
    (lesson08.check_next_birthday, (birthday_jan_only,), "March 3rd"),
    (lesson08.check_next_birthday, (boom,), "RuntimeError"),
]


@pytest.mark.parametrize("check, answer, hint", WRONG, ids=[f"{c.__name__}-{i}" for i, (c, _, _) in enumerate(WRONG)])
def test_wrong_answer_fails_with_a_hint(check, answer, hint, capsys):
    MEMORY.clear()
    QUEUE.clear()
    passed, printed = verdict(check, *answer, capsys=capsys)
    assert not passed and printed.startswith("❌"), printed
    assert hint in printed
    assert "Traceback" not in printed


@pytest.mark.parametrize("check", [c for c, _ in REFERENCE], ids=[c.__name__ for c, _ in REFERENCE])
def test_the_unfinished_placeholder_fails_politely(check, capsys):
    placeholder = lambda *args: ...  # noqa: E731 (what the notebook ships: a function body of `...`)
    extra = {lesson07.check_forget: ({},), }.get(check, ())
    passed, printed = verdict(check, placeholder, *extra, capsys=capsys)
    assert not passed and printed.startswith("❌") and "Traceback" not in printed


def test_the_forget_check_puts_the_memory_back(capsys):
    memory = {"name": "Ada", "birthday": "Jan 20th 1990"}
    s07.memory.update(memory)
    verdict(lesson07.check_forget, s07.forget_fact, s07.memory, capsys=capsys)
    assert s07.memory == memory
    verdict(lesson07.check_forget, forget_keeps, MEMORY, capsys=capsys)
    assert MEMORY == {}


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
