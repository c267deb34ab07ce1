"""Lesson 5 exercises: counting tokens into the state, a budget, counting trace events."""
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
    expect(state == expected, f"after two responses the state is {state}, expected {expected}; "
                              "change the state dict in place (state[...] += ...).")


@exercise("5.2 Stop at a token budget")
def check_over_budget(over_budget):
    for prompt, completion, budget, expected in ((10, 5, 100, False), (80, 20, 100, True), (99, 0, 100, False)):
        state = {"prompt_tokens": prompt, "completion_tokens": completion}
        got = attempt(over_budget, state, budget)
        expect(got is expected, f"over_budget({state}, {budget}) returned {got!r}, expected {expected}: "
                                "the run is over budget once prompt + completion tokens reach the budget.")


@exercise("5.3 Count the trace's events by kind")
def check_count_kinds(count_kinds):
    events = [Event("request", {}), Event("response", {}), Event("tool_call", {}), Event("tool_result", "5"),
              Event("request", {}), Event("response", {}), Event("final", "The answer is 5.")]
    got = attempt(count_kinds, events)
    expected = {"request": 2, "response": 2, "tool_call": 1, "tool_result": 1, "final": 1}
    expect(dict(got or {}) == expected, f"count_kinds returned {got!r}, expected {expected}; use event.kind.")
