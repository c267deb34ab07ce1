"""Lesson 9 exercises: each is a part of the student's own agent the check puts into it: its ranking
(9.1, `ranked`), its `forget` tool (9.2), its `remember` tool (9.3).

The check finds the agent through the function's globals (the notebook's `memory`, `current`,
`TOOLS`, `guarded_agent`...), seeds memory for the test, drives the function and the agent's loop,
and puts memory, its file, the tools and the conversation state back as they were, whatever happens;
a function that passes stays in the agent.
"""
import contextlib
import copy
import io
import json
import math
import re
from datetime import datetime, timedelta

from .. import trace
from ..checks import Hint, attempt, exercise, expect, files_kept
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
    passed = False
    with files_kept(agent["MEMORY_FILE"]):
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


# 9.1's memory: one sister, 40 newer notes that all say "name", and what the ranking must leave out.
CLIENTS = 40


def _busy_week(agent, memory, user, mine):
    """The memories of a busy user: 'What is my sister's name?' shares 'sister' with one and 'name' with 41."""
    now = agent.get("NOW")
    yesterday = (now - timedelta(days=1)).date().isoformat() if isinstance(now, datetime) else "2000-01-01"
    memory.update({
        "name": _entry("Ada", user, "2026-01-01T09:00", "high"),
        "sister": _entry("Lena", user, "2026-01-02T09:00"),
        "prefers": _entry("green tea", user, "2026-01-03T09:00"),
        "old_job": _entry("a cashier", user, "2026-01-04T09:00", "low"),
        **{f"client_{n}": _entry(f"the name of a client from day {n}", user,
                                 f"2026-01-05T{9 + n // 6:02d}:{n % 6 * 10:02d}") for n in range(CLIENTS)},
        "sister_gift": _entry("a scarf for the sister", mine, "2026-01-05T09:00"),  # the agent's own note
        "sister_visit": {**_entry("the sister visits", user, "2026-01-04T09:00"), "until": yesterday},  # over
    })
    save_json(agent["MEMORY_FILE"], memory)


def _by_rarity(agent, memory, scopes, text) -> list:
    """The oracle: a plain scan of the live memories in `scopes`, each shared word weighing log(1 + N/df)."""
    today = agent["NOW"].date().isoformat()
    live = [key for key, entry in memory.items() if entry["scope"] in scopes
            and (entry["until"] is None or entry["until"] >= today)]
    asked = agent["words"](text)
    having = {word: sum(word in agent["about"](key) for key in live) for word in asked}
    score = {key: sum(math.log(1 + len(live) / having[word]) for word in agent["about"](key) & asked)
             for key in live}
    return sorted(live, key=lambda key: (score[key], memory[key]["importance"] != "low", memory[key]["created"]),
                  reverse=True)


def _why_not(got, expected, memory, call, shares) -> str:
    """Why the student's ranking differs from the oracle's, in the words of the first difference."""
    first = next(i for i, (a, b) in enumerate(zip(got, expected)) if a != b)
    above, below = got[first], expected[first]
    if not shares(above) and shares(below):
        return (f"{call} ranked {above!r}, which shares no word with the text, above {below!r}, which shares "
                f"{', '.join(sorted(shares(below)))!r}: a word many memories have must weigh little, but never "
                "less than nothing: a negative weight puts a memory that shares it below one that shares none "
                "(BM25's idf adds 1 inside its log for this reason).")
    if shares(above) == shares(below) or not (shares(above) or shares(below)):
        return (f"{call} ranked {above!r} above {below!r}; they share the same words with the text, so ranked's "
                "order decides between them: medium or high before low, then the newest.")
    return (f"{call} ranked {above!r} (sharing {', '.join(sorted(shares(above)))!r}) above {below!r} (sharing "
            f"{', '.join(sorted(shares(below)))!r}): add up the weights of all the words a memory shares.")


@exercise("9.1 Rare words weigh more")
def check_rare_first(rare_first):
    agent = _agent(rare_first)
    for name in ("ranked", "about", "words", "NOW", "BUDGET"):
        expect(name in rare_first.__globals__, f"the lesson's agent has no {name}: run the lesson's cells from "
                                                "the top first, then this one.")
    question = "What is my sister's name?"
    lesson_ranked, budget = agent["ranked"], agent["BUDGET"]
    with _borrowed(agent) as (memory, current):
        user, mine = agent.get("USER", "user:42"), agent.get("AGENT", "agent:assistant")
        _busy_week(agent, memory, user, mine)
        current.update(scopes=(user,), recent="")
        call = f"rare_first(({user!r},), {question!r})"
        try:
            got = attempt(rare_first, (user,), question)
        except Hint as hint:
            raise Hint(hint.hint + (": `having` was 0 for a word a memory shares with the text. Count the memories "
                                    "whose words, about(key) (key and value), hold it, as the score does."
                                    if "ZeroDivisionError" in hint.hint else ""), hint.fix) from None
        expect(isinstance(got, list) and all(isinstance(key, str) for key in got),
               f"{call} returned {str(got)[:80]!r}: rank as ranked does, a list of the memories' keys, best first.")
        expected = _by_rarity(agent, memory, (user,), question)
        other = [key for key in got if key not in expected] or [""]
        expect(not other[0], f"{call} returned {other[0]!r}" + {
            "sister_gift": ": it is the agent's note, in another scope.",
            "sister_visit": ": it expired yesterday."}.get(other[0], ": that is not a live memory of the user.")
            + " Keep ranked's first lines, which choose the live memories in `scopes`.")
        expect(sorted(got) == sorted(expected), f"{call} returned {len(got)} keys for the {len(expected)} live "
                                                "memories in scope: rank every one of them, the budget chooses later.")
        tie_breaks = sorted(got, key=lambda key: (memory[key]["importance"] != "low", memory[key]["created"]),
                            reverse=True)
        why = ("Yours counted them the same, as ranked does." if got == lesson_ranked((user,), question) else
               "Every memory scored the same, so only the tie-breaks ordered them: does score add up the weights "
               "of the words the memory shares with the text?" if got == tie_breaks else "")
        expect(got[0] == "sister",
               f"{call} put {got[0]!r} first and 'sister' at place {got.index('sister') + 1}: 'sister' is a word 1 "
               f"of the {len(expected)} memories has, 'name' one that {CLIENTS + 1} have. The fewer memories have a "
               f"word, the more it must weigh. {why}".rstrip(),
               fix="having = sum(word in about(other) for other in mine); return math.log(1 + len(mine) / having); "
                   "score: sum(weight(word) for word in about(key) & words(text)).")
        shares = lambda key: agent["about"](key) & agent["words"](question)
        expect(got == expected, _why_not(got, expected, memory, call, shares) if got != expected else "")
        # A sum, not the best word alone: 'dog' shares two words with the question, the newer memories one each.
        memory.clear()
        memory.update({"dog": _entry("Rex, a brown terrier", user, "2026-01-02T09:00"),
                       "prefers": _entry("green tea", user, "2026-01-03T09:00"),
                       "dog_walker": _entry("Sam, in the mornings", user, "2026-01-04T09:00"),
                       "vet": _entry("Dr Lang, who treats Rex", user, "2026-01-05T09:00")})
        got = attempt(rare_first, (user,), "Is Rex my dog?")
        expect(isinstance(got, list) and got[:1] == ["dog"],
               f"rare_first(({user!r},), 'Is Rex my dog?') put {str(got[:1])[1:-1] or 'nothing'} first, not 'dog': "
               "'dog: Rex, a brown terrier' shares 'dog' and 'rex' with it, the others one of them each. A "
               "memory's score adds up the weights of all the words it shares.")
        got = attempt(rare_first, (user,), "Any news about zebras?")  # shares nothing: the tie-breaks alone
        expect(got == lesson_ranked((user,), "Any news about zebras?"),
               f"rare_first(({user!r},), 'Any news about zebras?') returned {got!r}: no memory shares a word with "
               "it, so the order is ranked's tie-breaks alone.")
        # In the agent: its prompt and its recall tool rank with your function, in a new chat.
        _busy_week(agent, memory, user, mine)
        try:
            agent["ranked"], agent["BUDGET"] = rare_first, 200
            start = len(trace.events)
            answer = agent["guarded_agent"](question, [])
            prompt = _first_system_prompt(start)
            found = agent["run_tool"]({"id": "call_rare", "type": "function", "function": {
                "name": "recall", "arguments": json.dumps({"query": "sister name"})}})
        finally:
            agent["ranked"], agent["BUDGET"] = lesson_ranked, budget
        expect("- sister: Lena" in prompt, f"in a new chat, {question!r}: with your ranking in the agent, the "
                                           "system prompt's 200 tokens of memory did not hold 'sister: Lena'.")
        expect(str(found).startswith("- sister: Lena"), f"the agent's recall tool, asked 'sister name' with your "
                                                        f"ranking, returned {str(found)[:120]!r}.")
        expect("Lena" in str(answer), f"in a new chat, asked {question!r}, your agent answered {answer!r}, with "
                                      "'sister: Lena' in its prompt.")
    agent["ranked"] = rare_first  # it passed: the agent's prompt and recall rank with it from now on


def _first_system_prompt(start: int) -> str:
    """The system message of the first request sent since trace event `start`."""
    requests = [event.payload for event in trace.events[start:] if event.kind == "request"]
    messages = requests[0].get("messages", []) if requests else []
    return next((m.get("content") or "" for m in messages if m.get("role") == "system"), "")


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
               fix="delete through guarded_forget(key), as the skeleton's last line does, not by hand.")
        asked["text"] = "Forget my birthday"  # what chat does with the user's words
        answer = agent["guarded_agent"]("Forget my birthday", [])
        expect("birthday" not in memory, f"asked 'Forget my birthday', the agent answered {answer!r} and the "
                                         "birthday, in the user's own scope, is still stored.",
               fix="delete it when the key exists and its scope is in current['scopes'].")
        stored = load_json(agent["MEMORY_FILE"], default={})
        expect("birthday" not in stored, "the birthday is gone from memory but not from the file: save it after "
                                         "deleting, or the next run remembers it again.")
        current.update(scopes=(mine, user))
        def forgets_in_both_scopes(key, words, whose, fix):
            asked["text"] = words
            attempt(forget_mine, key)
            expect(key not in memory, "in a conversation that reads the agent's scope and the user's (a scheduled "
                                      f"task's scopes), forget_mine({key!r}) kept {whose}.", fix=fix)

        forgets_in_both_scopes("notes on tea", "Forget your notes on tea", "the agent's own notes",
                               "check the scope against all of current['scopes'], not one scope written into the code.")
        _seed(agent, memory, ("lives_in", "Munich", "user", "2026-01-06"))
        forgets_in_both_scopes("lives_in", "Forget where I live",
                               "the user's own memory, asked to forget it: its scope, the user's, is the second of "
                               "current['scopes']",
                               "look through all of current['scopes'] (memory[key]['scope'] in current['scopes']), "
                               "not only the first.")


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
    return any(_is_an_offer(sentence) for sentence in _sentences(text))


def _is_an_offer(sentence) -> bool:
    return bool(REMIND.search(sentence) and AHEAD.search(sentence)
                and (sentence.rstrip().endswith("?") or ASKING.search(sentence)))


def _sentences(text) -> list:
    """The sentences of a text: cut after ? or !, at a line break, and after a full stop that a capital
    follows (so "i.e. a week" or "Jan 20th 1990. should I" stay whole)."""
    return [part.strip() for part in re.split(r"(?<=[!?])\s+|\n+|(?<=\.)\s+(?=[A-Z])", text) if part.strip()]


def _ends_with_an_offer(text) -> bool:
    """The offer is the last sentence: what the user reads last, after the result (the statement's "ends")."""
    return isinstance(text, str) and bool(_sentences(text)) and _is_an_offer(_sentences(text)[-1])


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
        expect(_ends_with_an_offer(got), f"after storing a birthday, remember_and_ask returned {got!r}: the question "
                                         "is there, but not at its end. The user reads the reply in order and answers "
                                         "its last question; a question buried before the result is easy to miss "
                                         "(and the teaching model passes a question on only when it ends the "
                                         "result). Put the question last, after the result.",
               fix='result = result + " Ask the user: should I remind you a week before?"')
        for key in ("date_of_birth", "born_on"):  # the model names the key: lessons 7-8 find a birthday by meaning
            got = attempt(remember_and_ask, key, "March 3rd 1985")
            expect(key in memory and _ends_with_an_offer(got),
                   f"remember_and_ask({key!r}, 'March 3rd 1985') returned {got!r}: that is a birthday too, under the "
                   "key a model chose. Lessons 7 and 8 tell a birthday by meaning, not by one key.",
                   fix="ask when about_birth(key.replace('_', ' ')) is true (lesson 7's, carried in) and it was stored.")
        # Through the agent, as the model reaches it: the question must be in what the model reads back, and then
        # in the reply the user sees.
        start = len(trace.events)
        answer = agent["guarded_agent"]("My birthday is Jan 20th 1990", [])
        results = _results_of("remember", start)
        expect(results, f"told 'My birthday is Jan 20th 1990', your agent answered {answer!r} without calling "
                        "remember: run the lesson's cells from the top, then this one.")
        expect(any(_ends_with_an_offer(result) for result in results),
               f"told 'My birthday is Jan 20th 1990', the model called remember, your remember_and_ask, and read "
               f"back {results[-1]!r}: the question about a reminder is not in it, so the model has nothing to ask.")
        # What counts is what the user sees: the agent's reply must ask. A model passes on a question that ends a
        # tool result and is plainly for the user (lesson 7's "Ask the user: ..." is one clear way); a request
        # phrased for the model ("Ask them whether ...") or a question buried mid-result may stay unseen.
        expect(_offers_a_reminder(answer),
               f"told 'My birthday is Jan 20th 1990', the model read back {results[-1]!r}, but the reply the user "
               f"saw was {answer!r}: it does not ask about a reminder. Does the tool's result end with the "
               "question, plainly for the user (lesson 7's gate ends its refusals with one)?",
               fix='end the result with the question for the user; "Ask the user: ..." is one clear way: '
                   'result += " Ask the user: should I remind you a week before?"')
        got = attempt(remember_and_ask, "birthday", "Jan 20th")
        expect(not REMIND.search(got), f"for a birthday without a year the gate refused ({got!r}): nothing was "
                                       "stored, so there is nothing to remind of yet; ask only when it was stored.",
               fix="look at what guarded_remember returned: 'Remembered ...' means stored.")
        got = attempt(remember_and_ask, "lives_in", "Munich")
        expect(not REMIND.search(got), f"for 'lives_in: Munich' you returned {got!r}: only a birthday "
                                       "deserves the question.")
        answer = agent["guarded_agent"]("I live in Munich", [])
        expect(not REMIND.search(answer or ""), f"told 'I live in Munich', the agent answered {answer!r}.")
