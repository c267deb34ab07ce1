"""Lesson 9 exercises: each is a tool function the check puts into the student's own agent.

The check finds the agent through the function's globals (the notebook's `memory`, `current`,
`TOOLS`, `guarded_agent`...), seeds memory for the test, drives the function and the agent's loop,
and puts memory, its file, the tools and the conversation state back as they were, whatever happens.
"""
import contextlib
import copy
import io
import json
import os
import re

from .. import trace
from ..checks import attempt, exercise, expect
from ..storage import load_json, save_json

NEEDED = ("memory", "current", "TOOLS", "guarded_agent", "MEMORY_FILE", "SCHEMAS", "tool", "run_tool")


def _agent(function) -> dict:
    """The notebook namespace the student's function lives in, or a hint to run the lesson first."""
    names = getattr(function, "__globals__", {})
    missing = [name for name in NEEDED if name not in names]
    expect(callable(function), f"{function!r} is not a function: define it with def.")
    expect(not missing, f"the lesson's agent is not defined where your function is ({', '.join(missing)} "
                        "missing): run the lesson's cells from the top first, then this one.")
    return names


@contextlib.contextmanager
def _borrowed(agent: dict, **tools):
    """Lend the agent to the check: `tools` swapped in, memory emptied; memory, its file, the conversation
    state and the tools put back after. A function that passes stays in the agent, under the tool's name:
    it is the student's change to the agent, and the lesson goes on with it."""
    memory, current, table = agent["memory"], agent["current"], agent["TOOLS"]
    asked = agent.get("user_message") if isinstance(agent.get("user_message"), dict) else {}
    saved = (copy.deepcopy(memory), dict(current), dict(table), dict(asked))
    path = agent["MEMORY_FILE"]
    on_disk = open(path, "rb").read() if os.path.exists(path) else None
    passed = False
    try:
        memory.clear()
        table.update(tools)
        with contextlib.redirect_stdout(io.StringIO()):  # the agent prints its tool calls: one line only
            yield memory, current
        passed = True
    finally:
        memory.clear()
        memory.update(saved[0])
        current.clear()
        current.update(saved[1])
        table.clear()
        table.update(saved[2])
        table.update(tools if passed else {})
        asked.clear()
        asked.update(saved[3])
        if on_disk is None:
            with contextlib.suppress(OSError):
                os.remove(path)
        else:
            with open(path, "wb") as file:
                file.write(on_disk)


def _by_position(function):
    """The function as the model's tool call reaches it (by the schema's parameter names), passed on by
    position: a student's own parameter names are fine."""
    return lambda **arguments: function(*arguments.values())


def _entry(value, scope, created, importance="medium"):
    return {"value": value, "until": None, "scope": scope, "importance": importance, "created": created}


def _seed(agent, memory, *entries):
    user, mine = agent.get("USER", "user:42"), agent.get("AGENT", "agent:assistant")
    for key, value, whose, created in entries:
        memory[key] = _entry(value, user if whose == "user" else mine, created + "T09:00")
    save_json(agent["MEMORY_FILE"], memory)  # as the agent would have saved them
    return user, mine


@exercise("9.1 Recall since a date")
def check_recall_since(recall_since):
    agent = _agent(recall_since)
    with _borrowed(agent) as (memory, current):
        user, mine = _seed(agent, memory,
                           ("old_home", "Berlin, where the user used to live", "user", "2025-12-20"),
                           ("lives_in", "Munich", "user", "2026-01-06"),
                           ("prefers", "green tea", "user", "2026-01-05"),
                           ("notes on tea", "Tea was first drunk in China", "agent", "2026-01-07"))
        current.update(scopes=(user,), recent="")
        got = attempt(recall_since, "where do I live", "2026-01-01")
        expect(isinstance(got, str), f"recall_since returned {got!r}: a tool returns text for the model.",
               fix="return the lines, as recall does (\"Nothing found.\" when there are none).")
        expect("Munich" in got, f"with a memory 'lives_in: Munich' created on 2026-01-06, recall_since('where do "
                                f"I live', '2026-01-01') returned {got!r}: a newer memory must be found.",
               fix="keep a memory when memory[k]['created'] >= since.")
        expect("Berlin" not in got, f"recall_since('where do I live', '2026-01-01') returned {got!r}: it includes "
                                    "'old_home: Berlin...', created on 2025-12-20, before the date asked for.",
               fix="the `...` in the condition is always true: replace it with memory[k]['created'] >= since.")
        got = attempt(recall_since, "tea", "2026-01-05")
        expect("green tea" in got, f"recall_since('tea', '2026-01-05') returned {got!r}, without 'prefers: green "
                                   "tea', created on 2026-01-05: a memory created on that very day counts.",
               fix="on or after: >=, not >.")
        expect("China" not in got, f"recall_since('tea', '2026-01-05') returned {got!r}: the agent's notes are "
                                   "in another scope, which the user's conversation does not read.",
               fix="keep recall's scope filter: ranked(current['scopes'], query).")
        got = attempt(recall_since, "tea", "2026-01-06")
        expect("green tea" not in got, f"recall_since('tea', '2026-01-06') returned {got!r}: the tea memory was "
                                       "created the day before.")
        got = attempt(recall_since, "where do I live", "2025-01-01")
        expect("Berlin" in got and "Munich" in got,
               f"recall_since('where do I live', '2025-01-01') returned {got!r}: both homes are newer than that.")
        # now as the model reaches it: offered as a tool, called through the agent's own run_tool
        schemas, had = agent.get("SCHEMAS", {}), "recall_since" in agent.get("SCHEMAS", {})
        try:
            _offer(agent, recall_since)
            call = {"id": "call_since", "type": "function", "function": {
                "name": "recall_since", "arguments": json.dumps({"query": "tea", "since": "2026-01-05"})}}
            got = agent["run_tool"](call)
            expect("green tea" in str(got), f"offered as the tool recall_since and called through your agent's "
                                            f"run_tool with {{'query': 'tea', 'since': '2026-01-05'}}, it returned "
                                            f"{got!r}; called directly it found 'prefers: green tea'.")
        finally:
            if not had:
                schemas.pop("recall_since", None)
    _offer(agent, recall_since)  # it passed: the model is offered it from now on


SINCE = ("Search what you remember that was stored on or after a date (since: an ISO date such as "
         "2026-01-05), also what is not in the prompt.")


def _offer(agent, function):
    """Offer the student's function to their agent as the tool recall_since, through the agent's tool()."""
    tool = _by_position(function)
    tool.__name__ = "recall_since"
    agent["tool"](tool, SINCE, query="string", since="string")


@exercise("9.2 Forget only in scope")
def check_forget_mine(forget_mine):
    agent = _agent(forget_mine)
    with _borrowed(agent, forget=_by_position(forget_mine)) as (memory, current):
        asked = agent.get("user_message") if isinstance(agent.get("user_message"), dict) else {}
        user, mine = _seed(agent, memory, ("birthday", "Jan 20th 1990", "user", "2026-01-05"),
                           ("notes on tea", "Tea was first drunk in China", "agent", "2026-01-05"))
        current.update(scopes=(user,), recent="")
        asked["text"] = "Forget notes on tea"  # the user asks: only the scope may say no
        missing = attempt(forget_mine, "no_such_thing")
        got = attempt(forget_mine, "notes on tea")
        expect("notes on tea" in memory, f"in the user's conversation, forget_mine('notes on tea') deleted the "
                                         "agent's notes: they are in another scope.",
               fix="answer as for a missing key when memory[key]['scope'] not in current['scopes'].")
        expect(isinstance(got, str) and isinstance(missing, str)
               and got == missing.replace("no_such_thing", "notes on tea"),
               f"for the agent's notes you answered {got!r}, for a key that does not exist {missing!r}: the two "
               "must read the same, or the user learns that the notes exist (nothing leaks).",
               fix="return the very same sentence as for a missing key.")
        asked["text"] = ""  # nobody asked this turn: a page a task reads, say
        attempt(forget_mine, "birthday")
        expect("birthday" in memory, "forget_mine('birthday') deleted the user's birthday in a turn where the "
                                     "user asked for no deletion (as when a page says 'forget everything'): "
                                     "lesson 7's action gate must stay in front of the deleting.",
               fix="delete through forget_if_asked(key), as the skeleton's last line does, not by hand.")
        asked["text"] = "Forget my birthday"  # what chat does with the user's words
        answer = agent["guarded_agent"]("Forget my birthday", [])
        expect("birthday" not in memory, f"asked 'Forget my birthday', the agent answered {answer!r} and the "
                                         "birthday, in the user's own scope, is still stored.",
               fix="delete it when the key exists and its scope is in current['scopes'].")
        stored = load_json(agent["MEMORY_FILE"], default={})
        expect("birthday" not in stored, "the birthday is gone from memory but not from the file: save it after "
                                         "deleting, or the next run remembers it again.")
        current.update(scopes=(mine, user))
        asked["text"] = "Forget your notes on tea"
        attempt(forget_mine, "notes on tea")
        expect("notes on tea" not in memory, "in a conversation that reads the agent's scope too (a scheduled "
                                             "task's scopes: the agent's and the user's), forget_mine('notes on "
                                             "tea') kept the agent's own notes.",
               fix="check the scope against all of current['scopes'], not one scope written into the code.")


# A reminder a week ahead, in any words: "remind you a week before", "a reminder seven days ahead of it",
# "one week earlier", "7 days in advance". REMIND finds any mention (so a text that must not ask has none);
# an offer also says when (before/ahead/earlier/in advance/prior) and is a question.
WEEK = r"(?:\bweek\b|\b(?:7|seven)[ -]days?\b)"
REMIND = re.compile(rf"\bremind.*{WEEK}|{WEEK}.*\bremind", re.IGNORECASE | re.DOTALL)
AHEAD = re.compile(r"\b(?:before|ahead|earlier|in advance|prior)\b", re.IGNORECASE)


ASKING = re.compile(r"\b(?:ask|offer|check with|find out)\w*\b", re.IGNORECASE)


def _offers_a_reminder(text) -> bool:
    """A sentence offering a reminder a week before, in any words: a question ("Should I remind you a week
    before?") or a request to ask one ("Ask the user: ...", "Ask them whether they want a reminder 7 days ahead.")."""
    if not isinstance(text, str):
        return False
    return any(REMIND.search(sentence) and AHEAD.search(sentence)
               and (sentence.rstrip().endswith("?") or ASKING.search(sentence))
               for sentence in re.findall(r"[^.!?\n]*[.!?\n]?", text))


def _results_of(tool: str, start: int) -> list:
    """What the model was given back, in the requests sent since trace event `start`, for its calls to `tool`."""
    requests = [event.payload for event in trace.events[start:] if event.kind == "request"]
    messages = requests[-1].get("messages", []) if requests else []  # the last request carries the whole run
    called = {call.get("id") for message in messages if message.get("role") == "assistant"
              for call in message.get("tool_calls") or [] if call.get("function", {}).get("name") == tool}
    return [message.get("content") for message in messages
            if message.get("role") == "tool" and message.get("tool_call_id") in called]


@exercise("9.3 Ask to remind a week before")
def check_remember_and_ask(remember_and_ask):
    agent = _agent(remember_and_ask)
    with _borrowed(agent, remember=_by_position(remember_and_ask)) as (memory, current):
        current.update(scopes=(agent.get("USER", "user:42"),), recent="")
        got = attempt(remember_and_ask, "birthday", "March 3rd 1985")
        expect(isinstance(got, str) and "birthday" in memory,
               f"remember_and_ask('birthday', 'March 3rd 1985') returned {got!r} and stored "
               f"{sorted(memory)}: it should store the birthday (through guarded_remember) and return text.")
        expect(_offers_a_reminder(got), f"after storing a birthday, remember_and_ask returned {got!r}: where is "
                                        "the question about a reminder a week before?",
               fix='result += " Ask the user: should I remind you a week before?"')
        # Through the agent, as the model reaches it: the question must be in what the model reads back. (Passing
        # it on is the model's part: the teaching model asks what follows "Ask the user:", a real model any wording.)
        start = len(trace.events)
        answer = agent["guarded_agent"]("My birthday is Jan 20th 1990", [])
        results = _results_of("remember", start)
        expect(results, f"told 'My birthday is Jan 20th 1990', your agent answered {answer!r} without calling "
                        "remember: run the lesson's cells from the top, then this one.")
        expect(any(_offers_a_reminder(result) for result in results),
               f"told 'My birthday is Jan 20th 1990', the model called remember, your remember_and_ask, and read "
               f"back {results[-1]!r}: the question about a reminder is not in it, so the model has nothing to ask.")
        got = attempt(remember_and_ask, "birthday", "Jan 20th")
        expect(not REMIND.search(got), f"for a birthday without a year the gate refused ({got!r}): nothing was "
                                       "stored, so there is nothing to remind of yet; ask only when it was stored.",
               fix="look at what guarded_remember returned: 'Remembered ...' means stored.")
        got = attempt(remember_and_ask, "lives_in", "Munich")
        expect(not REMIND.search(got), f"for 'lives_in: Munich' you returned {got!r}: only a birthday "
                                       "deserves the question.")
        answer = agent["guarded_agent"]("I live in Munich", [])
        expect(not REMIND.search(answer or ""), f"told 'I live in Munich', the agent answered {answer!r}.")
