"""Lesson 5 exercises: counting tokens into the state, a budget that stops a run, counting trace events."""
from .. import trace
from ..checks import attempt, exercise, expect
from ..trace import Event


def _response(prompt, completion):
    return {"choices": [{"message": {"role": "assistant", "content": "ok"}}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}}


@exercise("5.1 Add a response's usage to the state")
def check_add_usage(add_usage):
    state = {"turns": 0, "prompt_tokens": 0, "completion_tokens": 0}
    attempt(add_usage, state, _response(30, 5))
    attempt(add_usage, state, _response(50, 7))
    expected = {"turns": 2, "prompt_tokens": 80, "completion_tokens": 12}
    expect(state == expected, f"after two responses the state is {state}, expected {expected}.",
           fix="change the dict you were given, in place (state[...] += ...), one turn per response; "
               "a new dict or a return value never reaches the caller's state.")


QUESTION = "What is (3 + 4) * 5?"  # three model calls with the lesson's tools: add, multiply, answer


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
    start, state = len(trace.events), {"turns": 0, "tool_calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
    got = attempt(run_agent_within, QUESTION, [], state, 10**6)
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
        state = {"turns": 0, "tool_calls": 0, "prompt_tokens": spent, "completion_tokens": 0}
        start = len(trace.events)
        got = attempt(run_agent_within, QUESTION, [], state, budget)
        made, expected = len(_usages(start)), _allowed(costs, budget, spent)
        expect(made == expected, f"with a budget of {budget} tokens, {spent} of them spent before the run, "
                                 f"your run made {made} model calls, expected {expected}: no model call once "
                                 "the tokens spent reach the budget.",
               fix="at the top of the loop, before agentloop.complete: if state['prompt_tokens'] + "
                   "state['completion_tokens'] >= budget, return the message (prompt and completion tokens "
                   "both count, and reaching the budget is enough).")
        if expected < len(costs):
            expect(isinstance(got, str) and "budget" in got and str(budget) in got,
                   f"stopped by a budget of {budget}, run_agent_within returned {got!r}: tell the user why it stopped.",
                   fix=f"return a message that names the budget, e.g. 'Stopped: the budget of {budget} tokens is spent.'")


@exercise("5.3 Count the trace's events by kind")
def check_count_kinds(count_kinds):
    events = [Event("request", {}), Event("response", {}), Event("tool_call", {}), Event("tool_result", "5"),
              Event("request", {}), Event("response", {}), Event("final", "The answer is 5.")]
    got = attempt(count_kinds, events)
    expected = {"request": 2, "response": 2, "tool_call": 1, "tool_result": 1, "final": 1}
    expect(dict(got or {}) == expected, f"count_kinds returned {got!r}, expected {expected}.",
           fix="one count per event.kind: Counter(event.kind for event in events), or a dict you add 1 to.")
