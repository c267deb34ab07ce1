"""Lesson 8 exercises: a cancel tool, a budget in tokens for drain, a reminder a week before.

Each check drives the student's own code on the student's own queue and queue file, and puts both back
as they were afterwards."""
import contextlib
import io
import sys
from datetime import datetime

from ..checks import attempt, exercise, expect
from ..storage import load_json, save_json

BIRTHDAY = "wish the user a happy birthday"


def _task(text, due="2000-01-01T09:00", every=None):
    """A task in the lesson's shape; due long ago unless given, so the lesson's clock finds it due."""
    return {"task": text, "due": due, "every": every}


@contextlib.contextmanager
def _planted(queue, queue_file, tasks):
    """The student's queue (and its file) holding `tasks` for the check; what was there comes back after."""
    before = [dict(task) for task in queue]
    queue[:] = [dict(task) for task in tasks]
    save_json(queue_file, queue)  # the file holds the planted queue too, as the agent's would
    try:
        yield
    finally:
        queue[:] = before
        save_json(queue_file, queue)


def _quietly(function, *args):
    """The student's agent prints its turns; a check prints one line, so that output is kept aside."""
    with contextlib.redirect_stdout(io.StringIO()):
        return attempt(function, *args)


def _aliases_state(function, state, *args) -> bool:
    """Runs function(*args) quietly, as _quietly does; True when, as it returns, one of its local variables is
    the state dict itself (`start = state`: the same dict, not a copy), which the hint should then name."""
    code, seen = getattr(function, "__code__", None), []

    def watch(frame, event, arg):
        if event == "return":
            seen.extend(name for name, value in frame.f_locals.items() if value is state and name != "state")
        return watch

    before = sys.gettrace()
    sys.settrace(lambda frame, event, arg: watch if frame.f_code is code else None)
    try:
        _quietly(function, *args)
    finally:
        sys.settrace(before)
    return bool(seen)


def _texts(tasks):
    return [task.get("task") if isinstance(task, dict) else task for task in tasks]


def _saved(queue, queue_file, after, before, lost):
    """The file must hold the queue as it is now. `before`: the tasks planted; `lost`: what a restart would undo."""
    on_disk = load_json(queue_file, default=[])
    if on_disk == list(queue):
        return
    said = (f"{queue_file} still holds the queue from before ({_texts(on_disk)})" if on_disk == before
            else f"{queue_file} holds {_texts(on_disk)}")
    expect(False, f"after {after} the queue holds {_texts(queue)}, but {said}: a restart loads the file, so it "
                  f"would {lost}. Save the queue after changing it.",
           fix="save_json(QUEUE_FILE, queue) after changing the queue.")


def _arguments_ok(queue, queue_file, what):
    expect(isinstance(queue, list) and isinstance(queue_file, str),
           f"pass the agent's pieces: {what}.")


# The teaching model calls a cancelling tool when the request quotes the task's words ("Cancel 'water the
# plants'"); for "stop checking the weather" it has no rule, so the check asks in the quoted form.
QUOTED_CANCEL = "Cancel 'water the plants'"


@exercise("8.1 A cancel tool")
def check_cancel(cancel, queue, QUEUE_FILE, SCHEMAS, guarded_agent):
    _arguments_ok(queue, QUEUE_FILE, "check_cancel(cancel, queue, QUEUE_FILE, SCHEMAS, guarded_agent)")
    _check_cancel(cancel, getattr(cancel, "__name__", ""), queue, QUEUE_FILE, SCHEMAS, guarded_agent)


def _skipped(before, left, words) -> str:
    """Why the matches still queued were kept, when each sat right after a match that went: the classic
    `for task in queue: ... queue.remove(task)`, whose loop steps over the task that slid into the gap."""
    matches = [i for i, text in enumerate(before) if words in text.lower()]
    kept = [i for i in matches if before[i] in left]
    if kept and all(i - 1 in matches and before[i - 1] not in left for i in kept):
        return (" Each one left sat right after one that went: a for loop over the queue skips the next task "
                "when the current one is removed under it.")
    return ""


def _not_rebound(cancel, queue, name):
    """`global queue; queue = [...]` inside the tool: the name now means a new list, and whoever holds the
    agent's list (this check, given `queue`; a loop walking it) still sees every task. The name is put back
    on the agent's own list, so the notebook goes on as before the check."""
    agent = getattr(cancel, "__globals__", {})
    rebound = isinstance(agent.get("queue"), list) and agent["queue"] is not queue
    if rebound:
        agent["queue"] = queue
    expect(not rebound, f"after {name}('Weather') the name queue means a new list, and the agent's list (the one "
                        f"passed to this check) still holds {_texts(queue)}: `queue = ...` inside the function "
                        "(with `global queue`) makes a new list with the same name, and code that already holds "
                        "the old list never sees the change. Change the list itself.",
           fix="queue[:] = [task for task in queue if ...], with no `global` line.")


def _check_cancel(cancel, name, queue, QUEUE_FILE, SCHEMAS, guarded_agent):
    expect(isinstance(SCHEMAS, dict) and name in SCHEMAS,
           f"the model is not offered your {name or 'cancel'} tool: SCHEMAS has {sorted(SCHEMAS) if isinstance(SCHEMAS, dict) else SCHEMAS}.",
           fix=f'tool({name or "cancel"}, "Cancel the scheduled tasks whose text contains these words.", task="string").')
    # Two matches side by side: removing from a list while a for loop walks it skips the one after each removal.
    tasks = [_task("Check the weather in Paris", every=60), _task("check the weather in Oslo"), _task("call mum"),
             _task("WEATHER report for Rome"), _task("water the plants")]
    with _planted(queue, QUEUE_FILE, tasks):
        got = attempt(cancel, "Weather")
        _not_rebound(cancel, queue, name)
        expect(isinstance(got, str) and got, f"{name}('Weather') returned {got!r}: return a message for the model.")
        left = _texts(queue)
        expect(left == ["call mum", "water the plants"],
               f"after {name}('Weather') the queue holds {left}; all three weather tasks should be gone "
               f"(any case), the other tasks kept in order.{_skipped(_texts(tasks), left, 'weather')}",
               fix="keep the tasks whose text does not contain the words, lower-cased on both sides: "
                   "queue[:] = [task for task in queue if ...].")
        _saved(queue, QUEUE_FILE, f"{name}('Weather')", tasks, "bring the cancelled tasks back")
        got = attempt(cancel, "dentist")
        expect(isinstance(got, str) and got.lower().startswith("nothing"),
               f"{name}('dentist') returned {got!r}; when nothing matches, say so with a message starting 'Nothing'.")
        expect(_texts(queue) == ["call mum", "water the plants"],
               f"{name}('dentist') matched nothing but the queue is now {_texts(queue)}.")
    with _planted(queue, QUEUE_FILE, [_task("call mum"), _task("water the plants")]):
        answer = _quietly(guarded_agent, QUOTED_CANCEL, [])
        expect(_texts(queue) == ["call mum"],
               f"asked your agent {QUOTED_CANCEL!r}, it answered {answer!r}, and the queue holds {_texts(queue)}: "
               f"the model did not use {name} to cancel the task.",
               fix=f"the model picks a tool by its description and fills the parameters the schema names: "
                   f"say that {name} cancels scheduled tasks, and name your function's own parameter in tool(...).")
        _saved(queue, QUEUE_FILE, f"your agent ran {name}", [_task("call mum"), _task("water the plants")],
               "bring the cancelled task back")


@exercise("8.2 A budget in tokens")
def check_token_budget(drain_within, queue, QUEUE_FILE, state):
    _arguments_ok(queue, QUEUE_FILE, "check_token_budget(drain_within, queue, QUEUE_FILE, state)")
    drain = drain_within  # the student's function, under whatever name it has
    name = getattr(drain_within, "__name__", "drain_within")
    expect(isinstance(state, dict) and "prompt_tokens" in state, "pass the agent's state dict last.")
    tasks = [_task("call mum"), _task("water the plants"), _task("feed the cat")]

    def spent():
        return state["prompt_tokens"] + state["completion_tokens"]

    with _planted(queue, QUEUE_FILE, tasks):
        _quietly(drain, 2)
        expect(_texts(queue) == ["feed the cat"], f"{name}(2), with no budget in tokens, should run two of the "
                                                  f"three tasks due, as before; the queue holds {_texts(queue)}.",
               fix="leave the budget in tasks as it was: the token budget is checked only when one is given.")
    with _planted(queue, QUEUE_FILE, tasks):
        _quietly(drain, 10, 10 ** 9)
        expect(not queue, f"with three tasks due and a budget of a billion tokens, {_texts(queue)} were not run.",
               fix="stop only once the tokens spent reach the budget; with `...` still in place it stops at once.")
    with _planted(queue, QUEUE_FILE, tasks[:1]):
        before, prompt_before = spent(), state["prompt_tokens"]
        _quietly(drain, 10)
        one, answered = spent() - before, spent() - before - (state["prompt_tokens"] - prompt_before)
    with _planted(queue, QUEUE_FILE, tasks[:1] * 3):
        before = spent()
        aliased = _aliases_state(drain, state, 10, one + 1)
        ran = 3 - len(queue)
        expect(ran or before < one + 1,
               f"with a budget of {one + 1} tokens no task ran, though the state had counted {before} tokens "
               f"before this drain: those were spent by earlier work, not by the tasks this drain ran.",
               fix="count from the state's total when the drain starts: what the tasks used is the growth since.")
        expect(ran == 2, f"one task costs {one} tokens; with a budget of {one + 1}, two should run and one wait, "
                         f"and {ran} ran." + ("" if ran != 3 else " Is `start` the state dict itself (start = "
                         "state)? The same dict, not a copy, grows with the state, so what was spent is always 0."
                         if aliased else f" So what your drain counts as spent never "
                         f"reached {one + 1}, though each task used {one} tokens of the state's counts. Is the budget "
                         "compared with the growth of state['prompt_tokens'] + state['completion_tokens'] since the "
                         "drain started (or never compared at all)?"),
               fix="copy the counts when the drain starts: start = dict(state), or keep the number, "
                   "state['prompt_tokens'] + state['completion_tokens']." if ran == 3 and aliased else None)
        _saved(queue, QUEUE_FILE, f"{name}(10, {one + 1})", tasks[:1] * 3, "run the tasks that ran again")
    if answered >= 2:  # a budget one task's completion tokens overrun: a count of the prompt tokens alone misses it
        with _planted(queue, QUEUE_FILE, tasks[:1] * 3):
            _quietly(drain, 10, one - 1)
            expect(len(queue) == 2, f"one task costs {one} tokens, {one - answered} of the prompt and {answered} of "
                                    f"the completion; with a budget of {one - 1}, the first task has overrun it, so "
                                    f"the others wait, but {3 - len(queue)} ran. Are the completion tokens counted?",
                   fix='count both, at the start and in the test: state["prompt_tokens"] + state["completion_tokens"].')
    with _planted(queue, QUEUE_FILE, tasks[:1] * 3):  # the boundary: the first task spends the budget exactly
        _quietly(drain, 10, one)
        expect(len(queue) == 2, f"one task costs {one} tokens (prompt and completion); with a budget of exactly "
                                f"{one}, the first task has used the whole budget, so the others wait, but "
                                f"{3 - len(queue)} ran.",
               fix="the budget is spent when the tokens used have reached it: >=, not >.")


def _when(due):
    """The due time as a datetime, or None when it is not an ISO date and time."""
    try:
        return datetime.fromisoformat(due)
    except (TypeError, ValueError):
        return None


def _compared(due, birthday) -> str:
    """What is wrong with the reminder's due time, next to the birthday's."""
    if due is None:
        return ", not an ISO date and time"
    if due > birthday:
        return ", after the birthday"
    if due == birthday:
        return ", the birthday itself"
    ahead = birthday - due
    return f", {ahead.days} days before it" if not ahead.seconds else f", {ahead} before it"


FRIEND = "wish Bea a happy birthday"


@exercise("8.3 A reminder a week before")
def check_remind_before(remind_before, queue, QUEUE_FILE):
    _arguments_ok(queue, QUEUE_FILE, "check_remind_before(remind_before, queue, QUEUE_FILE)")
    birthday, other = _task(BIRTHDAY, due="2026-03-20T09:00"), _task("call mum", due="2026-03-01T09:00")
    with _planted(queue, QUEUE_FILE, [birthday, other]):
        attempt(remind_before, 7)
        added = [task for task in queue if task not in (birthday, other)]
        expect(birthday in queue and other in queue,
               f"remind_before(7) changed the tasks already queued; the queue holds {queue}.")
        expect(len(added) == 1, f"with one birthday queued, remind_before(7) added {len(added)} task(s): {added}.",
               fix="for each task that wishes someone a happy birthday, add_task(...) one new task.")
        task = added[0]
        expect(isinstance(task, dict) and set(task) >= {"task", "due", "every"},
               f"the new task is {task!r}; make it the way the queue's other tasks are made (add_task).")
        due, expected = _when(task["due"]), datetime(2026, 3, 13, 9, 0)
        expect(due == expected,
               f"the birthday is due 2026-03-20T09:00, so a reminder seven days before is due 2026-03-13T09:00; "
               f"yours is due {task['due']!r}{_compared(due, datetime(2026, 3, 20, 9, 0))}.",
               fix="datetime.fromisoformat(task['due']) - timedelta(days=days).")
        expect(not task["every"], f"the reminder repeats (every={task['every']!r}); it is a one-off.")
        expect(any(word in task["task"].lower() for word in ("present", "gift", "birthday")),
               f"the reminder says {task['task']!r}; say what it is for (a present for the birthday).")
        _saved(queue, QUEUE_FILE, "remind_before(7)", [birthday, other], "lose the reminder")
        attempt(remind_before, 7)
        expect(len(queue) == 3, f"run twice, remind_before(7) leaves {len(queue)} tasks; the reminder is already "
                                "queued the second time.",
               fix="skip a birthday whose reminder (same text, same due time) is already in the queue.")
    friend = _task(FRIEND, due="2026-06-02T09:00")
    with _planted(queue, QUEUE_FILE, [birthday, friend, other]):  # two people: two reminders
        attempt(remind_before, 7)
        added = [task for task in queue if task not in (birthday, friend, other)]
        dues = sorted(str(task.get("due")) for task in added if isinstance(task, dict))
        if len(added) < 2:
            with _planted(queue, QUEUE_FILE, [friend]):
                attempt(remind_before, 7)
                alone = len(queue) - 1
            expect(alone, f"with {FRIEND!r} queued, remind_before(7) added nothing: Bea's birthday needs a "
                          f"present too. Look for every task that wishes someone a happy birthday, not only the user.",
                   fix="test the words every wish has (\"happy birthday\" in the task's text), not the whole text.")
        expect(len(added) == 2 and dues == ["2026-03-13T09:00", "2026-05-26T09:00"],
               f"with two birthdays queued (the user's due 2026-03-20, Bea's due 2026-06-02), remind_before(7) "
               f"added {_texts(added)}, due {dues}: each birthday needs its own reminder, a week before it. If "
               f"yours skips a reminder whose text alone is already queued, Bea's is skipped as a repeat of the user's.",
               fix="a reminder is already queued only when both its text and its due time match, or put whose "
                   "birthday it is into the text.")
        attempt(remind_before, 7)
        expect(len(queue) == 5, f"with two birthdays queued, run twice, remind_before(7) leaves {len(queue)} "
                                "tasks; both reminders are already queued the second time.")
    with _planted(queue, QUEUE_FILE, [other]):
        attempt(remind_before, 7)
        expect(_texts(queue) == ["call mum"], f"with no birthday queued, remind_before(7) left {_texts(queue)}.")
