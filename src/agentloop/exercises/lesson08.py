"""Lesson 8 exercises: a schedule tool, draining a queue within a budget, the next birthday."""
import json
from collections import deque
from datetime import date

from .. import llm
from ..checks import attempt, exercise, expect

SCHEDULE = {"type": "function", "function": {"name": "schedule", "description": "Add a task to the queue.",
            "parameters": {"type": "object", "properties": {"task": {"type": "string"}, "when": {"type": "string"}},
                           "required": ["task", "when"]}}}


@exercise("8.1 A schedule tool")
def check_schedule_task(schedule_task, QUEUE):
    expect(hasattr(QUEUE, "append") and hasattr(QUEUE, "clear"),
           "pass the queue as the second argument: check_schedule_task(schedule_task, QUEUE).")
    before = list(QUEUE)
    try:
        QUEUE.clear()
        got = attempt(schedule_task, "water the plants", "tonight")
        expect(isinstance(got, str) and got, f"schedule_task(...) returned {got!r}: return a short confirmation for the model.")
        expect(list(QUEUE) == [{"task": "water the plants", "when": "tonight"}],
               f"after schedule_task('water the plants', 'tonight') the QUEUE is {list(QUEUE)}; "
               "append {'task': task, 'when': when}.")
        QUEUE.clear()
        message = llm.ask([{"role": "user", "content": "Remind me to call mum tomorrow"}], tools=[SCHEDULE])
        for call in message.get("tool_calls") or []:
            attempt(schedule_task, **json.loads(call["function"]["arguments"]))
        expect(list(QUEUE) == [{"task": "call mum", "when": "tomorrow"}],
               f"the model called your tool for 'Remind me to call mum tomorrow' and the QUEUE is {list(QUEUE)}.")
    finally:
        QUEUE.clear()
        QUEUE.extend(before)


@exercise("8.2 Drain the queue within a budget")
def check_drain_queue(drain_queue):
    queue, seen = deque(["a", "b"]), []
    got = attempt(drain_queue, queue, seen.append, 5)
    expect(seen == ["a", "b"], f"with tasks a and b and a budget of 5, run was called on {seen}; "
                               "call run(task) on each task, front first (queue.popleft()).")
    expect(got == ["a", "b"], f"drain_queue returned {got!r}; return the tasks that ran, in order.")
    expect(not queue, f"the queue should be empty afterwards, it holds {list(queue)}.")
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
                           "to the queue while draining must run too, until the budget is spent.")
    expect(list(queue) == ["check the news"], f"after the budget is spent the next run stays queued; "
                                              f"the queue holds {list(queue)}.")
    queue, seen = deque(["plan"]), []

    def planner(task):  # a task that adds subtasks
        seen.append(task)
        if task == "plan":
            queue.extend(["step 1", "step 2"])

    attempt(drain_queue, queue, planner, 10)
    expect(seen == ["plan", "step 1", "step 2"], f"tasks added while draining must run too; ran {seen}.")
    expect(attempt(drain_queue, deque(), seen.append, 3) == [], "an empty queue runs nothing: return [].")


@exercise("8.3 The next birthday")
def check_next_birthday(next_birthday):
    cases = [("Jan 20th 1990", date(2026, 1, 5), date(2026, 1, 20), "later this year"),
             ("Jan 20th 1990", date(2026, 2, 1), date(2027, 1, 20), "already past this year: next year"),
             ("March 3rd", date(2026, 1, 5), date(2026, 3, 3), "a full month name, no year"),
             ("Dec 31", date(2026, 12, 31), date(2026, 12, 31), "today itself counts"),
             ("2nd of July 1985", date(2026, 7, 3), date(2027, 7, 2), "the day before the month")]
    for text, today, expected, what in cases:
        got = attempt(next_birthday, text, today)
        expect(got == expected, f"next_birthday({text!r}, {today!r}) returned {got!r}, expected {expected!r} ({what}).")
