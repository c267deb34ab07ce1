"""Reference solutions for lesson 5's exercises."""
from collections import Counter


def add_usage(state, response):
    # In place: the loop and whoever reads the progress line share the same dict.
    state["turns"] += 1
    state["prompt_tokens"] += response["usage"]["prompt_tokens"]
    state["completion_tokens"] += response["usage"]["completion_tokens"]


def over_budget(state, budget):
    # ">=": a budget is spent once it is reached; prompt and completion tokens are both billed.
    return state["prompt_tokens"] + state["completion_tokens"] >= budget


def count_kinds(events):
    # The same question as 4.3, asked of the trace instead of the history.
    return Counter(event.kind for event in events)
