"""Reference solutions for lesson 5's exercises."""
from collections import Counter


def add_usage(state, response):
    state["turns"] += 1
    state["prompt_tokens"] += response["usage"]["prompt_tokens"]
    state["completion_tokens"] += response["usage"]["completion_tokens"]


def over_budget(state, budget):
    return state["prompt_tokens"] + state["completion_tokens"] >= budget


def count_kinds(events):
    return Counter(event.kind for event in events)
