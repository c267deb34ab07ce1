"""Lesson 5 exercises: the progress line shown call by call, and a budget that stops a run."""
import contextlib
import io
import re

from .. import trace
from ..checks import attempt, exercise, expect

QUESTION = "What is (3 + 4) * 5?"  # three model calls with the lesson's tools: add, multiply, answer


def _new_state() -> dict:
    return {"turns": 0, "tool_calls": 0, "prompt_tokens": 0, "completion_tokens": 0}


def _run(function, *args):
    """(what the student's loop returned, what it printed, the model calls' (tools, tokens) it made)."""
    start, printed = len(trace.events), io.StringIO()
    with contextlib.redirect_stdout(printed):  # the check prints one line; the loop's lines are read, not shown
        got = attempt(function, *args)
    calls = [e.payload for e in trace.events[start:] if e.kind == "response"]
    made = []
    for response in calls:
        usage = response.get("usage") or {}
        message = ((response.get("choices") or [{}])[0]).get("message") or {}
        made.append((len(message.get("tool_calls") or []),
                     usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0)))
    return got, printed.getvalue(), made


def _figure(line: str, words: str):
    """The number written before `words` ("3 model calls"), or None."""
    found = re.search(rf"(\d+)\s+(?:{words})", line)
    return int(found[1]) if found else None


@exercise("5.1 Show the progress line call by call")
def check_live_progress(run_agent_live):
    state = _new_state()
    got, printed, made = _run(run_agent_live, QUESTION, [], state)
    expect(made, f"run_agent_live({QUESTION!r}, ...) made no model call: it is the lesson's loop, with one more line.")
    expect(got == "The answer is 35.", f"run_agent_live({QUESTION!r}, ...) returned {got!r}, not 'The answer is 35.': "
                                       "the loop should answer as run_agent does.")
    lines = [line for line in printed.splitlines() if _figure(line, "model call") is not None]
    expect(lines, f"the run made {len(made)} model calls and printed no progress line (a line that says 'N model calls'): "
                  "print progress(state) inside the loop.", fix="print(progress(state)) right after the three state lines.")
    expect(len(lines) == len(made),
           f"the run made {len(made)} model calls and printed {len(lines)} progress lines: one after each model call, "
           "the last one (the answer, which leaves the loop) included.",
           fix="print(progress(state)) right after the three state[...] += lines, before the `if ... break`.")
    tools = tokens = 0
    for number, (line, (called, spent)) in enumerate(zip(lines, made), 1):
        tokens += spent
        shown = (_figure(line, "model call"), _figure(line, "tools?|tool calls?"), _figure(line, "tokens?"))
        expect(shown[1] is not None, f"after model call {number} you printed {line.strip()!r}: it says nothing of the "
                                     "tool calls, which progress(state) counts too.", fix="print(progress(state))")
        expect(shown[0] == number and shown[2] == tokens and shown[1] in (tools, tools + called),
               f"after model call {number} you printed {line.strip()!r}; the trace shows {number} model calls, "
               f"{tools} tool calls before it ({tools + called} with its own) and {tokens} tokens so far.",
               fix="print once the state has counted the call (after the three state[...] += lines).")
        tools += called


def _usages(start: int) -> list:
    """(prompt, completion) tokens of each model call the trace recorded since `start`."""
    usages = [event.payload.get("usage") or {} for event in trace.events[start:] if event.kind == "response"]
    return [(usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0)) for usage in usages]


def _allowed(costs: list, budget: int, spent: int) -> int:
    """The oracle: model calls a run may make, each one only while the tokens spent are under the budget."""
    made = 0
    for cost in costs:
        if spent >= budget:
            break
        spent, made = spent + cost, made + 1
    return made


@exercise("5.2 Stop mid-run at a token budget")
def check_run_agent_within(run_agent_within):
    start, state = len(trace.events), _new_state()
    got, _, _ = _run(run_agent_within, QUESTION, [], state, 10**6)
    usages = _usages(start)
    costs = [prompt + completion for prompt, completion in usages]
    expect(got == "The answer is 35.", f"with a budget of 1000000 tokens run_agent_within({QUESTION!r}, ...) returned "
                                       f"{got!r}: with room to spare it answers as run_agent does.")
    expect(costs, "run_agent_within made no model call: it is run_agent's loop, with one more rule.")
    counted = {"turns": len(costs), "tokens": sum(costs)}
    expect({"turns": state["turns"], "tokens": state["prompt_tokens"] + state["completion_tokens"]} == counted,
           f"after that run the state is {state}, but the trace shows {len(costs)} model calls and "
           f"{sum(costs)} tokens.", fix="count into the state you were given, as run_agent does (its three "
                                    "state[...] += lines after each agentloop.complete).")
    prompt = usages[0][0]  # the first call's prompt tokens alone
    for budget, spent in ((1, 0), (costs[0], 0), (prompt + 1, 0), (costs[0] + 1, 0), (2000, 2299)):
        state = dict(_new_state(), prompt_tokens=spent)
        start = len(trace.events)
        got, _, _ = _run(run_agent_within, QUESTION, [], state, budget)
        made, expected = len(_usages(start)), _allowed(costs, budget, spent)
        expect(made == expected, f"with a budget of {budget} tokens, {spent} of them spent before the run, "
                                 f"your run made {made} model calls, expected {expected}: no model call once "
                                 "the tokens spent reach the budget.",
               fix="at the marked line, before agentloop.complete: if state['prompt_tokens'] + "
                   "state['completion_tokens'] >= budget, return the message (prompt and completion tokens "
                   "both count, and reaching the budget is enough).")
        if expected < len(costs):
            expect(_says_budget_stop(got),
                   f"stopped by a budget of {budget}, run_agent_within returned {got!r}: tell the user why it stopped "
                   "(the token budget), in any words.",
                   fix=f"return a message that names the budget, e.g. 'Stopped: the budget of {budget} tokens is spent.'")


# A stop for the budget, in any words: "Stopped: the budget of 1 tokens is spent.", "Budget exhausted
# (1 tokens); pausing.", "Out of budget: 1 tokens used up.", "Token limit reached, stopping here."
_WHY = re.compile(r"budget|tokens?\b|limit", re.IGNORECASE)
_STOPPED = re.compile(r"stop|paus|halt|exhaust|used up|out of|ran out|run out|spent|reached|hit|exceed|"
                      r"over|no more|can(?:no|')t continue|end", re.IGNORECASE)


def _says_budget_stop(reply) -> bool:
    """The reply tells the user the run stopped because of the token budget (not the turn limit)."""
    if not isinstance(reply, str) or not (_WHY.search(reply) and _STOPPED.search(reply)):
        return False
    return bool(re.search(r"budget|token", reply, re.IGNORECASE)) or "turn" not in reply.lower()
