"""Lesson 4 exercises: trimming history without orphaning a tool result, then trimming the chat to a token budget."""
import contextlib
import copy
import io
import json

from .. import trace, wire
from ..tokens import count_tokens
from ..checks import attempt, exercise, expect


def _call(call_id, name, arguments):
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def _conversation():
    """user, assistant(tool call), tool, assistant, user, assistant: two questions."""
    return [
        {"role": "user", "content": "What is 2 + 3?"},
        {"role": "assistant", "content": None, "tool_calls": [_call("call_1", "add", '{"a": 2, "b": 3}')]},
        {"role": "tool", "tool_call_id": "call_1", "content": "5"},
        {"role": "assistant", "content": "The answer is 5."},
        {"role": "user", "content": "Thanks!"},
        {"role": "assistant", "content": "You're welcome."},
    ]


def _two_calls_in_one_turn():
    """One assistant message that calls two tools, so a cut can fall between its two results."""
    return [
        {"role": "user", "content": "What are 2 + 3 and 4 * 5?"},
        {"role": "assistant", "content": None, "tool_calls": [_call("call_a", "add", '{"a": 2, "b": 3}'),
                                                              _call("call_m", "multiply", '{"a": 4, "b": 5}')]},
        {"role": "tool", "tool_call_id": "call_a", "content": "5"},
        {"role": "tool", "tool_call_id": "call_m", "content": "20"},
        {"role": "assistant", "content": "5 and 20."},
    ]


PAGE = " ".join(["Green tea: brew it at 80 degrees for two minutes, never with boiling water."] * 100)


def _one_long_result():
    """Short turns around one long tool result (a page the agent read, about 1,700 tokens): a trim that
    keeps a number of messages, whatever their size, either carries the page over the budget or drops
    short turns that fit."""
    return [
        {"role": "user", "content": "Hi, I'm Ada."},
        {"role": "assistant", "content": "Hello, Ada!"},
        {"role": "user", "content": "Read me the tea page."},
        {"role": "assistant", "content": None, "tool_calls": [_call("call_p", "read_page", '{"url": "tea.example"}')]},
        {"role": "tool", "tool_call_id": "call_p", "content": PAGE},
        {"role": "assistant", "content": "It says: brew green tea at 80 degrees for two minutes."},
        {"role": "user", "content": "Thanks!"},
        {"role": "assistant", "content": "You're welcome."},
        {"role": "user", "content": "What is 2 + 3?"},
        {"role": "assistant", "content": "5."},
        {"role": "user", "content": "And 4 + 4?"},
        {"role": "assistant", "content": "8."},
    ]


SIZES = (" In this history one tool result (a page the agent read) is about {big} tokens and the other "
         "messages a dozen or so each: a number of messages says nothing about how many tokens they hold.")


def _roles(messages) -> object:
    """The roles of a list of messages, to show in a hint; anything else as it is."""
    if isinstance(messages, list) and all(isinstance(m, dict) for m in messages):
        return [m.get("role") for m in messages]
    return messages


def orphans(messages) -> list:
    """The tool results in `messages` whose call (an earlier assistant message's tool_calls) is not there."""
    called, found = set(), []
    for message in messages:
        if not isinstance(message, dict):
            continue
        called |= {call.get("id") for call in message.get("tool_calls") or []}
        if message.get("role") == "tool" and message.get("tool_call_id") not in called:
            found.append(message.get("tool_call_id"))
    return found


def _from_first_user(messages: list) -> list:
    """The strictest right answer: the tail from its first user message on."""
    starts = [i for i, message in enumerate(messages) if message["role"] == "user"]
    return messages[starts[0]:] if starts else []


ORPHAN = ("a tool result whose assistant message (the one with its tool_calls) was cut off. Real APIs refuse "
          "such a request: OpenAI answers 400, 'messages with role tool must be a response to a preceding "
          "message with tool_calls'.")


@exercise("4.1 Trim the history without orphaning a tool result")
def check_trim_history(trim_history):
    for history in (_conversation(), _two_calls_in_one_turn()):
        for keep in range(len(history) + 2):
            before = [dict(m) for m in history]
            got = attempt(trim_history, history, keep)
            expect(history == before, f"after trim_history(history, {keep}) the history you were given has "
                                      f"changed ({len(history)} messages): return a new list, leave it as it is.",
                   fix="build and return a new list (a slice); don't pop, del or assign into the history.")
            window = history[max(len(history) - keep, 0):] if keep > 0 else []
            expect(isinstance(got, list), f"trim_history(history, {keep}) returned {got!r}: return a list of messages.")
            expect(len(got) <= max(keep, 0), f"trim_history(history, {keep}) returned {len(got)} messages, more than "
                                             f"{keep}.", fix="history[-0:] is the whole list: keep <= 0 gives [].")
            expect(got == history[len(history) - len(got):],
                   f"trim_history(history, {keep}) returned the roles {_roles(got)}, which are not the last messages "
                   f"of the history in their order.", fix="slice the tail: history[-keep:].")
            expect(not orphans(got), f"trim_history(history, {keep}) starts with {ORPHAN}",
                   fix="after slicing, drop messages from the front while the first one is a 'tool' message (or "
                       "until it is a 'user' message).")
            expect(len(got) >= len(_from_first_user(window)),
                   f"trim_history(history, {keep}) kept {len(got)} messages, but the last {keep} "
                   f"({_roles(window)}) can keep {len(_from_first_user(window))} safely: drop only what must go.",
                   fix="drop only leading 'tool' messages (or stop at the first 'user' message).")


QUESTIONS = [f"What is {n} + 1?" if n % 2 else f"What is ({n} + 1) * 2?" for n in range(1, 15)]
NAME = ["My name is Ada.", "What is my name?"]


def history_tokens(messages) -> int:
    """The check's own count of a history: the same rule the lesson's `history_tokens` states (the JSON
    of the messages, counted by agentloop.count_tokens), applied to what the model really received."""
    return count_tokens(json.dumps(messages))


def _own_messages(sent: list, history: list) -> list:
    """The student's own messages behind `sent`, the history part of a request: on the wire the client adds
    fields (a tool message gains the tool's `name`, an assistant call's content None becomes ""), which
    history_tokens never counts. run_agent keeps what it sent at the front of the caller's list, so that
    prefix is the student's form when the client's preparing of it gives `sent`; else `sent` as it is."""
    own = history[:len(sent)]
    if any(wire.prepare({"messages": own}, empty)["messages"] == sent for empty in (None, "")):
        return own
    return sent


def _safe_tails(history: list) -> list:
    """Every tail of the history that starts at a user message, longest first: the right answers' candidates."""
    return [history[i:] for i, message in enumerate(history) if message["role"] == "user"]


def _check_function(trim_to_tokens) -> None:
    """trim_to_tokens on fixed histories: a safe tail, within the budget, and the longest such tail."""
    cases = [(history, budget, "") for history in (_conversation() + _two_calls_in_one_turn(), _two_calls_in_one_turn())
             for budget in (0, 20, 60, 110, 160, 10_000)]
    sizes = SIZES.format(big=f"{history_tokens([_one_long_result()[4]]):,}")
    cases += [(_one_long_result(), budget, sizes) for budget in (120, 1_000, 2_500)]
    for history, budget, why in cases:
        before = [dict(m) for m in history]
        got = attempt(trim_to_tokens, history, budget)
        expect(history == before, f"trim_to_tokens(history, {budget}) changed the history you were given: "
                                  "return a new list.", fix="build the result with trim_history, which slices.")
        expect(isinstance(got, list), f"trim_to_tokens(history, {budget}) returned {got!r}: return a list of "
                                      "messages.")
        expect(got == history[len(history) - len(got):],
               f"trim_to_tokens(history, {budget}) returned the roles {_roles(got)}, which are not the last "
               "messages of the history in their order.", fix="try trim_history(history, keep) for each keep.")
        expect(not orphans(got), f"trim_to_tokens(history, {budget}) starts with {ORPHAN}",
               fix="build it from trim_history, which already drops them.")
        expect(not got or history_tokens(got) <= budget,  # [] always fits: json.dumps([]) is 2 tokens

               f"trim_to_tokens(history, {budget}) kept {len(got)} messages that count "
               f"{history_tokens(got)} tokens, over the budget of {budget}.{why}",
               fix="measure each candidate with history_tokens(...) and keep it only if it is <= max_tokens.")
        # the longest safe tail that fits with room to spare (2 tokens a message), so a stricter count, such
        # as one message at a time, still passes; a trim that keeps less than that dropped what fits
        best = next((tail for tail in _safe_tails(history) if history_tokens(tail) + 2 * len(tail) <= budget), [])
        expect(len(got) >= len(best),
               f"trim_to_tokens(history, {budget}) kept {len(got)} messages ({history_tokens(got)} tokens), but "
               f"the last {len(best)} fit in {budget} tokens ({history_tokens(best)}): keep as much as fits.{why}",
               fix="start from the whole history (keep = len(history)) and shorten until it fits.")


def _quietly(function, question, history):
    """The student's chat on one question, its prints swallowed (the check prints one line)."""
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            return function(question, history)
        except TypeError as error:
            expect("iterable" not in str(error),  # `history[:] = ...`: Python 3.14 words it otherwise
                   "run_agent_trimmed stopped at the marked line (history[:] = ... needs a list): put the trimmed "
                   "history there.",
                   fix="history[:] = trim_to_tokens(history, MAX_HISTORY_TOKENS)")
            expect(False, f"run_agent_trimmed({question!r}, history) raised TypeError: {error}")
        except Exception as error:
            expect("preceding message with 'tool_calls'" not in str(error),
                   f"the model refused the request for {question!r}: it carried {ORPHAN}",
                   fix="trim with trim_to_tokens, which builds on trim_history.")
            expect(False, f"run_agent_trimmed({question!r}, history) raised {type(error).__name__}: {error}")


@exercise("4.2 Trim the chat to a token budget", max_calls=120)
def check_token_trim(trim_to_tokens, run_agent_trimmed):
    _check_function(trim_to_tokens)
    budget = getattr(run_agent_trimmed, "__globals__", {}).get("MAX_HISTORY_TOKENS")
    history, first_requests = [], []
    for question in QUESTIONS + NAME:
        # what the student's own trim_to_tokens (checked above) keeps of this history: the wiring keeps no less
        fits = trim_to_tokens(copy.deepcopy(history), budget) if isinstance(budget, (int, float)) else []
        start = len(trace.events)
        answer = _quietly(run_agent_trimmed, question, history)
        requests = [e.payload for e in trace.events[start:] if e.kind == "request"]
        responses = [e.payload for e in trace.events[start:] if e.kind == "response"]
        expect(requests and responses, f"run_agent_trimmed({question!r}, history) asked the model nothing: it calls "
                                       "run_agent after trimming.", fix="return run_agent(question, history, ...).")
        expect(any(isinstance(m, dict) and m.get("role") == "user" and m.get("content") == question for m in history),
               f"after run_agent_trimmed({question!r}, history) the caller's history does not hold that question: "
               "`history = ...` inside the function makes a new list with the same name, and the caller's list "
               "never changes. Change the list itself.", fix="history[:] = trim_to_tokens(history, MAX_HISTORY_TOKENS)")
        for number, request in enumerate(requests, 1):
            lost = orphans(request.get("messages", []))
            expect(not lost, f"request {number} for {question!r} carried {ORPHAN}",
                   fix="trim with trim_to_tokens, which builds on trim_history.")
        # between the system prompt and the new question, counted as the student's history holds it
        carried = _own_messages(requests[0].get("messages", [])[1:-1], history)
        expect(not isinstance(budget, (int, float)) or history_tokens(carried) <= budget,
               f"the first request for {question!r} carried {history_tokens(carried)} tokens of history, over "
               f"MAX_HISTORY_TOKENS = {budget}.", fix="history[:] = trim_to_tokens(history, MAX_HISTORY_TOKENS)")
        expect(len(carried) >= len(fits),
               f"the first request for {question!r} carried {len(carried)} messages of history, but the last "
               f"{len(fits)} fit in MAX_HISTORY_TOKENS = {budget}: trim to the budget, not to a count of messages "
               "or a smaller budget.", fix="history[:] = trim_to_tokens(history, MAX_HISTORY_TOKENS)")
        first_requests.append((responses[0].get("usage") or {}).get("prompt_tokens", 0))
    grew_early, grew_late = first_requests[4] - first_requests[0], first_requests[13] - first_requests[9]
    expect(grew_late <= max(grew_early // 2, 5),
           f"over {len(QUESTIONS)} questions the first request of each still grows: {first_requests[9]} prompt tokens at "
           f"question 10, {first_requests[13]} at question 14. Trimmed, it levels off.",
           fix="history[:] = trim_to_tokens(history, MAX_HISTORY_TOKENS), with a budget of a few questions "
               "(300 tokens, say).")
    expect(isinstance(answer, str) and "Ada" in answer,
           f"right after 'My name is Ada.' the trimmed chat answered 'What is my name?' with {answer!r}: the "
           "last question and answer must survive the trim.", fix="a budget of at least 100 tokens keeps the last exchange.")
