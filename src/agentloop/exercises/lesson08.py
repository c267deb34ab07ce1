"""Lesson 8 exercises: a drain that respects due dates, draining within a budget, the next birthday."""
import json
from collections import deque
from datetime import date

from .. import llm
from ..checks import attempt, exercise, expect

SCHEDULE = {"type": "function", "function": {"name": "schedule", "description": "Add a task to the queue.",
            "parameters": {"type": "object", "properties": {"task": {"type": "string"}, "when": {"type": "string"}},
                           "required": ["task", "when"]}}}


RETURN_WHAT_RAN = "append each task to a list as it runs, and return that list."
DRAIN_THE_LIVE_QUEUE = "loop on the queue itself (while queue and len(ran) < budget), not on a copy made before draining."


@exercise("8.1 Run only what is due")
def check_drain_due(drain_due):
    queue, ran = deque([{"task": "a", "when": "2026-01-05"}, {"task": "b", "when": "2026-01-09"},
                        {"task": "c", "when": "2026-01-03"}]), []
    got = attempt(drain_due, queue, ran.append, date(2026, 1, 5), 10)
    expect([t["task"] for t in ran] == ["a", "c"],
           f"on 2026-01-05 run was called on {[t['task'] for t in ran]}; only tasks due by then should run.",
           fix="compare date.fromisoformat(task['when']) <= today, and keep walking the queue.")
    expect(got == ran, f"drain_due returned {got!r}; return the tasks that ran, in order.",
           fix=RETURN_WHAT_RAN)
    expect([t["task"] for t in queue] == ["b"],
           f"afterwards the queue holds {[t['task'] for t in queue]}; a task not due yet must stay queued.",
           fix="put tasks that are not due into a list and queue.extend(them) at the end, in order.")
    queue, ran = deque({"task": str(n), "when": "2026-01-01"} for n in range(5)), []
    attempt(drain_due, queue, ran.append, date(2026, 1, 5), 2)
    expect(len(ran) == 2 and len(queue) == 3,
           f"with a budget of 2, {len(ran)} task(s) ran and {len(queue)} stayed queued.",
           fix="stop once `budget` tasks have run; the rest stay in the queue, in order.")
    queue = deque([{"task": "later", "when": "2026-02-01"}, {"task": "now", "when": "2026-01-01"}])
    attempt(drain_due, queue, lambda task: None, date(2026, 1, 5), 5)
    expect([t["task"] for t in queue] == ["later"], f"the queue ended as {list(queue)}; a task that is not "
                                                    "due does not stop the ones behind it.",
           fix="don't stop at the first task not due: set it aside and keep walking the queue.")


@exercise("8.2 Drain the queue within a budget")
def check_drain_queue(drain_queue):
    queue, seen = deque(["a", "b"]), []
    got = attempt(drain_queue, queue, seen.append, 5)
    expect(seen == ["a", "b"], f"with tasks a and b and a budget of 5, run was called on {seen}; "
                               "call run(task) on each task, front first (queue.popleft()).")
    expect(got == ["a", "b"], f"drain_queue returned {got!r}; return the tasks that ran, in order.",
           fix=RETURN_WHAT_RAN)
    expect(not queue, f"the queue should be empty afterwards, it holds {list(queue)}.",
           fix="take each task out of the queue as it runs: queue.popleft().")
    queue, seen = deque(["check the news"]), []

    def recurring(task):  # a task that schedules itself again, like "every hour"
        seen.append(task)
        expect(len(seen) < 50, "a task that requeues itself ran 50 times with a budget of 3: "
                               "stop once `budget` tasks have run.")  # stops a drain that never would
        queue.append(task)

    got = attempt(drain_queue, queue, recurring, 3)
    expect(len(seen) <= 3, f"a task that requeues itself ran {len(seen)} times with a budget of 3: "
                           "stop once `budget` tasks have run.")
    expect(len(seen) == 3, f"a task that requeues itself ran {len(seen)} times with a budget of 3: tasks added "
                           "to the queue while draining must run too, until the budget is spent.",
           fix=DRAIN_THE_LIVE_QUEUE)
    expect(list(queue) == ["check the news"], f"after the budget is spent the next run stays queued; "
                                              f"the queue holds {list(queue)}.")
    queue, seen = deque(["plan"]), []

    def planner(task):  # a task that adds subtasks
        seen.append(task)
        if task == "plan":
            queue.extend(["step 1", "step 2"])

    attempt(drain_queue, queue, planner, 10)
    expect(seen == ["plan", "step 1", "step 2"], f"tasks added while draining must run too; ran {seen}.",
           fix=DRAIN_THE_LIVE_QUEUE)
    expect(attempt(drain_queue, deque(), seen.append, 3) == [], "an empty queue runs nothing: return [].")


@exercise("8.3 The next birthday")
def check_next_birthday(next_birthday):
    cases = [("Jan 20th 1990", date(2026, 1, 5), date(2026, 1, 20), "later this year"),
             ("Jan 20th 1990", date(2026, 2, 1), date(2027, 1, 20), "already past this year: next year"),
             ("March 3rd", date(2026, 1, 5), date(2026, 3, 3), "a full month name, no year"),
             ("Dec 31", date(2026, 12, 31), date(2026, 12, 31), "today itself counts"),
             ("2nd of July 1985", date(2026, 7, 3), date(2027, 7, 2), "the day before the month"),
             ("Feb 29th 1996", date(2026, 1, 5), date(2026, 2, 28), "Feb 29 in a year without one: Feb 28"),
             ("Feb 29th 1996", date(2027, 3, 1), date(2028, 2, 29), "the next one is in a leap year")]
    for text, today, expected, what in cases:
        got = attempt(next_birthday, text, today)
        expect(got == expected, f"next_birthday({text!r}, {today!r}) returned {got!r}, expected {expected!r} ({what}).",
               fix="Feb 29 exists only in leap years (calendar.isleap): use Feb 28 in the others."
               if "Feb 29" in text else None)
