"""Exercise checks not yet in a file of their own (lesson 9): a first failure nudges, the second adds the
fix. Lessons 1-8 have a file each (tests/test_exercises_lesson01.py ...)."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "solutions"))

from agentloop import checks  # noqa: E402
from agentloop.exercises import lesson09  # noqa: E402
from lesson_answers import verdict  # noqa: E402


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    """Every test starts as a first try, so a hint it looks for is the nudge, not the fix a later failure adds."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(checks, "_failed_runs", {})


TWO_STEP = [  # (check, wrong answer, what only the fix, on the second failure, says)
    (lesson09.check_fit_to_budget, (lambda texts, budget: texts,), "count_tokens(text)"),
    (lesson09.check_rank, (lambda items, query: sorted(items, key=lambda i: i["importance"], reverse=True),),
     "(score, item['created'])"),
    (lesson09.check_forget_memory, (lambda store, scope, memory_id: f"Deleted {memory_id}." if store.delete(memory_id)
                                    else f"No memory {memory_id}.",), "check item.scope first"),
]


@pytest.mark.parametrize("check, answer, fix", TWO_STEP, ids=[f"{c.__name__}-{i}" for i, (c, _, _) in enumerate(TWO_STEP)])
def test_a_first_failure_nudges_and_the_second_adds_the_fix(check, answer, fix, capsys):
    first = verdict(check, *answer, capsys=capsys)[1]
    second = verdict(check, *answer, capsys=capsys)[1]
    assert first.startswith("❌") and "Fix:" not in first and fix not in first, first
    assert first.split("Hint: ", 1)[1].strip(), "the nudge says what went wrong"
    assert second.startswith(first.rstrip("\n") + " Fix: ") and fix in second.split(" Fix: ", 1)[1], second
